"""The handicap model's grid: signed fair level d by slope s, its exact log-likelihood rows, and level binning.

The model, on one signed axis per unordered pair (a, b) with a < b in the planner:
  x = +L when a received level L, -L when b received it, 0 for an even (pie) game;
  P(a wins | x) = Phi(s * (x - d)).
d > 0 means a is the weaker player and needs d levels to break even; d < 0 means b is weaker and needs -d.
Seen from b, P(b wins | b receives L) = Phi(s * (L - (-d))): the same curve, so one grid over (d, s) covers both
orientations and the weaker player simply follows the sign of d in the posterior.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from statistics import NormalDist

import numpy as np

from ytourney.stats.normal import log_normal_cdf

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
LOG_QUANTUM = 2.0 ** -24
"""Log-likelihood terms are rounded to multiples of this, so sums of them are exact floats in any order (up to a
magnitude of 2**29): the posterior is bit for bit the same however the games were ordered or replayed."""
EXP_FLOOR = -60.0
"""Log weights this far below the largest count as exp(EXP_FLOOR) (about 1e-26): keeps exp out of subnormals."""

_log_normal_cdf_array = np.vectorize(log_normal_cdf, otypes=[float])


@dataclass(frozen=True)
class Grid:
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
def shared_grid(max_level: int) -> Grid:
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
    return Grid(d, s, log_s, log_prior_s, d_flat, s_flat, half, float(np.var(d)))


class Likelihood:
    """Log-likelihood rows over the flattened grid, two per signed level x (a wins, b wins), built on first use."""

    def __init__(self, max_level: int) -> None:
        self._grid = shared_grid(max_level)
        self._rows: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def rows(self, x: int) -> tuple[np.ndarray, np.ndarray]:
        """(log P(a wins), log P(b wins)) at signed level x over the (d, s) grid, quantized to LOG_QUANTUM."""
        if x not in self._rows:
            grid = self._grid
            z = grid.s_flat * (x - grid.d_flat)
            pair = []
            for values in (_log_normal_cdf_array(z), _log_normal_cdf_array(-z)):
                row = (np.round(values / LOG_QUANTUM) * LOG_QUANTUM).reshape(grid.d.size, grid.s.size)
                row.flags.writeable = False
                pair.append(row)
            self._rows[x] = (pair[0], pair[1])
        return self._rows[x]


@cache
def shared_likelihood(max_level: int) -> Likelihood:
    """The shared likelihood table of a ladder top."""
    return Likelihood(max_level)


@dataclass(frozen=True)
class Binning:
    """Where each grid cell's fair level falls on a 1-D histogram, for both orientations."""

    start: float
    size: int
    index_a: np.ndarray | None  # None: the fair level is d itself, so the histogram is the d marginal
    index_b: np.ndarray | None


@lru_cache(maxsize=64)
def shared_binning(max_level: int, target: float) -> Binning:
    """Bin the fair level (the level where the weaker wins with probability target) of every cell."""
    grid = shared_grid(max_level)
    if target == 0.5:
        return Binning(float(grid.d[0]), grid.d.size, None, None)
    shift = NormalDist().inv_cdf(target) / grid.s_flat
    value_a, value_b = grid.d_flat + shift, -grid.d_flat + shift
    start = float(min(value_a.min(), value_b.min()))
    index_a = np.rint((value_a - start) / THETA_STEP).astype(np.intp)
    index_b = np.rint((value_b - start) / THETA_STEP).astype(np.intp)
    size = int(max(index_a.max(), index_b.max())) + 1
    return Binning(start, size, index_a, index_b)


def exp_relative(values: np.ndarray) -> np.ndarray:
    """exp(values - max(values)), with anything below EXP_FLOOR raised to it (subnormals make exp slow)."""
    return np.exp(np.maximum(values - values.max(), EXP_FLOOR))


def logsumexp(values: np.ndarray, axis: int | None = None) -> np.ndarray:
    """log(sum(exp(values))) without overflow."""
    top = np.max(values, axis=axis, keepdims=True)
    total = np.log(np.sum(np.exp(np.maximum(values - top, EXP_FLOOR)), axis=axis, keepdims=True)) + top
    return np.squeeze(total, axis=axis) if axis is not None else total.reshape(())


def binned_quantile(start: float, mass: np.ndarray, cdf: np.ndarray, q: float) -> float:
    """Quantile q of a fair level binned from `start` in steps of THETA_STEP, spreading each bin's mass uniformly
    over its width."""
    i = min(int(np.searchsorted(cdf, q)), cdf.size - 1)
    before = float(cdf[i - 1]) if i > 0 else 0.0
    fraction = (q - before) / float(mass[i]) if mass[i] > 0 else 0.5
    centre = start + i * THETA_STEP
    return centre + (min(max(fraction, 0.0), 1.0) - 0.5) * THETA_STEP
