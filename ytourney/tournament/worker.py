"""What runs in a worker (a local process, a Ray actor, or the run's own process): games played from small tasks.

Workers hold the tournament context (players, board, rules, clock) from the start and receive only small tasks.
They send each finished game back as a `PlayedGame`: the record without moves and times, which travel already
encoded for the store, so the process writing the store only writes that text.
Built-in bots play every game exactly as a bot created for it with the seat's seed (derived from the slot's
seed), so each game can be replayed from its seed whatever the worker count: a built-in with a `reset(seed)`
method (which must leave it as the constructor would) is kept per worker and reset before each game, others are
created fresh for every game. Plugins and GTP engines start once per worker and are reused, and a bot that lost a
game by a fault is closed and restarted for its next game.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ytourney.errors import PlayerFault, YTourneyError
from ytourney.boards.board import Board
from ytourney.games.api import Color, Game
from ytourney.games.record import TIME_ODDS_KEY, GameRecord, GameSetup, Termination
from ytourney.games.variant import Variant
from ytourney.games.bot import EVALUATION_METHOD, Bot, Limit
from ytourney.players.clock import TimeControl
from ytourney.players.gtp.engine import GtpBot
from ytourney.players.gtp.transcript import Transcript
from ytourney.players.spec import BotKind, BotSpec, bot_factory, create_bot
from ytourney.players.untrusted import DEFAULT_MEMORY_MB, describe_error
from ytourney.tournament.adjudication import DEFAULT_ADJUDICATION, Adjudication
from ytourney.tournament.config import TournamentConfig
from ytourney.tournament.match import Seat, play_game
from ytourney.tournament.schedule import GameTask
from ytourney.tournament.store import EncodedMoves, encode_moves

OUTPUT_CHARS = 4096
"""Most characters a plugin's prints keep per game (in the record's extra, under "stdout")."""
START_SECONDS = 60.0
"""Hard deadline of building a plugin or an engine in a worker, and of closing one (the parent kills past it)."""
LIFELINE_LOST_EXIT = 75
"""Exit code of a worker whose player code closed or replaced the pipe to its parent: that seat loses the game."""


@dataclass(frozen=True)
class PlayerEntry:
    """A player as a worker sees it."""

    name: str
    spec: BotSpec
    own_budget: bool = False
    gtp_log: str = ""  # the folder of this engine's GTP transcripts ('' for none)
    time_control: TimeControl | None = None  # the player's own (time odds), else the tournament's applies


@dataclass(frozen=True)
class TournamentContext:
    """What every worker needs once: the tournament's name, variant (game, board, rules), clock and players."""

    name: str
    variant: Variant
    time_control: TimeControl | None
    players: tuple[PlayerEntry, ...]
    memory_mb: int = DEFAULT_MEMORY_MB  # the address-space limit of every process running plugins or engines
    adjudication: Adjudication = DEFAULT_ADJUDICATION

    @property
    def game(self) -> Game:
        """The game every match of the tournament plays."""
        return self.variant.game

    @property
    def board(self) -> Board:
        """The board every match is played on."""
        return self.variant.board

    @property
    def rules(self) -> Any:
        """The game's rules value."""
        return self.variant.rules

    @classmethod
    def from_config(cls, config: TournamentConfig, gtp_logs: Mapping[str, str] | None = None) -> TournamentContext:
        """The context of a validated config; `gtp_logs` maps engine players to the folder of their transcripts."""
        logs = gtp_logs or {}
        players = tuple(PlayerEntry(p.name, p.spec, p.own_budget, logs.get(p.name, ""), p.time)
                        for p in config.players)
        return cls(config.name, config.variant, config.time, players, config.memory_mb, config.adjudication)

    def time_odds(self, seats: tuple[int, int]) -> dict[str, Any]:
        """What a game's record says of its time odds: each side's time control when they differ ({} otherwise)."""
        base = self.time_control or TimeControl()
        clocks = {self.players[i].name: self.players[i].time_control or base for i in seats}
        if len(set(clocks.values())) < 2:
            return {}
        return {TIME_ODDS_KEY: {name: clock.short() for name, clock in clocks.items()}}


def seat_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in `seat` (0 or 1) of a game: cheap, distinct per seat, fixed by the game's seed."""
    return (game_seed * 2 + seat + 1) * 0x9E3779B1 & 0x7FFFFFFF


def fault_record(context: TournamentContext, task: GameTask, seat: int, termination: Termination,
                 reason: str) -> GameRecord:
    """The record of a game lost by `seat` before or outside the referee's control."""
    first, second = (context.players[i].name for i in task.seats)
    setup = GameSetup(context.variant, first=first, second=second, handicap=task.handicap, tournament=context.name,
                      round=task.round, seed=task.seed, id=task.slot, extra=context.time_odds(task.seats))
    return setup.lost_by(seat, termination, reason)


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

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # one per game through a pipe: the two values pickle smaller and load faster than the instance dict
        return (PlayedGame, (self.record, self.moves))


