"""The fair level of a handicap axis that favours a fixed side (the game's `HandicapAxis.favours`).

There level 0 is no even game, so the pair model of handicap.py (P(a wins) against a signed level, 0 = even) does
not fit. What is estimated instead is the sides': the level d at which the receiving side scores the target,
  P(the receiving side wins at level L) = Phi(s * (L - d)),
on the same (d, s) grid and likelihood rows as the pair model, a draw counting half a win (the mean of the two
rows). Each pair of players is pooled over both seatings (either may play the receiving side), so between two
equal bots the estimate is the game's fair value for them. The posterior depends on the counts per level alone,
summed exactly (LOG_QUANTUM), so a resumed tournament rebuilds it bit for bit.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from ytourney.errors import HandicapError
from ytourney.games.api import Color
from ytourney.games.record import GameRecord
from ytourney.stats.handicap import (
    CREDIBLE_MASS,
    STOP_MIN_GAMES,
    HandicapMode,
    HandicapSettings,
    _pair_key,
    _real,
    informs_side_handicap,
    round_level,
)
from ytourney.stats.handicap_grid import (
    binned_quantile,
    exp_relative,
    shared_binning,
    shared_grid,
    shared_likelihood,
)


@dataclass(frozen=True)
class SideEstimate:
    """The fair level of a side-favouring axis for one pair of players, both seatings pooled."""

    # median, low, high: the level at which the receiving side scores the target (past max_level: it scores less
    # even at the top; below 0: it scores more already at level 0; the grid reaches one level beyond either end).
    # p_short: posterior probability that level 0 is short of fair (d > 0). per_level: level -> (games, the
    # receiving side's score, draws counting half).
    a: str
    b: str
    median: float
    low: float
    high: float
    games: int
    draws: int
    max_level: int
    per_level: dict[int, tuple[int, float]] = field(default_factory=dict)
    p_short: float = 0.5
    slope: float = float("nan")

    @property
    def width(self) -> float:
        """Width of the credible interval, in levels."""
        return self.high - self.low

    @property
    def above_top(self) -> bool:
        """True when the receiving side is short of the target even at the top of the axis (the whole interval lies
        above it)."""
        return self.low > self.max_level

    @property
    def below_zero(self) -> bool:
        """True when the receiving side already scores more than the target at level 0 (the whole interval lies below
        it)."""
        return self.high < 0.0


class SideEstimator:
    """Bayesian fair level of a side-favouring axis for one unordered pair of players."""

    def __init__(self, a: str, b: str, *, max_level: int = 6, target: float = 0.5) -> None:
        """A flat prior on the fair level and the pair model's log-normal prior on the slope."""
        self.a, self.b = _pair_key(a, b)
        self.max_level = max_level
        self.target = target
        self._grid = shared_grid(max_level)
        self._table = shared_likelihood(max_level)
        self._binning = shared_binning(max_level, target)
        self._log_lik = np.zeros((self._grid.d.size, self._grid.s.size))
        self._counts: dict[int, list[int]] = {}  # level -> [receiving side's wins, draws, losses]
        self._games = 0
        self._estimate: SideEstimate | None = None

    @property
    def games(self) -> int:
        """Number of results recorded."""
        return self._games

    def record(self, level: int, score: float) -> None:
        """Add one game: the level played and the receiving side's score (1 a win, 0.5 a draw, 0 a loss)."""
        if isinstance(level, bool) or not isinstance(level, (int, np.integer)) or not 0 <= level <= self.max_level:
            raise HandicapError(f"handicap level played must be a whole number 0..{self.max_level}, not {level!r}")
        if score not in (0.0, 0.5, 1.0):
            raise HandicapError(f"a side's score must be 1, 0.5 or 0, not {score!r}")
        level = int(level)
        wins, losses = self._table.rows(level)
        column = 0 if score == 1.0 else 1 if score == 0.5 else 2
        self._log_lik += wins if column == 0 else losses if column == 2 else 0.5 * (wins + losses)  # exact
        self._counts.setdefault(level, [0, 0, 0])[column] += 1
        self._games += 1
        self._estimate = None

    def estimate(self) -> SideEstimate:
        """Posterior median and 95% credible interval of the fair level, with the per-level tallies (cached)."""
        if self._estimate is not None:
            return self._estimate
        grid = self._grid
        weights = exp_relative(self._log_lik + grid.log_prior_s[None, :])
        total = float(weights.sum())
        by_d = weights.sum(axis=1) / total
        index = self._binning.index_a
        mass = by_d if index is None else np.bincount(index, weights=weights.ravel(),
                                                      minlength=self._binning.size) / total
        cdf = np.cumsum(mass)
        tail = (1.0 - CREDIBLE_MASS) / 2.0
        low, median, high = (binned_quantile(self._binning.start, mass, cdf, q) for q in (tail, 0.5, 1.0 - tail))
        slope_cdf = np.cumsum(weights.sum(axis=0)) / total
        slope = float(grid.s[min(int(np.searchsorted(slope_cdf, 0.5)), grid.s.size - 1)])
        p_short = float(by_d[grid.zero + 1:].sum() + 0.5 * by_d[grid.zero])
        per_level = {level: (sum(c), c[0] + c[1] / 2 if c[1] else c[0]) for level, c in sorted(self._counts.items())}
        draws = sum(c[1] for c in self._counts.values())
        self._estimate = SideEstimate(self.a, self.b, median, low, high, self._games, draws, self.max_level,
                                      per_level, p_short, slope)
        return self._estimate

    def next_level(self, rng: random.Random) -> int:
        """The next game's level: the randomized rounding of the median, kept on the axis."""
        return round_level(min(max(self.estimate().median, 0.0), float(self.max_level)), rng)

    def done(self, stop_width: float | None) -> bool:
        """True once the interval is narrower than stop_width, after STOP_MIN_GAMES games of the pair."""
        if stop_width is None:
            return False
        width = _real("stop_width", stop_width)
        if width <= 0.0:
            raise HandicapError(f"handicap stop_width must be positive, not {stop_width!r}")
        return self._games >= STOP_MIN_GAMES and self.estimate().width < width


