"""Sexta's positions: six stones each on every other perimeter node, slid any distance along a line; all six of a
colour in one chain where no stone touches more than two of the six wins."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ytourney.boards.board import Board
from ytourney.games.api import Color
from ytourney.games.bitboard import bits, mask_of, neighbour_masks
from ytourney.games.sexta.kernel import CHAIN, SIX, SextaKernel, is_chain
from ytourney.games.slides import SlideState

__all__ = ["CHAIN", "SIX", "START_SETS", "SextaRules", "SextaState", "chain_of"]

START_SETS = {
    "between": (("B1", "F1", "J2", "L6", "A8", "A4"), ("D1", "H1", "L4", "J8", "A6", "A2")),
    "corners": (("A1", "E1", "I1", "M5", "A9", "A5"), ("C1", "G1", "K3", "K7", "A7", "A3")),
}
"""Every other perimeter node: DESIGN's `between` (the nodes between corners and side middles), or `corners`
(the other parity: Black on the corners and side middles)."""


@dataclass(frozen=True)
class SextaRules:
    """Sexta's rule options (see docs/games/sexta.md)."""

    pie: bool = False
    start: str = "between"
    rings: bool = True
    max_plies: int | None = 1000

    def to_dict(self) -> dict[str, Any]:
        """JSON form kept in records."""
        return {"pie": self.pie, "start": self.start, "rings": self.rings, "max_plies": self.max_plies}


def chain_of(board: Board, cells: Sequence[int], colour: int, rings: bool) -> tuple[int, ...]:
    """The stones of `colour` when they number six and form one chain in which none touches more than two of them
    (a closed ring of six only when `rings`), else ()."""
    own = mask_of(n for n, c in enumerate(cells) if c == colour)
    return tuple(bits(own)) if is_chain(own, neighbour_masks(board), rings) else ()


class SextaState(SlideState):
    """A Sexta position: the stones and whose turn it is."""

    example = "B1-B5"
    kernel_class = SextaKernel

    def start_sets(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Every other perimeter node (DESIGN: Black B1 F1 J2 L6 A8 A4, White D1 H1 L4 J8 A6 A2)."""
        return START_SETS[self.rules.start]

    def win_reason(self, winner: Color, stones: tuple[int, ...]) -> str:
        """'black has a chain of six: A3 B3 C3 D3 E3 F3'."""
        return f"{winner} has a chain of six: {' '.join(self.board.names[n] for n in stones)}"

    @property
    def winning_chain(self) -> tuple[int, ...]:
        """The winning six once the game is won by them, else ()."""
        return self.winning_stones
