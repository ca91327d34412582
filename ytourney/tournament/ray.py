"""Play a tournament's games on a Ray cluster: an Executor whose workers are Ray actors, one per CPU.

Each actor holds one `GamePlayer` for the whole run, exactly like a local worker process: plugins and GTP engines
start once per actor and are reused between games, built-in bots are created fresh per game from the slot's seed.
The scheduler and the results store stay on the head: every game's parameters are decided at dispatch time and
every result comes back through `results` (a `ray.wait` with a timeout), so resume, the adaptive handicap and the
ratings behave as with local workers. Dealing, chunk sizes and the blame for a dead worker are the local pool's
(tournament.executor).

Exactly one result per slot: Ray's own retries are off (actors are never restarted, actor calls never retried).
When an actor dies, the games it was given go back to the run loop, which dispatches them again, with the same
slot ids, to a live actor. First a small task on the dead actor's node reads the actor's seat file (a few bytes the
actor keeps mapped: the game it was playing and which seat's plugin code was running), so a plugin that kills its
process loses that game by crash as it would locally; if the node itself is gone, every game is simply played
again. A result that arrives from a call the executor has given up on is ignored, and the store's UNIQUE slot id
is the final guard.

`ray` is imported lazily: without it, choosing the Ray backend raises `BackendMissingError` saying how to install it.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import mmap
import os
import socket
import struct
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ytourney.errors import BackendError, BackendMissingError
from ytourney.numerals import is_ascii_digits
from ytourney.tournament.executor import (
    ABANDON_SECONDS,
    STOP_SECONDS,
    Executor,
    ExecutorFactory,
    GameOutcome,
    Pacing,
    WorkQueue,
    dead_worker_outcomes,
    least_loaded,
)
from ytourney.tournament.schedule import GameTask
from ytourney.players.untrusted import set_player_memory
from ytourney.tournament.worker import (
    GamePlayer,
    PlayedGame,
    SeatTracker,
    TournamentContext,
)

INSTALL_HINT = 'pip install "ytourney[ray]"'
"""How to get the Ray backend."""
START_SECONDS = 120.0
"""How long an actor may take to start (a cluster may be busy or scaling up) before it is given up."""
AUTOPSY_SECONDS = 60.0
"""How long the check of a dead actor's node may take before its game is simply played again."""
LOCAL_OBJECT_STORE_BYTES = 128 * 1024 * 1024
"""Object store of a local Ray instance: game tasks and records are tiny, so keep shared memory small."""
PROBE_SECONDS = 5.0
"""How long to try a TCP connection to a cluster address before calling it unreachable."""
CONTROL = "control"
"""The actor's second concurrency group: handshakes and stop requests run beside a game in progress."""


def import_ray() -> Any:
    """The `ray` module, or BackendMissingError saying how to install it."""
    try:
        import ray
    except ImportError as err:
        raise BackendMissingError(
            f"the ray backend needs the 'ray' package, which is not installed ({err}); "
            f"install it with: {INSTALL_HINT}"
        ) from err
    return ray


def actor_factory(address: str | None = None) -> ExecutorFactory:
    """The executor factory of the Ray backend, checked now (ray installed, the cluster reachable) rather than when
    the first game starts: no `address` starts a local Ray instance with one CPU per worker; an address joins that
    cluster (see `cluster_cpus` for a worker count that fills it)."""
    import_ray()
    if address:
        probe_address(address)

    def make(context: TournamentContext, workers: int) -> Executor:
        return RayExecutor(context, workers, address=address)

    return make


def cluster_cpus(address: str) -> int:
    """CPUs of the Ray cluster at `address` (one actor each fills it)."""
    ray = import_ray()
    if ray.is_initialized():
        return _cpus_of(ray, address)
    probe_address(address)
    init_ray(ray, address, 0)
    try:
        return _cpus_of(ray, address)
    finally:
        ray.shutdown()  # the executor joins again when the first game starts


def _cpus_of(ray: Any, address: str) -> int:
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if cpus < 1:
        raise BackendError(f"the Ray cluster at {address!r} has no CPUs to play games on; "
                           "start workers with 'ray start --address ...'")
    return cpus


def probe_address(address: str, timeout: float = PROBE_SECONDS) -> None:
    """Fail fast when nothing listens at a host:port cluster address (Ray itself would retry for minutes)."""
    target = address.split("://", 1)[-1]
    host, _, port = target.rpartition(":")
    if not host or not is_ascii_digits(port):
        return  # 'auto' and other forms are left to Ray
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as err:
        raise BackendError(
            f"cannot reach the Ray cluster at {address!r} ({err.strerror or err}); start its head with "
            f"'ray start --head' there, or give the address 'ray start --head' printed"
        ) from err