class SidePlanner:
    """One SideEstimator per unordered pair of players, for a game whose levels favour the side `favours`: records
    results, picks the next game's level (the seats stay the schedule's), reports."""

    def __init__(self, settings: HandicapSettings, favours: Color) -> None:
        """Plan levels as `settings` say; levels go to whoever plays `favours`."""
        self.settings = settings
        self.favours = favours
        self._pairs: dict[tuple[str, str], SideEstimator] = {}

    def estimator(self, a: str, b: str) -> SideEstimator:
        """The estimator of pair {a, b}, created empty if needed."""
        key = _pair_key(a, b)
        if key not in self._pairs:
            self._pairs[key] = SideEstimator(*key, max_level=self.settings.max_level, target=self.settings.target)
        return self._pairs[key]

    def record_game(self, record: GameRecord) -> bool:
        """Add a game unless a fault or a decision at the move limit ended it; True when it was counted."""
        if record.black == record.white or not informs_side_handicap(record):
            return False
        score = 0.5 if record.winner is None else 1.0 if record.winner is self.favours else 0.0
        self.estimator(record.black, record.white).record(record.handicap, score)
        return True

    def next_level(self, a: str, b: str, rng: random.Random) -> int:
        """The level of the next game of {a, b} (a fixed level, rounded, in fixed mode; 0 with handicaps off)."""
        mode = self.settings.mode
        if mode is HandicapMode.NONE:
            return 0
        if mode is HandicapMode.FIXED:
            return round_level(self.settings.level, rng)
        return self.estimator(a, b).next_level(rng)

    def done(self, a: str, b: str) -> bool:
        """True once pair {a, b}'s interval is narrower than settings.stop_width (never when it is unset)."""
        return self.estimator(a, b).done(self.settings.stop_width)

    def estimates(self) -> dict[tuple[str, str], SideEstimate]:
        """Every pair's estimate, keyed by the sorted pair of names."""
        return {key: self._pairs[key].estimate() for key in sorted(self._pairs)}
