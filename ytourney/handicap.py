"""Handicap ladder: settings, randomized rounding and the per-pair Bayesian fair-handicap estimator."""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from statistics import NormalDist
from typing import Any, Union

import numpy as np

from ytourney.errors import HandicapError

# The model, on one signed axis per unordered pair (a, b) with a < b in the planner:
#   x = +L when a received level L, -L when b received it, 0 for an even (pie) game;
#   P(a wins | x) = Phi(s * (x - d)).
# d > 0 means a is the weaker player and needs d levels to break even; d < 0 means b is weaker and needs -d.
# Seen from b, P(b wins | b receives L) = Phi(s * (L - (-d))): the same curve, so one grid over (d, s)
# covers both orientations and the weaker player simply follows the sign of d in the posterior.

THETA_STEP = 0.025
"""Spacing of the d grid (in handicap levels)."""
SLOPE_MIN = 0.15
"""Smallest slope s on the grid (win-probability curve per level, probit scale)."""
SLOPE_MAX = 6.0
"""Largest slope s on the grid."""
SLOPE_POINTS = 28
"""Number of log-spaced slopes on the grid."""
SLOPE_PRIOR_SD = 1.0
"""Prior on the slope: log s ~ Normal(0, SLOPE_PRIOR_SD), truncated to the grid (weakly informative)."""
CREDIBLE_MASS = 0.95
"""Mass of the credible interval reported by estimates."""
POLICIES = ("median", "sample")
"""Level-choice policies of PairEstimator: posterior median, or posterior (Thompson) sampling."""

_SQRT2 = math.sqrt(2.0)
_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


class HandicapMode(str, enum.Enum):
    """How a tournament assigns handicaps: never, at a fixed level, or estimated per pair."""

    NONE = "none"
    FIXED = "fixed"
    AUTO = "auto"


def _real(name: str, value: object) -> float:
    """Return value as a finite float, or raise a HandicapError naming it."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise HandicapError(f"handicap {name} must be a number, not {value!r}")
    result = float(value)
    if not math.isfinite(result):
        raise HandicapError(f"handicap {name} must be finite, not {value!r}")
    return result


@dataclass(frozen=True)
class HandicapSettings:
    """The `handicap:` section of a config: mode, fixed level, ladder top, target win rate, stop width."""

    mode: HandicapMode = HandicapMode.NONE
    level: float = 0.0
    max_level: int = 6
    target: float = 0.5
    stop_width: float | None = None

    def __post_init__(self) -> None:
        """Coerce the mode from its YAML string and check every value."""
        mode = self.mode
        if not isinstance(mode, HandicapMode):
            try:
                mode = HandicapMode(mode.lower() if isinstance(mode, str) else mode)
            except ValueError:
                names = ", ".join(m.value for m in HandicapMode)
                raise HandicapError(f"handicap mode must be one of {names}, not {self.mode!r}") from None
            object.__setattr__(self, "mode", mode)
        if isinstance(self.max_level, bool) or not isinstance(self.max_level, int):
            raise HandicapError(f"handicap max_level must be an integer, not {self.max_level!r}")
        if not 1 <= self.max_level <= 50:
            raise HandicapError(f"handicap max_level must be between 1 and 50, not {self.max_level!r}")
        level = _real("level", self.level)
        if not 0.0 <= level <= self.max_level:
            raise HandicapError(f"handicap level must be between 0 and max_level {self.max_level}, not {self.level!r}")
        if level != 0.0 and mode is not HandicapMode.FIXED:
            raise HandicapError(f"handicap level {self.level!r} is only used with mode fixed, not {mode.value!r}")
        object.__setattr__(self, "level", level)
        target = _real("target", self.target)
        if not 0.0 < target < 1.0:
            raise HandicapError(f"handicap target must be a win rate strictly between 0 and 1, not {self.target!r}")
        object.__setattr__(self, "target", target)
        if self.stop_width is not None:
            width = _real("stop_width", self.stop_width)
            if width <= 0.0:
                raise HandicapError(f"handicap stop_width must be positive, not {self.stop_width!r}")
            object.__setattr__(self, "stop_width", width)


def round_level(level: float, rng: random.Random) -> int:
    """Play a fractional level L + f as L + 1 with probability f, else L (always draws one number)."""
    value = _real("level", level)
    if value < 0.0:
        raise HandicapError(f"handicap level must not be negative, not {level!r}")
    base = math.floor(value)
    return int(base) + (1 if rng.random() < value - base else 0)


def normal_cdf(z: float) -> float:
    """Standard normal CDF Phi(z), accurate in both tails."""
    return 0.5 * math.erfc(-z / _SQRT2)


def _log_ndtr(z: float) -> float:
    """log Phi(z) without underflow for very negative z."""
    if z > 0.0:
        return math.log1p(-0.5 * math.erfc(z / _SQRT2))
    if z > -30.0:
        return math.log(0.5 * math.erfc(-z / _SQRT2))
    z2 = z * z
    return -0.5 * z2 - math.log(-z) - _LOG_SQRT_2PI + math.log1p(-1.0 / z2 + 3.0 / (z2 * z2))


_log_ndtr_array = np.vectorize(_log_ndtr, otypes=[float])


@dataclass(frozen=True)
class _Grid:
    """The (d, s) grid shared by every estimator with the same ladder top, flattened d-major."""

    d: np.ndarray
    s: np.ndarray
    d_flat: np.ndarray
    s_flat: np.ndarray
    log_prior_s: np.ndarray  # log prior of each cell's slope (the d prior is flat unless a hint is given)
    zero_start: int  # cells [zero_start, positive_start) have d == 0, cells from positive_start on have d > 0
    positive_start: int


@lru_cache(maxsize=None)
def _grid(max_level: int) -> _Grid:
    """Build (once per ladder top) the grid over signed fair level d and slope s."""
    half = int(round((max_level + 1) / THETA_STEP))
    d = np.arange(-half, half + 1) * THETA_STEP
    s = np.geomspace(SLOPE_MIN, SLOPE_MAX, SLOPE_POINTS)
    d_flat = np.repeat(d, s.size)
    s_flat = np.tile(s, d.size)
    log_prior_s = -0.5 * (np.log(s_flat) / SLOPE_PRIOR_SD) ** 2
    for array in (d, s, d_flat, s_flat, log_prior_s):
        array.flags.writeable = False
    return _Grid(d, s, d_flat, s_flat, log_prior_s, half * s.size, (half + 1) * s.size)


@lru_cache(maxsize=1024)
def _loglik(max_level: int, x: int) -> tuple[np.ndarray, np.ndarray]:
    """Log-likelihood over the grid of (a wins, b wins) in a game at signed level x."""
    grid = _grid(max_level)
    z = grid.s_flat * (x - grid.d_flat)
    a_wins, b_wins = _log_ndtr_array(z), _log_ndtr_array(-z)
    a_wins.flags.writeable = False
    b_wins.flags.writeable = False
    return a_wins, b_wins


@dataclass(frozen=True)
class _Binning:
    """Where each grid cell's fair level falls on a 1-D histogram, for both orientations."""

    start: float
    size: int
    index_a: np.ndarray | None  # None: the fair level is d itself, so the histogram is the d marginal
    index_b: np.ndarray | None


