"""Run a tournament: dispatch slots to an executor, store each finished game at once, resume, stop cleanly.

Executors play games; the runner never cares where. The interface (`Executor`):
  capacity        how many games may be in flight at once (the runner never submits more; it may change)
  in_flight       games submitted and not yet reported
  submit(task)    start one GameTask (returns at once)
  results(t)      the outcomes finished since the last call, waiting up to t seconds for at least one
  shutdown(abandon=False)   stop; with abandon, in-flight games are dropped (they are played again on resume)
  in_process      optional, True when games run in the caller's process (Ctrl-C then interrupts the game itself)
`ProcessExecutor` (a pool of `multiprocess` worker processes) and `InProcessExecutor` (one game at a time in this
process: deterministic and easy to debug) implement it; a distributed backend plugs in the same way.

Workers hold the tournament context (players, board, rules, clock) from the start and receive only small tasks.
They send each finished game back with its moves and move times already encoded for the store (`PlayedGame`):
the runner writes that text as it is and hands the scheduler, the stop condition and the progress display the
record without moves and times, the same form the scheduler replays from the store on resume. The runner's own
work per game (one SQLite transaction, scheduling) is serial, so the less of it the better as workers are added.
Built-in bots play every game exactly as a bot created for it with the seat's seed (derived from the slot's
seed), so each game can be replayed from its seed whatever the worker count: a built-in with a `reset(seed)`
method (which must leave it as the constructor would) is kept per worker and reset before each game, others are
created fresh for every game. Plugins and GTP engines start once per worker and are reused, and a bot that lost a
game by a fault is closed and restarted for its next game.
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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

import multiprocess
import multiprocess.connection

from ytourney.errors import PlayerFault, RunInterrupted, RunnerError, YTourneyError
from ytourney.game.board import Board, parse_board
from ytourney.game.record import GameRecord, GameSetup, Termination
from ytourney.game.rules import Color, Rules
from ytourney.players.base import Bot, Limit
from ytourney.players.clock import TimeControl
from ytourney.players.spec import BotKind, BotSpec, bot_factory, create_bot
from ytourney.stats.handicap import HandicapMode
from ytourney.tournament.config import PlayerConfig, TournamentConfig
from ytourney.tournament.match import Seat, play_game
from ytourney.tournament.schedule import GameTask, Scheduler, StopCondition, build_slots
from ytourney.tournament.store import (
    EncodedMoves,
    ResultStore,
    StoredPlayer,
    encode_moves,
)

SHORT_GAME_SECONDS = 1.0
"""Games shorter than this on average get a second chunk queued per worker, so workers never wait for the parent."""
CHUNK_SECONDS = 0.05
"""Tiny games are sent to workers in chunks of about this much play, to keep messages per game low."""
MAX_CHUNK = 64
"""Largest chunk of games sent to a worker in one message."""
WORKER_RETRIES = 2
"""A game whose worker process dies without blame is played again this many times before the run gives up."""
POLL_SECONDS = 0.2
"""Longest wait for a result before the runner checks for signals and refreshes the progress display."""
ADAPTIVE_IN_FLIGHT = 2
"""Games in flight per worker, at most, when results steer the schedule (SPRT, auto handicap)."""
STOP_SECONDS = 10.0
"""How long workers get to close their engines on a normal shutdown before they are terminated."""


@dataclass(frozen=True)
class PlayerEntry:
    """A player as a worker sees it."""

    name: str
    spec: BotSpec
    own_budget: bool = False


@dataclass(frozen=True)
class TournamentContext:
    """What every worker needs once: the tournament's name, board, rules, clock and players."""

    name: str
    board: Board
    rules: Rules
    time_control: TimeControl | None
    players: tuple[PlayerEntry, ...]

    @classmethod
    def from_config(cls, config: TournamentConfig) -> TournamentContext:
        """The context of a validated config."""
        players = tuple(PlayerEntry(p.name, p.spec, p.own_budget) for p in config.players)
        return cls(config.name, parse_board(config.board), config.rules, config.time, players)


@dataclass(frozen=True)
class GameOutcome:
    """What an executor reports for a task: its record, or why it has none (the worker died).

    `moves` holds the game's moves and times encoded for the store when the executor's worker encoded them; the
    record then carries none (the runner never needs them, the store gets them as they are).
    """

    task: GameTask
    record: GameRecord | None = None
    failure: str = ""
    blameless: bool = False
    moves: EncodedMoves | None = None


