"""Handicap ladder: settings, randomized rounding and the Bayesian fair-handicap estimator of every pair.

Each pair's posterior lives on a grid over its signed fair level d and slope s (model below); the next game of a
pair is played at the randomized rounding of the posterior median, decided when the game is dispatched, whatever
is still in flight. A HandicapPlanner holds the pairs of a tournament and, by default, lets them inform each
other's priors (a shared slope; strengths on the level scale). Only games decided on the board count: faults and
forfeits are left out. The posterior depends on the win counts per level alone, computed exactly, so a resumed
tournament rebuilds it bit for bit from the stored games in any order.
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from statistics import NormalDist
from typing import Any

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
STOP_MIN_GAMES = 8
"""A pair never stops early before this many of its own games, however narrow a pooled prior made its interval."""
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
    """The `handicap:` section of a config: mode, fixed level, ladder top, target win rate, stop width (a plain
    value: the config reader checks 0 <= level <= max_level <= 50, 0 < target < 1 and stop_width > 0)."""

    mode: HandicapMode = HandicapMode.NONE
    level: float = 0.0
    max_level: int = 6
    target: float = 0.5
    stop_width: float | None = None


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
    """The (d, s) grid shared by every estimator with the same ladder top; posteriors are (d, s) arrays."""

    d: np.ndarray
    s: np.ndarray
    log_s: np.ndarray
    log_prior_s: np.ndarray  # log prior of each slope: log s ~ Normal(0, SLOPE_PRIOR_SD), up to a constant
    d_flat: np.ndarray  # the grid flattened d-major, for the binning of other targets and posterior sampling
    s_flat: np.ndarray
    zero: int  # index of d == 0
    flat_variance: float  # variance of d under the flat prior over the grid (no information)


@cache
def _grid(max_level: int) -> _Grid:
    """Build (once per ladder top) the grid over signed fair level d and slope s."""
    half = round((max_level + 1) / THETA_STEP)
    d = np.arange(-half, half + 1) * THETA_STEP
    s = np.geomspace(SLOPE_MIN, SLOPE_MAX, SLOPE_POINTS)
    log_s = np.log(s)
    log_prior_s = -0.5 * (log_s / SLOPE_PRIOR_SD) ** 2
    d_flat = np.repeat(d, s.size)
    s_flat = np.tile(s, d.size)
    for array in (d, s, log_s, log_prior_s, d_flat, s_flat):
        array.flags.writeable = False
    return _Grid(d, s, log_s, log_prior_s, d_flat, s_flat, half, float(np.var(d)))


LOG_QUANTUM = 2.0 ** -24
"""Log-likelihood terms are rounded to multiples of this, so sums of them are exact floats in any order (up to a
magnitude of 2**29): the posterior is bit for bit the same however the games were ordered or replayed."""


class _Likelihood:
    """Log-likelihood rows over the flattened grid, two per signed level x (a wins, b wins), built on first use."""

    def __init__(self, max_level: int) -> None:
        self.max_level = max_level
        self._grid = _grid(max_level)
        self._rows: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def rows(self, x: int) -> tuple[np.ndarray, np.ndarray]:
        """(log P(a wins), log P(b wins)) at signed level x over the (d, s) grid, quantized to LOG_QUANTUM."""
        if x not in self._rows:
            grid = self._grid
            z = grid.s_flat * (x - grid.d_flat)
            pair = []
            for values in (_log_ndtr_array(z), _log_ndtr_array(-z)):
                row = (np.round(values / LOG_QUANTUM) * LOG_QUANTUM).reshape(grid.d.size, grid.s.size)
                row.flags.writeable = False
                pair.append(row)
            self._rows[x] = (pair[0], pair[1])
        return self._rows[x]


@cache
def _likelihood(max_level: int) -> _Likelihood:
    """The shared likelihood table of a ladder top."""
    return _Likelihood(max_level)


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


EXP_FLOOR = -60.0
"""Log weights this far below the largest count as exp(EXP_FLOOR) (about 1e-26): keeps exp out of subnormals."""


def _exp_relative(values: np.ndarray) -> np.ndarray:
    """exp(values - max(values)), with anything below EXP_FLOOR raised to it (subnormals make exp slow)."""
    return np.exp(np.maximum(values - values.max(), EXP_FLOOR))


def _logsumexp(values: np.ndarray, axis: int | None = None) -> np.ndarray:
    """log(sum(exp(values))) without overflow."""
    top = np.max(values, axis=axis, keepdims=True)
    total = np.log(np.sum(np.exp(np.maximum(values - top, EXP_FLOOR)), axis=axis, keepdims=True)) + top
    return np.squeeze(total, axis=axis) if axis is not None else total.reshape(())


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
    # only when the orientation flipped after those games were dispatched). slope: posterior median of s, how
    # steeply the weaker player's win chance rises per level (probit scale). pooled: the tournament's other
    # pairs informed the prior (shared slope and level-scale strengths), see HandicapPlanner.
    weaker: str
    stronger: str
    median: float
    low: float
    high: float
    games: int
    per_level: dict[int, tuple[int, int]] = field(default_factory=dict)
    p_weaker: float = 0.5
    slope: float = float("nan")
    pooled: bool = False

    @property
    def width(self) -> float:
        """Width of the credible interval, in levels."""
        return self.high - self.low


@dataclass(frozen=True)
class _Summary:
    """Cached posterior summary, valid until the next recorded result or prior change."""

    weaker: str
    p_weaker: float
    median: float
    low: float
    high: float
    slope: float


@dataclass(frozen=True)
class _Evidence:
    """What a pair's own games say, for pooling: log evidence per slope, and the mean and variance of d."""

    log_slope: np.ndarray
    mean: float
    variance: float
    games: int


