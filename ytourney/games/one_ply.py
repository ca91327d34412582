"""A base for a game's one-ply `heuristic` bot: every candidate action applied on the kernel, the position after it
scored by the game's own knowledge, undone, the best taken (ties broken by the bot's seeded generator)."""

from __future__ import annotations

import abc
import random
from typing import ClassVar

from ytourney.games.api import Move, State
from ytourney.games.bot import QUICK_SECONDS, BaseBot, BotOption, Limit
from ytourney.games.kernel import ONGOING, Kernel


class OnePlyBot(BaseBot):
    """One ply deep on the kernel: a win at once is taken, else the action whose position `score` likes best."""

    name = "heuristic"
    OPTIONS: ClassVar[dict[str, BotOption]] = {"seconds": QUICK_SECONDS}

    def __init__(self, seed: int | None = None, seconds: float = 0.0) -> None:
        super().__init__(seed)
        self.seconds = seconds
        self._rng = random.Random(seed)

    def reset(self, seed: int | None) -> None:
        """Start afresh exactly as a new bot with this seed would."""
        self.seed = seed
        self._rng.seed(seed)

    def move(self, state: State, limit: Limit) -> Move:
        """The best action one ply deep (a win at once first)."""
        kernel = state.search_kernel()
        return state.move_of(self.choose(kernel))

    def choose(self, kernel: Kernel) -> int:
        """The action this bot plays on `kernel` (left as found)."""
        mover = kernel.to_move
        actions = self.candidates(kernel)
        best, chosen = -float("inf"), actions[0]
        jitter = self._rng.random
        for action in actions:
            kernel.apply(action)
            if kernel.result != ONGOING:
                value = 1e9 if kernel.result == mover else -1e9 if kernel.result else 0.0
            else:
                value = self.score(kernel, mover, action)
            kernel.undo()
            value += jitter() * 1e-6
            if value > best:
                best, chosen = value, action
        return chosen

    def candidates(self, kernel: Kernel) -> list[int]:
        """The actions weighed (this base: every legal one)."""
        return kernel.legal_actions()

    @abc.abstractmethod
    def score(self, kernel: Kernel, mover: int, action: int) -> float:
        """How good the position on `kernel` (the game going on) is for `mover`, who has just played `action`."""