class Executor(Protocol):
    """Plays GameTasks somewhere and streams back their outcomes."""

    @property
    def capacity(self) -> int:
        """Games that may be in flight at once."""

    @property
    def in_flight(self) -> int:
        """Games submitted and not yet reported."""

    def submit(self, task: GameTask) -> None:
        """Start a game."""

    def results(self, timeout: float) -> list[GameOutcome]:
        """Outcomes finished since the last call, waiting up to `timeout` seconds for the first."""

    def shutdown(self, abandon: bool = False) -> None:
        """Stop the executor; `abandon` drops in-flight games without waiting for them."""


# --- playing games (inside a worker) ----------------------------------------------------------------------


def seat_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in `seat` (0 or 1) of a game: cheap, distinct per seat, fixed by the game's seed."""
    return (game_seed * 2 + seat + 1) * 0x9E3779B1 & 0x7FFFFFFF


@dataclass(frozen=True)
class PlayedGame:
    """A finished game as a worker sends it: the record without moves and times, which travel encoded for the
    store (the worker does that work; the runner only writes the text). A record whose moves and times disagree
    travels whole, for the store to refuse."""

    record: GameRecord
    moves: EncodedMoves | None = None

    @classmethod
    def of(cls, record: GameRecord) -> PlayedGame:
        """The form in which a worker sends `record`."""
        try:
            encoded = encode_moves(record)
        except YTourneyError:
            return cls(record)
        return cls(replace(record, moves=(), move_seconds=()), encoded)


class SeatTracker:
    """Which game a worker plays and which seat's plugin code runs (0 = none); the parent reads it after a hard
    death of the worker (a segfault, os._exit) to know whom to blame."""

    def __init__(self, cells: Any = None) -> None:
        self._cells = cells if cells is not None else [0, 0]

    def set(self, seat: int) -> None:
        """Mark seat (1-based) as running user code; 0 clears."""
        self._cells[0] = seat

    def get(self) -> int:
        """The marked seat (1-based) or 0."""
        return self._cells[0]

    @property
    def slot(self) -> int:
        """Slot id of the game being played (0 between games)."""
        return self._cells[1]

    @slot.setter
    def slot(self, slot_id: int) -> None:
        self._cells[1] = slot_id


class _WatchedBot:
    """A plugin bot whose calls are marked in the seat tracker, so a crash that kills the worker names its seat."""

    def __init__(self, bot: Bot, tracker: SeatTracker, seat: int) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", "plugin")
        self._tracker = tracker
        self._seat = seat

    def _call(self, method: Callable[..., Any], *args: Any) -> Any:
        self._tracker.set(self._seat)
        try:
            answer = method(*args)
        except Exception:
            self._tracker.set(0)  # the referee turns it into this seat's loss
            raise
        self._tracker.set(0)  # left set only when something like sys.exit escapes the referee
        return answer

    def new_game(self, board: Board, rules: Rules, color: Color) -> None:
        """Forwarded."""
        self._call(self.bot.new_game, board, rules, color)

    def move(self, state: Any, limit: Limit) -> int:
        """Forwarded."""
        return self._call(self.bot.move, state, limit)

    def swap(self, state: Any, limit: Limit) -> bool:
        """Forwarded."""
        return self._call(self.bot.swap, state, limit)

    def close(self) -> None:
        """Forwarded."""
        self._call(self.bot.close)


