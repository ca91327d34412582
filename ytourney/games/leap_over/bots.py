"""Leap Over's own `heuristic` bot: one ply deep on the kernel, every chain the search would weigh scored by the race
evaluation (distances to the goal, the last stone, stranded stones, stones at home) and a push to leave home."""

from __future__ import annotations

from ytourney.games.kernel import Kernel
from ytourney.games.leap_over.kernel import tables
from ytourney.games.leap_over.knowledge import knowledge
from ytourney.games.one_ply import OnePlyBot

LEAVE_HOME = 0.1
"""What each own stone still at home costs on top of the evaluation (in its win-chance units). Under the book's goal
a stone left at home blocks the opponent's goal for ever; a one-ply race that leaves its last one there (its
neighbours gone, it looks stranded outside) draws every game at the move limit."""


class HeuristicBot(OnePlyBot):
    """The chain after which the race evaluation likes the position best; a filling chain at once."""

    def candidates(self, kernel: Kernel) -> list[int]:
        """One chain per stone and landing (the search's), the pass when there is none."""
        return knowledge(self.board).search_actions(kernel)  # type: ignore[arg-type]

    def score(self, kernel: Kernel, mover: int, action: int) -> float:
        """The mover's chance by the race evaluation."""
        black = knowledge(self.board).race_value(kernel)  # type: ignore[arg-type]
        at_home = (kernel.masks[mover] & tables(self.board).homes[mover]).bit_count()  # type: ignore[attr-defined]
        return (black if mover == 1 else 1.0 - black) - LEAVE_HOME * at_home