@lru_cache(maxsize=64)
def _binning(max_level: int, target: float) -> _Binning:
    """Bin the fair level (the level where the weaker wins with probability target) of every cell."""
    grid = _grid(max_level)
    if target == 0.5:
        return _Binning(float(grid.d[0]), grid.d.size, None, None)
    shift = NormalDist().inv_cdf(target) / grid.s_flat
    value_a, value_b = grid.d_flat + shift, -grid.d_flat + shift
    start = float(min(value_a.min(), value_b.min()))
    index_a = np.rint((value_a - start) / THETA_STEP).astype(np.intp)
    index_b = np.rint((value_b - start) / THETA_STEP).astype(np.intp)
    size = int(max(index_a.max(), index_b.max())) + 1
    return _Binning(start, size, index_a, index_b)


@dataclass(frozen=True)
class HandicapHint:
    """Prior knowledge about a pair: who is probably weaker and by about how many levels."""

    weaker: str
    level: float
    sd: float = 1.5

    def __post_init__(self) -> None:
        """Check the hint's numbers."""
        object.__setattr__(self, "level", _real("hint level", self.level))
        sd = _real("hint sd", self.sd)
        if sd <= 0.0:
            raise HandicapError(f"handicap hint sd must be positive, not {self.sd!r}")
        object.__setattr__(self, "sd", sd)


def hint_from_ratings(a: str, mu_a: float, b: str, mu_b: float, *, mu_per_level: float = 4.0,
                      sd: float = 1.5) -> HandicapHint:
    """Turn two ratings into a hint: the lower-rated player needs |mu_a - mu_b| / mu_per_level levels."""
    per_level = _real("mu_per_level", mu_per_level)
    if per_level <= 0.0:
        raise HandicapError(f"handicap mu_per_level must be positive, not {mu_per_level!r}")
    gap = _real("rating", mu_b) - _real("rating", mu_a)
    return HandicapHint(a if gap >= 0 else b, abs(gap) / per_level, sd)


