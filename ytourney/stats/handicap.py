"""Handicap ladder: settings, randomized rounding and the Bayesian fair-handicap estimator of every pair.

Each pair's posterior lives on a grid over its signed fair level d and slope s (see handicap_grid); the next game
of a pair is played at the randomized rounding of the posterior median, decided when the game is dispatched,
whatever is still in flight. A HandicapPlanner holds the pairs of a tournament and, by default, lets them inform
each other's priors (a shared slope; strengths on the level scale). Only games the rules decided with a winner
count: faults, forfeits and move limits are left out, and so are draws (see `informs_handicap`). The posterior
depends on the win counts per level alone, computed exactly, so a resumed tournament rebuilds it bit for bit from
the stored games in any order.
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ytourney.errors import HandicapError
from ytourney.games.api import Termination
from ytourney.games.record import GameRecord
from ytourney.stats.handicap_grid import (
    Grid,
    binned_quantile,
    exp_relative,
    logsumexp,
    shared_binning,
    shared_grid,
    shared_likelihood,
)

CREDIBLE_MASS = 0.95
"""Mass of the credible interval reported by estimates."""
STOP_MIN_GAMES = 8
"""A pair never stops early before this many of its own games, however narrow a pooled prior made its interval."""


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

    def __init__(self, a: str, b: str, *, max_level: int = 6, target: float = 0.5) -> None:
        """Start from a flat prior on the signed fair level and a log-normal prior on the slope."""
        if a == b:
            raise HandicapError(f"a handicap pair needs two different players, not {a!r} twice")
        settings = HandicapSettings(HandicapMode.AUTO, max_level=max_level, target=target)
        self.a, self.b = a, b
        self.max_level = settings.max_level
        self.target = settings.target
        self._grid = shared_grid(self.max_level)
        self._table = shared_likelihood(self.max_level)
        self._binning = shared_binning(self.max_level, self.target)
        self._log_lik = np.zeros((self._grid.d.size, self._grid.s.size))
        self._wins: dict[int, list[int]] = {}
        self._games = 0
        self._pooled_slope: np.ndarray | None = None
        self._pooled_d: tuple[float, float] | None = None
        self._evidence: _Evidence | None = None
        self._summary: _Summary | None = None

    @property
    def games(self) -> int:
        """Number of results recorded."""
        return self._games

    @property
    def pooled(self) -> bool:
        """True while a planner's pooled prior (other pairs' evidence) is part of the posterior."""
        return self._pooled_slope is not None or self._pooled_d is not None

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
        self._summary = None

    def _own_log_posterior(self) -> np.ndarray:
        """Log posterior from this pair's games and the default slope prior only (no pooling)."""
        return self._log_lik + self._grid.log_prior_s[None, :]

    def _log_posterior(self) -> np.ndarray:
        """Log posterior including the pooled prior a planner set, unnormalised, as a (d, s) array."""
        grid = self._grid
        slope = self._pooled_slope if self._pooled_slope is not None else grid.log_prior_s
        log_post = self._log_lik + slope[None, :]
        if self._pooled_d is not None:
            mean, sd = self._pooled_d
            log_post = log_post + (-0.5 * ((grid.d - mean) / sd) ** 2)[:, None]
        return log_post

    def _own_evidence(self) -> _Evidence:
        """This pair's own evidence about the slope and about d, for a planner to pool (cached)."""
        if self._evidence is None:
            log_slope = logsumexp(self._log_lik, axis=0)
            weights = exp_relative(self._own_log_posterior())
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
        self._summary = None

    def _weights(self) -> np.ndarray:
        """Unnormalised posterior weights as a (d, s) array."""
        return exp_relative(self._log_posterior())

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
        return binned_quantile(self._binning.start, mass, cdf, q)

    def next_level(self, rng: random.Random) -> tuple[str, int]:
        """The next game's (weaker player, integer level): a pure function of results so far and rng."""
        summary = self._summarise()
        return summary.weaker, round_level(min(max(summary.median, 0.0), float(self.max_level)), rng)

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


