"""Tetra's own `mcts`: UCT whose short playouts end in a figure count (stones each side holds alone in a figure)."""

from __future__ import annotations

from ytourney.games.stones import RolloutUct


class TetraMcts(RolloutUct):
    """UCT over Tetra with the state's cheap playouts and figure heuristic (see TetraState.rollout)."""
