"""The generic swap (pie) rule: after the first move the second player may take it, and the seats trade colours.

Written once for every game: a state mixes in `PieSeats` and keeps `swapped`; the seat to move, the colour of a
seat and when a swap is allowed follow from it. A swap changes who owns the colours, never the stones (DESIGN §1);
a game whose rule text recolours the first stone instead (YvY, HexGUI's engines) describes the same position
with the seats' roles exchanged, which is how GTP dialects translate it.
"""

from __future__ import annotations

from typing import Any

from ytourney.games.api import Color, State


class PieSeats:
    """Seat bookkeeping under the pie rule for a state with `rules.pie`, `handicap`, `swapped`, `to_move`."""

    __slots__ = ()

    rules: Any
    handicap: int
    first_color: Color = Color.BLACK
    first_action: str = "the first move is made"

    @property
    def pie_active(self) -> bool:
        """True when this game offers the pie rule (an even game with pie on)."""
        return bool(self.rules.pie) and self.handicap == 0

    def owner(self, color: Color) -> int:
        """Seat that owns `color` now: 0 for the player who moved first, 1 for the other."""
        seat = 0 if color is self.first_color else 1
        return seat ^ 1 if self.swapped else seat

    def color_of_seat(self, seat: int) -> Color:
        """Colour played now by seat 0 (first mover) or seat 1."""
        first_seat = 1 if self.swapped else 0
        return self.first_color if seat == first_seat else self.first_color.other

    def seat_to_move(self) -> int:
        """Seat (0 first mover, 1 other) whose turn it is."""
        return self.owner(self.to_move)

    def swap_refusal(self, moves_made: int) -> str:
        """Why a swap is refused here, in words."""
        if not self.rules.pie:
            return "swap is not allowed: the pie rule is off in this game"
        if self.handicap:
            return f"swap is not allowed in a handicap game (level {self.handicap})"
        if not moves_made:
            return f"swap is not allowed before {self.first_action}"
        return "swap is only allowed as the second action of the game"


def swap_allowed(pie_active: bool, actions_so_far: int, over: bool) -> bool:
    """The pie rule's one condition: an even game with pie on, exactly one action made, not over."""
    return pie_active and actions_so_far == 1 and not over


def swap_follows(state: State) -> bool:
    """True when the move about to be made is the first of a game whose opponent may then take it with the pie."""
    if state.history or state.is_over:
        return False
    moves = [move for move in state.legal_moves() if not move.is_swap]
    if not moves:
        return False
    probe = state.copy()
    probe.play(moves[0])
    return probe.can_swap()
