"""Play one refereed game between two bots and return its record; a faulty bot loses, it never raises."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ytourney.boards.board import Board
from ytourney.errors import PlayerFault, YTourneyError
from ytourney.games.api import SWAP, Game, Move, MoveKind, Outcome, State
from ytourney.games.bot import EVALUATION_METHOD, Bot, Evaluation, Limit
from ytourney.games.record import GameRecord, GameSetup, Termination, utc_now
from ytourney.games.variant import Variant
from ytourney.players.clock import OWN_BUDGET, TimeControl
from ytourney.players.human import Resign, SeatCommand, TakeBack
from ytourney.tournament.adjudication import NO_ADJUDICATION, Adjudication, Adjudicator, Verdict, plain_evaluation
from ytourney.players.untrusted import (
    cap,
    describe,
    describe_error,
    error_message,
    memory_note,
    plain_move,
    plain_swap,
)

T = TypeVar("T")

UNTIMED_SECONDS = 1800.0
"""Hard deadline of one decision (or game setup) when no time control bounds it: generous, but never forever."""
EVALUATION_SECONDS = 1.0
"""Hard deadline of a bot's `evaluation()` (a report of what its move's search found: no thinking of its own)."""
ALARM_MARGIN = 0.5
"""Seconds past a decision's allowed time (grace included) before the referee interrupts the player's code."""

Watch = Callable[[int, float], None]
"""Told (seat 1-based, monotonic deadline) when a player starts deciding and (0, 0.0) when it is done, so a parent
process can kill a worker stuck in player code past its deadline."""


class HaltGame(KeyboardInterrupt):
    """Raised by the run's own signal handlers: stops the game instead of counting as the player's fault."""


class DeadlinePassed(BaseException):
    """Raised into player code by the referee's alarm when a decision runs past its hard deadline."""


_ARMED = [False]
"""True while a guarded call runs: an alarm that rings just after the call returned is ignored, never raised."""


def _ring(signum: int, frame: object) -> None:
    if _ARMED[0]:
        raise DeadlinePassed()


@dataclass(frozen=True)
class Seat:
    """A named player in a seat: seat 0 places the first stone (Black before any swap).

    `own_budget` marks a bot that keeps its own playout budget (a built-in given `playouts=`): it is handed no
    time budget, only the time control's deadline applies to it. `untimed` marks a person at the terminal (a
    human seat): no clock or deadline applies to them, and their commands (take back, resign, quit) come as
    SeatCommands. `trusted` marks our own built-in bots: they keep
    their budgets themselves, so their calls skip the in-process alarm (two syscalls a move) that interrupts plugins
    and engines; the worker's watchdog still holds them to the hard deadline, what they raise is still their loss,
    and a late answer still loses on time.
    """

    name: str
    bot: Bot
    own_budget: bool = False
    trusted: bool = False
    untimed: bool = False
    time_control: TimeControl | None = None
    """The seat's own time control (time odds), replacing the game's for this seat."""


class _Fault(Exception):
    """Internal: a seat lost by fault."""

    def __init__(self, seat: int, termination: Termination, reason: str) -> None:
        reason = cap(reason)  # stored with the game: whatever a player said is kept short
        super().__init__(reason)
        self.seat = seat
        self.termination = termination
        self.reason = reason


@dataclass(frozen=True)
class _Illegal:
    """An untrusted player's answer that is not a move (or not a pie answer), already described as plain text."""

    reason: str