@dataclass(frozen=True)
class HandicapEstimate:
    """A pair's fair handicap: the weaker player, posterior median and 95% interval, and the games behind it."""

    # median, low, high: levels the weaker player should receive (low may dip below 0 while the orientation is
    # unsure). p_weaker: posterior probability that `weaker` really is the weaker player. per_level: level ->
    # (games, wins of `weaker`); a negative key -L counts games in which `stronger` received level L (possible
    # only when the orientation flipped after those games were dispatched).
    weaker: str
    stronger: str
    median: float
    low: float
    high: float
    games: int
    per_level: dict[int, tuple[int, int]] = field(default_factory=dict)
    p_weaker: float = 0.5

    @property
    def width(self) -> float:
        """Width of the credible interval, in levels."""
        return self.high - self.low


@dataclass(frozen=True)
class _Summary:
    """Cached posterior summary, valid until the next recorded result."""

    weaker: str
    p_weaker: float
    median: float
    low: float
    high: float


class PairEstimator:
    """Bayesian fair-handicap estimator for one unordered pair; cheap enough to ask at every dispatch."""

    def __init__(self, a: str, b: str, *, max_level: int = 6, target: float = 0.5,
                 hint: HandicapHint | None = None, policy: str = "median") -> None:
        """Start from a flat prior on the signed fair level (or the hint's normal prior) and log-normal slope."""
        if a == b:
            raise HandicapError(f"a handicap pair needs two different players, not {a!r} twice")
        if policy not in POLICIES:
            raise HandicapError(f"handicap policy must be one of {', '.join(POLICIES)}, not {policy!r}")
        settings = HandicapSettings(HandicapMode.AUTO, max_level=max_level, target=target)
        self.a, self.b = a, b
        self.max_level = settings.max_level
        self.target = settings.target
        self.policy = policy
        self._grid = _grid(self.max_level)
        self._binning = _binning(self.max_level, self.target)
        self._log_prior: np.ndarray | None = self._prior(hint)
        self._log_post = self._grid.log_prior_s.copy()
        if self._log_prior is not None:
            self._log_post += self._log_prior
        self._wins: dict[int, list[int]] = {}
        self._games = 0
        self._summary: _Summary | None = None
        self._cumulative: np.ndarray | None = None

    def _prior(self, hint: HandicapHint | None) -> np.ndarray | None:
        """Log prior of d over the grid from a hint (None: flat); the slope prior is the grid's, always."""
        if hint is None:
            return None
        if hint.weaker not in (self.a, self.b):
            raise HandicapError(f"handicap hint names {hint.weaker!r}, who is not in the pair {self.a!r}, {self.b!r}")
        centre = hint.level if hint.weaker == self.a else -hint.level
        return -0.5 * ((self._grid.d_flat - centre) / hint.sd) ** 2

    def set_hint(self, hint: HandicapHint | None) -> None:
        """Replace the prior (results already recorded are kept)."""
        prior = self._prior(hint)
        if self._log_prior is not None:
            self._log_post -= self._log_prior
        if prior is not None:
            self._log_post += prior
        self._log_prior = prior
        self._invalidate()

    @property
    def games(self) -> int:
        """Number of results recorded."""
        return self._games

    def _invalidate(self) -> None:
        """Forget the cached summary after the posterior changed."""
        self._summary = None
        self._cumulative = None

    def record(self, level: int, weaker: str | None, winner: str) -> None:
        """Add one finished game: the level played, who received it (ignored at level 0) and who won."""
        if isinstance(level, bool) or not isinstance(level, (int, np.integer)) or level < 0:
            raise HandicapError(f"handicap level played must be a non-negative integer, not {level!r}")
        if winner not in (self.a, self.b):
            raise HandicapError(f"winner {winner!r} is not in the pair {self.a!r}, {self.b!r}")
        level = int(level)
        if level == 0:
            x = 0
        elif weaker == self.a:
            x = level
        elif weaker == self.b:
            x = -level
        else:
            raise HandicapError(f"handicap receiver {weaker!r} is not in the pair {self.a!r}, {self.b!r}")
        a_wins, b_wins = _loglik(self.max_level, x)
        a_won = winner == self.a
        self._log_post += a_wins if a_won else b_wins
        self._wins.setdefault(x, [0, 0])[0 if a_won else 1] += 1
        self._games += 1
        self._invalidate()

    def _weights(self) -> np.ndarray:
        """Unnormalised posterior weights over the flattened grid."""
        return np.exp(self._log_post - self._log_post.max())

    def _summarise(self) -> _Summary:
        """Posterior orientation, median and credible interval (cached until the next result)."""
        if self._summary is not None:
            return self._summary
        weights = self._weights()
        total = float(weights.sum())
        grid = self._grid
        p_a = float(weights[grid.positive_start:].sum()
                    + 0.5 * weights[grid.zero_start:grid.positive_start].sum()) / total
        a_weaker = p_a >= 0.5
        index = self._binning.index_a if a_weaker else self._binning.index_b
        if index is None:
            mass = weights.reshape(grid.d.size, grid.s.size).sum(axis=1) / total
            if not a_weaker:
                mass = mass[::-1]  # the fair level of b is -d, on the same symmetric grid
        else:
            mass = np.bincount(index, weights=weights, minlength=self._binning.size) / total
        cdf = np.cumsum(mass)
        tail = (1.0 - CREDIBLE_MASS) / 2.0
        low, median, high = (self._quantile(mass, cdf, q) for q in (tail, 0.5, 1.0 - tail))
        self._summary = _Summary(self.a if a_weaker else self.b, p_a if a_weaker else 1.0 - p_a, median, low, high)
        return self._summary

    def _quantile(self, mass: np.ndarray, cdf: np.ndarray, q: float) -> float:
        """Quantile of the binned fair level, spreading each bin's mass uniformly over its width."""
        i = min(int(np.searchsorted(cdf, q)), cdf.size - 1)
        before = float(cdf[i - 1]) if i > 0 else 0.0
        fraction = (q - before) / float(mass[i]) if mass[i] > 0 else 0.5
        centre = self._binning.start + i * THETA_STEP
        return centre + (min(max(fraction, 0.0), 1.0) - 0.5) * THETA_STEP

    def next_level(self, rng: random.Random) -> tuple[str, int]:
        """The next game's (weaker player, integer level): a pure function of results so far and rng."""
        if self.policy == "sample":
            return self._sampled_level(rng)
        summary = self._summarise()
        return summary.weaker, round_level(min(max(summary.median, 0.0), float(self.max_level)), rng)

    def _sampled_level(self, rng: random.Random) -> tuple[str, int]:
        """Thompson sampling: draw (d, s) from the posterior and play its fair level, rounded at random."""
        if self._cumulative is None:
            self._cumulative = np.cumsum(self._weights())
        cumulative = self._cumulative
        i = min(int(np.searchsorted(cumulative, rng.random() * float(cumulative[-1]), side="right")),
                cumulative.size - 1)
        d = float(self._grid.d_flat[i]) + (rng.random() - 0.5) * THETA_STEP
        shift = NormalDist().inv_cdf(self.target) / float(self._grid.s_flat[i])
        weaker = self.a if d >= 0 else self.b
        return weaker, round_level(min(max(abs(d) + shift, 0.0), float(self.max_level)), rng)

    def estimate(self) -> HandicapEstimate:
        """Posterior median and 95% credible interval of the fair level, with the per-level tallies."""
        summary = self._summarise()
        sign = 1 if summary.weaker == self.a else -1
        weaker_index = 0 if summary.weaker == self.a else 1
        per_level = {sign * x: (wins[0] + wins[1], wins[weaker_index])
                     for x, wins in sorted(self._wins.items(), key=lambda item: sign * item[0])}
        stronger = self.b if summary.weaker == self.a else self.a
        return HandicapEstimate(summary.weaker, stronger, summary.median, summary.low, summary.high,
                                self._games, per_level, summary.p_weaker)

    def done(self, stop_width: float | None) -> bool:
        """True once the credible interval is narrower than stop_width (never when it is None)."""
        if stop_width is None:
            return False
        width = _real("stop_width", stop_width)
        if width <= 0.0:
            raise HandicapError(f"handicap stop_width must be positive, not {stop_width!r}")
        summary = self._summarise()
        return summary.high - summary.low < width


