"""Play a tournament's games on a Ray cluster: an Executor whose workers are Ray actors, one per CPU.

Each actor holds one `GamePlayer` for the whole run, exactly like a local worker process: plugins and GTP engines
start once per actor and are reused between games, built-in bots are created fresh per game from the slot's seed.
The scheduler and the results store stay on the head: every game's parameters are decided at dispatch time and
every result comes back through `results` (a `ray.wait` with a timeout), so resume, the adaptive handicap and the
ratings behave as with local workers.

Exactly one result per slot: Ray's own retries are off (actors are never restarted, actor calls never retried).
When an actor dies, the games it was given go back to the runner, which dispatches them again, with the same slot
ids, to a live actor. First a small task on the dead actor's node reads the actor's seat file (a few bytes the actor
keeps mapped: the game it was playing and which seat's plugin code was running), so a plugin that kills its process
loses that game by crash as it would locally; if the node itself is gone, every game is simply played again. A
result that arrives from a call the executor has given up on is ignored, and the store's UNIQUE slot id is the
final guard.

`ray` is imported lazily: without it, choosing the Ray backend raises `BackendMissingError` saying how to install it.
"""

from __future__ import annotations

import collections
import contextlib
import enum
import logging
import mmap
import os
import socket
import struct
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ytourney.errors import BackendError, BackendMissingError, YTourneyError
from ytourney.game.record import GameRecord, Termination
from ytourney.players.spec import BotKind
from ytourney.tournament.config import PlayerConfig, TournamentConfig
from ytourney.tournament.runner import (
    SHORT_GAME_SECONDS,
    STOP_SECONDS,
    Executor,
    ExecutorFactory,
    GameOutcome,
    GamePlayer,
    SeatTracker,
    TournamentContext,
    check_player,
    default_executor,
    default_workers,
)
from ytourney.tournament.schedule import GameTask

INSTALL_HINT = 'pip install "ytourney[ray]"'
"""How to get the Ray backend."""
START_SECONDS = 120.0
"""How long an actor may take to start (a cluster may be busy or scaling up) before it is given up."""
AUTOPSY_SECONDS = 60.0
"""How long the check of a dead actor's node may take before its game is simply played again."""
ABANDON_SECONDS = 2.0
"""How long actors get to close their engines after Ctrl-C before they are killed."""
LOCAL_OBJECT_STORE_BYTES = 128 * 1024 * 1024
"""Object store of a local Ray instance: game tasks and records are tiny, so keep shared memory small."""
PROBE_SECONDS = 5.0
"""How long to try a TCP connection to a cluster address before calling it unreachable."""
CHUNK_SECONDS = 0.05
"""Tiny games go to an actor in chunks of about this much play, so the per-call cost (about 1 ms) stays small."""
MAX_CHUNK = 64
"""Largest chunk of games in one actor call."""
CONTROL = "control"
"""The actor's second concurrency group: handshakes and stop requests run beside a game in progress."""


class Backend(str, enum.Enum):
    """Where games are played (`run --backend`)."""

    LOCAL = "local"
    RAY = "ray"


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


def executor_factory(backend: Backend | str, *, address: str | None = None) -> ExecutorFactory:
    """The runner's executor factory for `backend` ('local' or 'ray'): the runner's worker count is the number of
    worker processes or Ray actors. With the Ray backend, no `address` starts a local Ray instance with one CPU per
    worker; an address joins that cluster (see `cluster_cpus` for a worker count that fills it)."""
    try:
        backend = Backend(backend)
    except ValueError as err:
        known = ", ".join(repr(b.value) for b in Backend)
        raise BackendError(f"unknown backend {backend!r}; expected one of {known}") from err
    if backend is Backend.LOCAL:
        if address is not None:
            raise BackendError(f"a cluster address ({address!r}) needs the 'ray' backend, not 'local'")
        return default_executor
    import_ray()  # fail now, before the run opens its store, when ray is missing
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
    if not host or not port.isdigit():
        return  # 'auto' and other forms are left to Ray
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as err:
        raise BackendError(
            f"cannot reach the Ray cluster at {address!r} ({err.strerror or err}); start its head with "
            f"'ray start --head' there, or give the address 'ray start --head' printed"
        ) from err


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
        self._player = GamePlayer(context, SeatTracker(self._cells))

    def ready(self) -> tuple[str, int, str, str]:
        """The actor's id, process id, node id and host name."""
        return self._actor_id, os.getpid(), self._node_id, socket.gethostname()

    def play(self, tasks: list[GameTask]) -> tuple[list[GameRecord], float]:
        """Play a chunk of games in order; their records and the seconds it took."""
        begin = time.perf_counter()
        records = [self._player.play(task) for task in tasks]
        return records, time.perf_counter() - begin

    def close(self) -> None:
        """Close the plugins and engines (after any queued game) and delete the seat file."""
        self._player.close()
        self._cells.unlink()

    def stop(self) -> None:
        """Close the plugins and engines now, beside a game in progress (it ends with a fault nobody stores)."""
        self.close()