def init_ray(ray: Any, address: str | None, cpus: int) -> bool:
    """Join the cluster at `address`, or start a local Ray instance with `cpus` CPUs; True when started here."""
    options: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.ERROR}
    if address:
        options["address"] = address
    else:
        options.update(address="local", num_cpus=cpus, object_store_memory=LOCAL_OBJECT_STORE_BYTES)
    try:
        ray.init(**options)
    except (ConnectionError, RuntimeError, ValueError, OSError) as err:
        where = f"the Ray cluster at {address!r}" if address else "a local Ray instance"
        raise BackendError(f"cannot start or join {where}: {err}") from err
    return True


# --- inside a Ray worker ----------------------------------------------------------------------------------


_CELLS = struct.Struct("ii")
"""Layout of an actor's seat file: the seat whose plugin code runs (1-based, 0 none) and the slot being played."""


def _seat_dir() -> Path:
    """Where actors on this node keep their seat files."""
    return Path(tempfile.gettempdir()) / "ytourney-ray"


class _SeatCells:
    """The seat tracker's two cells (seat, slot) in a small file mapped in memory, readable after the process dies."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        with open(path, "wb+") as handle:
            handle.write(bytes(_CELLS.size))
            handle.flush()
            self._map = mmap.mmap(handle.fileno(), _CELLS.size)
        self._cells = memoryview(self._map).cast("i")

    def __getitem__(self, index: int) -> int:
        return self._cells[index]

    def __setitem__(self, index: int, value: int) -> None:
        self._cells[index] = value

    def unlink(self) -> None:
        """Delete the file (the mapping stays valid until the process ends)."""
        with contextlib.suppress(OSError):
            self.path.unlink()


def read_seat_cells(actor_id: str) -> tuple[int, int] | None:
    """(seat, slot) that actor `actor_id` on this node was playing when it died, or None without its file."""
    path = _seat_dir() / f"{actor_id}.seat"
    try:
        data = path.read_bytes()
    except OSError:
        return None
    with contextlib.suppress(OSError):
        path.unlink()
    if len(data) < _CELLS.size:
        return None
    seat, slot = _CELLS.unpack(data[: _CELLS.size])
    return seat, slot


class GameActor:
    """The body of a Ray actor: plays one tournament's games with a GamePlayer kept for the whole run."""

    def __init__(self, context: TournamentContext) -> None:
        import ray

        runtime = ray.get_runtime_context()
        self._actor_id = runtime.get_actor_id()
        self._node_id = runtime.get_node_id()
        self._cells = _SeatCells(_seat_dir() / f"{self._actor_id}.seat")
        # the engines it starts get the config's memory limit; the actor itself is Ray's process, maps Ray's memory
        # and keeps its own limits
        set_player_memory(context.memory_mb)
        self._player = GamePlayer(context, SeatTracker(self._cells))

    def ready(self) -> tuple[str, int, str, str]:
        """The actor's id, process id, node id and host name."""
        return self._actor_id, os.getpid(), self._node_id, socket.gethostname()

    def play(self, tasks: list[GameTask]) -> tuple[list[PlayedGame], float]:
        """Play a chunk of games in order; the games and the seconds it took."""
        begin = time.perf_counter()
        games = [PlayedGame.of(self._player.play(task)) for task in tasks]
        return games, time.perf_counter() - begin

    def close(self) -> None:
        """Close the plugins and engines (after any queued game) and delete the seat file."""
        self._player.close()
        self._cells.unlink()

    def stop(self) -> None:
        """Close the plugins and engines now, beside a game in progress (it ends with a fault nobody stores)."""
        self.close()


# --- the executor (on the head) ---------------------------------------------------------------------------


class _Actor:
    """The head's view of one actor: its games, and its calls in flight (each a chunk of its sent games)."""

    def __init__(self, index: int, handle: Any, handshake: Any) -> None:
        self.index = index
        self.handle = handle
        self.handshake: Any | None = handshake
        self.created = time.monotonic()
        self.actor_id = ""
        self.pid = 0
        self.node_id = ""
        self.host = ""
        self.work = WorkQueue()
        self.calls: collections.deque[tuple[Any, int]] = collections.deque()  # (result ref, games in the chunk)

    @property
    def ready(self) -> bool:
        """True once the actor has answered its handshake."""
        return self.handshake is None

    def describe(self) -> str:
        """Where the actor runs, for messages."""
        where = self.host or self.node_id[:8] or "an unknown node"
        return f"ray worker {self.index} (pid {self.pid} on {where})" if self.pid else f"ray worker {self.index}"