class PairEstimator:
    """Bayesian fair-handicap estimator for one unordered pair; cheap enough to ask at every dispatch.

    The posterior depends only on how many games each side won at each signed level, and its log-likelihood is a
    sum of terms rounded to LOG_QUANTUM, hence exact: replaying the same games in any order gives identical bits.
    """

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
        self._table = _likelihood(self.max_level)
        self._binning = _binning(self.max_level, self.target)
        self._log_prior_d = self._prior(hint)
        self._log_lik = np.zeros((self._grid.d.size, self._grid.s.size))
        self._wins: dict[int, list[int]] = {}
        self._games = 0
        self._pooled_slope: np.ndarray | None = None
        self._pooled_d: tuple[float, float] | None = None
        self._evidence: _Evidence | None = None
        self._summary: _Summary | None = None
        self._cumulative: np.ndarray | None = None

    def _prior(self, hint: HandicapHint | None) -> np.ndarray | None:
        """Log prior of d over the grid's d axis from a hint (None: flat)."""
        if hint is None:
            return None
        if hint.weaker not in (self.a, self.b):
            raise HandicapError(f"handicap hint names {hint.weaker!r}, who is not in the pair {self.a!r}, {self.b!r}")
        centre = hint.level if hint.weaker == self.a else -hint.level
        return -0.5 * ((self._grid.d - centre) / hint.sd) ** 2

    def set_hint(self, hint: HandicapHint | None) -> None:
        """Replace the prior (results already recorded are kept)."""
        self._log_prior_d = self._prior(hint)
        self._evidence = None
        self._invalidate()

    @property
    def games(self) -> int:
        """Number of results recorded."""
        return self._games

    @property
    def pooled(self) -> bool:
        """True while a planner's pooled prior (other pairs' evidence) is part of the posterior."""
        return self._pooled_slope is not None or self._pooled_d is not None

    def _invalidate(self) -> None:
        """Forget the cached posterior summary after the posterior changed."""
        self._summary = None
        self._cumulative = None

    def record(self, level: int, weaker: str | None, winner: str) -> None:
        """Add one finished game: the level played, who received it (ignored at level 0) and who won."""
        if isinstance(level, bool) or not isinstance(level, (int, np.integer)) or level < 0:
            raise HandicapError(f"handicap level played must be a non-negative integer, not {level!r}")
        if winner not in (self.a, self.b):
            raise HandicapError(f"winner {winner!r} is not in the pair {self.a!r}, {self.b!r}")
        level = int(level)
        if level > self.max_level:
            raise HandicapError(f"handicap level played {level!r} is above max_level {self.max_level}")
        if level == 0:
            x = 0
        elif weaker == self.a:
            x = level
        elif weaker == self.b:
            x = -level
        else:
            raise HandicapError(f"handicap receiver {weaker!r} is not in the pair {self.a!r}, {self.b!r}")
        a_won = winner == self.a
        self._log_lik += self._table.rows(x)[0 if a_won else 1]  # exact: see LOG_QUANTUM
        self._wins.setdefault(x, [0, 0])[0 if a_won else 1] += 1
        self._games += 1
        self._evidence = None
        self._invalidate()

    def _likelihood(self) -> np.ndarray:
        """Log-likelihood of the games so far as a (d, s) array."""
        return self._log_lik

    def _own_log_posterior(self) -> np.ndarray:
        """Log posterior from this pair's games and its own prior only (no pooling)."""
        log_post = self._likelihood() + self._grid.log_prior_s[None, :]
        if self._log_prior_d is not None:
            log_post = log_post + self._log_prior_d[:, None]
        return log_post

    def _log_posterior(self) -> np.ndarray:
        """Log posterior including the pooled prior a planner set, unnormalised, as a (d, s) array."""
        grid = self._grid
        slope = self._pooled_slope if self._pooled_slope is not None else grid.log_prior_s
        log_post = self._likelihood() + slope[None, :]
        if self._log_prior_d is not None:
            log_post = log_post + self._log_prior_d[:, None]
        if self._pooled_d is not None:
            mean, sd = self._pooled_d
            log_post = log_post + (-0.5 * ((grid.d - mean) / sd) ** 2)[:, None]
        return log_post

    def _own_evidence(self) -> _Evidence:
        """This pair's own evidence about the slope and about d, for a planner to pool (cached)."""
        if self._evidence is None:
            log_lik = self._likelihood()
            if self._log_prior_d is not None:
                log_lik = log_lik + self._log_prior_d[:, None]
            log_slope = _logsumexp(log_lik, axis=0)
            weights = _exp_relative(self._own_log_posterior())
            marginal = weights.sum(axis=1)
            marginal /= marginal.sum()
            mean = float(marginal @ self._grid.d)
            variance = float(marginal @ (self._grid.d - mean) ** 2)
            self._evidence = _Evidence(log_slope - log_slope.max(), mean, variance, self._games)
        return self._evidence

    def _set_pooled(self, slope: np.ndarray | None, d: tuple[float, float] | None) -> None:
        """Use a planner's pooled priors: log prior per slope (None: the default) and normal (mean, sd) of d."""
        same_slope = (slope is None and self._pooled_slope is None) or (
            slope is not None and self._pooled_slope is not None and np.array_equal(slope, self._pooled_slope))
        if same_slope and d == self._pooled_d:
            return
        self._pooled_slope = slope
        self._pooled_d = d
        self._invalidate()

    def _weights(self) -> np.ndarray:
        """Unnormalised posterior weights as a (d, s) array."""
        log_post = self._log_posterior()
        return _exp_relative(log_post)

    def _summarise(self) -> _Summary:
        """Posterior orientation, median and credible interval (cached until the posterior changes)."""
        if self._summary is not None:
            return self._summary
        weights = self._weights()
        total = float(weights.sum())
        grid = self._grid
        by_d = weights.sum(axis=1) / total
        p_a = float(by_d[grid.zero + 1:].sum() + 0.5 * by_d[grid.zero])
        a_weaker = p_a >= 0.5
        index = self._binning.index_a if a_weaker else self._binning.index_b
        if index is None:
            mass = by_d if a_weaker else by_d[::-1]  # the fair level of b is -d, on the same symmetric grid
        else:
            mass = np.bincount(index, weights=weights.ravel(), minlength=self._binning.size) / total
        cdf = np.cumsum(mass)
        tail = (1.0 - CREDIBLE_MASS) / 2.0
        low, median, high = (self._quantile(mass, cdf, q) for q in (tail, 0.5, 1.0 - tail))
        slope_cdf = np.cumsum(weights.sum(axis=0)) / total
        slope = float(grid.s[min(int(np.searchsorted(slope_cdf, 0.5)), grid.s.size - 1)])
        self._summary = _Summary(self.a if a_weaker else self.b, p_a if a_weaker else 1.0 - p_a, median, low, high,
                                 slope)
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
            self._cumulative = np.cumsum(self._weights().ravel())
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
                                self._games, per_level, summary.p_weaker, summary.slope, self.pooled)

    def done(self, stop_width: float | None) -> bool:
        """True once the credible interval is narrower than stop_width, after STOP_MIN_GAMES games of the pair."""
        if stop_width is None:
            return False
        width = _real("stop_width", stop_width)
        if width <= 0.0:
            raise HandicapError(f"handicap stop_width must be positive, not {stop_width!r}")
        if self._games < STOP_MIN_GAMES:
            return False
        summary = self._summarise()
        return summary.high - summary.low < width