# --- the executor (on the head) ---------------------------------------------------------------------------


@dataclass
class _Actor:
    """The head's view of one actor: its calls in flight (each a chunk of tasks) and tasks not yet sent."""

    index: int
    handle: Any
    handshake: Any | None
    created: float
    actor_id: str = ""
    pid: int = 0
    node_id: str = ""
    host: str = ""
    calls: collections.deque[tuple[Any, list[GameTask]]] = field(default_factory=collections.deque)
    buffer: list[GameTask] = field(default_factory=list)

    @property
    def ready(self) -> bool:
        """True once the actor has answered its handshake."""
        return self.handshake is None

    @property
    def sent(self) -> int:
        """Tasks sent in calls not yet answered."""
        return sum(len(chunk) for _, chunk in self.calls)

    @property
    def load(self) -> int:
        """Tasks given to this actor and not yet reported."""
        return self.sent + len(self.buffer)

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
    """Plays games on Ray actors (one CPU each) and streams their outcomes back to the runner on the head.

    Like the local pool, tasks go out in chunks of about CHUNK_SECONDS of play (one task for longer games), with a
    second chunk queued per actor while games are short, so for long games exactly one game per actor is in flight
    and each game's parameters are decided the moment an actor is free.
    """

    in_process = False

    def __init__(self, context: TournamentContext, workers: int | None = None, *, address: str | None = None,
                 prefetch: int = 2, max_chunk: int = MAX_CHUNK, start_seconds: float = START_SECONDS) -> None:
        if workers is not None and workers < 1:
            raise BackendError(f"workers must be at least 1, got {workers!r}")
        ray = import_ray()
        self._ray = ray
        self._context = context
        self._address = address
        self._started_ray = False
        self._prefetch = max(1, prefetch)
        self._max_chunk = max(1, max_chunk)
        self._depth = 1
        self._chunk = 1
        self._game_seconds: float | None = None
        self._start_seconds = start_seconds
        self._actors: list[_Actor] = []
        self._calls: dict[Any, _Actor] = {}
        self._autopsies: dict[Any, _Autopsy] = {}
        self._slots: set[int] = set()
        self._last_error = ""
        try:
            self._connect(workers)
            if workers is None:
                workers = _cpus_of(ray, address) if address else default_workers()
            self.workers = workers
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

    def _connect(self, workers: int | None) -> None:
        """Join the cluster at the address, or start a local Ray instance with one CPU per worker."""
        if self._ray.is_initialized():
            return
        self._started_ray = init_ray(self._ray, self._address, workers or default_workers())

    def _spawn(self, index: int) -> _Actor:
        handle = self._actor_class.remote(self._context_ref)
        handshake = handle.ready.options(concurrency_group=CONTROL).remote()
        return _Actor(index, handle, handshake, time.monotonic())

    def _await_actors(self) -> None:
        """Wait for the actors to start (all, or as many as start in time); none at all is an error."""
        deadline = time.monotonic() + self._start_seconds
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
            raise BackendError(f"no Ray worker started within {self._start_seconds:g} s (cluster resources "
                               f"{resources!r}){self._error_detail()}")

    # --- the Executor interface ---

    @property
    def capacity(self) -> int:
        """Actors x chunk x depth: 1 game per actor for long games, more while games are short."""
        ready = sum(1 for actor in self._actors if actor.ready)
        if not ready and self._actors:
            ready = 1  # replacements still starting take tasks; they run once the actor is up
        return ready * self._chunk * self._depth

    @property
    def in_flight(self) -> int:
        """Games given out and not yet reported (including games of dead actors being looked into)."""
        return sum(actor.load for actor in self._actors) + sum(len(a.tasks) for a in self._autopsies.values())

    def submit(self, task: GameTask) -> None:
        """Give a task to the least loaded live actor; it is sent with the next `results` call."""
        if task.slot in self._slots:
            raise BackendError(f"game {task.slot} is already in flight; a slot is never played twice at once")
        candidates = [actor for actor in self._actors if actor.ready] or self._actors
        if not candidates:
            raise BackendError(f"no Ray worker is left to play games{self._error_detail()}")
        min(candidates, key=lambda a: a.load).buffer.append(task)
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
        """Send each actor its buffered tasks in chunks; a partial chunk waits while the actor has a full one."""
        for actor in self._actors:
            while actor.buffer and (len(actor.buffer) >= self._chunk or actor.sent < self._chunk):
                chunk, actor.buffer = actor.buffer[: self._chunk], actor.buffer[self._chunk:]
                ref = actor.handle.play.remote(chunk)
                actor.calls.append((ref, chunk))
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
            ref, chunk = actor.calls[0]
            try:
                records, busy = self._ray.get(ref)
            except exceptions.RayTaskError as err:  # a bug outside any bot's control; the actor lives on
                self._pop_call(actor)
                for task in chunk:
                    outcomes.append(GameOutcome(task, None, f"game raised on {actor.describe()}: {_first_line(err)}"))
                continue
            except exceptions.ObjectLostError as err:
                self._pop_call(actor)
                for task in chunk:
                    outcomes.append(GameOutcome(task, None, f"result lost: {_first_line(err)}", blameless=True))
                continue
            except (exceptions.RayActorError, exceptions.WorkerCrashedError, exceptions.TaskCancelledError,
                    exceptions.RaySystemError) as err:
                self._last_error = f"{actor.describe()} died: {_first_line(err)}"
                self._remove(actor, outcomes, replace=True)
                return
            self._pop_call(actor)
            for task, record in zip(chunk, records):
                outcomes.append(GameOutcome(task, record))
            if records:
                self._learn(busy / len(records))

    def _pop_call(self, actor: _Actor) -> None:
        ref, chunk = actor.calls.popleft()
        del self._calls[ref]
        for task in chunk:
            self._slots.discard(task.slot)

    def _learn(self, game_seconds: float) -> None:
        """Adapt chunk size and queue depth to the mean game duration (exponential moving average)."""
        mean = game_seconds if self._game_seconds is None else 0.8 * self._game_seconds + 0.2 * game_seconds
        self._game_seconds = mean
        self._chunk = max(1, min(self._max_chunk, int(CHUNK_SECONDS / mean) if mean > 0 else self._max_chunk))
        self._depth = self._prefetch if mean < SHORT_GAME_SECONDS else 1

    def _remove(self, actor: _Actor, outcomes: list[GameOutcome], *, replace: bool) -> None:
        """Drop a dead actor: its sent games await an autopsy on its node, its unsent ones go back to the runner."""
        position = self._actors.index(actor) if actor in self._actors else len(self._actors)
        if actor in self._actors:
            self._actors.remove(actor)
        with contextlib.suppress(Exception):
            self._ray.kill(actor.handle, no_restart=True)  # it must never finish a game handed to another actor
        sent = [task for _, chunk in actor.calls for task in chunk]
        for ref, _ in actor.calls:
            self._calls.pop(ref, None)
        actor.calls.clear()
        unsent, actor.buffer = actor.buffer, []
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
        for task in autopsy.tasks:
            self._slots.discard(task.slot)
        try:
            cells = self._ray.get(ref)
        except self._ray.exceptions.RayError:
            cells = None
            how = f"the node of {actor.describe()} was lost"
        else:
            how = f"{actor.describe()} died"
        seat, slot = cells if cells is not None else (0, 0)
        for task in autopsy.tasks:
            if task.slot != slot:
                outcomes.append(GameOutcome(task, None, how, blameless=True))
            elif seat:
                record = GamePlayer(self._context).fault_record(
                    task, seat - 1, Termination.CRASH, f"{how} while this bot was thinking")
                outcomes.append(GameOutcome(task, record))
            else:
                outcomes.append(GameOutcome(task, None, how))

    def _expire(self, outcomes: list[GameOutcome]) -> None:
        """Give up replacement actors that never start (while others run) and autopsies that never answer."""
        now = time.monotonic()
        for actor in list(self._actors):
            if not actor.ready and now - actor.created > self._start_seconds and len(self._actors) > 1:
                self._last_error = f"ray worker {actor.index} did not start within {self._start_seconds:g} s"
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

    # --- introspection (tests, benchmarks) ---

    def actor_pids(self) -> list[int]:
        """Process ids of the started actors."""
        return [actor.pid for actor in self._actors if actor.ready]


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


