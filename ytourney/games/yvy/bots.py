"""YvY's own `random` (with an optional late pass); its `mcts` is the generic one with the state's hooks."""

from __future__ import annotations

import random
from typing import ClassVar

from ytourney.games.api import PASS, Move, MoveKind, State
from ytourney.games.bot import QUICK_SECONDS, BaseBot, BotOption, Limit


def _placements(state: State) -> list[Move]:
    """The placements among the legal moves (no pass, no swap)."""
    return [move for move in state.legal_moves() if move.kind is MoveKind.PLACE]


class YvyRandomBot(BaseBot):
    """A random placement; passes when nothing else is legal, or (option) with a small probability late on."""

    name = "random"
    OPTIONS: ClassVar[dict[str, BotOption]] = {
        "swap_rate": BotOption(float, 0.5, "probability of answering the first move with swap", 0, 1, pie_only=True),
        "late_pass": BotOption(float, 0.0, "probability of passing once the board is `late` full", 0, 1),
        "late": BotOption(float, 0.5, "the share of filled cells from which `late_pass` applies", 0, 1),
        "seconds": QUICK_SECONDS,
    }

    def __init__(self, seed: int | None = None, swap_rate: float = 0.5, late_pass: float = 0.0,
                 late: float = 0.5, seconds: float = 0.0) -> None:
        super().__init__(seed)
        self.seconds = seconds
        self.swap_rate = swap_rate
        self.late_pass = late_pass
        self.late = late
        self._rng = random.Random(seed)

    def reset(self, seed: int | None) -> None:
        """Start afresh exactly as a new bot with this seed would."""
        self.seed = seed
        self._rng.seed(seed)

    def move(self, state: State, limit: Limit) -> Move:
        """A random empty cell (drawn exactly as the generic random draws), or a pass (see the options)."""
        moves = _placements(state)
        if not moves:
            return PASS
        if self.late_pass > 0:
            filled = 1 - len(moves) / len(state.cells)
            if filled >= self.late and self._rng.random() < self.late_pass:
                return PASS
        return self._rng.choice(moves)

    def swap(self, state: State, limit: Limit) -> bool:
        """Swap with probability `swap_rate`."""
        return self._rng.random() < self.swap_rate
