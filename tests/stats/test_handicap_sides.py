"""The fair level of a ladder that favours a fixed side: the sides' estimator, draws as half a win, the planner."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ytourney.errors import HandicapError
from ytourney.games.aliens_amazons.state import CAPTURES
from ytourney.games.api import Color
from ytourney.games.record import GameRecord, Termination
from ytourney.stats.handicap import (
    HandicapMode,
    HandicapSettings,
    informs_handicap,
    informs_side_handicap,
)
from ytourney.stats.handicap_sides import SideEstimator, SidePlanner
from ytourney.stats.normal import normal_cdf

results = st.lists(st.tuples(st.integers(0, 6), st.sampled_from((0.0, 0.5, 1.0))), max_size=40)


def estimator(games: list[tuple[int, float]]) -> SideEstimator:
    side = SideEstimator("a", "b")
    for level, score in games:
        side.record(level, score)
    return side


@settings(max_examples=40, deadline=None)
@given(results, st.randoms(use_true_random=False))
def test_the_posterior_depends_on_the_counts_alone_bit_for_bit(games: list[tuple[int, float]],
                                                               rng: random.Random) -> None:
    shuffled = list(games)
    rng.shuffle(shuffled)
    one, other = estimator(games), estimator(shuffled)
    assert np.array_equal(one._log_lik, other._log_lik)
    assert one.estimate() == other.estimate()


@pytest.mark.parametrize("level", [0, 3, 6])
def test_two_draws_weigh_as_one_win_and_one_loss(level: int) -> None:
    drawn, split = estimator([(level, 0.5), (level, 0.5)]), estimator([(level, 1.0), (level, 0.0)])
    assert np.array_equal(drawn._log_lik, split._log_lik)
    a, b = drawn.estimate(), split.estimate()
    assert (a.median, a.low, a.high, a.slope) == (b.median, b.low, b.high, b.slope)
    assert a.per_level == b.per_level == {level: (2, 1.0)} and (a.draws, b.draws) == (2, 0)


def test_a_side_losing_at_the_top_is_above_the_axis_and_one_winning_at_zero_below_it() -> None:
    losing = estimator([(level, 0.0) for level in range(7) for _ in range(20)]).estimate()
    assert losing.above_top and not losing.below_zero and losing.p_short > 0.99
    winning = estimator([(0, 1.0)] * 40).estimate()
    assert winning.below_zero and not winning.above_top and winning.p_short < 0.01
    even = estimator([(0, 0.5)] * 40).estimate()
    assert not even.above_top and not even.below_zero and even.low < 0.0 < even.high
    assert abs(even.median) < 0.1 and even.draws == even.games == 40


def test_the_auto_levels_converge_on_a_fair_level_inside_the_axis() -> None:
    truth, slope, rng = 3.3, 1.2, random.Random(7)
    side = SideEstimator("a", "b")
    for _ in range(400):
        level = side.next_level(rng)
        p_win = normal_cdf(slope * (level - truth))
        side.record(level, 1.0 if rng.random() < p_win else 0.0)
    estimate = side.estimate()
    assert estimate.low < truth < estimate.high and abs(estimate.median - truth) < 0.4
    assert estimate.width < 1.5 and 0 < estimate.p_short and estimate.p_short > 0.99


def test_draws_move_the_fair_level_as_half_wins() -> None:
    losses_and_draws = estimator([(2, 0.0)] * 10 + [(2, 0.5)] * 10).estimate()  # 25% at level 2
    losses_only = estimator([(2, 0.0)] * 10).estimate()
    assert losses_and_draws.median < losses_only.median and losses_and_draws.per_level == {2: (20, 5.0)}


def test_bad_levels_and_scores_are_refused() -> None:
    side = SideEstimator("a", "b", max_level=4)
    for level in (-1, 5, True, 1.0):
        with pytest.raises(HandicapError, match="handicap level played"):
            side.record(level, 1.0)  # type: ignore[arg-type]
    with pytest.raises(HandicapError, match="score must be 1, 0.5 or 0"):
        side.record(0, 0.25)
    with pytest.raises(HandicapError, match="two different players"):
        SideEstimator("a", "a")


def record(winner: Color | None, handicap: int = 0, termination: Termination = CAPTURES,
           aliens: str = "a", amazons: str = "b") -> GameRecord:
    return GameRecord(
        tournament="t", round=1, board="kadon", rules={"pie": False, "amazons": 30}, handicap=handicap,
        first=aliens, second=amazons, black=amazons, white=aliens, moves=("E5",), winner=winner,
        termination=termination, move_seconds=(), seed=1, started="", finished="", id=1, game="aliens-amazons")


def test_draws_without_a_fault_inform_the_sides_but_not_the_pair_model() -> None:
    for termination in (Termination.MOVE_LIMIT, Termination.ADJUDICATED_DRAW):
        assert informs_side_handicap(record(None, termination=termination))
        assert not informs_handicap(record(None, termination=termination))
    assert not informs_side_handicap(record(Color.WHITE, termination=Termination.MOVE_LIMIT))
    assert not informs_side_handicap(record(Color.WHITE, termination=Termination.TIME))
    assert informs_side_handicap(record(Color.BLACK, termination=Termination.ADJUDICATED_RESIGN))


def test_the_planner_scores_the_side_the_levels_favour_over_both_seatings() -> None:
    planner = SidePlanner(HandicapSettings(HandicapMode.AUTO), Color.BLACK)
    assert planner.record_game(record(Color.BLACK, 2))  # b, the Amazons, won at level 2
    assert planner.record_game(record(Color.WHITE, 2, aliens="b", amazons="a"))  # b, now the Aliens, won
    assert planner.record_game(record(None, 1, Termination.ADJUDICATED_DRAW))
    assert not planner.record_game(record(Color.WHITE, 1, Termination.TIME))
    assert not planner.record_game(record(Color.WHITE, 0, aliens="a", amazons="a"))  # self-play says nothing
    estimate = planner.estimates()[("a", "b")]
    assert estimate.per_level == {1: (1, 0.5), 2: (2, 1.0)} and estimate.games == 3 and estimate.draws == 1


def test_fixed_and_none_modes_give_their_levels() -> None:
    rng = random.Random(1)
    assert SidePlanner(HandicapSettings(), Color.BLACK).next_level("a", "b", rng) == 0
    fixed = SidePlanner(HandicapSettings(HandicapMode.FIXED, level=2.0), Color.BLACK)
    assert {fixed.next_level("a", "b", rng) for _ in range(5)} == {2}