ReplayRecord = Union[Sequence[Any], Mapping[str, Any]]
"""One stored result for HandicapPlanner.replay (the accepted shapes are listed in its body)."""


def _pair_key(a: str, b: str) -> tuple[str, str]:
    """The planner's key for an unordered pair: the two names sorted."""
    if a == b:
        raise HandicapError(f"a handicap pair needs two different players, not {a!r} twice")
    return (a, b) if a < b else (b, a)


class HandicapPlanner:
    """One PairEstimator per unordered pair: records results, picks the next game's handicap, reports."""

    def __init__(self, settings: HandicapSettings, *, policy: str = "median") -> None:
        """Plan handicaps as `settings` says; estimators are created on first use of a pair."""
        if policy not in POLICIES:
            raise HandicapError(f"handicap policy must be one of {', '.join(POLICIES)}, not {policy!r}")
        self.settings = settings
        self.policy = policy
        self._pairs: dict[tuple[str, str], PairEstimator] = {}

    def estimator(self, a: str, b: str) -> PairEstimator:
        """The estimator of pair {a, b}, created empty if needed."""
        key = _pair_key(a, b)
        if key not in self._pairs:
            self._pairs[key] = PairEstimator(*key, max_level=self.settings.max_level, target=self.settings.target,
                                             policy=self.policy)
        return self._pairs[key]

    def set_hint(self, hint: HandicapHint | None, a: str, b: str) -> None:
        """Use hint (e.g. from hint_from_ratings) as the prior of pair {a, b}; results already in are kept."""
        self.estimator(a, b).set_hint(hint)

    def record(self, a: str, b: str, level: int, weaker: str | None, winner: str) -> None:
        """Add one finished game of pair {a, b}: level played, who received it (None at level 0), winner."""
        self.estimator(a, b).record(level, weaker, winner)

    def next_game(self, a: str, b: str, rng: random.Random) -> tuple[str, int]:
        """(weaker player, integer level) for the next game of {a, b}; level 0 means an even game with pie."""
        mode = self.settings.mode
        if mode is HandicapMode.NONE:
            return _pair_key(a, b)[0], 0
        estimator = self.estimator(a, b)
        if mode is HandicapMode.FIXED:
            return estimator.estimate().weaker, round_level(self.settings.level, rng)
        return estimator.next_level(rng)

    def done(self, a: str, b: str) -> bool:
        """True once pair {a, b}'s interval is narrower than settings.stop_width (never when it is unset)."""
        return self.estimator(a, b).done(self.settings.stop_width)

    def estimates(self) -> dict[tuple[str, str], HandicapEstimate]:
        """Every pair's estimate, keyed by the sorted pair of names."""
        return {key: self._pairs[key].estimate() for key in sorted(self._pairs)}

    def replay(self, records: Iterable[ReplayRecord]) -> int:
        """Rebuild from stored results in game-id order; returns how many records were replayed."""
        # Each record is one of:
        #   a tuple (a, b, level, weaker, winner)          weaker may be None at level 0;
        #   a mapping with keys a, b, level, weaker, winner (weaker optional at level 0);
        #   a game record mapping with black, white, handicap, winner_name and optionally first: at level >= 1
        #   the weaker player is Black and moves first (no pie), at level 0 nobody received anything.
        # The posterior is a sum over results, so estimates do not depend on the order games finished in.
        count = 0
        for record in records:
            self.record(*_unpack(record))
            count += 1
        return count


