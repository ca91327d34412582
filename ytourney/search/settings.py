"""The options of one search, resolved from a bot's spec and its game's defaults."""

from __future__ import annotations

from dataclasses import dataclass

from ytourney.games.knowledge import SearchDefaults


@dataclass(frozen=True)
class SearchSettings:
    """How a search explores, scores leaves and bounds itself."""

    exploration: float = 1.0
    """The UCT exploration constant."""
    playout_plies: int = 400
    """Plies a leaf's playout runs before the game's evaluation scores it."""
    rave: float = 0.0
    """RAVE's equivalence parameter: the visits at which AMAF and UCT values weigh equally (0: off)."""
    prior_visits: float = 0.0
    """Virtual visits a new child's prior counts for (0: priors unused)."""
    max_nodes: int = 1_000_000
    """The tree's node budget: past it, leaves are scored without being added."""
    solver: bool = True
    """Prove wins and losses (MCTS-Solver) and play a proved win at once."""
    reuse: bool = True
    """Keep the subtree of the moves played since the last search."""

    @classmethod
    def from_defaults(cls, defaults: SearchDefaults, **given: object) -> SearchSettings:
        """The game's defaults, overridden by the options a spec gave (None: not given)."""
        base = {"exploration": defaults.exploration, "playout_plies": defaults.playout_plies,
                "rave": defaults.rave, "prior_visits": defaults.prior_visits}
        base.update({key: value for key, value in given.items() if value is not None})
        return cls(**base)  # type: ignore[arg-type]
