"""Local executors: a pool of `multiprocess` worker processes, and one game at a time in the run's own process.

`ProcessExecutor` feeds each worker process over its own pipe: chunks of pickled tasks go out, lists of
`PlayedGame`s come back with the seconds they took (which set the next chunk size). A worker process that dies
(a plugin calling os._exit, a segfault) is replaced; its shared seat tracker says which seat's plugin code was
running, and that seat loses the game. `InProcessExecutor` plays one game at a time where the run loop runs:
deterministic and easy to debug, with the same code path as the workers.
"""

from __future__ import annotations

import collections
import contextlib
import ctypes
import os
import pickle
import signal
import sys
import time
from typing import Any

import multiprocess
import multiprocess.connection

from ytourney.errors import RunnerError
from ytourney.games.record import Termination
from ytourney.players.gtp.reaper import become_subreaper, keep, mark_descendants, reap_orphans, release
from ytourney.players.untrusted import limit_memory, set_player_memory
from ytourney.tournament.executor import (
    ABANDON_SECONDS,
    STOP_SECONDS,
    GameOutcome,
    Pacing,
    WorkQueue,
    dead_worker_outcomes,
    least_loaded,
)
from ytourney.tournament.match import HaltGame
from ytourney.tournament.schedule import GameTask
from ytourney.tournament.worker import (
    LIFELINE_LOST_EXIT,
    GamePlayer,
    PlayedGame,
    SeatTracker,
    TournamentContext,
    lifeline_of,
)

KILL_MARGIN = 5.0
"""Seconds past a decision's hard deadline before the parent kills a worker whose alarm did not end it."""


class InProcessExecutor:
    """Plays one game at a time in this process when results are asked for; same code path as the workers."""

    in_process = True

    def __init__(self, context: TournamentContext) -> None:
        self._player = GamePlayer(context)
        self._queue: collections.deque[GameTask] = collections.deque()

    @property
    def capacity(self) -> int:
        """One game at a time."""
        return 1

    @property
    def in_flight(self) -> int:
        """Queued games."""
        return len(self._queue)

    def submit(self, task: GameTask) -> None:
        """Queue a game; it is played by the next `results` call."""
        self._queue.append(task)

    def results(self, timeout: float) -> list[GameOutcome]:
        """Play the queued game now."""
        if not self._queue:
            return []
        task = self._queue[0]
        record = self._player.play(task)
        self._queue.popleft()
        return [GameOutcome(task, record)]

    def shutdown(self, abandon: bool = False) -> None:
        """Close the cached bots."""
        self._queue.clear()
        self._player.close()


class _WorkerStop(HaltGame):
    """Raised in a worker by SIGTERM: stop now, closing the engines on the way out."""


def _stop_worker(signum: int, frame: object) -> None:
    raise _WorkerStop()


def _die_with_parent() -> None:
    """Ask Linux to send SIGTERM to this worker when its parent dies (kill -9 included)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _worker_main(index: int, context: TournamentContext, conn: Any, tracker_cells: Any, parent: int,
                 deadline_cells: Any = None) -> None:
    """Worker loop: receive a pickled chunk of tasks, play them, send back their games and the time it took;
    close the cached bots at exit (also on SIGTERM or when the parent is gone)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C means
    signal.signal(signal.SIGTERM, _stop_worker)
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)  # a group of its own: a plugin's killpg(0, ...) reaches its worker, never the run
    _die_with_parent()
    mark_descendants()  # whatever its plugins and engines start is ended by the run once this worker is gone
    limit_memory(context.memory_mb)  # plugins run here; engines inherit the limit
    set_player_memory(context.memory_mb)
    with contextlib.suppress(OSError):
        os.dup2(2, 1)  # what player code writes to stdout must never reach the run's table
    player = GamePlayer(context, SeatTracker(tracker_cells, deadline_cells))
    with contextlib.suppress(OSError):
        player.tracker.lifeline = lifeline_of(conn.fileno())  # player code cutting it costs its seat the game
    try:
        while True:
            if os.getppid() != parent:
                break
            if not conn.poll(1.0):
                continue
            message = conn.recv_bytes()
            if not message:
                break
            tasks = pickle.loads(message)
            begin = time.perf_counter()
            games = [PlayedGame.of(player.play(task)) for task in tasks]
            busy = time.perf_counter() - begin
            conn.send_bytes(pickle.dumps((games, busy), protocol=pickle.HIGHEST_PROTOCOL))
    except (_WorkerStop, EOFError, OSError, KeyboardInterrupt):
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        player.close()


class _Worker:
    """The parent's view of one worker process: its pipe, its seat tracker cells and its games."""

    def __init__(self, index: int, process: Any, conn: Any, tracker: Any, deadline: Any) -> None:
        self.index = index
        self.process = process
        self.conn = conn
        self.tracker = tracker
        self.deadline = deadline
        self.overdue = False
        self.work = WorkQueue()