ReplayRecord = Sequence[Any] | Mapping[str, Any]
"""One stored result for HandicapPlanner.replay (the accepted shapes are listed in its body)."""

COUNTED_TERMINATIONS = frozenset({"connection"})
"""Game endings that count towards the handicap estimate: only games decided on the board. A loss on time, by a
crash, a protocol error, an illegal move or a forfeit says nothing about what a handicap level is worth, so it is
left out (the ratings still count it as a loss)."""


def counts_for_handicap(termination: object) -> bool:
    """True when a game with this termination (enum or its string value) informs the handicap estimate."""
    value = getattr(termination, "value", termination)
    return value in COUNTED_TERMINATIONS


def _pair_key(a: str, b: str) -> tuple[str, str]:
    """The planner's key for an unordered pair: the two names sorted."""
    if a == b:
        raise HandicapError(f"a handicap pair needs two different players, not {a!r} twice")
    return (a, b) if a < b else (b, a)


class HandicapPlanner:
    """One PairEstimator per unordered pair: records results, picks the next game's handicap, reports.

    With `pooling` on (the default) the pairs of a tournament inform each other's priors, both computed from the
    other pairs' games only (leave-one-out, so a pair's own games are never counted twice):
    - the slope: pairs share a tournament slope s0 (a property of board and bots) and each pair's slope is s0
      times a log-normal factor whose spread is itself inferred (from almost equal to unrelated);
    - the fair level, from ratings on the level scale: every player gets a strength h such that pair (a, b) needs
      about h_a - h_b levels, fitted by weighted least squares to the other pairs' estimates; the prior of the pair
      is normal around that prediction, widened by how far pairs stray from additivity (also estimated).
    A round-robin thereby starts new pairs near the right level and needs fewer games per pair; pairs with
    nothing linking them through other players keep the flat prior.
    """

    def __init__(self, settings: HandicapSettings, *, policy: str = "median", pooling: bool = True) -> None:
        """Plan handicaps as `settings` says; estimators are created on first use of a pair."""
        if policy not in POLICIES:
            raise HandicapError(f"handicap policy must be one of {', '.join(POLICIES)}, not {policy!r}")
        self.settings = settings
        self.policy = policy
        self.pooling = pooling
        self._pairs: dict[tuple[str, str], PairEstimator] = {}
        self._stale = False

    def estimator(self, a: str, b: str) -> PairEstimator:
        """The estimator of pair {a, b}, created empty if needed (its pooled prior as of the last planner query)."""
        key = _pair_key(a, b)
        if key not in self._pairs:
            self._pairs[key] = PairEstimator(*key, max_level=self.settings.max_level, target=self.settings.target,
                                             policy=self.policy)
            self._stale = True
        return self._pairs[key]

    def set_hint(self, hint: HandicapHint | None, a: str, b: str) -> None:
        """Use hint (e.g. from hint_from_ratings) as the prior of pair {a, b}; results already in are kept."""
        self.estimator(a, b).set_hint(hint)
        self._stale = True

    def record(self, a: str, b: str, level: int, weaker: str | None, winner: str) -> None:
        """Add one finished game of pair {a, b}: level played, who received it (None at level 0), winner."""
        self.estimator(a, b).record(level, weaker, winner)
        self._stale = True

    def record_game(self, record: Any) -> bool:
        """Add a game record (GameRecord or its dict) unless it ended in a fault; True when it was counted."""
        data = record if isinstance(record, Mapping) else None
        termination = data.get("termination", "connection") if data is not None else record.termination
        if not counts_for_handicap(termination):
            return False
        self.record(*_unpack(data if data is not None else _record_mapping(record)))
        return True

    def next_game(self, a: str, b: str, rng: random.Random) -> tuple[str, int]:
        """(weaker player, integer level) for the next game of {a, b}; level 0 means an even game with pie."""
        mode = self.settings.mode
        if mode is HandicapMode.NONE:
            return _pair_key(a, b)[0], 0
        estimator = self.estimator(a, b)
        self._refresh()
        if mode is HandicapMode.FIXED:
            return estimator.estimate().weaker, round_level(self.settings.level, rng)
        return estimator.next_level(rng)

    def done(self, a: str, b: str) -> bool:
        """True once pair {a, b}'s interval is narrower than settings.stop_width (never when it is unset)."""
        estimator = self.estimator(a, b)
        self._refresh()
        return estimator.done(self.settings.stop_width)

    def estimates(self) -> dict[tuple[str, str], HandicapEstimate]:
        """Every pair's estimate, keyed by the sorted pair of names."""
        self._refresh()
        return {key: self._pairs[key].estimate() for key in sorted(self._pairs)}

    def replay(self, records: Iterable[ReplayRecord]) -> int:
        """Rebuild from stored results; returns how many records were counted (faults are skipped)."""
        # Each record is one of:
        #   a tuple (a, b, level, weaker, winner)          weaker may be None at level 0;
        #   a mapping with keys a, b, level, weaker, winner (weaker optional at level 0);
        #   a game record mapping with black, white, handicap, winner_name and optionally first and termination:
        #   at level >= 1 the weaker player is Black and moves first (no pie), at level 0 nobody received
        #   anything; games that ended in a fault are skipped (see COUNTED_TERMINATIONS).
        # The posterior depends only on the win counts per level, so the order of the records does not matter.
        count = 0
        for record in records:
            if isinstance(record, Mapping) and not counts_for_handicap(record.get("termination", "connection")):
                continue
            self.record(*_unpack(record))
            count += 1
        return count

    # --- pooling ------------------------------------------------------------------------------------------------

    def _refresh(self) -> None:
        """Recompute every pair's pooled prior after a change anywhere (cheap: vectors of slopes and players)."""
        if not self._stale:
            return
        self._stale = False
        keys = sorted(self._pairs)
        estimators = [self._pairs[key] for key in keys]
        if not self.pooling or len(keys) < 2:
            for estimator in estimators:
                estimator._set_pooled(None, None)
            return
        evidence = [estimator._own_evidence() for estimator in estimators]
        slopes = _pooled_slopes(_grid(self.settings.max_level), evidence)
        levels = _pooled_levels(keys, evidence, _grid(self.settings.max_level).flat_variance)
        for estimator, slope, level in zip(estimators, slopes, levels):
            estimator._set_pooled(slope, level)


