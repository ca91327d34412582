"""YvY's search knowledge on the kernel: close or block a loop in one, pass back when the count wins, never pass
while a cell is empty, and playouts that fill the board in random order until the first loop.

Everything here reads the kernel through methods both kernels have (the pure-Python `YvyKernel` and the C core's
`CYvyKernel`): `placements`, `first_closing`, `count_score`, `empty_count`, `rollout`.
"""

from __future__ import annotations

import random
from typing import Any

from ytourney.games.kernel import ONGOING, PASS_ACTION
from ytourney.games.knowledge import Knowledge, SearchDefaults, result_value

BLACK = 1


def count_value(kernel: Any) -> float:
    """Black's value of the count of the position as it stands (1 win, 0 loss, 0.5 equal)."""
    black, white = kernel.count_score()
    return 0.5 if black == white else float(black > white)


class YvyKnowledge(Knowledge):
    """What YvY tells the search (docs/games/yvy.md, Bots)."""

    defaults = SearchDefaults()
    avoid_pass = True

    def search_actions(self, kernel: Any) -> list[int]:  # type: ignore[override]
        """The empty cells; the pass only on a full board (the count's pass comes through `urgent_actions`)."""
        if kernel.result != ONGOING:
            return []
        return kernel.placements() or [PASS_ACTION]

    def _pass_wins(self, kernel: Any) -> bool:
        """True when the opponent just passed and the count, ending the game now, wins for the side to move."""
        if kernel.passes != 1 or kernel.result != ONGOING:
            return False
        value = count_value(kernel)
        return value == 1.0 if kernel.to_move == BLACK else value == 0.0

    def urgent_actions(self, kernel: Any) -> list[int]:  # type: ignore[override]
        """A pass that ends a game the count wins (after the opponent's pass), else a stone that closes a loop at
        once, else one that stops the opponent's loop-in-one (with several threats the game is lost anyway)."""
        if kernel.result != ONGOING:
            return []
        if self._pass_wins(kernel):
            return [PASS_ACTION]
        me = kernel.to_move
        for colour in (me, 3 - me):
            found = kernel.first_closing(colour)
            if found is not None:
                return [found]
        return []

    def winning_action(self, kernel: Any) -> int | None:  # type: ignore[override]
        """A stone closing a loop now, else the pass that ends a game the count wins."""
        if kernel.result != ONGOING:
            return None
        found = kernel.first_closing(kernel.to_move)
        if found is not None:
            return found
        return PASS_ACTION if self._pass_wins(kernel) else None

    def evaluate(self, kernel: Any) -> float:  # type: ignore[override]
        """The count on a full board (only passes are left); a coin while cells are empty."""
        return count_value(kernel) if not kernel.empty_count else 0.5

    def playout_action(self, kernel: Any, rng: random.Random) -> int | None:  # type: ignore[override]
        """A random empty cell; the pass only on a full board."""
        if kernel.result != ONGOING:
            return None
        empties = kernel.placements()
        return empties[int(rng.random() * len(empties))] if empties else PASS_ACTION

    def rollout(self, kernel: Any, rng: random.Random, plies: int,  # type: ignore[override]
                trace: list[int] | None = None) -> float:
        """Black's value of the empty cells filled in random order from the side to move, stopping at the first
        loop (a full board without one is counted); a draw when `plies` stones, or the move limit, leave the
        board unfilled. One draw of `rng` seeds the kernel's splitmix64 stream (`YvyKernel.rollout`, the same in
        the C core), so both kernels play the same stones; the kernel is untouched."""
        if kernel.result != ONGOING:
            return result_value(kernel.result)
        return kernel.rollout(rng.getrandbits(64), plies, trace)
