"""Wald's SPRT: LLR arithmetic, sticky decisions, error rates on synthetic win streams, replay from records."""

from __future__ import annotations

import math
import random

import pytest

from ytourney.games.record import GameRecord
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import CONNECTION
from ytourney.stats.sprt import (
    Sprt,
    SprtDecision,
    SprtSettings,
    SprtState,
    sprt_from_records,
    sprt_step,
)

SETTINGS = SprtSettings(p0=0.45, p1=0.55, alpha=0.05, beta=0.05)


def run_until_decided(p: float, rng: random.Random, limit: int = 20_000) -> tuple[SprtDecision, int]:
    test = Sprt(SETTINGS)
    for games in range(1, limit + 1):
        if test.update(rng.random() < p) is not SprtDecision.CONTINUE:
            return test.state.decision, games
    return test.state.decision, limit


def test_llr_and_bounds_follow_wald() -> None:
    test = Sprt(SprtSettings(0.45, 0.55, 0.05, 0.05))
    assert test.state.bounds == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    for win in (True, True, False, True):
        test.update(win)
    expected = 3 * math.log(0.55 / 0.45) + math.log(0.45 / 0.55)
    assert test.state.llr == pytest.approx(expected)
    assert test.state.decision is SprtDecision.CONTINUE


def test_the_first_crossing_decides_for_good() -> None:
    state = SprtState(SprtSettings(0.3, 0.7, 0.1, 0.1))
    upper = state.bounds[1]
    while not state.finished:
        state = sprt_step(state, True)
    assert state.decision is SprtDecision.ACCEPT_H1 and state.llr >= upper
    decided = state.decided_after
    for _ in range(10):
        state = sprt_step(state, False)
    assert state.decision is SprtDecision.ACCEPT_H1 and state.decided_after == decided
    assert state.losses == 10 and state.llr < upper
    assert state.decided_llr >= upper
    assert f"H1 accepted after {decided} games, LLR {state.decided_llr:.2f} then" in state.summary()


def test_sprt_step_is_pure() -> None:
    start = SprtState(SETTINGS)
    after = sprt_step(start, True)
    assert start.wins == 0 and after.wins == 1
    assert sprt_step(start, True) == after


@pytest.mark.parametrize(("p", "wrong", "rate"), [(0.45, SprtDecision.ACCEPT_H1, SETTINGS.alpha),
                                                 (0.55, SprtDecision.ACCEPT_H0, SETTINGS.beta)])
def test_error_rates_on_synthetic_streams(p: float, wrong: SprtDecision, rate: float) -> None:
    rng = random.Random(20260101)
    runs = 400
    outcomes = [run_until_decided(p, rng) for _ in range(runs)]
    assert all(decision is not SprtDecision.CONTINUE for decision, _ in outcomes)
    errors = sum(decision is wrong for decision, _ in outcomes)
    # Wald's bounds keep the true error rate near (at most about) the nominal one; 400 runs -> sd ~ 0.011
    assert errors / runs <= rate + 0.035
    mean_games = sum(games for _, games in outcomes) / runs
    assert 50 < mean_games < 400


def test_clear_differences_are_found_quickly() -> None:
    rng = random.Random(5)
    decisions = [run_until_decided(0.75, rng) for _ in range(50)]
    assert all(d is SprtDecision.ACCEPT_H1 for d, _ in decisions)
    assert max(games for _, games in decisions) < 150


def record(game_id: int, winner: str, loser: str) -> GameRecord:
    return GameRecord(game="y",
        tournament="m", round=1, board="tri:4", rules=Rules(pie=True, misere=False), handicap=0, first=winner,
        second=loser, black=winner, white=loser, moves=("a1",), winner=Color.BLACK,
        termination=CONNECTION, move_seconds=(), seed=None, started="", finished="", id=game_id,
    )


def test_state_is_rebuilt_from_records_in_game_id_order() -> None:
    games = [record(i, "new", "old") for i in range(1, 40)] + [record(40, "old", "new")]
    shuffled = games[::-1]
    state = sprt_from_records(shuffled, SETTINGS, "new")
    assert state.opponent == "old" and (state.wins, state.losses) == (39, 1)
    assert state.decision is SprtDecision.ACCEPT_H1
    assert state.decided_after == math.ceil(state.bounds[1] / SETTINGS.win_step)
    assert "H1 accepted after" in state.summary() and "new vs old" in state.summary()
    assert state.to_dict()["decision"] == "H1"
