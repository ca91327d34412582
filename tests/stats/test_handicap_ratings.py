"""Ratings that account for handicaps: each level's learned worth, monotone, per board, order-independent."""

from __future__ import annotations

import itertools
import random

import pytest
import trueskill

from ytourney.errors import RatingsError
from ytourney.games.record import GameRecord, Termination
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import CONNECTION
from ytourney.stats.level_worth import BONUS_WEIGHT, LearnedLevelWorth, isotonic
from ytourney.stats.normal import normal_cdf
from ytourney.stats.ratings import (
    HandicapRating,
    RatingSettings,
    make_env,
    rate_records,
)
from ytourney.tournament.config import parse_config


def game(game_id: int, weaker: str, stronger: str, level: int, weaker_won: bool, *, board: str = "tri:7",
         termination: Termination = CONNECTION) -> GameRecord:
    """A finished game; at level >= 1 the weaker player is Black and moves first, as the ladder says."""
    first, second = (weaker, stronger) if level or game_id % 2 else (stronger, weaker)
    winner_name = weaker if weaker_won else stronger
    return GameRecord(game="y",
        tournament="t", round=game_id, board=board, rules=Rules(pie=level == 0, misere=False), handicap=level,
        first=first, second=second, black=first, white=second, moves=("a1",),
        winner=Color.BLACK if winner_name == first else Color.WHITE, termination=termination, move_seconds=(0.0,),
        seed=game_id, started="", finished="", id=game_id,
    )


def three_stone_player(seed: int = 3, *, board: str = "tri:7", start: int = 1) -> list[GameRecord]:
    """`weak` wins about 50% with three stones, rarely with fewer, almost never in even games."""
    rng = random.Random(seed)
    chance = {0: 0.02, 1: 0.1, 2: 0.25, 3: 0.5}
    plan = [0] * 30 + [1] * 12 + [2] * 18 + [3] * 60
    rng.shuffle(plan)
    return [game(start + i, "weak", "strong", level, rng.random() < chance[level], board=board)
            for i, level in enumerate(plan)]


def test_a_three_stone_winner_is_rated_well_below_an_even_winner() -> None:
    records = three_stone_player()
    learned = rate_records(records)
    even = rate_records(records, RatingSettings(handicap=HandicapRating.EVEN))
    gap = learned.players["strong"].mu - learned.players["weak"].mu
    gap_even = even.players["strong"].mu - even.players["weak"].mu
    assert gap > 8.0  # about two betas or more
    assert gap > gap_even + 3.0  # counting handicap wins as even wins hides most of the gap
    worth = {v.level: v for v in learned.level_worth}
    assert set(worth) == {0, 1, 2, 3} and {v.board for v in learned.level_worth} == {"tri:7"}
    assert worth[0].mu == 0.0 and worth[0].sigma == 0.0
    assert worth[3].mu > worth[1].mu >= 0.0
    assert [worth[k].mu for k in range(4)] == sorted(worth[k].mu for k in range(4))
    assert worth[3].games == 60 and worth[1].games == 12
    # the weaker side with its three stones is about as strong as the stronger player alone
    assert abs(learned.players["weak"].mu + worth[3].mu - learned.players["strong"].mu) < 0.5 * gap
    assert all(g.handicap_adjusted for g in learned.games if g.record.handicap)


def test_same_games_in_any_order_give_identical_ratings() -> None:
    records = three_stone_player(5)
    shuffled = list(records)
    random.Random(2).shuffle(shuffled)
    first, second = rate_records(records), rate_records(shuffled)
    assert first.players == second.players
    assert first.level_worth == second.level_worth
    assert [g.record.id for g in first.games] == [g.record.id for g in second.games]


def test_worths_stay_monotone_whatever_the_order_of_surprises() -> None:
    rng = random.Random(11)
    records = []
    for i in range(200):  # weak wins often at level 1 and rarely at 4: the raw posteriors would cross
        level = rng.choice([1, 2, 4])
        records.append(game(i + 1, "weak", "strong", level, rng.random() < {1: 0.7, 2: 0.4, 4: 0.2}[level]))
    worth = [v.mu for v in rate_records(records).level_worth]
    assert worth[0] == 0.0 and len(worth) == 5
    assert all(a <= b + 1e-12 for a, b in itertools.pairwise(worth))


