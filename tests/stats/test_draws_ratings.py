"""Draws in the TrueSkill replay, the player results and the handicap estimator (issue 18)."""

from __future__ import annotations

import math

import pytest
import trueskill
from hypothesis import given, settings
from hypothesis import strategies as st

from ytourney.games.api import Color, Termination
from ytourney.games.record import GameRecord
from ytourney.games.registry import GAMES
from ytourney.games.y.game import YGame
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import CONNECTION
from ytourney.stats.handicap import (
    HandicapMode,
    HandicapPlanner,
    HandicapSettings,
    counts_for_handicap,
    informs_handicap,
)
from ytourney.stats.ratings import (
    DEFAULT_DRAW_PROBABILITY,
    HandicapRating,
    PlayerRating,
    RatingSettings,
    can_draw,
    make_env,
    rate_records,
)

MOVE_LIMIT = Termination.MOVE_LIMIT
SCORE = Termination.define("score")


class DrawingY(YGame):
    """Y under another name that says it can end in a draw: a stand-in for YvY or Leap Over."""

    name = "drawing-y"
    has_draws = True


@pytest.fixture
def drawing_game(monkeypatch: pytest.MonkeyPatch) -> str:
    """Register DrawingY for one test (as `registry.register` would, undone afterwards)."""
    monkeypatch.setitem(GAMES, DrawingY.name, f"{__name__}:DrawingY")
    return DrawingY.name


def record(black: str, white: str, winner: Color | None, *, game_id: int = 1, handicap: int = 0,
           game: str = "y", termination: Termination | None = None, moves: tuple[str, ...] = ("a1", "b1")
           ) -> GameRecord:
    """A hand-built record of `black` (first) against `white`; winner None is a draw."""
    if termination is None:
        termination = MOVE_LIMIT if winner is None else CONNECTION
    return GameRecord(
        tournament="t", round=game_id, board="tri:5", rules=Rules(pie=handicap == 0, misere=False), handicap=handicap,
        first=black, second=white, black=black, white=white, moves=moves, winner=winner, termination=termination,
        move_seconds=(), seed=game_id, started="", finished="", id=game_id, game=game,
    )


def test_y_is_rated_without_draws_and_a_game_with_draws_with_them(drawing_game: str) -> None:
    y_win = record("a", "b", Color.BLACK)
    other_win = record("a", "b", Color.BLACK, game=drawing_game)
    assert not can_draw(y_win) and can_draw(other_win) and can_draw(record("a", "b", None))
    no_draws = trueskill.TrueSkill(draw_probability=0.0)
    with_draws = trueskill.TrueSkill(draw_probability=DEFAULT_DRAW_PROBABILITY)
    (y_a,), (y_b,) = no_draws.rate([(no_draws.create_rating(),), (no_draws.create_rating(),)], ranks=[0, 1])
    (d_a,), (d_b,) = with_draws.rate([(with_draws.create_rating(),), (with_draws.create_rating(),)], ranks=[0, 1])
    ratings = rate_records([y_win]).players
    assert (ratings["a"].mu, ratings["a"].sigma, ratings["b"].mu) == (y_a.mu, y_a.sigma, y_b.mu)
    ratings = rate_records([other_win]).players
    assert (ratings["a"].mu, ratings["a"].sigma, ratings["b"].mu) == pytest.approx((d_a.mu, d_a.sigma, d_b.mu))
    assert ratings["a"].mu > y_a.mu  # a win says more where a draw was possible: it cleared the draw margin


def test_y_ratings_do_not_change_when_another_games_draws_join_the_data(drawing_game: str) -> None:
    y_games = [record("a", "b", Color.BLACK, game_id=1), record("b", "c", Color.WHITE, game_id=2),
               record("c", "a", Color.WHITE, game_id=3)]
    alone = rate_records(y_games).players
    mixed = rate_records(y_games + [record("x", "y", None, game_id=4, game=drawing_game),
                                    record("x", "y", Color.WHITE, game_id=5, game=drawing_game)]).players
    assert all(mixed[name] == alone[name] for name in alone)


def test_equal_players_who_draw_keep_their_means_and_gain_certainty() -> None:
    rated = rate_records([record("a", "b", None)])
    a, b = rated.players["a"], rated.players["b"]
    assert a.mu == pytest.approx(25.0) and b.mu == pytest.approx(25.0)
    assert a.sigma < 25 / 3 and b.sigma < 25 / 3
    assert rated.draw_games == 1 and rated.counts is not None and rated.counts.draws == 1
    game = rated.games[0]
    assert game.drawn and game.before("b").name == "b" and game.after("a") == a


@settings(max_examples=60, deadline=None)
@given(mu_a=st.floats(0, 50), mu_b=st.floats(0, 50), sigma_a=st.floats(0.5, 10), sigma_b=st.floats(0.5, 10),
       black_is_a=st.booleans())