class SeatTracker:
    """Which game a worker plays and which seat's plugin code runs (0 = none); the parent reads it after a hard
    death of the worker (a segfault, os._exit) to know whom to blame. With `deadline_cells` it also holds the
    seat deciding and its hard deadline (time.monotonic, 0 = none), for a parent to kill a worker stuck past it."""

    def __init__(self, cells: Any = None, deadline_cells: Any = None) -> None:
        self._cells = cells if cells is not None else [0, 0]
        self._deadline = deadline_cells

    @property
    def watch(self) -> Callable[[int, float], None] | None:
        """What the referee tells of each decision's deadline (None when no parent watches)."""
        return self._watch if self._deadline is not None else None

    def _watch(self, seat: int, deadline: float) -> None:
        self._deadline[1] = seat
        self._deadline[0] = deadline

    @contextlib.contextmanager
    def player_code(self, seat: int, seconds: float = START_SECONDS) -> Any:
        """Mark `seat` (1-based) as running player code outside the referee (building or closing a bot) under a hard
        deadline of `seconds` that the parent enforces; a copy of this process forked by that code ends as it
        returns, and a worker whose pipe to its parent was closed or replaced by it ends, blaming the seat."""
        pid = os.getpid()
        self.set(seat)
        if self._deadline is not None:
            self._watch(seat, time.monotonic() + seconds)
        try:
            yield
        finally:
            survive(pid, self.lifeline)
            if self._deadline is not None:
                self._watch(0, 0.0)
            self.set(0)

    lifeline: tuple[int, int, int] | None = None
    """(fd, device, inode) of the worker's pipe to its parent, checked after player code ran (None: no parent)."""

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


def lifeline_of(fd: int) -> tuple[int, int, int]:
    """What identifies the pipe `fd` of a worker to its parent, for `survive`."""
    stat = os.fstat(fd)
    return fd, stat.st_dev, stat.st_ino


def survive(pid: int, lifeline: tuple[int, int, int] | None) -> None:
    """After player code returns: a copy of the process that it forked (its pid is not `pid`) ends at once, never
    answering twice; a process whose pipe to its parent that code closed or replaced ends too, with the seat still
    marked, so its parent blames that seat for the game."""
    if os.getpid() != pid:
        os._exit(0)
    if lifeline is None:
        return
    fd, device, inode = lifeline
    try:
        stat = os.fstat(fd)
        intact = (stat.st_dev, stat.st_ino) == (device, inode)
    except OSError:
        intact = False
    if not intact:
        os._exit(LIFELINE_LOST_EXIT)


class CapturedOutput(io.StringIO):
    """What player code printed, kept up to OUTPUT_CHARS characters (the rest is counted, not kept)."""

    def __init__(self) -> None:
        super().__init__()
        self.dropped = 0

    def write(self, text: str) -> int:
        """Keep what fits."""
        room = max(0, OUTPUT_CHARS - self.tell())
        self.dropped += max(0, len(text) - room)
        return super().write(text[:room]) + max(0, len(text) - room)

    def text(self) -> str:
        """The output kept, with a note of what was dropped."""
        return self.getvalue() + (f"\n[{self.dropped} more characters dropped]" if self.dropped else "")


class _WatchedBot:
    """A plugin bot whose calls are marked in the seat tracker, so a crash that kills the worker names its seat, and
    whose prints are captured, never reaching the run's stdout."""

    def __init__(self, bot: Bot, tracker: SeatTracker, seat: int) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", "plugin")
        self._tracker = tracker
        self._seat = seat
        self.output = CapturedOutput()

    def _call(self, method: Callable[..., Any], *args: Any) -> Any:
        pid = os.getpid()
        self._tracker.set(self._seat)
        try:
            with contextlib.redirect_stdout(self.output):
                return method(*args)
        finally:
            survive(pid, self._tracker.lifeline)  # a forked copy returning here ends; a cut pipe blames this seat
            self._tracker.set(0)  # the referee turns whatever it raised into this seat's loss

    def new_game(self, board: Board, rules: Any, color: Color) -> None:
        """Forwarded."""
        self._call(self.bot.new_game, board, rules, color)

    def move(self, state: Any, limit: Limit) -> int:
        """Forwarded."""
        return self._call(self.bot.move, state, limit)

    def swap(self, state: Any, limit: Limit) -> bool:
        """Forwarded."""
        return self._call(self.bot.swap, state, limit)

    def evaluation(self) -> object:
        """Forwarded when the plugin reports one (the referee checks the answer), else None."""
        report = getattr(self.bot, EVALUATION_METHOD, None)
        return None if report is None else self._call(report)

    def close(self) -> None:
        """Forwarded, under the parent's deadline."""
        with self._tracker.player_code(self._seat, START_SECONDS):
            self._call(self.bot.close)