class GamePlayer:
    """Plays tasks of one tournament in the current process, keeping plugins and engines alive between games."""

    def __init__(self, context: TournamentContext, tracker: SeatTracker | None = None) -> None:
        self.context = context
        self.tracker = tracker or SeatTracker()
        self._cache: dict[int, Bot] = {}  # plugins and engines, started once
        self._kept: dict[int, Bot] = {}  # built-in bots with reset(seed), reset to each game's seat seed
        self._factories: dict[int, Callable[[int], Bot]] = {}

    def play(self, task: GameTask) -> GameRecord:
        """Play one game and return its record, carrying the slot id; a player fault never raises."""
        context = self.context
        seats: list[Seat] = []
        fresh: list[Bot] = []
        self.tracker.slot = task.slot
        try:
            for seat_index, player_index in enumerate(task.seats):
                entry = context.players[player_index]
                try:
                    bot = self._bot(player_index, seat_seed(task.seed, seat_index), fresh)
                except PlayerFault as err:
                    return self.fault_record(task, seat_index, Termination(err.termination), f"could not start: {err}")
                except YTourneyError as err:
                    return self.fault_record(task, seat_index, Termination.CRASH, f"could not start: {err}")
                except Exception as err:  # noqa: BLE001 - a failing bot constructor is only that bot's loss
                    return self.fault_record(task, seat_index, Termination.CRASH,
                                             f"could not start: {type(err).__name__}: {err}")
                if entry.spec.kind is BotKind.PLUGIN:
                    bot = _WatchedBot(bot, self.tracker, seat_index + 1)
                seats.append(Seat(entry.name, bot, entry.own_budget))
            try:
                extra = {"opening": task.opening_index} if task.opening_index is not None else None
                record = play_game(seats, context.board, context.rules, task.handicap, context.time_control,
                                   seed=task.seed, tournament=context.name, round_number=task.round,
                                   opening=task.opening, game_id=task.slot, extra=extra)
            except (Exception, SystemExit) as err:  # a bot escaping the referee (sys.exit) loses the game
                seat = self.tracker.get()
                if not seat:
                    raise
                self.tracker.set(0)
                self._drop(task.seats[seat - 1])
                return self.fault_record(task, seat - 1, Termination.CRASH, f"{type(err).__name__}: {err}")
        finally:
            for bot in fresh:
                with contextlib.suppress(Exception):
                    bot.close()
            self.tracker.slot = 0
        if record.termination.is_fault:
            loser_seat = 0 if record.loser_name == seats[0].name else 1
            self._drop(task.seats[loser_seat])
        return record

    def _bot(self, player_index: int, seed: int, fresh: list[Bot]) -> Bot:
        spec = self.context.players[player_index].spec
        if spec.kind is BotKind.BUILTIN:
            bot = self._kept.get(player_index)
            if bot is not None:
                try:
                    bot.reset(seed)  # type: ignore[attr-defined]
                except BaseException:
                    self._drop(player_index)
                    raise
                return bot
            factory = self._factories.get(player_index)
            if factory is None:
                factory = self._factories[player_index] = bot_factory(spec)
            bot = factory(seed)
            if callable(getattr(bot, "reset", None)):
                self._kept[player_index] = bot
            else:
                fresh.append(bot)
            return bot
        bot = self._cache.get(player_index)
        if bot is None:
            bot = create_bot(spec, seed)
            self._cache[player_index] = bot
        return bot

    def _drop(self, player_index: int) -> None:
        """Close a cached or kept bot after it faulted: its next game starts it afresh."""
        bot = self._cache.pop(player_index, None)
        if bot is None:
            bot = self._kept.pop(player_index, None)
        if bot is not None:
            with contextlib.suppress(Exception):
                bot.close()

    def fault_record(self, task: GameTask, seat: int, termination: Termination, reason: str) -> GameRecord:
        """The record of a game lost by `seat` before or outside the referee's control."""
        first, second = (self.context.players[i].name for i in task.seats)
        setup = GameSetup(board=self.context.board.spec, first=first, second=second, rules=self.context.rules,
                          handicap=task.handicap, tournament=self.context.name, round=task.round, seed=task.seed,
                          id=task.slot)
        return setup.lost_by(seat, termination, reason)

    def close(self) -> None:
        """Close every cached plugin and engine and every kept built-in bot."""
        for bots in (self._cache, self._kept):
            while bots:
                _, bot = bots.popitem()
                with contextlib.suppress(Exception):
                    bot.close()


# --- executors --------------------------------------------------------------------------------------------


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


class _WorkerStop(BaseException):
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