def _node_strategy(node_id: str) -> Any:
    """Run on exactly that node (failing at once if it is gone)."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    return NodeAffinitySchedulingStrategy(node_id, soft=False)


def _first_line(err: BaseException) -> str:
    """The first line of an error's message (Ray's messages carry long tracebacks)."""
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


# --- validate: every node must be able to play every player -----------------------------------------------


@dataclass(frozen=True)
class PlayerCheck:
    """One player checked on one node: a note when fine, else the problem."""

    name: str
    note: str
    problem: str = ""


@dataclass(frozen=True)
class NodeCheck:
    """Everything checked on one Ray node."""

    node_id: str
    address: str
    host: str
    cpus: float
    here: bool
    players: tuple[PlayerCheck, ...] = ()
    error: str = ""

    @property
    def problems(self) -> list[str]:
        """What this node lacks, one line each."""
        lines = [self.error] if self.error else []
        lines += [f"{p.name}: {p.problem}" for p in self.players if p.problem]
        return lines

    def describe(self) -> str:
        """The node in a few words: host, address, CPUs."""
        where = f"{self.host} ({self.address})" if self.host and self.host != self.address else self.address
        cpus = f"{self.cpus:g} CPU{'s' * (self.cpus != 1)}"
        return f"{where}, {cpus}" + (", this machine" if self.here else "")


def node_facts() -> dict[str, str]:
    """The versions that must match across nodes: ytourney and Python."""
    import ytourney

    return {"ytourney": ytourney.__version__, "python": f"{sys.version_info[0]}.{sys.version_info[1]}"}


def check_players_here(config: TournamentConfig, start: bool) -> dict[str, Any]:
    """Run on a node: check every player (start it when `start`, else only look for its files) and report."""
    checks = []
    for player in config.players:
        try:
            note = check_player(config, player) if start else _look_for(player)
        except YTourneyError as err:
            checks.append(PlayerCheck(player.name, "", str(err)))
            continue
        except Exception as err:  # noqa: BLE001 - anything a plugin throws is that node's problem to report
            checks.append(PlayerCheck(player.name, "", f"{type(err).__name__}: {err}"))
            continue
        checks.append(PlayerCheck(player.name, note))
    return {"host": socket.gethostname(), "facts": node_facts(), "players": checks}


def _look_for(player: PlayerConfig) -> str:
    """Check a player's files without starting it."""
    spec = player.spec
    if spec.kind is BotKind.GTP:
        from ytourney.players.gtp.settings import check_engine

        check_engine(spec.gtp)
        return "engine program found (not started)"
    if spec.kind is BotKind.PLUGIN:
        if not spec.path or not os.path.isfile(spec.path):
            raise BackendError(f"plugin file {spec.path!r} does not exist on this node")
        return "plugin file found (not loaded)"
    return "ok"