def _unpack(record: ReplayRecord) -> tuple[str, str, int, str | None, str]:
    """Read one replay record into (a, b, level, weaker, winner)."""
    if isinstance(record, Mapping):
        try:
            if "handicap" in record:
                level = record["handicap"]
                weaker = (record.get("first") or record["black"]) if level else None
                return record["black"], record["white"], level, weaker, record["winner_name"]
            return record["a"], record["b"], record["level"], record.get("weaker"), record["winner"]
        except KeyError as missing:
            raise HandicapError(f"handicap replay record lacks key {missing.args[0]!r}: {dict(record)!r}") from None
    if isinstance(record, Sequence) and not isinstance(record, str) and len(record) == 5:
        a, b, level, weaker, winner = record
        return a, b, level, weaker, winner
    raise HandicapError(f"handicap replay record must be (a, b, level, weaker, winner) or a mapping, not {record!r}")


class Staircase:
    """One-up/one-down staircase on the signed level: the textbook baseline the estimator is measured against."""

    # After a win by the handicap receiver the next game is one level lower than the one just finished, after a
    # loss one higher (from level 0 the winner's opponent becomes the receiver at level 1). The estimate is the
    # mean of the reversal levels after discarding the first `discard` ("reversals", Wetherill/Levitt), or the
    # mean of the last half of the levels played ("tail"). Games in flight reuse the current position.

    def __init__(self, a: str, b: str, *, max_level: int = 6, start: int = 0, discard: int = 2,
                 method: str = "reversals") -> None:
        """Start at signed level `start` (positive: a receives it)."""
        if a == b:
            raise HandicapError(f"a handicap pair needs two different players, not {a!r} twice")
        if method not in ("reversals", "tail"):
            raise HandicapError(f"staircase method must be reversals or tail, not {method!r}")
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