def _worker_main(index: int, context: TournamentContext, conn: Any, tracker_cells: Any, parent: int) -> None:
    """Worker loop: receive a pickled chunk of tasks, play them, send back their records and the time it took;
    close the cached bots at exit (also on SIGTERM or when the parent is gone)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C means
    signal.signal(signal.SIGTERM, _stop_worker)
    _die_with_parent()
    player = GamePlayer(context, SeatTracker(tracker_cells))
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
            results = [PlayedGame.of(player.play(task)) for task in tasks]
            busy = time.perf_counter() - begin
            conn.send_bytes(pickle.dumps((results, busy), protocol=pickle.HIGHEST_PROTOCOL))
    except (_WorkerStop, EOFError, OSError, KeyboardInterrupt):
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        player.close()


@dataclass
class _Worker:
    """The parent's view of one worker process: tasks sent (in order) and tasks waiting for the next send."""

    index: int
    process: Any
    conn: Any
    tracker: Any
    queue: collections.deque[GameTask] = field(default_factory=collections.deque)
    buffer: list[GameTask] = field(default_factory=list)

    @property
    def load(self) -> int:
        """Tasks given to this worker and not yet reported."""
        return len(self.queue) + len(self.buffer)


class ProcessExecutor:
    """A pool of `multiprocess` worker processes, each fed over its own pipe.

    Tasks are sent in chunks sized so that a chunk takes about CHUNK_SECONDS of play (1 task for games longer than
    that), and each worker holds a second chunk while games are short (under SHORT_GAME_SECONDS), so workers never
    wait for the parent. For long games exactly `workers` games are in flight and each game's parameters are
    decided the moment a worker is free.
    """

    in_process = False

    def __init__(self, context: TournamentContext, workers: int, *, prefetch: int = 2,
                 max_chunk: int = MAX_CHUNK) -> None:
        if workers < 1:
            raise RunnerError(f"workers must be at least 1, got {workers!r}")
        self._context = context
        self._mp = multiprocess.get_context()
        self._prefetch = max(1, prefetch)
        self._max_chunk = max(1, max_chunk)
        self._depth = 1
        self._chunk = 1
        self._game_seconds: float | None = None
        self._submitted: list[GameTask] = []  # not yet dealt to a worker
        self._workers = [self._spawn(index) for index in range(workers)]

    def _spawn(self, index: int) -> _Worker:
        parent_conn, child_conn = self._mp.Pipe(duplex=True)
        tracker = self._mp.RawArray("i", 2)
        process = self._mp.Process(
            target=_worker_main, args=(index, self._context, child_conn, tracker, os.getpid()),
            name=f"ytourney-worker-{index}", daemon=True,
        )
        try:
            process.start()
        except OSError as err:
            raise RunnerError(f"cannot start worker process {index}: {err}") from err
        child_conn.close()
        return _Worker(index, process, parent_conn, tracker)

    @property
    def capacity(self) -> int:
        """Workers x chunk x depth: 1 game per worker for long games, more while games are short."""
        return len(self._workers) * self._chunk * self._depth

    @property
    def in_flight(self) -> int:
        """Tasks submitted and not yet reported."""
        return len(self._submitted) + sum(w.load for w in self._workers)

    def submit(self, task: GameTask) -> None:
        """Take a task; the next `results` call gives it to the least loaded worker and sends it."""
        self._submitted.append(task)

    def _deal(self) -> None:
        """Give each submitted task, in order, to the worker with the fewest tasks at that moment."""
        workers = self._workers
        loads = [w.load for w in workers]
        for task in self._submitted:
            index = loads.index(min(loads))
            workers[index].buffer.append(task)
            loads[index] += 1
        self._submitted.clear()

    def _flush(self) -> None:
        """Send each worker its buffered tasks in chunks; a partial chunk waits while the worker has a full one."""
        if self._submitted:
            self._deal()
        for worker in self._workers:
            while worker.buffer and (len(worker.buffer) >= self._chunk or len(worker.queue) < self._chunk):
                chunk, worker.buffer = worker.buffer[: self._chunk], worker.buffer[self._chunk:]
                worker.queue.extend(chunk)
                try:
                    worker.conn.send_bytes(pickle.dumps(chunk, protocol=pickle.HIGHEST_PROTOCOL))
                except OSError:
                    pass  # the worker died; `results` notices its exit and hands the tasks back

    def results(self, timeout: float) -> list[GameOutcome]:
        """Outcomes ready now (waiting up to `timeout` for the first); dead workers are replaced."""
        self._flush()
        busy = [w for w in self._workers if w.queue]
        if not busy:
            return []
        waitables = [w.conn for w in busy] + [w.process.sentinel for w in busy]
        ready = set(multiprocess.connection.wait(waitables, timeout))
        outcomes: list[GameOutcome] = []
        for worker in busy:
            if worker.conn in ready:
                self._drain(worker, outcomes)
            if worker.process.sentinel in ready or not worker.process.is_alive():
                self._drain(worker, outcomes)
                if not worker.process.is_alive():
                    self._replace(worker, outcomes)
        return outcomes

    def _drain(self, worker: _Worker, outcomes: list[GameOutcome]) -> None:
        try:
            while worker.queue and worker.conn.poll():
                results, busy = pickle.loads(worker.conn.recv_bytes())
                for played in results:
                    outcomes.append(GameOutcome(worker.queue.popleft(), played.record, moves=played.moves))
                if results:
                    self._learn(busy / len(results))
        except (EOFError, OSError):
            return

    def _learn(self, game_seconds: float) -> None:
        """Adapt chunk size and queue depth to the mean game duration (exponential moving average)."""
        mean = game_seconds if self._game_seconds is None else 0.8 * self._game_seconds + 0.2 * game_seconds
        self._game_seconds = mean
        self._chunk = max(1, min(self._max_chunk, int(CHUNK_SECONDS / mean) if mean > 0 else self._max_chunk))
        self._depth = self._prefetch if mean < SHORT_GAME_SECONDS else 1

    def _replace(self, worker: _Worker, outcomes: list[GameOutcome]) -> None:
        """A worker died: blame the seat whose plugin code was running, hand every other game back to be replayed."""
        code = worker.process.exitcode
        seat, slot = worker.tracker[0], worker.tracker[1]
        how = f"worker process died (exit code {code})"
        for task in [*worker.queue, *worker.buffer]:
            if task.slot != slot:
                outcomes.append(GameOutcome(task, None, how, blameless=True))
            elif seat:
                player = GamePlayer(self._context)
                record = player.fault_record(task, seat - 1, Termination.CRASH, f"{how} while this bot was thinking")
                outcomes.append(GameOutcome(task, record))
            else:
                outcomes.append(GameOutcome(task, None, how))
        worker.queue.clear()
        worker.buffer.clear()
        with contextlib.suppress(OSError):
            worker.conn.close()
        self._workers[self._workers.index(worker)] = self._spawn(worker.index)

    def shutdown(self, abandon: bool = False) -> None:
        """Stop the workers: politely (they close their engines), or with abandon at once via SIGTERM."""
        workers, self._workers = self._workers, []
        self._submitted.clear()
        for worker in workers:
            worker.queue.clear()
            worker.buffer.clear()
            with contextlib.suppress(OSError):
                if abandon:
                    worker.process.terminate()
                else:
                    worker.conn.send_bytes(b"")
        deadline = time.monotonic() + (2.0 if abandon else STOP_SECONDS)
        for worker in workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(2.0)
            with contextlib.suppress(OSError):
                worker.conn.close()


