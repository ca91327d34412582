"""The `random` bot: a uniformly random legal move in any game, and a coin-flip pie decision."""

from __future__ import annotations

import random
from typing import ClassVar

from ytourney.games.api import Move, State
from ytourney.games.bot import QUICK_SECONDS, BaseBot, BotOption, Limit


def playable_moves(state: State) -> list[Move]:
    """The legal moves a player chooses among: the pie answer left to `swap()`, a pass only when nothing else is
    legal (games with passes end when both pass; passing at random would end them at once)."""
    moves = state.legal_moves()
    if moves and moves[-1].is_swap:
        moves.pop()  # the pie answer comes last in every game's list
    if len(moves) > 1 and getattr(state.game, "has_passes", False):
        moves = [move for move in moves if not move.is_pass] or moves
    return moves


class RandomBot(BaseBot):
    """Plays a uniformly random legal move; swaps with probability `swap_rate`."""

    name = "random"
    OPTIONS: ClassVar[dict[str, BotOption]] = {
        "swap_rate": BotOption(float, 0.5, "probability of answering the first move with swap", 0, 1, pie_only=True),
        "seconds": QUICK_SECONDS,
    }

    def __init__(self, seed: int | None = None, swap_rate: float = 0.5, seconds: float = 0.0) -> None:
        super().__init__(seed)
        self.swap_rate = swap_rate
        self.seconds = seconds
        self._rng = random.Random(seed)

    def reset(self, seed: int | None) -> None:
        """Start afresh exactly as `RandomBot(seed, swap_rate)` would: a tournament worker reuses one bot this way."""
        self.seed = seed
        self._rng.seed(seed)

    def move(self, state: State, limit: Limit) -> Move:
        """A random legal move (in Y: a random empty cell, drawn exactly as before the game API)."""
        return self._rng.choice(playable_moves(state))

    def swap(self, state: State, limit: Limit) -> bool:
        """Swap with probability `swap_rate`."""
        return self._rng.random() < self.swap_rate
