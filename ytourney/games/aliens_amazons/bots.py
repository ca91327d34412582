"""Aliens and Amazons' own `heuristic` bot (one ply deep on the policy's evaluation, on the kernel); its `mcts` is
the generic one with the game's knowledge (knowledge.py)."""

from __future__ import annotations

import math
import random
from typing import ClassVar

from ytourney.errors import BotSpecError
from ytourney.games.aliens_amazons import tables as t
from ytourney.games.aliens_amazons.policy import evaluate
from ytourney.games.aliens_amazons.state import AliensAmazonsState
from ytourney.games.api import Move, State
from ytourney.games.bot import QUICK_SECONDS, BaseBot, BotOption, Limit


class HeuristicBot(BaseBot):
    """One ply deep: Aliens capture the most (then keep the most room), Amazons leave no capture and the least
    room."""

    name = "heuristic"
    OPTIONS: ClassVar[dict[str, BotOption]] = {
        "seconds": QUICK_SECONDS,
        "blunders": BotOption(float, 0.0, "share of its moves played at random instead, a weaker bot of one "
                                          "spec for both sides (balancing studies; 0: none)", 0, 1),
    }

    def __init__(self, seed: int | None = None, seconds: float = 0.0, blunders: float = 0.0) -> None:
        super().__init__(seed)
        self.seconds = seconds
        self.blunders = blunders
        self._rng = random.Random(seed)

    def move(self, state: State, limit: Limit) -> Move:
        """The best move by a one-ply look."""
        if not isinstance(state, AliensAmazonsState):
            raise BotSpecError(f"bot 'heuristic' plays only aliens-amazons, not {type(state).__name__!r}")
        kernel = state.kernel.clone()
        actions = kernel.legal_actions()
        if self.blunders and self._rng.random() < self.blunders:  # no draw at all without blunders: same games
            return state.move_of(self._rng.choice(actions))
        mover = kernel.to_move
        best, chosen = -math.inf, actions[0]
        for action in actions:
            kernel.apply(action)
            value = evaluate(kernel) + self._rng.random() * 1e-6
            kernel.undo()
            value = value if mover == t.ALIEN else -value
            if value > best:
                best, chosen = value, action
        return state.move_of(chosen)