def test_each_board_learns_its_own_worths() -> None:
    small = three_stone_player(1, board="tri:5")
    big = [game(1000 + i, "weak", "strong", 1, i % 2 == 0, board="tri:11") for i in range(20)]
    ratings = rate_records(small + big)
    boards = {(v.board, v.level) for v in ratings.level_worth}
    assert ("tri:5", 3) in boards and ("tri:11", 1) in boards and ("tri:11", 2) not in boards


def test_faulted_handicap_games_still_count_as_losses_with_the_bonus() -> None:
    records = [game(1, "weak", "strong", 2, False, termination=Termination.TIME)]
    ratings = rate_records(records)
    assert ratings.players["weak"].mu < 25.0 and ratings.games[0].handicap_adjusted


def test_the_scaled_team_mate_adds_worth_without_noise() -> None:
    env = make_env(RatingSettings(tau=0.0))
    weak, strong = trueskill.Rating(20.0, 1e-3), trueskill.Rating(30.0, 1e-3)
    bonus = trueskill.Rating(10.0 / BONUS_WEIGHT, 1e-3 / BONUS_WEIGHT)
    # an exactly compensated handicap: the weaker team (20 + 10) and the stronger (30) have equal chances
    quality = env.quality([(weak, bonus), (strong,)], weights=[(1.0, BONUS_WEIGHT), (1.0,)])
    assert quality == pytest.approx(env.quality([(strong,), (strong,)]), rel=1e-3)


def test_isotonic_pools_adjacent_violators_and_floors() -> None:
    assert isotonic([1.0, 3.0, 2.0, 4.0], [1.0, 1.0, 1.0, 1.0]) == [1.0, 2.5, 2.5, 4.0]
    assert isotonic([3.0, 1.0], [3.0, 1.0]) == [2.5, 2.5]
    assert isotonic([-2.0, 1.0, 0.5], [1.0, 1.0, 1.0], floor=0.0) == [0.0, 0.75, 0.75]
    assert isotonic([], []) == []


def test_learned_level_worth_model() -> None:
    model = LearnedLevelWorth(per_level=4.0, sigma=2.0)
    assert model.bonus(0) is None
    assert model.bonus(2) == trueskill.Rating(8.0, 2.0)
    model.learn(1, trueskill.Rating(10.0, 1.0))  # level 1 above level 2's prior: level 2 starts at least there
    assert model.bonus(1) == trueskill.Rating(10.0, 1.0) and model.bonus(2) == trueskill.Rating(10.0, 2.0)
    model.learn(2, trueskill.Rating(6.0, 1.0))  # now level 2 below level 1: both pooled to their mean
    assert model.bonus(1).mu == model.bonus(2).mu == pytest.approx(8.0)
    assert model.bonus(1).sigma == 1.0 and model.bonus(3).mu == pytest.approx(12.0)
    with pytest.raises(RatingsError, match="-1"):
        LearnedLevelWorth(per_level=-1, sigma=1.0)
    with pytest.raises(RatingsError, match="0"):
        LearnedLevelWorth(per_level=1.0, sigma=0)


def test_settings_and_config_switch_the_model_off() -> None:
    assert RatingSettings().handicap is HandicapRating.LEARN
    assert RatingSettings().to_dict()["handicap"] == "learn"
    config = parse_config("name: t\nboard: tri:5\nratings: {handicap: even}\n"
                          "players: [{name: a, bot: random}, {name: b, bot: random}]\n")
    records = three_stone_player()
    ratings = rate_records(records, config.ratings)
    assert ratings.settings.handicap is HandicapRating.EVEN
    assert ratings.level_worth == () and all(g.handicap_as_even for g in ratings.games if g.record.handicap)


def test_simulated_curve_recovers_level_order() -> None:
    # win curve Phi(1.2 (L - 2)): the worths of the levels played must rise with the level
    rng = random.Random(8)
    records = []
    for i in range(240):
        level = i % 5
        records.append(game(i + 1, "weak", "strong", level, rng.random() < normal_cdf(1.2 * (level - 2.0))))
    worth = [v.mu for v in rate_records(records).level_worth]
    assert worth[0] == 0.0 < worth[1] < worth[2] < worth[4]
