"""A base for a game's one-ply `heuristic` bot: every candidate action applied on the kernel, the position after it
scored by the game's own knowledge, undone, the best taken (ties broken by the bot's seeded generator).

A win at once is taken; an action after which the opponent wins at once (its knowledge's `winning_action`) ranks
below every other, so a threat is blocked whenever some action blocks it. Under the pie it swaps when its best reply
one ply deep is worth less than even, and as the first mover opens where that rule leaves the opponent nearest even.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from ytourney.games.api import Move, State
from ytourney.games.bot import QUICK_SECONDS, BaseBot, BotOption, Limit
from ytourney.games.kernel import ONGOING, Kernel
from ytourney.games.knowledge import Knowledge
from ytourney.games.pie import swap_follows

WIN = 1e9
LOSS = -1e9
LOSS_IN_ONE = -1e8
"""An action after which the opponent wins at once: above a loss, below every score."""


class OnePlyBot(BaseBot):
    """One ply deep on the kernel: a win at once, else no action that lets the opponent win at once, else the action
    whose position `score` likes best; reproducible for a seed."""

    name = "heuristic"
    OPTIONS: ClassVar[dict[str, BotOption]] = {"seconds": QUICK_SECONDS}

    def __init__(self, seed: int | None = None, seconds: float = 0.0) -> None:
        super().__init__(seed)
        self.seconds = seconds
        self._rng = random.Random(seed)
        self.knowledge = Knowledge()

    def reset(self, seed: int | None) -> None:
        """Start afresh exactly as a new bot with this seed would."""
        self.seed = seed
        self._rng.seed(seed)

    def new_game(self, board: Any, rules: Any, color: Any) -> None:
        """A new game: its knowledge is looked up on the first move."""
        super().new_game(board, rules, color)
        self.knowledge = Knowledge()

    def move(self, state: State, limit: Limit) -> Move:
        """The best action one ply deep (a win at once first); under the pie, the opening nearest even."""
        self._know(state)
        kernel = state.search_kernel()
        if swap_follows(state):
            return state.move_of(self.knowledge.even_openings(kernel, 1)[0])
        return state.move_of(self.choose(kernel))

    def swap(self, state: State, limit: Limit) -> bool:
        """Swap when the best reply one ply deep (`Knowledge.reply_value`) is worth less than even."""
        self._know(state)
        kernel = state.search_kernel()
        return self.knowledge.winning_action(kernel) is None and self.knowledge.reply_value(kernel) < 0.5

    def _know(self, state: State) -> None:
        """Look the game's knowledge up once a game."""
        if type(self.knowledge) is Knowledge:
            self.knowledge = state.game.knowledge(state.board, state.rules)

    def choose(self, kernel: Kernel) -> int:
        """The action this bot plays on `kernel` (left as found)."""
        winning = self.knowledge.winning_action(kernel)
        if winning is not None:
            return winning
        mover = kernel.to_move
        actions = self.candidates(kernel)
        best, chosen = -float("inf"), actions[0]
        jitter = self._rng.random
        for action in actions:
            kernel.apply(action)
            try:
                if kernel.result != ONGOING:
                    value = WIN if kernel.result == mover else LOSS if kernel.result else 0.0
                elif self.knowledge.winning_action(kernel) is not None:
                    value = LOSS_IN_ONE
                else:
                    value = self.score(kernel, mover, action)
            finally:
                kernel.undo()
            value += jitter() * 1e-6
            if value > best:
                best, chosen = value, action
        return chosen

    def candidates(self, kernel: Kernel) -> list[int]:
        """The actions weighed (this base: every legal one)."""
        return kernel.legal_actions()

    def score(self, kernel: Kernel, mover: int, action: int) -> float:
        """How good the position on `kernel` (the game going on, the opponent to move) is for `mover`, who has just
        played `action` (this base: the knowledge's evaluation, seen from the mover)."""
        black = self.knowledge.evaluate(kernel)
        return black if mover == 1 else 1.0 - black