# --- the run ----------------------------------------------------------------------------------------------


class ProgressSink(Protocol):
    """What the runner tells a progress display (ytourney.tournament.progress implements it)."""

    def start(self, planned: int, stored: int, workers: int) -> None:
        """The run starts with `stored` of `planned` games already in the store."""

    def game(self, record: GameRecord, leader: Callable[[], str]) -> None:
        """A game was stored (its record may leave moves and move times out: they went straight to the store)."""

    def tick(self, leader: Callable[[], str]) -> None:
        """Time passes (redraw if due)."""

    def note(self, message: str) -> None:
        """Something the user should see at once (a suspension)."""

    def finish(self) -> None:
        """The run ends."""


@dataclass(frozen=True)
class RunSummary:
    """What a run did: games planned, stored before, played now, forfeits, and how it ended."""

    directory: Path
    planned: int
    stored_before: int
    played: int
    forfeits: int
    stored: int
    skipped: int
    seconds: float
    stopped: str = ""
    suspended: dict[str, str] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """True when every planned game is stored or was skipped by a stop rule."""
        return self.stored + self.skipped >= self.planned

    @property
    def games_per_second(self) -> float:
        """Games stored by this run per second."""
        return (self.played + self.forfeits) / self.seconds if self.seconds > 0 else 0.0


ExecutorFactory = Callable[[TournamentContext, int], Executor]