def test_a_draw_moves_ratings_toward_each_other(mu_a: float, mu_b: float, sigma_a: float, sigma_b: float,
                                                black_is_a: bool) -> None:
    initial = {"a": PlayerRating("a", mu_a, sigma_a), "b": PlayerRating("b", mu_b, sigma_b)}
    black, white = ("a", "b") if black_is_a else ("b", "a")
    after = rate_records([record(black, white, None)], initial=initial).players
    gap, new_gap = mu_a - mu_b, after["a"].mu - after["b"].mu
    assert abs(new_gap) <= abs(gap) + 1e-9
    assert math.copysign(1, new_gap) == math.copysign(1, gap) or abs(new_gap) < 1e-6
    higher, lower = ("a", "b") if mu_a >= mu_b else ("b", "a")
    assert after[higher].mu <= initial[higher].mu + 1e-9 and after[lower].mu >= initial[lower].mu - 1e-9
    tau = RatingSettings().tau
    for name in "ab":
        assert after[name].sigma <= math.hypot(initial[name].sigma, tau) + 1e-12


def test_a_draw_is_rated_between_a_win_and_a_loss() -> None:
    initial = {"a": PlayerRating("a", 25.0, 8.0), "b": PlayerRating("b", 25.0, 8.0)}
    won = rate_records([record("b", "a", Color.WHITE)], initial=initial).players["a"].mu
    drew = rate_records([record("b", "a", None)], initial=initial).players["a"].mu
    lost = rate_records([record("b", "a", Color.BLACK)], initial=initial).players["a"].mu
    assert lost < drew < won


def test_the_draw_probability_is_a_setting_and_shows_only_when_changed() -> None:
    assert make_env(draws=True).draw_probability == DEFAULT_DRAW_PROBABILITY
    assert make_env().draw_probability == 0.0
    assert "draw_probability" not in RatingSettings().to_dict()
    rare = RatingSettings(draw_probability=0.01)
    assert rare.to_dict()["draw_probability"] == 0.01
    initial = {"a": PlayerRating("a", 30.0, 4.0), "b": PlayerRating("b", 20.0, 4.0)}
    common = rate_records([record("a", "b", None)], initial=initial).players["a"].mu
    surprising = rate_records([record("a", "b", None)], rare, initial=initial).players["a"].mu
    assert surprising < common < 30.0  # the rarer draws are, the more a draw says


def test_a_drawn_handicap_game_teaches_the_level_worth() -> None:
    games = [record("weak", "strong", Color.WHITE, game_id=i, handicap=2) for i in range(1, 4)]
    games.append(record("weak", "strong", None, game_id=4, handicap=2))
    learned = rate_records(games)
    assert learned.handicap_adjusted_games == 4 and learned.games[-1].handicap_adjusted
    before, after = learned.level_worth, rate_records(games[:3]).level_worth
    assert [v.level for v in before] == [0, 1, 2] and before[2].mu > after[2].mu  # a draw: more worth than losses
    even = rate_records(games, RatingSettings(handicap=HandicapRating.EVEN))
    assert even.handicap_adjusted_games == 0 and even.games[-1].drawn


def test_results_count_draws_as_half_points() -> None:
    games = [record("a", "b", Color.BLACK, game_id=1), record("a", "b", None, game_id=2),
             record("b", "a", None, game_id=3, moves=("a1", "swap")), record("b", "a", Color.BLACK, game_id=4)]
    results = rate_records(games).player_results()
    a, b = results["a"], results["b"]
    assert (a.games, a.wins, a.draws, a.losses) == (4, 1, 2, 1)
    assert (b.games, b.wins, b.draws, b.losses) == (4, 1, 2, 1)
    assert a.score == b.score == 0.5
    assert a.first_win_rate == b.first_win_rate == 0.75  # a win and a draw each as the first player
    assert (a.swaps, a.swap_draws, a.swap_win_rate) == (1, 1, 0.5)
    assert a.faults == {} and b.faults == {}


def test_a_fault_still_goes_to_the_loser() -> None:
    results = rate_records([record("a", "b", Color.BLACK, termination=Termination.TIME)]).player_results()
    assert results["b"].faults == {"time": 1} and results["a"].faults == {}


def test_the_handicap_estimator_counts_rule_endings_with_a_winner_only() -> None:
    assert counts_for_handicap(CONNECTION) and counts_for_handicap(SCORE)
    assert not counts_for_handicap(MOVE_LIMIT) and not counts_for_handicap(Termination.TIME)
    planner = HandicapPlanner(HandicapSettings(HandicapMode.AUTO))
    drawn = [record("a", "b", None, termination=SCORE), record("a", "b", None)]
    assert not any(informs_handicap(r) for r in drawn)
    assert not any(planner.record_game(r) for r in drawn)
    assert planner.record_game(record("a", "b", Color.BLACK))
    assert not planner.record_game(record("a", "b", Color.BLACK, termination=MOVE_LIMIT))
    assert planner.estimates()[("a", "b")].games == 1