def play_game(
    seats: Sequence[Seat],
    game: Game | Variant,
    board: Board | str | None = None,
    rules: Any = None,
    handicap: int = 0,
    time_control: TimeControl | None = None,
    *,
    seed: int | None = None,
    tournament: str = "",
    round_number: int = 0,
    opening: Sequence[Move] = (),
    game_id: int | None = None,
    extra: dict[str, Any] | None = None,
    watch: Watch | None = None,
    adjudication: Adjudication | None = None,
) -> GameRecord:
    """Referee one game of `game` (a Variant, or a Game with its `board` and `rules`, None the defaults): seat 0
    moves first (the weaker player in handicap games).

    `game_id` and `extra` are copied into the record (a tournament passes the slot id and e.g. the opening used).
    `adjudication` (None: none) may end the game early by a resignation or a draw (tournament/adjudication.py).
    Every call into a bot has a hard deadline (its allowed time plus ALARM_MARGIN, or UNTIMED_SECONDS): in the main
    thread an alarm interrupts code past it, and `watch` hears of each deadline for a process that can do more.
    """
    if len(seats) != 2:
        raise YTourneyError(f"a game needs exactly 2 seats, got {len(seats)}")
    variant = game if isinstance(game, Variant) else _variant(game, board, rules)
    game, board, rules = variant.game, variant.board, variant.rules
    setup = GameSetup(variant, first=seats[0].name, second=seats[1].name, handicap=handicap, tournament=tournament,
                      round=round_number, seed=seed, id=game_id, opening_plies=len(opening),
                      extra=dict(extra) if extra else {})
    started = utc_now()
    with _alarm_handler():
        base = time_control or TimeControl()
        clocks = tuple(seat.time_control or base for seat in seats)
        referee = _Referee(seats, game, game.new_state(board, rules, handicap), clocks, watch,
                           adjudication or NO_ADJUDICATION)
        fault = referee.run(opening)
    state = referee.state
    outcome = state.outcome
    verdict = referee.verdict
    if verdict is not None:
        outcome = Outcome(verdict.winner, verdict.termination, None, verdict.reason)
    if fault is not None:
        outcome = Outcome(state.color_of_seat(1 - fault.seat), fault.termination, None, fault.reason)
    return setup.record(moves=tuple(game.format_move(board, m) for m in state.history),
                        move_seconds=tuple(referee.times), swapped=state.swapped, winner=outcome.winner,
                        termination=outcome.termination, reason=outcome.reason, started=started, score=outcome.score)


def _variant(game: Game, board: Board | str | None, rules: Any) -> Variant:
    """The variant of `game` on `board` (a spec or a Board; None its default) under `rules` (None the defaults)."""
    if not isinstance(game, Game):
        raise YTourneyError(f"play_game needs a Game or a Variant, got {game!r}")
    if not isinstance(board, Board):
        board = game.parse_board(game.default_board if board is None else board)
    return Variant(game, board, game.parse_rules(None) if rules is None else rules)


class _alarm_handler:  # noqa: N801 - a context manager used like a function
    """Installs the deadline alarm's handler for one game when running in the main thread (signals need it)."""

    def __enter__(self) -> None:
        self.previous = None
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGALRM, _ring)

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)


