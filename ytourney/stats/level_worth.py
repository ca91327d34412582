"""What each handicap level is worth in skill points, learned from the games while they are rated.

The weaker player of a handicap game plays as a team with a virtual team-mate whose skill is what the level is
worth. That team-mate is scaled (weight `BONUS_WEIGHT`, skill and deviation divided by it) so it adds its skill and
its uncertainty to the team but no performance noise of its own; its posterior after each game is the level's new
worth, kept non-decreasing in the level by weighted isotonic regression, with level 0 worth exactly 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import trueskill

from ytourney.errors import RatingsError

BONUS_WEIGHT = 0.01
"""Partial-play weight of the scaled virtual team-mate that carries a level's worth (its skill and deviation are
divided by it): the team gains the worth and its uncertainty, and only BONUS_WEIGHT**2 * beta**2 of noise."""


@dataclass(frozen=True)
class LevelValue:
    """What a handicap level was worth at the end of a replay (skill points), on one board."""

    board: str
    level: int
    mu: float
    sigma: float
    games: int


class LearnedLevelWorth:
    """Each level's worth in skill points on one board, learned from the games, non-decreasing in the level.

    Level L starts at Normal(L * per_level, sigma^2) (the ratings use one beta per level, with the players' prior
    deviation). After every game the level's posterior replaces its worth, then the worths of levels 1..top are
    made non-decreasing by pool-adjacent-violators weighted by their precisions and floored at 0, the worth of
    level 0 (an even game). Deviations are kept per level.
    """

    def __init__(self, per_level: float, sigma: float) -> None:
        """Prior: level L worth L * per_level skill points with deviation sigma."""
        for name, value in (("per_level", per_level), ("sigma", sigma)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise RatingsError(f"handicap worth {name} must be a finite number, got {value!r}")
        if per_level < 0:
            raise RatingsError(f"handicap worth per_level must be zero or positive, got {per_level!r}")
        if sigma <= 0:
            raise RatingsError(f"handicap worth sigma must be positive, got {sigma!r}")
        self.per_level = float(per_level)
        self.sigma = float(sigma)
        self.worth: dict[int, trueskill.Rating] = {}

    def prior(self, level: int) -> trueskill.Rating:
        """The worth of a level before any game at it."""
        return trueskill.Rating(mu=level * self.per_level, sigma=self.sigma)

    def bonus(self, level: int) -> trueskill.Rating | None:
        """The current worth of `level` (None at level 0: an even game); above the levels learned, at least theirs."""
        if level <= 0:
            return None
        if level in self.worth:
            return self.worth[level]
        prior = self.prior(level)
        below = max((float(rating.mu) for k, rating in self.worth.items() if k < level), default=0.0)
        return trueskill.Rating(mu=max(float(prior.mu), below), sigma=float(prior.sigma))

    def learn(self, level: int, posterior: trueskill.Rating) -> None:
        """Take the posterior worth of `level`, then restore monotonicity over levels 1..top."""
        if level <= 0:
            return
        top = max(max(self.worth, default=0), level)
        for other in range(1, top + 1):
            if other not in self.worth:
                self.worth[other] = self.bonus(other)
        self.worth[level] = trueskill.Rating(mu=float(posterior.mu), sigma=float(posterior.sigma))
        levels = list(range(1, top + 1))
        means = isotonic([float(self.worth[k].mu) for k in levels],
                         [1.0 / float(self.worth[k].sigma) ** 2 for k in levels], floor=0.0)
        for k, mean in zip(levels, means):
            self.worth[k] = trueskill.Rating(mu=mean, sigma=float(self.worth[k].sigma))


def isotonic(values: list[float], weights: list[float], *, floor: float | None = None) -> list[float]:
    """Weighted least-squares non-decreasing fit (pool adjacent violators), optionally floored."""
    blocks: list[list[float]] = []  # [weighted mean, total weight, count]
    for value, weight in zip(values, weights):
        blocks.append([value, weight, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            mean, total, count = blocks.pop()
            previous = blocks[-1]
            joined = previous[1] + total
            previous[0] = (previous[0] * previous[1] + mean * total) / joined
            previous[1] = joined
            previous[2] += count
    fitted = [mean for mean, _, count in blocks for _ in range(int(count))]
    return [max(v, floor) for v in fitted] if floor is not None else fitted