SLOPE_SPREADS = (0.05, 0.2, 0.4, 0.8)
"""Candidate spreads (sd of log s) of the pairs' slopes around the tournament's, equally likely a priori."""
STRENGTH_PRIOR_SD = 10.0
"""Prior sd of a player's strength on the level scale (weak: it only fixes the level of the whole scale)."""
ADDITIVITY_SD = 1.0
"""Prior guess of how far a pair's fair level strays from the difference of the two strengths, in levels."""
ADDITIVITY_SD_MIN = 0.35
"""The estimated departure from additivity never drops below this many levels."""
ADDITIVITY_PSEUDO_PAIRS = 2.0
"""Weight of ADDITIVITY_SD, in pairs, against the departures measured on the tournament's pairs."""


def _pooled_slopes(grid: _Grid, evidence: Sequence[_Evidence]) -> list[np.ndarray | None]:
    """Each pair's log prior over slopes from the other pairs' evidence, under the hierarchical slope model."""
    played = np.array([e.games > 0 for e in evidence])
    log_m = np.array([e.log_slope for e in evidence])  # (pairs, slopes), each row's max is 0
    distance = grid.log_s[:, None] - grid.log_s[None, :]
    mixtures = []
    evidences = []
    for spread in SLOPE_SPREADS:
        kernel = np.exp(-0.5 * (distance / spread) ** 2)
        kernel /= kernel.sum(axis=0, keepdims=True)  # column j: density of a pair's slope given s0 = s_j
        contribution = np.log(np.exp(log_m) @ kernel)  # (pairs, s0): log evidence of each pair given s0
        contribution[~played] = 0.0
        total = grid.log_prior_s + contribution.sum(axis=0)
        leave_out = total[None, :] - contribution  # (pairs, s0)
        log_z = _logsumexp(leave_out, axis=1)
        posterior = np.exp(leave_out - log_z[:, None])
        mixtures.append(posterior @ kernel.T)  # (pairs, slopes): prior of the pair's own slope
        evidences.append(log_z)
    log_weights = np.array(evidences)  # (spreads, pairs)
    weights = np.exp(log_weights - _logsumexp(log_weights, axis=0)[None, :])
    prior = sum(w[:, None] * m for w, m in zip(weights, mixtures))
    others = played.sum() - played
    return [np.log(np.maximum(row, 1e-300)) if count > 0 else None for row, count in zip(prior, others)]


