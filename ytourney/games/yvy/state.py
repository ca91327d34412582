"""YvY's rules value and position: place or pass, a loop wins at once, two passes in a row end with a count."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ytourney.games.api import Color, Move, MoveKind
from ytourney.games.front import KernelState
from ytourney.games.yvy.ckernel import move_objects, new_kernel
from ytourney.games.yvy.geometry import Geometry, loop_cells
from ytourney.games.yvy.kernel import LOOP, SCORE, YvyKernel
from ytourney.games.yvy.scoring import Count, count

__all__ = ["DEFAULT_MAX_PLIES", "LOOP", "SCORE", "YvyRules", "YvyState"]

DEFAULT_MAX_PLIES = 1000
"""Above every possible game: a game has at most one pass per stone plus the final pair and the swap, and
hex:12 (the largest) has 433 cells, so 2 x 433 + 3 < 1000."""


@dataclass(frozen=True)
class YvyRules:
    """The swap (pie) rule and the move limit."""

    pie: bool = True
    max_plies: int = DEFAULT_MAX_PLIES

    def to_dict(self) -> dict[str, Any]:
        """JSON form used in records."""
        return {"pie": self.pie, "max_plies": self.max_plies}


class YvyState(KernelState):
    """A YvY position for the tool: the kernel's stones, the pie rule offered only after a stone, the end in words."""

    kernel: YvyKernel

    def new_kernel(self) -> YvyKernel:
        """The empty board, White to move (on the C core when it is loaded: ckernel.py)."""
        return new_kernel(self.board, self.rules.max_plies)  # type: ignore[no-any-return]

    def listed_moves(self) -> list[Move] | None:
        """The legal Moves as the kernel lists them (either kernel: it reads this game's Move objects)."""
        try:
            objects = self._objects
        except AttributeError:  # the first list of this game (a copy carries the tuple along)
            objects = self._objects = move_objects(self._moves, self.board.num_cells)
        return self.kernel.legal_objects(objects)  # type: ignore[attr-defined,no-any-return]

    @property
    def geo(self) -> Geometry:
        """The board's tables (neighbours in order, sprouts, edge)."""
        return self.kernel.geo

    @property
    def loop_at(self) -> int | None:
        """The cell whose stone closed the winning loop, if a loop ended the game."""
        return self.kernel.loop_at

    @property
    def final_count(self) -> Count | None:
        """The count that ended the game after two passes (None otherwise)."""
        return self.kernel.count

    def can_swap(self) -> bool:
        """The generic pie answer, offered only after a stone (not after an opening pass)."""
        history = self._history
        return len(history) == 1 and history[0].kind is MoveKind.PLACE and super().can_swap()

    def end_reason(self) -> str:
        """The loop's cell, or each side's sprouts, groups and score."""
        kernel = self.kernel
        if kernel.termination is LOOP:
            return f"{Color(kernel.result)} closed a loop at {self.board.names[kernel.loop_at]}"  # type: ignore[index]
        final = kernel.count
        if kernel.termination is SCORE and final is not None:
            black, white = final.score
            return (f"black {final.black.sprouts} sprouts, {final.black.counted_groups} groups: {black}; "
                    f"white {final.white.sprouts} sprouts, {final.white.counted_groups} groups: {white}")
        return super().end_reason()

    def loop_stones(self) -> frozenset[int]:
        """The stones of the winning loop (empty unless a loop ended the game)."""
        if self.kernel.loop_at is None:
            return frozenset()
        return loop_cells(self.kernel.geo, self.kernel.cells, self.kernel.loop_at)

    def current_count(self) -> Count:
        """What the count would be if both players passed now."""
        return count(self.kernel.geo, self.kernel.cells)
