"""Singularity's search knowledge: every leaf scored at once by the evaluation, and a win in one found cheaply."""

from __future__ import annotations

import functools
import math

from ytourney.boards.board import Board
from ytourney.games.kernel import ONGOING
from ytourney.games.knowledge import Knowledge, SearchDefaults
from ytourney.games.singularity.evaluation import CHUNK, CHUNK_MASK, TEMPERATURE, cost_tables
from ytourney.games.singularity.kernel import SingularityKernel


class SingularityKnowledge(Knowledge):
    """Leaves scored by stones left and their distance to the middle; a finishing slide played at once."""

    defaults = SearchDefaults(exploration=0.5, playout_plies=0)
    """Random play never finishes a game, so each new leaf is evaluated at once."""

    def __init__(self, board: Board) -> None:
        self.tables = cost_tables(board)

    def evaluate(self, kernel: SingularityKernel) -> float:  # type: ignore[override]
        """Black's win chance: the logistic of White's stone costs less Black's."""
        margin = 0.0
        black, white = kernel.masks[1], kernel.masks[2]
        for table in self.tables:
            margin += table[white & CHUNK_MASK] - table[black & CHUNK_MASK]
            black >>= CHUNK
            white >>= CHUNK
        return 1.0 / (1.0 + math.exp(-margin / TEMPERATURE))

    def winning_action(self, kernel: SingularityKernel) -> int | None:  # type: ignore[override]
        """A slide that leaves the mover one stone on a central node (looked for only with two stones or fewer)."""
        me = kernel.to_move
        stones = kernel.stones[me]
        if stones > 2 or kernel.result != ONGOING:
            return None
        tables = kernel.t
        central = tables.central
        for action in kernel.legal_actions():
            target = tables.decode[action][1]
            if central[target] and (stones == 1 or kernel.capture_of(action) is not None):
                return action
        return None

    def urgent_actions(self, kernel: SingularityKernel) -> list[int]:  # type: ignore[override]
        """The win in one, when there is one."""
        action = self.winning_action(kernel)
        return [] if action is None else [action]


@functools.lru_cache(maxsize=8)
def knowledge(board: Board) -> SingularityKnowledge:
    """The knowledge of `board` (it holds only per-board tables, so one serves every rule set)."""
    return SingularityKnowledge(board)