def default_executor(context: TournamentContext, workers: int) -> Executor:
    """A process pool of `workers` workers."""
    return ProcessExecutor(context, workers)


def default_workers() -> int:
    """Cores this process may use."""
    with contextlib.suppress(AttributeError, OSError):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def stored_players(config: TournamentConfig) -> list[StoredPlayer]:
    """The players as the store records them."""
    return [StoredPlayer(p.name, p.spec_text, p.spec.kind.value) for p in config.players]


def open_store(config: TournamentConfig, directory: str | os.PathLike[str], planned: int | None = None) -> ResultStore:
    """Open (or create) the results store of `config` in `directory`, checking it belongs to this config;
    `planned` is the number of planned games when the caller has built the slots already."""
    return ResultStore.open(
        directory, name=config.name, config_text=config.text, config_hash=config.digest(), config_key=config.key(),
        planned_games=len(build_slots(config)) if planned is None else planned, players=stored_players(config),
        config_path=config.path,
    )


class Runner:
    """One run of a tournament into a results folder."""

    def __init__(self, config: TournamentConfig, directory: str | os.PathLike[str], *, workers: int | None = None,
                 executor_factory: ExecutorFactory = default_executor, progress: ProgressSink | None = None,
                 stop_condition: StopCondition | None = None) -> None:
        self.config = config
        self.directory = Path(directory)
        self.workers = workers or config.workers or default_workers()
        self.executor_factory = executor_factory
        self.progress = progress
        self.stop_condition = stop_condition
        self._signal: int | None = None
        self._executor: Executor | None = None

    def run(self) -> RunSummary:
        """Play every planned game not yet stored; raise RunInterrupted on Ctrl-C/SIGTERM (games kept)."""
        config = self.config
        slots = build_slots(config)
        begin = time.perf_counter()
        with open_store(config, self.directory, len(slots)) as store:
            already = store.count()
            # the scheduler learns standings, faults, handicaps and the stop rule from the stored results
            stored = store.iter_records(completion_order=True, moves=False)
            scheduler = Scheduler(config, slots, stored, stop_condition=self.stop_condition)
            counts = {"played": 0, "forfeits": 0}
            if self.progress is not None:
                self.progress.start(len(slots), already, self.workers)
            failed = True
            try:
                with self._signals():
                    self._loop(scheduler, store, counts)
                failed = False
            except KeyboardInterrupt:
                self._signal = self._signal or signal.SIGINT
            finally:
                if self._executor is not None:
                    # after an interrupt or an error, games in progress are dropped (a rerun plays them)
                    self._executor.shutdown(abandon=failed)
                    self._executor = None
                if self.progress is not None:
                    self.progress.finish()
            summary = RunSummary(
                directory=self.directory, planned=len(slots), stored_before=already, played=counts["played"],
                forfeits=counts["forfeits"], stored=store.count(), skipped=scheduler.skipped,
                seconds=time.perf_counter() - begin, stopped=scheduler.stopped, suspended=scheduler.suspended(),
            )
        if self._signal is not None:
            name = signal.Signals(self._signal).name
            raise RunInterrupted(
                f"interrupted by {name}: {summary.stored} of {summary.planned} games are stored in "
                f"{str(self.directory)!r}; games in progress were abandoned", self._signal,
            )
        return summary

    def _loop(self, scheduler: Scheduler, store: ResultStore, counts: dict[str, int]) -> None:
        leader = _leader(scheduler)
        failures: collections.Counter[int] = collections.Counter()
        exhausted = False
        # when results steer the schedule (a stop rule, adaptive handicaps, a player close to suspension), decide
        # games as late as possible: at most two per worker in flight, however short the games are
        adaptive = self.stop_condition is not None or self.config.handicap.mode is HandicapMode.AUTO
        while self._signal is None:
            executor = self._executor
            room = 1 if executor is None else self._room(executor, adaptive or scheduler.faulting)
            while not exhausted and room > 0:
                item = scheduler.next_item()
                if item is None:
                    exhausted = True
                    break
                if isinstance(item, GameRecord):
                    self._store(item, scheduler, store, leader)
                    counts["forfeits"] += 1
                    continue
                if executor is None:
                    executor = self._executor = self.executor_factory(
                        TournamentContext.from_config(self.config), self.workers)
                    room = self._room(executor, adaptive or scheduler.faulting)
                executor.submit(item)
                room -= 1
            if executor is None or executor.in_flight == 0:
                if exhausted or scheduler.stopped:
                    return
                continue
            for outcome in executor.results(POLL_SECONDS):
                if outcome.record is not None:
                    self._store(outcome.record, scheduler, store, leader, outcome.moves)
                    counts["played"] += 1
                    continue
                if not outcome.blameless:
                    failures[outcome.task.slot] += 1
                    if failures[outcome.task.slot] > WORKER_RETRIES:
                        raise RunnerError(
                            f"game {outcome.task.slot} killed its worker process {failures[outcome.task.slot]} "
                            f"times ({outcome.failure}); the games stored so far are safe"
                        )
                executor.submit(outcome.task)
            if self.progress is not None:
                self.progress.tick(leader)

    def _room(self, executor: Executor, adaptive: bool) -> int:
        """How many more games may be submitted now."""
        capacity = executor.capacity
        if adaptive:
            capacity = min(capacity, ADAPTIVE_IN_FLIGHT * self.workers)
        return capacity - executor.in_flight

    def _store(self, record: GameRecord, scheduler: Scheduler, store: ResultStore, leader: Callable[[], str],
               moves: EncodedMoves | None = None) -> None:
        store.add_game(record, moves)
        before = scheduler.suspensions
        scheduler.record(record)
        if self.progress is not None:
            self.progress.game(record, leader)
            if scheduler.suspensions > before:
                for name, reason in scheduler.suspended().items():
                    if name in (record.first, record.second):
                        self.progress.note(f"{name} {reason}; its remaining games are forfeits")

    @contextlib.contextmanager
    def _signals(self) -> Iterator[None]:
        """Ctrl-C and SIGTERM stop dispatching; a second one (or one during an in-process game) stops at once."""
        import threading

        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def handler(signum: int, frame: object) -> None:
            first = self._signal is None
            self._signal = self._signal or signum
            if not first or getattr(self._executor, "in_process", False):
                raise KeyboardInterrupt

        previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, old in previous.items():
                signal.signal(sig, old)


