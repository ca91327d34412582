"""Quinta's positions: twelve stones each in pairs round the perimeter, slid any distance along a line; five of one
colour adjacent along one line wins."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ytourney.games.api import Color
from ytourney.games.quinta.kernel import LINE, RUN, QuintaKernel, segments
from ytourney.games.slides import SlideState

__all__ = ["BLACK_START", "CORNERS", "LINE", "RUN", "WHITE_START", "QuintaRules", "QuintaState", "segments"]

BLACK_START = ("A1", "B1", "E1", "F1", "I1", "J2", "M5", "L6", "A9", "A8", "A5", "A4")
WHITE_START = ("C1", "D1", "G1", "H1", "K3", "L4", "K7", "J8", "A7", "A6", "A3", "A2")
"""DESIGN §1b's start: pairs round the perimeter, Black's pairs holding the corners and the middles of the sides."""
CORNERS = ("black", "white")


@dataclass(frozen=True)
class QuintaRules:
    """Quinta's rule options (see docs/games/quinta.md)."""

    pie: bool = False
    corners: str = "black"
    max_plies: int | None = 1000

    def to_dict(self) -> dict[str, Any]:
        """JSON form kept in records."""
        return {"pie": self.pie, "corners": self.corners, "max_plies": self.max_plies}


class QuintaState(SlideState):
    """A Quinta position: the stones and whose turn it is."""

    example = "E5-E7"
    kernel_class = QuintaKernel

    def start_sets(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """DESIGN's pairs round the perimeter (`corners: white` gives White the pairs on the corners)."""
        return (BLACK_START, WHITE_START) if self.rules.corners == "black" else (WHITE_START, BLACK_START)

    def win_reason(self, winner: Color, stones: tuple[int, ...]) -> str:
        """'black has five in a line: A5 B5 C5 D5 E5'."""
        return f"{winner} has five in a line: {' '.join(self.board.names[n] for n in stones)}"

    @property
    def winning_line(self) -> tuple[int, ...]:
        """The winning five once the game is won by them, else ()."""
        return self.winning_stones

