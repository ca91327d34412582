"""The baselines bench_handicap measures the estimator against: staircases and posterior sampling."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from ytourney.errors import HandicapError
from ytourney.stats.normal import normal_cdf

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from handicap_baselines import Staircase, ThompsonEstimator  # noqa: E402


def test_posterior_sampling_finds_the_fair_level() -> None:
    rng = random.Random(2)
    estimator = ThompsonEstimator("a", "b")
    for _ in range(100):
        receiver, level = estimator.next_level(rng)
        received = 0 if level == 0 else (level if receiver == "b" else -level)
        winner = "b" if rng.random() < normal_cdf(1.2 * (received - 1.7)) else "a"
        estimator.record(level, receiver, winner)
    estimate = estimator.estimate()
    assert estimate.weaker == "b" and abs(estimate.median - 1.7) < 0.5


def test_staircase_steps_and_reversal_estimate() -> None:
    stair = Staircase("a", "b", max_level=6)
    assert stair.next_level() == ("a", 0)
    path = []
    for winner in "bbbabababa":  # a loses three times, then the staircase oscillates between 2 and 3
        weaker, level = stair.next_level()
        path.append(level if weaker == "a" else -level)
        stair.record(level, weaker, winner)
    assert path == [0, 1, 2, 3, 2, 3, 2, 3, 2, 3]
    assert stair.estimate() == ("a", 2.5)
    stair.record(3, "a", "a")
    assert stair.next_level() == ("a", 2)


def test_staircase_crosses_zero_and_tail_mean() -> None:
    stair = Staircase("a", "b", method="tail")
    stair.record(0, None, "a")
    assert stair.next_level() == ("b", 1)
    stair.record(1, "b", "a")
    assert stair.next_level() == ("b", 2)
    stair.record(2, "b", "b")
    assert stair.next_level() == ("b", 1)
    assert stair.estimate() == ("b", 1.5)  # mean of the last half of the levels played: -1, -2


def test_staircase_plain_estimate_is_the_mean_of_every_level() -> None:
    stair = Staircase("a", "b", method="plain")
    for winner in "bbbab":
        weaker, level = stair.next_level()
        stair.record(level, weaker, winner)
    assert stair.estimate() == ("a", (0 + 1 + 2 + 3 + 2) / 5)
    with pytest.raises(HandicapError, match="'best'"):
        Staircase("a", "b", method="best")
