"""Y's knowledge for the search library's generic `mcts` (Y's tournaments seat its own tuned bots): a playout fills
the board on one copy of the state instead of applying and undoing stone by stone."""

from __future__ import annotations

import random

from ytourney.games.kernel import Kernel
from ytourney.games.knowledge import Knowledge, result_value


class YKnowledge(Knowledge):
    """Random playouts on a copy: every Y game ends by the time the board is full, so no evaluation is needed."""

    def rollout(self, kernel: Kernel, rng: random.Random, plies: int, trace: list[int] | None = None) -> float:
        """Black's value after up to `plies` random stones on a copy of the position (the kernel is untouched)."""
        state = kernel.state_copy()  # type: ignore[attr-defined]
        cells = state.empty_cells()
        rng.shuffle(cells)
        for cell in cells[:plies]:
            if trace is not None:
                trace.append(cell)
            if state.play(cell) is not None:
                return result_value(int(state.winner))
        return 0.5


KNOWLEDGE = YKnowledge()
