"""What the handicap estimator is measured against: staircases, and posterior (Thompson) sampling of the level."""

from __future__ import annotations

import random
from statistics import NormalDist

import numpy as np

from ytourney.errors import HandicapError
from ytourney.stats.handicap import PairEstimator, round_level
from ytourney.stats.handicap_grid import THETA_STEP

STAIRCASE_METHODS = ("plain", "reversals", "tail")
"""How a Staircase turns its levels into an estimate (see the class comment)."""


class Staircase:
    """One-up/one-down staircase on the signed level: the textbook baseline the estimator is measured against."""

    # After a win by the handicap receiver the next game is one level lower than the one just finished, after a
    # loss one higher (from level 0 the winner's opponent becomes the receiver at level 1). The estimate is the
    # mean of every level played ("plain": the up-and-down estimate with nothing discarded), the mean of the
    # reversal levels after discarding the first `discard` ("reversals", Wetherill/Levitt), or the mean of the last
    # half of the levels played ("tail"). Games in flight reuse the current position.

    def __init__(self, a: str, b: str, *, max_level: int = 6, start: int = 0, discard: int = 2,
                 method: str = "reversals") -> None:
        """Start at signed level `start` (positive: a receives it)."""
        if a == b:
            raise HandicapError(f"a handicap pair needs two different players, not {a!r} twice")
        if method not in STAIRCASE_METHODS:
            raise HandicapError(f"staircase method must be one of {', '.join(STAIRCASE_METHODS)}, not {method!r}")
        self.a, self.b = a, b
        self.max_level = max_level
        self.discard = discard
        self.method = method
        self._x = max(-max_level, min(max_level, start))
        self._levels: list[int] = []
        self._reversals: list[int] = []
        self._direction = 0

    def next_level(self) -> tuple[str, int]:
        """(weaker player, level) for the next game: the staircase's current position."""
        return (self.a if self._x >= 0 else self.b), abs(self._x)

    def record(self, level: int, weaker: str | None, winner: str) -> None:
        """Step the staircase after one finished game."""
        if winner not in (self.a, self.b):
            raise HandicapError(f"winner {winner!r} is not in the pair {self.a!r}, {self.b!r}")
        x = 0 if level == 0 else (level if weaker == self.a else -level)
        self._levels.append(x)
        step = -1 if winner == self.a else 1
        if self._direction and step != self._direction:
            self._reversals.append(x)
        self._direction = step
        self._x = max(-self.max_level, min(self.max_level, x + step))

    def signed_estimate(self) -> float:
        """Estimated fair level on the signed axis (positive: a is weaker)."""
        if not self._levels:
            return float(self._x)
        if self.method == "plain":
            return float(np.mean(self._levels))
        if self.method == "reversals" and len(self._reversals) > self.discard:
            kept = self._reversals[self.discard:]
            if len(kept) % 2 and len(kept) > 1:
                kept = kept[1:]
            return float(np.mean(kept))
        return float(np.mean(self._levels[len(self._levels) // 2:]))

    def estimate(self) -> tuple[str, float]:
        """(weaker player, estimated fair level)."""
        value = self.signed_estimate()
        return (self.a if value >= 0 else self.b), abs(value)


class ThompsonEstimator(PairEstimator):
    """The pair estimator choosing each level by posterior (Thompson) sampling instead of the posterior median."""

    def next_level(self, rng: random.Random) -> tuple[str, int]:
        """Draw (d, s) from the posterior and play its fair level, rounded at random."""
        cumulative = np.cumsum(self._weights().ravel())
        i = min(int(np.searchsorted(cumulative, rng.random() * float(cumulative[-1]), side="right")),
                cumulative.size - 1)
        d = float(self._grid.d_flat[i]) + (rng.random() - 0.5) * THETA_STEP
        shift = NormalDist().inv_cdf(self.target) / float(self._grid.s_flat[i])
        weaker = self.a if d >= 0 else self.b
        return weaker, round_level(min(max(abs(d) + shift, 0.0), float(self.max_level)), rng)