def _pooled_levels(keys: Sequence[tuple[str, str]], evidence: Sequence[_Evidence],
                   flat_variance: float) -> list[tuple[float, float] | None]:
    """Each pair's normal prior (mean, sd) of signed d from level-scale strengths fitted to the other pairs."""
    names = sorted({name for key in keys for name in key})
    if len(names) < 3:
        return [None] * len(keys)
    column = {name: i for i, name in enumerate(names)}
    design = np.zeros((len(keys), len(names)))
    for row, (a, b) in enumerate(keys):
        design[row, column[a]], design[row, column[b]] = 1.0, -1.0  # d_ab ~ h_a - h_b
    means = np.array([e.mean for e in evidence])
    variances = np.array([max(e.variance, 1e-6) for e in evidence])
    weights = np.array([max(0.0, 1.0 / v - 1.0 / flat_variance) if e.games else 0.0
                        for e, v in zip(evidence, variances)])
    normal = (design.T * weights) @ design + np.eye(len(names)) / STRENGTH_PRIOR_SD ** 2
    inverse = np.linalg.inv(normal)
    fitted = design @ (inverse @ (design.T @ (weights * means)))
    spread = np.einsum("ij,jk,ik->i", design, inverse, design)  # e' A^-1 e per pair
    leverage = weights * spread
    keep = 1.0 - leverage
    predicted = (fitted - leverage * means) / keep  # leave-one-out prediction (Sherman-Morrison)
    predicted_var = spread / keep
    informed = weights > 0
    excess = ((means - predicted) ** 2 - variances - predicted_var)[informed & (predicted_var < flat_variance)]
    tau2 = (ADDITIVITY_PSEUDO_PAIRS * ADDITIVITY_SD ** 2 + float(excess.sum())) / (
        ADDITIVITY_PSEUDO_PAIRS + excess.size)
    tau2 = max(tau2, ADDITIVITY_SD_MIN ** 2)
    priors: list[tuple[float, float] | None] = []
    for mean, variance in zip(predicted, predicted_var):
        total = float(variance) + tau2
        priors.append((float(mean), math.sqrt(total)) if total < flat_variance else None)
    return priors


def _record_mapping(record: Any) -> dict[str, Any]:
    """The replay mapping of a GameRecord-like object."""
    return {"black": record.black, "white": record.white, "handicap": record.handicap,
            "first": getattr(record, "first", None), "winner_name": record.winner_name}


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
