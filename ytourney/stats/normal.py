"""The standard normal distribution: its CDF Phi and log Phi, accurate in both tails."""

from __future__ import annotations

import math

_SQRT2 = math.sqrt(2.0)
_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


def normal_cdf(z: float) -> float:
    """Standard normal CDF Phi(z), accurate in both tails."""
    return 0.5 * math.erfc(-z / _SQRT2)


def log_normal_cdf(z: float) -> float:
    """log Phi(z) without underflow for very negative z."""
    if z > 0.0:
        return math.log1p(-normal_cdf(-z))
    if z > -30.0:
        return math.log(normal_cdf(z))
    z2 = z * z
    return -0.5 * z2 - math.log(-z) - _LOG_SQRT_2PI + math.log1p(-1.0 / z2 + 3.0 / (z2 * z2))