def check_cluster(config: TournamentConfig, *, address: str | None = None, start: bool = True,
                  timeout: float = 120.0) -> list[NodeCheck]:
    """Check on every alive Ray node (one task pinned to each) that every player can be built there."""
    ray = import_ray()
    if address and not ray.is_initialized():
        probe_address(address)
    started = False if ray.is_initialized() else init_ray(ray, address, 1)
    try:
        return _check_nodes(ray, config, start, timeout)
    finally:
        if started:
            with contextlib.suppress(Exception):
                ray.shutdown()


def _check_nodes(ray: Any, config: TournamentConfig, start: bool, timeout: float) -> list[NodeCheck]:
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    here = ray.get_runtime_context().get_node_id()
    head_facts = node_facts()
    remote = ray.remote(num_cpus=0, max_retries=0)(check_players_here)
    nodes = [node for node in ray.nodes() if node.get("Alive")]
    refs = []
    for node in nodes:
        strategy = NodeAffinitySchedulingStrategy(node["NodeID"], soft=False)
        refs.append(remote.options(scheduling_strategy=strategy).remote(config, start))
    ray.wait(refs, num_returns=len(refs), timeout=timeout)
    checks = []
    for node, ref in zip(nodes, refs):
        base = {"node_id": node["NodeID"], "address": node.get("NodeManagerAddress", "?"),
                "host": node.get("NodeManagerHostname", ""), "cpus": float(node.get("Resources", {}).get("CPU", 0)),
                "here": node["NodeID"] == here}
        try:
            answer = ray.get(ref, timeout=0.1)
        except ray.exceptions.GetTimeoutError:
            checks.append(NodeCheck(**base, error=f"no answer within {timeout:g} s"))
            continue
        except ray.exceptions.RayError as err:
            checks.append(NodeCheck(**base, error=f"cannot run ytourney there: {_first_line(err)}"))
            continue
        facts = answer["facts"]
        mismatch = [f"{key} {facts.get(key)} there, {value} here" for key, value in head_facts.items()
                    if facts.get(key) != value]
        error = "version mismatch: " + "; ".join(mismatch) if mismatch else ""
        base["host"] = answer["host"] or base["host"]
        checks.append(NodeCheck(**base, players=tuple(answer["players"]), error=error))
    return checks


def describe_checks(checks: Sequence[NodeCheck]) -> list[str]:
    """The cluster check as lines for `validate`: one per node, then what each node lacks."""
    lines = []
    for check in checks:
        problems = check.problems
        if not problems:
            lines.append(f"{check.describe()}  [ok: {len(check.players)} players]")
            continue
        lines.append(f"{check.describe()}  [PROBLEM]")
        lines += [f"  {problem}" for problem in problems]
    return lines