class _Referee:
    """Drives one game: asks the seat to move for decisions, times them and validates every answer."""

    def __init__(self, seats: Sequence[Seat], game: Game, state: State, clocks: tuple[TimeControl, TimeControl],
                 watch: Watch | None, adjudication: Adjudication) -> None:
        self.seats = seats
        self.game = game
        self.state = state
        self.clocks = clocks  # each seat's own time control
        self.watch = watch
        self.alarm = signal.getsignal(signal.SIGALRM) is _ring
        self.remaining: list[float | None] = [clock.game_seconds for clock in clocks]
        self.pending = [0.0, 0.0]  # think time of a declined swap, charged to that seat's next move
        self.times: list[float] = []
        self.adjudication = adjudication
        self.adjudicator = Adjudicator(adjudication, game, state)
        self.verdict: Verdict | None = None

    def run(self, opening: Sequence[Move]) -> _Fault | None:
        """Play the game to its end; return the fault that ended it, if any."""
        state = self.state
        try:
            for seat_index in (0, 1):
                bot = self.seats[seat_index].bot
                color = state.color_of_seat(seat_index)
                self._guarded(seat_index, lambda b=bot, c=color: b.new_game(state.board, state.rules, c),
                              UNTIMED_SECONDS)
            for move in opening:
                state.play(move)
                self.times.append(0.0)
                self.verdict = self.adjudicator.after_ply(state)
            while self.state.outcome is None and self.verdict is None:
                try:
                    self._turn()
                except TakeBack as back:
                    self._rewind(max(back.plies, len(opening)))
                except Resign:
                    seat_index = self.state.seat_to_move()
                    raise _Fault(seat_index, Termination.FORFEIT, f"{self.seats[seat_index].name} resigned") from None
        except _Fault as fault:
            return fault
        return None

    def _turn(self) -> None:
        """One decision of the seat to move: the pie answer where it is offered, else a move."""
        state = self.state
        seat_index = state.seat_to_move()
        bot = self.seats[seat_index].bot
        if state.can_swap():
            wants, spent = self._decide(seat_index, lambda limit, b=bot, i=seat_index: self._plain_swap(
                i, b.swap(state.copy(), limit)))
            if self._checked_swap(seat_index, wants):
                state.play(SWAP)
                self.times.append(spent)
                self.verdict = self.adjudicator.after_ply(state)
                return
            self.pending[seat_index] += spent
        move, spent = self._decide(seat_index, lambda limit, b=bot, i=seat_index: self._plain_move(
            i, b.move(state.copy(), limit)))
        self._play(seat_index, move)
        self.times.append(spent + self.pending[seat_index])
        self.pending[seat_index] = 0.0
        if state.outcome is None:
            self.verdict = (self.adjudicator.after_move(state, seat_index, self._evaluation(seat_index))
                            or self.adjudicator.after_ply(state))

    def _rewind(self, plies: int) -> None:
        """Take the game back to its first `plies` actions (a human seat's undo): the position is replayed."""
        old = self.state
        state = self.game.new_state(old.board, old.rules, old.handicap)
        self.adjudicator = Adjudicator(self.adjudication, self.game, state)  # counted again from the start
        for move in old.history[:plies]:
            state.play(move)
            self.adjudicator.after_ply(state)
        self.state = state
        del self.times[plies:]
        self.pending = [0.0, 0.0]

    def _evaluation(self, seat_index: int) -> Evaluation | None:
        """What the seat's bot reports of its last move's search, when the resign rule reads it (None: nothing); an
        untrusted bot's report is checked, and one that is not an Evaluation or None is its protocol fault."""
        if not self.adjudicator.wants_evaluations:
            return None
        seat = self.seats[seat_index]
        if seat.trusted:
            report = getattr(seat.bot, EVALUATION_METHOD, None)
            return None if report is None else self._guarded(seat_index, report, EVALUATION_SECONDS)

        def ask() -> Evaluation | None | str:
            report = getattr(seat.bot, EVALUATION_METHOD, None)
            return None if report is None else plain_evaluation(report())

        answer = self._guarded(seat_index, ask, EVALUATION_SECONDS)
        if isinstance(answer, str):
            raise _Fault(seat_index, Termination.PROTOCOL, answer)
        return answer

    def _decide(self, seat_index: int, ask: Callable[[Limit], T]) -> tuple[T, float]:
        remaining = self.remaining[seat_index]
        if self.seats[seat_index].untimed:  # a person at the terminal: no clock, no deadline
            begin = time.perf_counter()
            answer = self._guarded(seat_index, lambda: ask(Limit()), UNTIMED_SECONDS)
            return answer, time.perf_counter() - begin
        clock = self.clocks[seat_index]
        limit = OWN_BUDGET if self.seats[seat_index].own_budget else clock.limit(remaining)
        allowed = clock.allowed(remaining)
        begin = time.perf_counter()
        answer = self._guarded(seat_index, lambda: ask(limit),
                               UNTIMED_SECONDS if allowed is None else allowed + ALARM_MARGIN)
        spent = time.perf_counter() - begin
        if allowed is not None and spent > allowed:
            raise _Fault(seat_index, Termination.TIME, f"took {spent:.3f}s, {allowed:.3f}s allowed")
        if remaining is not None:
            self.remaining[seat_index] = remaining - spent + clock.increment
        return answer, spent

    def _guarded(self, seat_index: int, call: Callable[[], T], seconds: float) -> T:
        """Call player code under a hard deadline of `seconds`; whatever it raises is that seat's fault."""
        seat = self.seats[seat_index]
        guard = not seat.trusted and not seat.untimed  # the alarm's syscalls only where untrusted code runs
        watch = None if seat.untimed else self.watch  # a person's wait is theirs: no watchdog
        if watch is not None:  # the parent's watchdog (a shared-memory write) holds every seat to its deadline
            watch(seat_index + 1, time.monotonic() + seconds)
        if guard and self.alarm:
            _ARMED[0] = True
            signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)  # rings again each second until the call ends
        try:
            return call()
        except DeadlinePassed:
            raise _Fault(seat_index, Termination.TIME, f"still thinking after its hard deadline of {seconds:.3f}s"
                         ) from None
        except (HaltGame, SeatCommand):
            raise
        except BaseException as err:  # noqa: BLE001 - SystemExit, KeyboardInterrupt... from a bot lose its game
            try:  # described while the alarm still holds: a message that loops is stopped by it
                fault = _blamed(seat_index, err)
            except DeadlinePassed:
                fault = _Fault(seat_index, Termination.TIME, "its error message was still being written after its "
                               f"hard deadline of {seconds:.3f}s")
            raise fault from None  # never chained: nothing of the player's error is formatted later
        finally:
            if guard and self.alarm:
                _ARMED[0] = False  # first: an alarm ringing now is ignored
                signal.setitimer(signal.ITIMER_REAL, 0)
            if watch is not None:
                watch(0, 0.0)

    def _plain_move(self, seat_index: int, answer: object) -> object:
        """An untrusted seat's move answer as a fresh Move, or _Illegal (converted inside the call's deadline)."""
        if self.seats[seat_index].trusted:
            return answer
        move = plain_move(self.game, self.state.board, answer)
        return move if isinstance(move, Move) else _Illegal(move)

    def _plain_swap(self, seat_index: int, answer: object) -> object:
        """An untrusted seat's pie answer as a plain bool, or _Illegal (converted inside the call's deadline)."""
        if self.seats[seat_index].trusted:
            return answer
        wants = plain_swap(answer)
        return wants if isinstance(wants, bool) else _Illegal(wants)

    def _checked_swap(self, seat_index: int, wants: object) -> bool:
        """A pie answer must be a bool (numpy's included): anything else, even a truthy string, is illegal."""
        if isinstance(wants, _Illegal):
            raise _Fault(seat_index, Termination.ILLEGAL, wants.reason)
        if isinstance(wants, bool) or (getattr(wants, "dtype", None) is not None and wants.dtype.kind == "b"
                                       and getattr(wants, "shape", None) == ()):
            return bool(wants)
        raise _Fault(seat_index, Termination.ILLEGAL,
                     f"answered the pie offer with {describe(wants)}, which is not a bool")

    def _play(self, seat_index: int, answer: object) -> None:
        """Play the answer as a Move of this game, or end the game as the seat's loss naming what was wrong."""
        state = self.state
        if isinstance(answer, _Illegal):
            raise _Fault(seat_index, Termination.ILLEGAL, answer.reason)
        try:
            move = self.game.coerce_move(state.board, answer)
        except YTourneyError as err:
            raise _Fault(seat_index, Termination.ILLEGAL, str(err)) from err
        if move.kind is MoveKind.SWAP:
            raise _Fault(seat_index, Termination.ILLEGAL, "answered swap to a move request (the pie answer is swap())")
        try:  # the state validates every move before changing anything, and says why it refuses one
            state.play(move)
        except YTourneyError as err:
            try:
                name = repr(self.game.format_move(state.board, move))
            except YTourneyError:
                name = repr(move)
            raise _Fault(seat_index, Termination.ILLEGAL, f"played {name}: {err}") from err


def _blamed(seat_index: int, err: BaseException) -> _Fault:
    """The fault of a seat whose call raised `err`: a PlayerFault keeps its termination, anything else is a crash."""
    if isinstance(err, PlayerFault):
        termination = getattr(type(err), "termination", "crash")
        kind = Termination._known.get(termination) if type(termination) is str else None  # noqa: SLF001
        return _Fault(seat_index, kind if kind is not None and kind.is_fault else Termination.CRASH,
                      error_message(err))
    return _Fault(seat_index, Termination.CRASH, describe_error(err) + memory_note(err))
