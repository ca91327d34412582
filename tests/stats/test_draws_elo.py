"""Draws in the Bradley–Terry Elo fit and both SPRTs: half a point each way (issue 18)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ytourney.games.api import Color, Termination
from ytourney.games.record import GameRecord
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import CONNECTION
from ytourney.stats.elo import fit_elo
from ytourney.stats.elo_sprt import EloSprtSettings, SprtModel, sprt_from_records, wald_llr
from ytourney.stats.sprt import Sprt, SprtSettings, SprtState, game_result, sprt_step
from ytourney.stats.sprt import sprt_from_records as wald_from_records


def record(black: str, white: str, winner: Color | None, *, round_number: int = 1, game_id: int | None = None,
           tournament: str = "t") -> GameRecord:
    """`black` (first) against `white`; winner None is a draw (at the move limit)."""
    return GameRecord(game="y",
        tournament=tournament, round=round_number, board="tri:5", rules=Rules(), handicap=0, first=black,
        second=white, black=black, white=white, moves=(), winner=winner,
        termination=Termination.MOVE_LIMIT if winner is None else CONNECTION, move_seconds=(), seed=None,
        started="", finished="", id=game_id,
    )


def results(a_wins: int, b_wins: int, draws: int) -> list[GameRecord]:
    """A match of A and B with these results, A as Black in every game."""
    return ([record("A", "B", Color.BLACK)] * a_wins + [record("A", "B", Color.WHITE)] * b_wins
            + [record("A", "B", None)] * draws)


@settings(max_examples=40, deadline=None)
@given(a_wins=st.integers(1, 20), b_wins=st.integers(1, 20), draws=st.integers(1, 20))
def test_draws_are_half_points_and_pull_two_players_together(a_wins: int, b_wins: int, draws: int) -> None:
    fit = fit_elo(results(a_wins, b_wins, draws))
    gap = fit.rating("A").elo - fit.rating("B").elo
    assert fit.prior_games == 0.0
    assert gap == pytest.approx(400 * math.log10((a_wins + draws / 2) / (b_wins + draws / 2)), abs=1e-6)
    without = fit_elo(results(a_wins, b_wins, 0))
    plain_gap = without.rating("A").elo - without.rating("B").elo
    assert abs(gap) <= abs(plain_gap) + 1e-9
    a = fit.rating("A")
    assert (a.games, a.wins, a.draws, a.losses) == (a_wins + b_wins + draws, a_wins, draws, b_wins)
    assert a.score == pytest.approx((a_wins + draws / 2) / (a_wins + b_wins + draws))


def test_players_who_only_drew_are_level_without_a_prior() -> None:
    fit = fit_elo(results(0, 0, 3))
    assert fit.prior_games == 0.0 and not any(r.bounded for r in fit.ratings)
    assert fit.rating("A").elo == pytest.approx(0.0, abs=1e-9) and fit.draws == 3


def test_a_draw_links_a_player_who_never_won() -> None:
    records = results(3, 0, 0) + [record("B", "C", Color.BLACK), record("C", "A", None), record("A", "C", None)]
    fit = fit_elo(records)
    assert fit.prior_games == 0.0  # A-B-C-A is closed by the draws: the plain fit exists


def test_draws_show_in_the_json_only_where_there_are_draws() -> None:
    plain = fit_elo(results(2, 1, 0)).to_dict()
    assert all("draws" not in row for row in plain["ratings"])
    drawn = fit_elo(results(2, 1, 1) + [record("A", "C", Color.BLACK), record("C", "A", Color.BLACK)]).to_dict()
    assert {row["name"]: row["draws"] for row in drawn["ratings"]} == {"A": 1, "B": 1, "C": 0}


def test_the_wald_sprt_counts_a_draw_as_half_a_win() -> None:
    s = SprtSettings(0.45, 0.55)
    drawn = SprtState(s)
    for result in (None, None, True, False):
        drawn = sprt_step(drawn, result)
    assert (drawn.wins, drawn.losses, drawn.draws, drawn.games, drawn.points) == (1, 1, 2, 4, 2.0)
    assert drawn.llr == pytest.approx(2 * s.win_step + 2 * s.loss_step)
    assert drawn.llr == pytest.approx(float(wald_llr(1, 2, 1, 0.45, 0.55)))
    assert "2 draws" in drawn.summary() and drawn.to_dict()["draws"] == 2
    assert "draws" not in sprt_step(SprtState(s), True).to_dict()


def test_the_wald_sprt_reads_draws_from_records() -> None:
    assert game_result(record("A", "B", None), "A") is None
    assert game_result(record("A", "B", Color.WHITE), "B") is True
    assert game_result(record("A", "B", Color.WHITE), "A") is False
    games = [record("A", "B", None, game_id=i) for i in range(1, 6)] + [record("A", "B", Color.BLACK, game_id=6)]
    state = wald_from_records(games, SprtSettings(0.4, 0.6), "A")
    assert (state.wins, state.draws, state.losses, state.opponent) == (1, 5, 0, "B")
    test = Sprt(SprtSettings(0.4, 0.6), player="A")
    for result in (None, None, True):
        test.update(result)
    assert (test.state.wins, test.state.draws) == (1, 2)


@pytest.mark.parametrize("model", list(SprtModel))
def test_the_elo_sprt_counts_a_draw_as_half_a_point(model: SprtModel) -> None:
    rounds = [(record("A", "B", None, round_number=1), record("B", "A", None, round_number=1)),
              (record("A", "B", Color.BLACK, round_number=2), record("B", "A", None, round_number=2)),
              (record("A", "B", None, round_number=3), record("B", "A", Color.BLACK, round_number=3))]
    state = sprt_from_records([game for pair in rounds for game in pair], EloSprtSettings(-10, 10, model=model), "A")
    assert state.trinomial == (1, 4, 1)  # losses, draws, wins
    assert state.pentanomial == (0, 1, 1, 1, 0)  # pairs scoring ½, 1 and 1½
    decisive = sprt_from_records([record("A", "B", Color.BLACK), record("B", "A", Color.BLACK)],
                                 EloSprtSettings(-10, 10, model=model), "A")
    assert decisive.pentanomial == (0, 0, 1, 0, 0) and decisive.trinomial == (1, 0, 1)
    assert state.estimate.elo == pytest.approx(0.0, abs=1e-9)