def _leader(scheduler: Scheduler) -> Callable[[], str]:
    """A cheap callable naming the current leader by score (called only when the display redraws)."""

    def leader() -> str:
        rows = scheduler.standings()
        if not rows or rows[0][2] == 0:
            return ""
        name, wins, games = rows[0]
        return f"{name} {wins}/{games}"

    return leader


def run_tournament(config: TournamentConfig, directory: str | os.PathLike[str], **options: Any) -> RunSummary:
    """Run (or resume) `config` into `directory`; see Runner for the options."""
    return Runner(config, directory, **options).run()


def sprt_condition(config: TournamentConfig) -> tuple[StopCondition | None, Callable[[], Any]]:
    """The stop condition of a match with `schedule.sprt` (the first-listed player is tested), and its state."""
    settings = config.schedule.sprt
    if settings is None:
        return None, lambda: None
    from ytourney.stats.sprt import Sprt

    player, opponent = config.player_names[0], config.player_names[1]
    test = Sprt(settings, player=player, opponent=opponent)

    def stop(record: GameRecord) -> bool:
        if {record.black, record.white} == {player, opponent}:
            test.update(record.winner_name == player)
        return test.state.finished

    return stop, lambda: test.state


def check_player(config: TournamentConfig, player: PlayerConfig) -> str:
    """Build the player as a worker would, start its game setup, close it; return a note or raise YTourneyError."""
    spec = player.spec
    note = "ok"
    if spec.kind is BotKind.GTP:
        from ytourney.players.gtp.settings import check_engine

        check_engine(spec.gtp)
    bot = create_bot(spec, 0)
    try:
        bot.new_game(parse_board(config.board), config.rules, Color.BLACK)
        if spec.kind is BotKind.GTP:
            engine = " ".join(filter(None, (getattr(bot, "engine_name", ""), getattr(bot, "engine_version", ""))))
            note = f"ok, engine started ({engine})" if engine else "ok, engine started"
    except YTourneyError:
        raise
    except Exception as err:  # a plugin failing to set up a game is reported, not raised raw
        raise RunnerError(f"new_game failed: {type(err).__name__}: {err}") from err
    finally:
        with contextlib.suppress(Exception):
            bot.close()
    return note