@dataclass
class _Autopsy:
    """Games of an actor that died, waiting for its node to say which game and seat were running."""

    tasks: list[GameTask]
    actor: _Actor
    started: float


class RayExecutor:
    """Plays games on Ray actors (one CPU each) and streams their outcomes back to the run loop on the head."""

    in_process = False

    def __init__(self, context: TournamentContext, workers: int, *, address: str | None = None) -> None:
        if workers < 1:
            raise BackendError(f"workers must be at least 1, got {workers!r}")
        ray = import_ray()
        self._ray = ray
        self._context = context
        self._started_ray = False
        self._pacing = Pacing()
        self._actors: list[_Actor] = []
        self._calls: dict[Any, _Actor] = {}
        self._autopsies: dict[Any, _Autopsy] = {}
        self._slots: set[int] = set()
        self._last_error = ""
        try:
            if not ray.is_initialized():
                self._started_ray = init_ray(ray, address, workers)
            self._actor_class = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0,
                                           concurrency_groups={CONTROL: 1})(GameActor)
            self._read_cells = ray.remote(num_cpus=0, max_retries=0)(read_seat_cells)
            self._context_ref = ray.put(context)
            self._actors = [self._spawn(index) for index in range(workers)]
            self._await_actors()
        except BaseException:
            self.shutdown(abandon=True)
            raise

    # --- setup ---

    def _spawn(self, index: int) -> _Actor:
        handle = self._actor_class.remote(self._context_ref)
        return _Actor(index, handle, handle.ready.options(concurrency_group=CONTROL).remote())

    def _await_actors(self) -> None:
        """Wait for the actors to start (all, or as many as start in time); none at all is an error."""
        deadline = time.monotonic() + START_SECONDS
        while self._actors and not all(actor.ready for actor in self._actors):
            left = deadline - time.monotonic()
            if left <= 0:
                break
            pending = [actor.handshake for actor in self._actors if not actor.ready]
            done, _ = self._ray.wait(pending, num_returns=len(pending), timeout=min(left, 1.0))
            for ref in done:
                self._handshake(ref, [])
        if not any(actor.ready for actor in self._actors):
            resources = dict(self._ray.cluster_resources()) if self._ray.is_initialized() else {}
            raise BackendError(f"no Ray worker started within {START_SECONDS:g} s (cluster resources "
                               f"{resources!r}){self._error_detail()}")

    # --- the Executor interface ---

    @property
    def capacity(self) -> int:
        """Actors x chunk x depth: 1 game per actor for long games, more while games are short."""
        ready = sum(1 for actor in self._actors if actor.ready)
        if not ready and self._actors:
            ready = 1  # replacements still starting take tasks; they run once the actor is up
        return self._pacing.capacity(ready)

    @property
    def in_flight(self) -> int:
        """Games given out and not yet reported (including games of dead actors being looked into)."""
        return sum(actor.work.load for actor in self._actors) + sum(len(a.tasks) for a in self._autopsies.values())

    def submit(self, task: GameTask) -> None:
        """Give a task to the least loaded live actor; it is sent with the next `results` call."""
        if task.slot in self._slots:
            raise BackendError(f"game {task.slot} is already in flight; a slot is never played twice at once")
        candidates = [actor for actor in self._actors if actor.ready] or self._actors
        if not candidates:
            raise BackendError(f"no Ray worker is left to play games{self._error_detail()}")
        least_loaded(candidates).work.waiting.append(task)
        self._slots.add(task.slot)

    def results(self, timeout: float) -> list[GameOutcome]:
        """Outcomes ready now, waiting up to `timeout` for the first; dead actors are replaced."""
        self._flush()
        waitables = list(self._calls) + list(self._autopsies)
        waitables += [actor.handshake for actor in self._actors if not actor.ready]
        outcomes: list[GameOutcome] = []
        if waitables:
            done, _ = self._ray.wait(waitables, num_returns=1, timeout=max(0.0, timeout))
            if done:
                done, _ = self._ray.wait(waitables, num_returns=len(waitables), timeout=0)
            ready = set(done)
            for actor in list(self._actors):
                if actor.handshake is not None and actor.handshake in ready:
                    self._handshake(actor.handshake, outcomes)
            for actor in list(self._actors):
                self._collect(actor, ready, outcomes)
            for ref in [ref for ref in self._autopsies if ref in ready]:
                self._conclude(ref, outcomes)
        self._expire(outcomes)
        if not self._actors:
            raise BackendError(f"no Ray worker is left to play games{self._error_detail()}")
        return outcomes

    def shutdown(self, abandon: bool = False) -> None:
        """Stop the actors after they close their engines (politely, or at once with abandon), then kill them."""
        ray = self._ray
        actors, self._actors = self._actors, []
        self._calls.clear()
        self._autopsies.clear()
        self._slots.clear()
        live = [actor for actor in actors if actor.ready]
        if live:
            if abandon:
                refs = [actor.handle.stop.options(concurrency_group=CONTROL).remote() for actor in live]
            else:
                refs = [actor.handle.close.remote() for actor in live]
            with contextlib.suppress(Exception):
                ray.wait(refs, num_returns=len(refs), timeout=ABANDON_SECONDS if abandon else STOP_SECONDS)
        for actor in actors:
            with contextlib.suppress(Exception):
                ray.kill(actor.handle, no_restart=True)
        if self._started_ray:
            self._started_ray = False
            with contextlib.suppress(Exception):
                ray.shutdown()

    # --- bookkeeping ---

    def _flush(self) -> None:
        """Send each actor its waiting tasks in chunks, one actor call per chunk."""
        for actor in self._actors:
            for chunk in actor.work.chunks(self._pacing.chunk):
                ref = actor.handle.play.remote(chunk)
                actor.calls.append((ref, len(chunk)))
                self._calls[ref] = actor

    def _handshake(self, ref: Any, outcomes: list[GameOutcome]) -> None:
        actor = next((a for a in self._actors if a.handshake is not None and a.handshake == ref), None)
        if actor is None:
            return
        try:
            actor.actor_id, actor.pid, actor.node_id, actor.host = self._ray.get(ref)
        except self._ray.exceptions.RayError as err:
            self._last_error = f"ray worker {actor.index} could not start: {_first_line(err)}"
            self._remove(actor, outcomes, replace=False)
            return
        actor.handshake = None

    def _collect(self, actor: _Actor, ready: set[Any], outcomes: list[GameOutcome]) -> None:
        """Report the actor's finished chunks in the order it played them; a lost actor is replaced."""
        exceptions = self._ray.exceptions
        while actor.calls and actor.calls[0][0] in ready:
            ref = actor.calls[0][0]
            try:
                games, busy = self._ray.get(ref)
            except exceptions.RayTaskError as err:  # a bug outside any bot's control; the actor lives on
                failure = f"game raised on {actor.describe()}: {_first_line(err)}"
                outcomes += [GameOutcome(task, None, failure) for task in self._pop_call(actor)]
                continue
            except exceptions.ObjectLostError as err:
                failure = f"result lost: {_first_line(err)}"
                outcomes += [GameOutcome(task, None, failure, blameless=True) for task in self._pop_call(actor)]
                continue
            except (exceptions.RayActorError, exceptions.WorkerCrashedError, exceptions.TaskCancelledError,
                    exceptions.RaySystemError) as err:
                self._last_error = f"{actor.describe()} died: {_first_line(err)}"
                self._remove(actor, outcomes, replace=True)
                return
            outcomes.extend(map(GameOutcome.played, self._pop_call(actor), games))
            self._pacing.learn(busy, len(games))

    def _pop_call(self, actor: _Actor) -> list[GameTask]:
        """The games of the actor's oldest call, now answered."""
        ref, count = actor.calls.popleft()
        del self._calls[ref]
        tasks = actor.work.report(count)
        self._slots.difference_update(task.slot for task in tasks)
        return tasks

    def _remove(self, actor: _Actor, outcomes: list[GameOutcome], *, replace: bool) -> None:
        """Drop a dead actor: its sent games await an autopsy on its node, its unsent ones go back to the run loop."""
        position = self._actors.index(actor) if actor in self._actors else len(self._actors)
        if actor in self._actors:
            self._actors.remove(actor)
        with contextlib.suppress(Exception):
            self._ray.kill(actor.handle, no_restart=True)  # it must never finish a game handed to another actor
        for ref, _ in actor.calls:
            self._calls.pop(ref, None)
        actor.calls.clear()
        sent, unsent = list(actor.work.sent), list(actor.work.waiting)
        actor.work.clear()
        if sent and actor.ready and actor.node_id:
            strategy = _node_strategy(actor.node_id)
            ref = self._read_cells.options(scheduling_strategy=strategy).remote(actor.actor_id)
            self._autopsies[ref] = _Autopsy(sent, actor, time.monotonic())
        else:
            unsent = sent + unsent
        for task in unsent:
            self._slots.discard(task.slot)
            outcomes.append(GameOutcome(task, None, f"{actor.describe()} is gone", blameless=True))
        if replace:
            self._actors.insert(position, self._spawn(actor.index))

    def _conclude(self, ref: Any, outcomes: list[GameOutcome]) -> None:
        """Report the games of a dead actor: the running one lost by the seat whose plugin ran, the rest replayed."""
        autopsy = self._autopsies.pop(ref)
        actor = autopsy.actor
        self._slots.difference_update(task.slot for task in autopsy.tasks)
        try:
            cells = self._ray.get(ref)
        except self._ray.exceptions.RayError:
            cells = None
            how = f"the node of {actor.describe()} was lost"
        else:
            how = f"{actor.describe()} died"
        seat, slot = cells if cells is not None else (0, 0)
        outcomes += dead_worker_outcomes(self._context, autopsy.tasks, seat, slot, how)

    def _expire(self, outcomes: list[GameOutcome]) -> None:
        """Give up replacement actors that never start (while others run) and autopsies that never answer."""
        now = time.monotonic()
        for actor in list(self._actors):
            if not actor.ready and now - actor.created > START_SECONDS and len(self._actors) > 1:
                self._last_error = f"ray worker {actor.index} did not start within {START_SECONDS:g} s"
                self._remove(actor, outcomes, replace=False)
        for ref, autopsy in list(self._autopsies.items()):
            if now - autopsy.started > AUTOPSY_SECONDS:
                del self._autopsies[ref]
                for task in autopsy.tasks:
                    self._slots.discard(task.slot)
                    outcomes.append(GameOutcome(task, None, f"the node of {autopsy.actor.describe()} does not "
                                                "answer", blameless=True))

    def _error_detail(self) -> str:
        return f" (last problem: {self._last_error})" if self._last_error else ""


