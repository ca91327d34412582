"""Play one refereed game between two bots and return its record; a faulty bot loses, it never raises."""

from __future__ import annotations

import numbers
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ytourney.errors import PlayerFault, YTourneyError
from ytourney.game.board import Board, parse_board
from ytourney.game.notation import SWAP, move_name
from ytourney.game.record import GameRecord, GameSetup, Termination, utc_now
from ytourney.game.rules import Color, Rules
from ytourney.game.state import GameState
from ytourney.players.base import Bot, Limit
from ytourney.players.clock import OWN_BUDGET, TimeControl

T = TypeVar("T")

@dataclass(frozen=True)
class Seat:
    """A named player in a seat: seat 0 places the first stone (Black before any swap).

    `own_budget` marks a bot that keeps its own playout budget (a built-in given `playouts=`): it is handed no
    time budget, only the time control's deadline applies to it.
    """

    name: str
    bot: Bot
    own_budget: bool = False


class _Fault(Exception):
    """Internal: a seat lost by fault."""

    def __init__(self, seat: int, termination: Termination, reason: str) -> None:
        super().__init__(reason)
        self.seat = seat
        self.termination = termination
        self.reason = reason


def play_game(
    seats: Sequence[Seat],
    board: Board | str,
    rules: Rules | None = None,
    handicap: int = 0,
    time_control: TimeControl | None = None,
    *,
    seed: int | None = None,
    tournament: str = "",
    round_number: int = 0,
    opening: Sequence[int] = (),
    game_id: int | None = None,
    extra: dict[str, Any] | None = None,
) -> GameRecord:
    """Referee one game: seat 0 is Black and moves first (the weaker player in handicap games).

    `game_id` and `extra` are copied into the record (a tournament passes the slot id and e.g. the opening used).
    """
    if len(seats) != 2:
        raise YTourneyError(f"a game needs exactly 2 seats, got {len(seats)}")
    board = parse_board(board) if isinstance(board, str) else board
    rules = rules or Rules()
    setup = GameSetup(board=board.spec, first=seats[0].name, second=seats[1].name, rules=rules, handicap=handicap,
                      tournament=tournament, round=round_number, seed=seed, id=game_id, opening_plies=len(opening),
                      extra=dict(extra) if extra else {})
    referee = _Referee(seats, GameState(board, rules, handicap), time_control or TimeControl())
    started = utc_now()
    fault = referee.run(opening)
    state = referee.state
    if fault is None:
        winner, termination, reason = state.winner, Termination.CONNECTION, ""
    else:
        winner, termination, reason = state.color_of_seat(1 - fault.seat), fault.termination, fault.reason
    return setup.record(moves=tuple(move_name(board, m) for m in state.moves), move_seconds=tuple(referee.times),
                        swapped=state.swapped, winner=winner, termination=termination, reason=reason,
                        started=started)


class _Referee:
    """Drives one game: asks the seat to move for decisions, times them and validates every answer."""

    def __init__(self, seats: Sequence[Seat], state: GameState, clock: TimeControl) -> None:
        self.seats = seats
        self.state = state
        self.clock = clock
        self.remaining: list[float | None] = [clock.game_seconds, clock.game_seconds]
        self.pending = [0.0, 0.0]  # think time of a declined swap, charged to that seat's next move
        self.times: list[float] = []

    def run(self, opening: Sequence[int]) -> _Fault | None:
        """Play the game to its end; return the fault that ended it, if any."""
        state = self.state
        try:
            for seat_index, color in ((0, Color.BLACK), (1, Color.WHITE)):
                bot = self.seats[seat_index].bot
                self._guarded(seat_index, lambda b=bot, c=color: b.new_game(state.board, state.rules, c))
            for move in opening:
                state.play(move)
                self.times.append(0.0)
            while not state.is_over:
                seat_index = state.seat_to_move()
                bot = self.seats[seat_index].bot
                if state.can_swap():
                    wants, spent = self._decide(seat_index, lambda limit, b=bot: b.swap(state.copy(), limit))
                    if wants:
                        state.play(SWAP)
                        self.times.append(spent)
                        continue
                    self.pending[seat_index] += spent
                move, spent = self._decide(seat_index, lambda limit, b=bot: b.move(state.copy(), limit))
                state.play(self._checked(seat_index, move))
                self.times.append(spent + self.pending[seat_index])
                self.pending[seat_index] = 0.0
        except _Fault as fault:
            return fault
        return None

    def _decide(self, seat_index: int, ask: Callable[[Limit], T]) -> tuple[T, float]:
        remaining = self.remaining[seat_index]
        limit = OWN_BUDGET if self.seats[seat_index].own_budget else self.clock.limit(remaining)
        begin = time.perf_counter()
        answer = self._guarded(seat_index, lambda: ask(limit))
        spent = time.perf_counter() - begin
        allowed = self.clock.allowed(remaining)
        if allowed is not None and spent > allowed:
            raise _Fault(seat_index, Termination.TIME, f"took {spent:.3f}s, {allowed:.3f}s allowed")
        if remaining is not None:
            self.remaining[seat_index] = remaining - spent + self.clock.increment
        return answer, spent

    def _guarded(self, seat_index: int, call: Callable[[], T]) -> T:
        try:
            return call()
        except PlayerFault as err:
            raise _Fault(seat_index, Termination(err.termination), str(err)) from err
        except Exception as err:
            raise _Fault(seat_index, Termination.CRASH, f"{type(err).__name__}: {err}") from err

    def _checked(self, seat_index: int, move: object) -> int:
        state = self.state
        if isinstance(move, bool) or not isinstance(move, numbers.Integral):
            raise _Fault(seat_index, Termination.ILLEGAL, f"answered {move!r}, which is not a cell index")
        cell = int(move)
        if cell == SWAP or not 0 <= cell < state.board.num_cells:
            raise _Fault(seat_index, Termination.ILLEGAL, f"answered cell index {cell} outside the board")
        if state.cells[cell]:
            raise _Fault(
                seat_index, Termination.ILLEGAL, f"played occupied cell {move_name(state.board, cell)!r}"
            )
        return cell
