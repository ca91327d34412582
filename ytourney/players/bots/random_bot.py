"""The `random` bot: a uniformly random empty cell, and a coin-flip pie decision."""

from __future__ import annotations

import random
from typing import ClassVar

from ytourney.games.y.state import GameState
from ytourney.players.base import BaseBot, Limit
from ytourney.players.spec import BotOption


class RandomBot(BaseBot):
    """Plays a uniformly random empty cell; swaps with probability `swap_rate`."""

    name = "random"
    OPTIONS: ClassVar[dict[str, BotOption]] = {
        "swap_rate": BotOption(float, 0.5, "probability of answering the first stone with swap", 0, 1),
    }

    def __init__(self, seed: int | None = None, swap_rate: float = 0.5) -> None:
        super().__init__(seed)
        self.swap_rate = swap_rate
        self._rng = random.Random(seed)

    def reset(self, seed: int | None) -> None:
        """Start afresh exactly as `RandomBot(seed, swap_rate)` would: a tournament worker reuses one bot this way."""
        self.seed = seed
        self._rng.seed(seed)

    def move(self, state: GameState, limit: Limit) -> int:
        """A random empty cell."""
        return self._rng.choice(state.empty_cells())

    def swap(self, state: GameState, limit: Limit) -> bool:
        """Swap with probability `swap_rate`."""
        return self._rng.random() < self.swap_rate