def _node_strategy(node_id: str) -> Any:
    """Run on exactly that node (failing at once if it is gone)."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    return NodeAffinitySchedulingStrategy(node_id, soft=False)


def _first_line(err: BaseException) -> str:
    """The first line of an error's message (Ray's messages carry long tracebacks)."""
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


# --- one task on every node (validate) ----------------------------------------------------------------------


@dataclass(frozen=True)
class RayNode:
    """An alive node of the cluster: its id, address, host name and CPUs, and whether it is this machine."""

    node_id: str
    address: str
    host: str
    cpus: float
    here: bool

    def describe(self) -> str:
        """The node in a few words: host, address, CPUs."""
        where = f"{self.host} ({self.address})" if self.host and self.host != self.address else self.address
        cpus = f"{self.cpus:g} CPU{'s' * (self.cpus != 1)}"
        return f"{where}, {cpus}" + (", this machine" if self.here else "")


@dataclass(frozen=True)
class NodeAnswer:
    """What a function run on one node returned, or why it returned nothing (`error`)."""

    node: RayNode
    value: Any = None
    error: str = ""


def on_every_node(function: Callable[..., Any], *args: Any, address: str | None = None,
                  timeout: float = 120.0) -> list[NodeAnswer]:
    """Run `function(*args)` once on every alive node of the Ray cluster at `address` (one task pinned to each;
    no address: a local Ray instance) and collect what each returned."""
    ray = import_ray()
    if address and not ray.is_initialized():
        probe_address(address)
    started = False if ray.is_initialized() else init_ray(ray, address, 1)
    try:
        return _ask_nodes(ray, function, args, timeout)
    finally:
        if started:
            with contextlib.suppress(Exception):
                ray.shutdown()


def _ask_nodes(ray: Any, function: Callable[..., Any], args: tuple[Any, ...], timeout: float) -> list[NodeAnswer]:
    here = ray.get_runtime_context().get_node_id()
    remote = ray.remote(num_cpus=0, max_retries=0)(function)
    nodes = [node for node in ray.nodes() if node.get("Alive")]
    refs = [remote.options(scheduling_strategy=_node_strategy(node["NodeID"])).remote(*args) for node in nodes]
    ray.wait(refs, num_returns=len(refs), timeout=timeout)
    answers = []
    for node, ref in zip(nodes, refs):
        where = RayNode(node["NodeID"], node.get("NodeManagerAddress", "?"), node.get("NodeManagerHostname", ""),
                        float(node.get("Resources", {}).get("CPU", 0)), node["NodeID"] == here)
        try:
            answers.append(NodeAnswer(where, ray.get(ref, timeout=0.1)))
        except ray.exceptions.GetTimeoutError:
            answers.append(NodeAnswer(where, error=f"no answer within {timeout:g} s"))
        except ray.exceptions.RayError as err:
            answers.append(NodeAnswer(where, error=f"cannot run ytourney there: {_first_line(err)}"))
    return answers
