"""Quinta's own `mcts`: UCT whose short playouts end in a count of the five-node runs each side holds alone."""

from __future__ import annotations

from ytourney.games.stones import RolloutUct


class QuintaMcts(RolloutUct):
    """UCT over Quinta with the state's cheap playouts and run heuristic (see QuintaState.rollout)."""