def _transcribe(bot: Bot, entry: PlayerEntry, slot: int, seat: int) -> Transcript | None:
    """Start the game's transcript of an engine whose player asks for one (None when it does not)."""
    if not entry.gtp_log or not isinstance(bot, GtpBot):
        return None
    folder = Path(entry.gtp_log) / re.sub(r"[^A-Za-z0-9._-]+", "-", entry.name).strip("-.")
    try:
        transcript = Transcript(entry.name, folder / f"game-{slot:05d}-{('first', 'second')[seat]}.log",
                                root=entry.gtp_log)
    except YTourneyError:
        return None  # a folder that cannot be written loses the transcript, never the game
    bot.transcript = transcript
    return transcript


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
        transcripts: list[Transcript | None] = []
        self.tracker.slot = task.slot
        try:
            for seat_index, player_index in enumerate(task.seats):
                entry = context.players[player_index]
                try:
                    guard: Any = contextlib.nullcontext()  # engines keep their own startup deadline
                    if entry.spec.kind is BotKind.PLUGIN:
                        guard = self.tracker.player_code(seat_index + 1, START_SECONDS)
                    with guard:
                        bot = self._bot(player_index, seat_seed(task.seed, seat_index), fresh)
                except PlayerFault as err:
                    return fault_record(context, task, seat_index, Termination(err.termination),
                                        f"could not start: {err}")
                except YTourneyError as err:
                    return fault_record(context, task, seat_index, Termination.CRASH, f"could not start: {err}")
                except Exception as err:  # noqa: BLE001 - a failing bot constructor is only that bot's loss
                    return fault_record(context, task, seat_index, Termination.CRASH,
                                        f"could not start: {describe_error(err)}")
                if entry.spec.kind is BotKind.PLUGIN:
                    bot = _WatchedBot(bot, self.tracker, seat_index + 1)
                seats.append(Seat(entry.name, bot, own_budget=entry.own_budget,
                                  trusted=entry.spec.kind is BotKind.BUILTIN, time_control=entry.time_control))
                transcripts.append(_transcribe(bot, entry, task.slot, seat_index))
            try:
                extra = context.time_odds(task.seats)
                if task.opening_index is not None:
                    extra["opening"] = task.opening_index
                record = play_game(seats, context.variant, handicap=task.handicap, time_control=context.time_control,
                                   seed=task.seed, tournament=context.name, round_number=task.round,
                                   opening=task.opening, game_id=task.slot, extra=extra, watch=self.tracker.watch,
                                   adjudication=context.adjudication)
            except (Exception, SystemExit) as err:  # a bot escaping the referee (sys.exit) loses the game
                seat = self.tracker.get()
                if not seat:
                    raise
                self.tracker.set(0)
                self._drop(task.seats[seat - 1], seat)
                return fault_record(context, task, seat - 1, Termination.CRASH, describe_error(err))
        finally:
            for bot in fresh:
                with contextlib.suppress(Exception):
                    bot.close()
            for seat, transcript in zip(seats, transcripts):
                if transcript is not None:
                    seat.bot.transcript = None  # type: ignore[attr-defined]
                    transcript.close()
            self.tracker.slot = 0
        if record.termination.is_fault:
            loser_seat = 0 if record.loser_name == seats[0].name else 1
            transcript = transcripts[loser_seat] if loser_seat < len(transcripts) else None
            if transcript is not None and transcript.path is not None:
                record = replace(record, extra={**record.extra, "gtp_log": str(transcript.path)})
            self.tracker.slot = task.slot  # a close() that never returns costs this game, not a blameless retry
            try:
                self._drop(task.seats[loser_seat], loser_seat + 1)
            finally:
                self.tracker.slot = 0
        printed = {seat.name: seat.bot.output.text() for seat in seats
                   if isinstance(seat.bot, _WatchedBot) and seat.bot.output.tell()}
        return replace(record, extra={**record.extra, "stdout": printed}) if printed else record

    def _bot(self, player_index: int, seed: int, fresh: list[Bot]) -> Bot:
        spec = self.context.players[player_index].spec
        if spec.kind is BotKind.BUILTIN:
            bot = self._kept.get(player_index)
            if bot is not None:
                try:
                    bot.reset(seed)  # type: ignore[attr-defined]
                except BaseException:
                    self._drop(player_index, 0)
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

    def _drop(self, player_index: int, seat: int) -> None:
        """Close a cached or kept bot after it faulted (in `seat`, 1-based, blamed if its close() never returns):
        its next game starts it afresh."""
        bot = self._cache.pop(player_index, None)
        if bot is None:
            bot = self._kept.pop(player_index, None)
        if bot is not None:
            with self.tracker.player_code(seat, START_SECONDS), contextlib.suppress(Exception, SystemExit):
                bot.close()

    def close(self) -> None:
        """Close every cached plugin and engine and every kept built-in bot."""
        for bots in (self._cache, self._kept):
            while bots:
                _, bot = bots.popitem()
                with self.tracker.player_code(0, START_SECONDS), contextlib.suppress(Exception, SystemExit):
                    bot.close()
