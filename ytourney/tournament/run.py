"""Run a tournament: dispatch games to an executor, store each finished game at once, resume, stop cleanly.

The run loop (`Runner`) asks the scheduler for the next game, hands it to an executor (tournament.executor says
what executors are; tournament.pool and tournament.ray provide them) and stores every outcome as it comes: the
store gets the moves and times the worker encoded, and the scheduler, the stop condition and the progress display
get the record without them, the same form the scheduler replays from the store on resume. The runner's own work
per game (one SQLite transaction, scheduling) is serial, so the less of it the better as workers are added.

`plan_run` and `RunPlan.run` are the body of `ytourney run`: the config read, its results folder found and its
stored games counted; then the run on the chosen backend, with the SPRT stop of a match.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from ytourney.errors import BackendError, RunInterrupted, RunnerError
from ytourney.games.record import GameRecord
from ytourney.players.spec import BotKind
from ytourney.safe_files import open_folder
from ytourney.stats.elo_sprt import EloSprtState
from ytourney.stats.handicap import HandicapMode
from ytourney.stats.ratings import RunningRatings
from ytourney.stats.sprt import SprtState
from ytourney.tournament.config import TournamentConfig, load_config
from ytourney.tournament.folder import RunLock
from ytourney.tournament.executor import (
    Backend,
    Executor,
    ExecutorFactory,
    default_workers,
)
from ytourney.tournament.game_lines import GameLines, GameReport
from ytourney.tournament.growth import check_folder, grows, growth_note
from ytourney.tournament.match import HaltGame
from ytourney.tournament.pool import ProcessExecutor
from ytourney.tournament.progress import rate_text
from ytourney.tournament.ray import actor_factory, cluster_cpus
from ytourney.tournament.round_scheduler import RoundScheduler
from ytourney.tournament.schedule import (
    Scheduler,
    StopCondition,
    build_slots,
    planned_games,
    sprt_condition,
)
from ytourney.tournament.store import (
    EncodedMoves,
    ResultStore,
    StoredPlayer,
    stored_count,
    stored_info,
)
from ytourney.tournament.worker import TournamentContext

WORKER_RETRIES = 2
"""A game whose worker process dies without blame is played again this many times before the run gives up."""
HANDED_BACK_RETRIES = 10
"""A game handed back this many times (every kind of worker loss counts, its own or another game's) stops the run."""
POLL_SECONDS = 0.2
"""Longest wait for a result before the runner checks for signals and refreshes the progress display."""
LEADER_SECONDS = 2.0
"""Shortest time between two ratings of the games for the progress display's leader."""
ADAPTIVE_IN_FLIGHT = 2
"""Games in flight per worker, at most, when results steer the schedule (SPRT, auto handicap)."""


class ProgressSink(Protocol):
    """What the runner tells a progress display (ytourney.tournament.progress implements it)."""

    def start(self, planned: int, stored: int, workers: int) -> None:
        """The run starts with `stored` of `planned` games already in the store."""

    def game(self, record: GameRecord, leader: Callable[[], str], report: GameReport | None = None) -> None:
        """A game was stored (its record may leave moves and move times out: they went straight to the store);
        `report` holds its lines (the finished game, a match's score)."""

    def tick(self, leader: Callable[[], str]) -> None:
        """Time passes (redraw if due)."""

    def replan(self, planned: int) -> None:
        """The run now plans `planned` games (a knockout's tie-break games were added)."""

    def note(self, message: str) -> None:
        """Something the user should see at once (a suspension)."""

    def finish(self, leader: Callable[[], str] | None = None) -> None:
        """The run ends; `leader`, when the run ended by itself, names the leader as the final table does."""


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
    sprt: SprtState | EloSprtState | None = None

    @property
    def complete(self) -> bool:
        """True when every planned game is stored or was skipped by a stop rule."""
        return self.stored + self.skipped >= self.planned

    def lines(self) -> list[str]:
        """What the run did, for its user: the games stored, an early stop, the suspended players."""
        line = f"{self.stored} of {self.planned} games stored in {self.directory}/ ({self.played} played now"
        line += f", {self.forfeits} forfeits" if self.forfeits else ""
        line += f", {self.skipped} not needed" if self.skipped else ""
        line += f", {rate_text(self.played + self.forfeits, self.seconds)}" if self.played else ""
        lines = [line + ")"]
        if self.stopped:
            lines.append(f"stopped early: {self.stopped}")
        lines += [f"{name} {reason}; its remaining games were forfeited" for name, reason in self.suspended.items()]
        return lines


def results_folder(config: TournamentConfig, out: str | os.PathLike[str] | None = None) -> Path:
    """Where the results of `config` go: `out`, else results/<name>/."""
    return Path(out) if out else Path("results") / config.name


def open_store(config: TournamentConfig, directory: str | os.PathLike[str], planned: int | None = None) -> ResultStore:
    """Open (or create) the results store of `config` in `directory`, checking it belongs to this config;
    `planned` is the number of planned games when the caller has built the slots already."""
    players = [StoredPlayer(p.name, p.spec_text, p.spec.kind.value) for p in config.players]
    check_folder(directory, config)  # a refusal that says why more games per pair cannot grow this folder
    return ResultStore.open(
        directory, name=config.name, config_text=config.text, config_hash=config.digest(), config_key=config.key(),
        planned_games=planned_games(config) if planned is None else planned, players=players,
        config_path=config.path, grows=lambda info: grows(info, config),
    )


GTP_LOG_FOLDER = "gtp-logs"
"""The folder, in the results folder, of the transcripts of engines whose config says `gtp: {log: true}`."""


def gtp_log_folders(config: TournamentConfig, directory: str | os.PathLike[str],
                    gtp_log: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """The transcript folder of each engine player that writes one: every engine into `gtp_log` when given, else
    those whose config says `gtp: {log: true}` into <results folder>/gtp-logs/."""
    folders = {}
    for player in config.players:
        if player.spec.kind is BotKind.GTP and player.spec.gtp is not None:
            if gtp_log is not None:
                folders[player.name] = str(gtp_log)
            elif player.spec.gtp.log:
                folders[player.name] = str(Path(directory) / GTP_LOG_FOLDER)
    return folders


def local_executor(context: TournamentContext, workers: int) -> Executor:
    """A process pool of `workers` workers."""
    return ProcessExecutor(context, workers)


def executor_factory(backend: Backend | str, address: str | None = None) -> ExecutorFactory:
    """The runner's executor factory for `backend` ('local' or 'ray'): the runner's worker count is the number of
    worker processes or Ray actors; an `address` names the Ray cluster to join."""
    try:
        backend = Backend(backend)
    except ValueError as err:
        known = ", ".join(repr(b.value) for b in Backend)
        raise BackendError(f"unknown backend {backend!r}; expected one of {known}") from err
    if backend is Backend.RAY:
        return actor_factory(address)
    if address is not None:
        raise BackendError(f"a cluster address ({address!r}) needs the 'ray' backend, not 'local'")
    return local_executor


class Runner:
    """One run of a tournament into a results folder."""

    def __init__(self, config: TournamentConfig, directory: str | os.PathLike[str], *, workers: int | None = None,
                 executor_factory: ExecutorFactory = local_executor, progress: ProgressSink | None = None,
                 stop_condition: StopCondition | None = None, gtp_log: str | os.PathLike[str] | None = None,
                 on_game: Callable[[GameRecord], None] | None = None,
                 sprt: Callable[[], SprtState | EloSprtState | None] = lambda: None,
                 final_leader: Callable[[], str] | None = None) -> None:
        self.config = config
        self.lines = GameLines(config, sprt)
        self.final_leader = final_leader
        self.gtp_logs = gtp_log_folders(config, directory, gtp_log)
        self.on_game = on_game
        self._ratings = RunningRatings(config.ratings)
        self.directory = Path(directory)
        self.workers = workers or config.workers or default_workers()
        self.executor_factory = executor_factory
        self.progress = progress
        self.stop_condition = stop_condition
        self._signal: int | None = None
        self._executor: Executor | None = None
        self._stopping = False  # the executor is being shut down: a signal is noted, never raised

    def run(self) -> RunSummary:
        """Play every planned game not yet stored; raise RunInterrupted on Ctrl-C/SIGTERM (games kept)."""
        config = self.config
        in_rounds = config.schedule.format.in_rounds
        slots = None if in_rounds else build_slots(config)
        begin = time.perf_counter()
        with open_store(config, self.directory, planned_games(config) if slots is None else len(slots)) as store:
            already = store.count()
            # the scheduler learns standings, faults, handicaps and the stop rule from the stored results
            stored = self._remember(store.iter_records(completion_order=True, moves=False))
            scheduler: Scheduler | RoundScheduler
            if slots is None:  # a Swiss or knockout: each round is planned from the results before it
                scheduler = RoundScheduler(config, stored)
            else:
                scheduler = Scheduler(config, slots, stored, stop_condition=self.stop_condition)
            counts = {"played": 0, "forfeits": 0}
            if self.progress is not None:
                self.progress.start(scheduler.planned, already, self.workers)
            ended = False
            try:
                with self._signals():
                    failed = True
                    try:
                        self._loop(scheduler, store, counts)
                        failed = False
                    finally:
                        self._stop_executor(abandon=failed or self._signal is not None)
                ended = self._signal is None
            except KeyboardInterrupt:
                self._signal = self._signal or signal.SIGINT
            finally:
                if self.progress is not None:  # the table's leader only once the run ended by itself
                    self.progress.finish(self.final_leader if ended else None)
            summary = RunSummary(
                directory=self.directory, planned=scheduler.planned, stored_before=already, played=counts["played"],
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

    def _stop_executor(self, abandon: bool) -> None:
        """Stop the executor: after an interrupt or an error, games in progress are dropped at once (a rerun plays
        them); a signal meanwhile is only noted, so the run still ends with RunInterrupted."""
        executor, self._executor = self._executor, None
        if executor is not None:
            self._stopping = True
            try:
                executor.shutdown(abandon=abandon)
            finally:
                self._stopping = False

    def _remember(self, records: Iterator[GameRecord]) -> Iterator[GameRecord]:
        """Rate the stored results as they stream by, for the progress display's leader."""
        for record in records:
            if self.progress is not None:
                self._ratings.add(record)
                self.lines.remember(record)
            yield record

    def _loop(self, scheduler: Scheduler | RoundScheduler, store: ResultStore, counts: dict[str, int]) -> None:
        leader = _leader(self._ratings)
        failures: collections.Counter[int] = collections.Counter()
        # when results steer the schedule (a stop rule, adaptive handicaps, a player close to suspension), decide
        # games as late as possible: at most two per worker in flight, however short the games are
        adaptive = self.stop_condition is not None or self.config.handicap.mode is HandicapMode.AUTO
        while self._signal is None:
            exhausted = False  # asked again each time: a Swiss or knockout plans its next round once one is stored
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
                        TournamentContext.from_config(self.config, self.gtp_logs), self.workers)
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
                failures[outcome.task.slot] += 1
                lost = failures[outcome.task.slot]
                if lost > (HANDED_BACK_RETRIES if outcome.blameless else WORKER_RETRIES):
                    raise RunnerError(
                        f"game {outcome.task.slot} lost its worker process {lost} times ({outcome.failure}); "
                        "the games stored so far are safe"
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

    def _store(self, record: GameRecord, scheduler: Scheduler | RoundScheduler, store: ResultStore, leader: Callable[[], str],
               moves: EncodedMoves | None = None) -> None:
        store.add_game(record, moves)
        if self.on_game is not None:
            self.on_game(record if moves is None else replace(
                record, moves=tuple(json.loads(moves.moves)), move_seconds=tuple(json.loads(moves.seconds))))
        if self.progress is not None:
            self._ratings.add(record)
        before, planned = scheduler.suspensions, scheduler.planned
        scheduler.record(record)
        if self.progress is not None:
            if scheduler.planned != planned:
                self.progress.replan(scheduler.planned)
            self.progress.game(record, leader, self.lines.report(record))
            if scheduler.suspensions > before:
                for name, reason in scheduler.suspended().items():
                    if name in (record.first, record.second):
                        self.progress.note(f"{name} {reason}; its remaining games are forfeits")

    @contextlib.contextmanager
    def _signals(self) -> Iterator[None]:
        """Ctrl-C and SIGTERM stop dispatching and drop the games in progress; a second one (or one during an
        in-process game) stops at once; one while the workers are being stopped is only noted."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def handler(signum: int, frame: object) -> None:
            first = self._signal is None
            self._signal = self._signal or signum
            if self._stopping:
                return
            if not first or (self._executor is not None and self._executor.in_process):
                raise HaltGame

        previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, old in previous.items():
                signal.signal(sig, old)


def _leader(ratings: RunningRatings) -> Callable[[], str]:
    """A callable naming the current leader by conservative TrueSkill (mu - 3 sigma, handicap games rated with the
    learned worth of each level), not by raw wins, which in a handicap run name the weakest bot. Every game is
    rated once as it is stored; the display asks for the ranking on every redraw, at most every few seconds."""
    cache = {"games": -1, "at": float("-inf"), "text": ""}

    def leader() -> str:
        now = time.monotonic()
        if ratings.games != cache["games"] and now - cache["at"] >= LEADER_SECONDS:
            best = ratings.leader()
            # not the table's figure: games are rated here once, as they finish; the table replays them in game-id
            # order (and learns the handicap levels' worth from all of them), so the word says which one this is
            cache["text"] = f"{best.name} (running rating {best.conservative:.1f})" if best else ""
            cache["games"], cache["at"] = ratings.games, now
        return str(cache["text"])

    return leader


# --- `ytourney run` ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunPlan:
    """A tournament about to run: its config, results folder, planned games and games already stored there."""

    config: TournamentConfig
    directory: Path
    planned: int
    stored: int
    started: bool
    growth: str = ""  # what growing the stored tournament does ('' when the config is the stored one)
    stored_hash: str = ""  # the stored tournament's config digest ('' when the folder holds none)

    @property
    def note(self) -> str:
        """What the folder holds already ('' when the run starts afresh)."""
        if not self.stored:
            return self.growth
        if self.growth:
            return f"{self.growth} ({self.stored} stored)"
        state = "is complete" if self.stored >= self.planned else "continues"
        return (f"{self.config.name!r} in {self.directory}/ {state}: {self.stored} of {self.planned} games "
                "already stored")

    def check_free(self) -> None:
        """Refuse a folder another run holds (StoreLockedError), before anything is said or written; the run takes
        the lock itself when it opens the store."""
        if self.started:
            lock = RunLock(self.directory)
            lock.acquire()
            lock.release()

    def run(self, *, workers: int | None = None, backend: Backend = Backend.LOCAL, address: str | None = None,
            progress: ProgressSink | None = None, gtp_log: str | os.PathLike[str] | None = None,
            on_game: Callable[[GameRecord], None] | None = None,
            final_leader: Callable[[], str] | None = None) -> RunSummary:
        """Play the games not yet stored on `backend` (a match with `schedule.sprt` stops once the test decides);
        `workers` defaults to the config's, else one per core, or one per CPU of the Ray cluster at `address`;
        with `gtp_log` every engine writes its GTP transcript of each game there; `final_leader` names the leader
        on the progress line once the run has ended (as the table printed after it does)."""
        factory = executor_factory(backend, address)
        if gtp_log is not None:
            os.close(open_folder(gtp_log, create=True, error=_transcript_folder_error))
        elif gtp_log_folders(self.config, self.directory):  # <results>/gtp-logs: a link there is refused
            os.close(open_folder(self.directory, (GTP_LOG_FOLDER,), create=True, error=_transcript_folder_error))
        if backend is Backend.RAY and address and workers is None:
            workers = cluster_cpus(address)
        stop, sprt = sprt_condition(self.config)
        runner = Runner(self.config, self.directory, workers=workers, executor_factory=factory, progress=progress,
                        stop_condition=stop, gtp_log=gtp_log, on_game=on_game, sprt=sprt,
                        final_leader=final_leader)
        return replace(runner.run(), sprt=sprt())


def _transcript_folder_error(message: str) -> RunnerError:
    return RunnerError(f"GTP transcript folder: {message}; give --gtp-log a folder you can write")


def plan_run(path: str | os.PathLike[str], out: str | os.PathLike[str] | None = None,
             overrides: Sequence[str] = ()) -> RunPlan:
    """Read the config at `path` (with `--set` overrides) and look at its results folder (`out`, else
    results/<name>/)."""
    config = load_config(path, overrides)
    return plan_config(config, results_folder(config, out))


def plan_config(config: TournamentConfig, directory: Path) -> RunPlan:
    """The plan of a read config in its results folder (what it stores, whether the run grows it)."""
    info = stored_info(directory)
    planned = planned_games(config)
    return RunPlan(config, directory, planned, stored_count(directory), info is not None,
                   growth_note(info, config, planned), "" if info is None else info.config_hash)
