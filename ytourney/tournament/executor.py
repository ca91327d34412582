"""What every executor shares: the interface the run loop uses, the pacing of chunks, dealing, and dead-worker blame.

Executors play games; the run loop never cares where. The interface (`Executor`):
  capacity        how many games may be in flight at once (the run loop never submits more; it may change)
  in_flight       games submitted and not yet reported
  submit(task)    start one GameTask (returns at once)
  results(t)      the outcomes finished since the last call, waiting up to t seconds for at least one
  shutdown(abandon=False)   stop; with abandon, in-flight games are dropped (they are played again on resume)
  in_process      True when games run in the caller's process (Ctrl-C then interrupts the game itself)
The `multiprocess` pool and the in-process executor (tournament.pool) and the Ray actors (tournament.ray)
implement it with the same pieces: tasks are dealt to the least loaded worker and sent in chunks whose size is
learned from game durations (`Pacing`, `WorkQueue`), and when a worker dies the seat whose plugin code was running
loses its game while every other game it held goes back to be played again (`dead_worker_outcomes`).
"""

from __future__ import annotations

import collections
import contextlib
import enum
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from ytourney.games.record import GameRecord, Termination
from ytourney.tournament.schedule import GameTask
from ytourney.tournament.store import EncodedMoves
from ytourney.tournament.worker import PlayedGame, TournamentContext, fault_record

SHORT_GAME_SECONDS = 1.0
"""Games shorter than this on average get a second chunk queued per worker, so workers never wait for the parent."""
CHUNK_SECONDS = 0.05
"""Tiny games are sent to workers in chunks of about this much play, to keep messages per game low."""
MAX_CHUNK = 64
"""Largest chunk of games sent to a worker in one message."""
PREFETCH = 2
"""Chunks each worker holds while games are short."""
STOP_SECONDS = 10.0
"""How long workers get to close their engines on a normal shutdown before they are killed."""
ABANDON_SECONDS = 2.0
"""How long workers get to stop after Ctrl-C before they are killed."""


class Backend(str, enum.Enum):
    """Where games are played (`run --backend`)."""

    LOCAL = "local"
    RAY = "ray"


@dataclass(frozen=True)
class GameOutcome:
    """What an executor reports for a task: its record, or why it has none (the worker died).

    `moves` holds the game's moves and times encoded for the store when the worker encoded them; the record then
    carries none (the run loop never needs them, the store gets them as they are).
    """

    task: GameTask
    record: GameRecord | None = None
    failure: str = ""
    blameless: bool = False
    moves: EncodedMoves | None = None

    @classmethod
    def played(cls, task: GameTask, game: PlayedGame) -> GameOutcome:
        """The outcome of a game a worker played and sent back."""
        return cls(task, game.record, moves=game.moves)


class Executor(Protocol):
    """Plays GameTasks somewhere and streams back their outcomes."""

    in_process: bool

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


ExecutorFactory = Callable[[TournamentContext, int], Executor]
"""Makes the executor of a run from the tournament context and the worker count."""


def default_workers() -> int:
    """Cores this process may use."""
    with contextlib.suppress(AttributeError, OSError):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


class Pacing:
    """Chunk size and queue depth, learned from the mean game duration (an exponential moving average).

    Tasks go out in chunks of about CHUNK_SECONDS of play (one task for longer games), and each worker holds a
    second chunk while games are short (under SHORT_GAME_SECONDS), so workers never wait for the parent. For long
    games exactly one game per worker is in flight and each game's parameters are decided the moment one is free.
    """

    def __init__(self) -> None:
        self.chunk = 1
        self.depth = 1
        self.game_seconds: float | None = None

    def capacity(self, workers: int) -> int:
        """Games `workers` workers may hold at once: one each for long games, more while games are short."""
        return workers * self.chunk * self.depth

    def learn(self, busy_seconds: float, games: int) -> None:
        """Adapt to `games` games that took a worker `busy_seconds` to play."""
        if games <= 0:
            return
        game_seconds = busy_seconds / games
        mean = game_seconds if self.game_seconds is None else 0.8 * self.game_seconds + 0.2 * game_seconds
        self.game_seconds = mean
        self.chunk = max(1, min(MAX_CHUNK, int(CHUNK_SECONDS / mean) if mean > 0 else MAX_CHUNK))
        self.depth = PREFETCH if mean < SHORT_GAME_SECONDS else 1


class WorkQueue:
    """The games given to one worker: those sent to it (in the order sent, not yet reported) and those waiting."""

    def __init__(self) -> None:
        self.sent: collections.deque[GameTask] = collections.deque()
        self.waiting: list[GameTask] = []

    @property
    def load(self) -> int:
        """Games given to this worker and not yet reported."""
        return len(self.sent) + len(self.waiting)

    def chunks(self, size: int) -> Iterator[list[GameTask]]:
        """The chunks to send now, each marked sent: a partial chunk waits while the worker holds a full one."""
        while self.waiting and (len(self.waiting) >= size or len(self.sent) < size):
            chunk, self.waiting = self.waiting[:size], self.waiting[size:]
            self.sent.extend(chunk)
            yield chunk

    def report(self, count: int) -> list[GameTask]:
        """The first `count` sent games, now reported (workers play their games in the order sent)."""
        return [self.sent.popleft() for _ in range(count)]

    def clear(self) -> list[GameTask]:
        """Every game given to this worker (sent ones first), now taken back."""
        tasks = [*self.sent, *self.waiting]
        self.sent.clear()
        self.waiting.clear()
        return tasks


class Worker(Protocol):
    """An executor's view of one worker: at least its queue of games."""

    work: WorkQueue


W = TypeVar("W", bound=Worker)


def least_loaded(workers: Sequence[W]) -> W:
    """The worker with the fewest games given and not yet reported (the first one on a tie)."""
    return min(workers, key=lambda worker: worker.work.load)


def dead_worker_outcomes(context: TournamentContext, tasks: Iterable[GameTask], seat: int, slot: int,
                         how: str, termination: Termination = Termination.CRASH) -> list[GameOutcome]:
    """The games of a worker that died (`how` says so): the game in `slot` is lost by `seat` (1-based) when that
    seat's plugin code was running, and counts against the game if no seat was; every other game is blameless
    and goes back to be played again."""
    outcomes = []
    for task in tasks:
        if task.slot != slot:
            outcomes.append(GameOutcome(task, None, how, blameless=True))
        elif seat:
            record = fault_record(context, task, seat - 1, termination, f"{how} while this bot was thinking")
            outcomes.append(GameOutcome(task, record))
        else:
            outcomes.append(GameOutcome(task, None, how))
    return outcomes
