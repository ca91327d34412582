"""Sexta's own `mcts`: UCT whose short playouts end in a shape count (touching pairs and the largest group)."""

from __future__ import annotations

from ytourney.games.stones import RolloutUct


class SextaMcts(RolloutUct):
    """UCT over Sexta with the state's cheap playouts and chain heuristic (see SextaState.rollout)."""
