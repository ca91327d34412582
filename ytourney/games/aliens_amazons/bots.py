"""Aliens and Amazons' own `heuristic` bot (one ply deep on the policy's evaluation); its `mcts` is the generic one
with the state's rollout (see policy.py)."""

from __future__ import annotations

import math
import random
from typing import ClassVar

from ytourney.games.aliens_amazons import tables as t
from ytourney.games.aliens_amazons.policy import Sim, evaluate
from ytourney.games.aliens_amazons.state import AliensAmazonsState, to_move
from ytourney.games.api import Move, State
from ytourney.games.bot import BaseBot, BotOption, Limit


class HeuristicBot(BaseBot):
    """One ply deep: Aliens capture the most (then keep the most room), Amazons leave no capture and the least
    room."""

    name = "heuristic"
    OPTIONS: ClassVar[dict[str, BotOption]] = {}

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._rng = random.Random(seed)

    def move(self, state: State, limit: Limit) -> Move:
        """The best move by a one-ply look."""
        assert isinstance(state, AliensAmazonsState)
        sim = Sim(state)
        moves = sim.moves()
        best, chosen = -math.inf, moves[0]
        for path in moves:
            trial = sim.copy()
            trial.play(path)
            value = evaluate(trial) + self._rng.random() * 1e-6
            value = value if sim.to_move == t.ALIEN else -value
            if value > best:
                best, chosen = value, path
        return to_move(chosen, sim.tables.neighbors)