def counts_for_handicap(termination: Termination) -> bool:
    """True when a game with this ending may inform the handicap estimate: the rules ended it, or the loser resigned
    by adjudication (its search proved the loss or kept valuing it lost), as a game played out would have ended
    (see `informs_handicap` for a whole record, which also leaves draws out).

    A loss on time, by a crash, a protocol error, an illegal move or a forfeit says nothing about what a handicap
    level is worth, nor does a game stopped at the move limit, so they are left out (the ratings still count them).
    """
    return termination.is_rule or termination is Termination.ADJUDICATED_RESIGN


def informs_handicap(record: GameRecord) -> bool:
    """True when this game counts for the handicap estimate: the rules ended it, with a winner.

    Draws are skipped, a decision rather than a necessity: the model is a binary probit (the weaker wins or not, see
    handicap_grid), its per-level tallies are whole wins, and only games with a handicap ladder (Y, which has no
    draws) reach it; counting a draw as half a win would need half-weighted likelihood rows and fractional tallies
    for no game that has both. Y data are unchanged: every Y game its rules end has a winner. A ladder that favours
    a fixed side (handicap_sides) counts draws, half a win each: see `informs_side_handicap`.
    """
    return record.winner is not None and counts_for_handicap(record.termination)


def informs_side_handicap(record: GameRecord) -> bool:
    """True when this game counts for the fair level of a ladder that favours a fixed side (handicap_sides): as
    `informs_handicap`, and a draw without a fault too (by the rules, at the move limit or by the draw
    adjudication), as half a win to each side.

    In a game that draws, a draw is what a level achieved (the receiving side held out): leaving draws out would
    estimate from the rarer decided games alone and miss that a level turns losses into draws. Its likelihood row is
    the mean of the two win rows, so the posterior still depends on the counts per level alone, exactly.
    """
    if record.winner is None:
        return not record.termination.is_fault
    return counts_for_handicap(record.termination)


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
    nothing linking them through other players keep the flat prior. The order in which games are recorded never
    matters: the posterior depends on the win counts per level only.
    """

    def __init__(self, settings: HandicapSettings, *, pooling: bool = True) -> None:
        """Plan handicaps as `settings` says; estimators are created on first use of a pair."""
        self.settings = settings
        self.pooling = pooling
        self._pairs: dict[tuple[str, str], PairEstimator] = {}
        self._stale = False

    def estimator(self, a: str, b: str) -> PairEstimator:
        """The estimator of pair {a, b}, created empty if needed (its pooled prior as of the last planner query)."""
        key = _pair_key(a, b)
        if key not in self._pairs:
            self._pairs[key] = PairEstimator(*key, max_level=self.settings.max_level, target=self.settings.target)
            self._stale = True
        return self._pairs[key]

    def record(self, a: str, b: str, level: int, weaker: str | None, winner: str) -> None:
        """Add one finished game of pair {a, b}: level played, who received it (None at level 0), winner."""
        self.estimator(a, b).record(level, weaker, winner)
        self._stale = True

    def record_game(self, record: GameRecord) -> bool:
        """Add a game record unless it ended in a fault, at the move limit or in a draw; True when it was counted.

        At level >= 1 the weaker player is Black and moves first (no pie); at level 0 nobody received anything.
        """
        winner = record.winner_name
        if winner is None or not informs_handicap(record):
            return False
        weaker = (record.first or record.black) if record.handicap else None
        self.record(record.black, record.white, record.handicap, weaker, winner)
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
        slopes = _pooled_slopes(shared_grid(self.settings.max_level), evidence)
        levels = _pooled_levels(keys, evidence, shared_grid(self.settings.max_level).flat_variance)
        for estimator, slope, level in zip(estimators, slopes, levels):
            estimator._set_pooled(slope, level)


# --- pooling ----------------------------------------------------------------------------------------------------

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


def _pooled_slopes(grid: Grid, evidence: Sequence[_Evidence]) -> list[np.ndarray | None]:
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
        log_z = logsumexp(leave_out, axis=1)
        posterior = np.exp(leave_out - log_z[:, None])
        mixtures.append(posterior @ kernel.T)  # (pairs, slopes): prior of the pair's own slope
        evidences.append(log_z)
    log_weights = np.array(evidences)  # (spreads, pairs)
    weights = np.exp(log_weights - logsumexp(log_weights, axis=0)[None, :])
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
