"""Singularity's search knowledge: every leaf scored at once by the evaluation, and a win in one found cheaply.

On the C kernel (core.py) each of these runs in the core. A playout (`playout_plies` above 0) draws from a 64-bit LCG
seeded once from the search's `random.Random` (`getrandbits(64)`), each choice `(state >> 32) % n` over the legal
actions in the kernel's order, so for one seed the pure-Python and the C playouts play the same moves and return
the same value. A playout of 0 plies draws nothing: the leaf is evaluated at once.
"""

from __future__ import annotations

import functools
import math
import random

from ytourney.boards.board import Board
from ytourney.games.kernel import ONGOING, Kernel
from ytourney.games.knowledge import LCG_INC, LCG_MUL, MASK64, Knowledge, SearchDefaults, result_value
from ytourney.games.singularity.evaluation import (
    CHUNK,
    CHUNK_MASK,
    TEMPERATURE,
    cost_tables,
)
from ytourney.games.singularity.kernel import SingularityKernel



class SingularityKnowledge(Knowledge):
    """Leaves scored by stones left and their distance to the middle; a finishing slide played at once."""

    defaults = SearchDefaults(exploration=0.5, playout_plies=0)
    """Random play never finishes a game, so each new leaf is evaluated at once."""

    def __init__(self, board: Board) -> None:
        self.tables = cost_tables(board)

    def evaluate(self, kernel: Kernel) -> float:
        """Black's win chance: the logistic of White's stone costs less Black's."""
        if type(kernel) is not SingularityKernel:
            return kernel.evaluate()  # type: ignore[attr-defined, no-any-return]
        margin = 0.0
        black, white = kernel.masks[1], kernel.masks[2]
        for table in self.tables:
            margin += table[white & CHUNK_MASK] - table[black & CHUNK_MASK]
            black >>= CHUNK
            white >>= CHUNK
        return 1.0 / (1.0 + math.exp(-margin / TEMPERATURE))

    def winning_action(self, kernel: Kernel) -> int | None:
        """A slide that leaves the mover one stone on a central node (looked for only with two stones or fewer)."""
        if type(kernel) is not SingularityKernel:
            return kernel.winning_action()  # type: ignore[attr-defined, no-any-return]
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

    def urgent_actions(self, kernel: Kernel) -> list[int]:
        """The win in one, when there is one."""
        action = self.winning_action(kernel)
        return [] if action is None else [action]

    def playout_action(self, kernel: Kernel, rng: random.Random) -> int | None:
        """A random legal action (one seed drawn, one LCG step), None when there is none."""
        actions = kernel.legal_actions()
        if not actions:
            return None
        state = (rng.getrandbits(64) * LCG_MUL + LCG_INC) & MASK64
        return actions[(state >> 32) % len(actions)]

    def rollout(self, kernel: Kernel, rng: random.Random, plies: int, trace: list[int] | None = None) -> float:
        """Black's value after up to `plies` random moves, then the evaluation; the kernel is left as found. When
        `trace` is given, each action played is appended to it."""
        if kernel.result != ONGOING:
            return result_value(kernel.result)
        if plies <= 0:
            return self.evaluate(kernel)
        seed = rng.getrandbits(64)
        if type(kernel) is not SingularityKernel:
            return kernel.rollout(seed, plies, trace)  # type: ignore[attr-defined, no-any-return]
        return self.uniform_rollout(kernel, seed, plies, trace)


@functools.lru_cache(maxsize=8)
def knowledge(board: Board) -> SingularityKnowledge:
    """The knowledge of `board` (it holds only per-board tables, so one serves every rule set)."""
    return SingularityKnowledge(board)