class ProcessExecutor:
    """A pool of `multiprocess` worker processes, each fed over its own pipe, in chunks paced by `Pacing`."""

    in_process = False

    def __init__(self, context: TournamentContext, workers: int) -> None:
        if workers < 1:
            raise RunnerError(f"workers must be at least 1, got {workers!r}")
        self._context = context
        become_subreaper()  # the engines of a worker killed past its deadline, and what they started, come to us
        self._mp = multiprocess.get_context()
        self._pacing = Pacing()
        self._workers = [self._spawn(index) for index in range(workers)]

    def _spawn(self, index: int) -> _Worker:
        parent_conn, child_conn = self._mp.Pipe(duplex=True)
        tracker = self._mp.RawArray("i", 2)
        deadline = self._mp.RawArray("d", 2)
        process = self._mp.Process(
            target=_worker_main, args=(index, self._context, child_conn, tracker, os.getpid(), deadline),
            name=f"ytourney-worker-{index}", daemon=True,
        )
        try:
            process.start()
        except OSError as err:
            raise RunnerError(f"cannot start worker process {index}: {err}") from err
        keep(process.pid)  # marked, yet ours: never reaped while it runs
        child_conn.close()
        return _Worker(index, process, parent_conn, tracker, deadline)

    @property
    def capacity(self) -> int:
        """Workers x chunk x depth: 1 game per worker for long games, more while games are short."""
        return self._pacing.capacity(len(self._workers))

    @property
    def in_flight(self) -> int:
        """Tasks submitted and not yet reported."""
        return sum(worker.work.load for worker in self._workers)

    def submit(self, task: GameTask) -> None:
        """Give a task to the least loaded worker; it is sent with the next `results` call."""
        least_loaded(self._workers).work.waiting.append(task)

    def _flush(self) -> None:
        """Send each worker its waiting tasks in chunks."""
        for worker in self._workers:
            for chunk in worker.work.chunks(self._pacing.chunk):
                try:
                    worker.conn.send_bytes(pickle.dumps(chunk, protocol=pickle.HIGHEST_PROTOCOL))
                except OSError:
                    pass  # the worker died; `results` notices its exit and hands the tasks back

    def results(self, timeout: float) -> list[GameOutcome]:
        """Outcomes ready now (waiting up to `timeout` for the first); dead workers are replaced."""
        self._flush()
        busy = [worker for worker in self._workers if worker.work.sent]
        if not busy:
            return []
        waitables = [worker.conn for worker in busy] + [worker.process.sentinel for worker in busy]
        ready = set(multiprocess.connection.wait(waitables, timeout))
        outcomes: list[GameOutcome] = []
        for worker in busy:
            self._watch(worker)
            if worker.conn in ready:
                self._drain(worker, outcomes)
            if worker.process.sentinel in ready or not worker.process.is_alive():
                self._drain(worker, outcomes)
                if not worker.process.is_alive():
                    self._replace(worker, outcomes)
        return outcomes

    def _drain(self, worker: _Worker, outcomes: list[GameOutcome]) -> None:
        try:
            while worker.work.sent and worker.conn.poll():
                games, busy = pickle.loads(worker.conn.recv_bytes())
                outcomes.extend(map(GameOutcome.played, worker.work.report(len(games)), games))
                self._pacing.learn(busy, len(games))
        except (EOFError, OSError):
            return

    def _watch(self, worker: _Worker) -> None:
        """Kill a worker stuck in a player's code past its hard deadline (plus KILL_MARGIN): it is replaced."""
        deadline = worker.deadline[0]
        if deadline and time.monotonic() > deadline + KILL_MARGIN and worker.process.is_alive():
            worker.overdue = True
            worker.process.kill()
            worker.process.join(2.0)

    def _replace(self, worker: _Worker, outcomes: list[GameOutcome]) -> None:
        """A worker died: blame the seat whose plugin code was running, hand every other game back, start anew."""
        seat, slot = worker.tracker[0], worker.tracker[1]
        if worker.overdue:
            how, termination = "worker killed past the hard deadline", Termination.TIME
            seat = seat or int(worker.deadline[1])
        elif worker.process.exitcode == LIFELINE_LOST_EXIT:
            how, termination = "its code closed or replaced the worker's pipe to the run", Termination.CRASH
        else:
            how, termination = f"worker process died (exit code {worker.process.exitcode})", Termination.CRASH
        outcomes += dead_worker_outcomes(self._context, worker.work.clear(), seat, slot, how, termination)
        with contextlib.suppress(OSError):
            worker.conn.close()
        release(worker.process.pid)
        reap_orphans()
        self._workers[self._workers.index(worker)] = self._spawn(worker.index)

    def shutdown(self, abandon: bool = False) -> None:
        """Stop the workers: politely (they close their engines), or with abandon at once via SIGTERM."""
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.work.clear()
            with contextlib.suppress(OSError):
                if abandon:
                    worker.process.terminate()
                else:
                    worker.conn.send_bytes(b"")
        deadline = time.monotonic() + (ABANDON_SECONDS if abandon else STOP_SECONDS)
        for worker in workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(2.0)
            with contextlib.suppress(OSError):
                worker.conn.close()
            release(worker.process.pid)
        reap_orphans()
