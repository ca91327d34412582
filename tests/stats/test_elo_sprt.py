"""SPRT in Elo: the generalized LLR against independent computations, Wald's LLR, Elo ± error, settings, pairs
built from records, the first crossing, and the incremental form equal to the records form."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ytourney.games.record import GameRecord
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import CONNECTION
from ytourney.stats.elo_sprt import (
    EloSprt,
    EloSprtSettings,
    EloSprtState,
    SprtModel,
    estimate_elo,
    expected_score,
    gsprt_llr,
    score_elo,
    sprt_from_records,
    sprt_step,
    wald_llr,
)
from ytourney.stats.sprt import SprtDecision


def reference_llr(results: list[float], elo0: float, elo1: float) -> float:
    """fishtest's LLRcalc.LLR_logistic written out with plain floats and bisection (independent of the module)."""
    results = [r if r else 1e-3 for r in results]
    total = sum(results)
    pdf = [(i / (len(results) - 1), r / total) for i, r in enumerate(results)]

    def constrained(s: float) -> list[float]:
        shifted = [(a - s, p) for a, p in pdf]
        lo = -1 / max(a for a, _ in shifted) + 1e-14
        hi = -1 / min(a for a, _ in shifted) - 1e-14
        for _ in range(200):
            mid = (lo + hi) / 2
            if sum(p * a / (1 + mid * a) for a, p in shifted) > 0:
                lo = mid
            else:
                hi = mid
        x = (lo + hi) / 2
        return [p / (1 + x * a) for a, p in shifted]

    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1))
    q0, q1 = constrained(s0), constrained(s1)
    return total * sum(p * math.log(b / a) for (_, p), a, b in zip(pdf, q0, q1))


def brute_force_trinomial_llr(results: list[int], s0: float, s1: float) -> float:
    """Maximise the likelihood over loss/draw/win distributions of mean s by golden-section search on the draws."""
    counts = [r if r else 1e-3 for r in results]

    def best(s: float) -> float:
        def loglik(draw: float) -> float:
            win = s - draw / 2
            loss = 1 - win - draw
            return sum(c * math.log(q) for c, q in zip(counts, (loss, draw, win)))

        lo, hi = 1e-15, min(2 * s, 2 * (1 - s)) - 1e-15
        ratio = (math.sqrt(5) - 1) / 2
        for _ in range(300):
            a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
            if loglik(a) < loglik(b):
                lo = a
            else:
                hi = b
        return loglik((lo + hi) / 2)

    return best(s1) - best(s0)


def game(round_number: int, winner: str, loser: str, *, first: str | None = None, tournament: str = "t",
         game_id: int | None = None) -> GameRecord:
    first = first or winner
    second = loser if first == winner else winner
    return GameRecord(game="y",
        tournament=tournament, round=round_number, board="tri:5", rules=Rules(), handicap=0, first=first,
        second=second, black=first, white=second, moves=(), winner=Color.BLACK if winner == first else Color.WHITE,
        termination=CONNECTION, move_seconds=(), seed=None, started="", finished="", id=game_id,
    )


def pair(round_number: int, points: int, player: str = "A", opponent: str = "B") -> list[GameRecord]:
    """The two seat-reversed games of one round in which `player` scores `points` (0, 1 or 2)."""
    results = [True] * points + [False] * (2 - points)
    records = []
    for seat, won in enumerate(results):
        first = player if seat == 0 else opponent
        records.append(game(round_number, player if won else opponent, opponent if won else player, first=first))
    return records


PENTA = EloSprtSettings(elo0=0, elo1=5)


@pytest.mark.parametrize("results", [[10, 0, 50, 0, 40], [40, 0, 50, 0, 10], [3, 7, 20, 9, 5], [0, 0, 0, 0, 7],
                                     [1, 0, 0, 0, 0], [1000, 20, 3000, 25, 1200]])
@pytest.mark.parametrize(("elo0", "elo1"), [(0, 5), (-3, 2), (0, 40)])
def test_pentanomial_llr_matches_fishtest(results: list[int], elo0: float, elo1: float) -> None:
    llr = float(gsprt_llr(results, expected_score(elo0), expected_score(elo1)))
    assert llr == pytest.approx(reference_llr(results, elo0, elo1), rel=1e-7, abs=1e-9)


@pytest.mark.parametrize("results", [[60, 0, 40], [40, 0, 60], [30, 20, 50], [0, 0, 9]])
def test_trinomial_llr_is_the_constrained_maximum_likelihood(results: list[int]) -> None:
    s0, s1 = expected_score(0), expected_score(20)
    assert float(gsprt_llr(results, s0, s1)) == pytest.approx(reference_llr(results, 0, 20), rel=1e-7)
    assert float(gsprt_llr(results, s0, s1)) == pytest.approx(brute_force_trinomial_llr(results, s0, s1), abs=1e-6)


def test_the_llr_takes_many_tests_at_once() -> None:
    batch = np.array([[10, 0, 50, 0, 40], [40, 0, 50, 0, 10], [0, 0, 1, 0, 0]])
    s0, s1 = expected_score(0), expected_score(5)
    together = gsprt_llr(batch, s0, s1)
    assert together.shape == (3,)
    for row, value in zip(batch, together):
        assert value == pytest.approx(float(gsprt_llr(row, s0, s1)), rel=1e-12)


def test_bernoulli_is_classic_wald_and_close_to_the_drawless_trinomial() -> None:
    s0, s1 = expected_score(0), expected_score(10)
    expected = 40 * math.log(s1 / s0) + 60 * math.log((1 - s1) / (1 - s0))
    assert float(wald_llr(40, 0, 60, s0, s1)) == pytest.approx(expected)
    with_draws = 41 * math.log(s1 / s0) + 59 * math.log((1 - s1) / (1 - s0))
    assert float(wald_llr(40, 2, 58, s0, s1)) == pytest.approx(with_draws)
    # without draws the trinomial maximum-likelihood distributions are Bernoulli up to the regularized bin
    assert float(gsprt_llr([60, 0, 40], s0, s1)) == pytest.approx(expected, abs=1e-3)
    settings_ = EloSprtSettings(0, 10, model=SprtModel.BERNOULLI)
    assert settings_.llr((0,) * 5, (60, 0, 40)) == pytest.approx(expected)


def test_elo_estimate_by_hand() -> None:
    # loss, draw, draw, win: mean 0.5, per-game variance 0.125, standard error sqrt(0.125 / 4)
    estimate = estimate_elo([1, 2, 1])
    high = 0.5 + 1.959963984540054 * math.sqrt(0.125 / 4)
    assert estimate.elo == 0.0 and estimate.los == pytest.approx(0.5)
    assert estimate.error == pytest.approx(-400 * math.log10(1 / high - 1))
    # pentanomial: pairs scoring 0, 1, 1, 2 points vary as much as 4 wins and 4 losses (per game 0.25 / 8)...
    def half_width(score_se: float) -> float:
        return -400 * math.log10(1 / (0.5 + 1.959963984540054 * score_se) - 1)

    pairs = estimate_elo([1, 1e-12, 2, 1e-12, 1])
    assert pairs.elo == pytest.approx(0.0, abs=1e-6)
    assert pairs.error == pytest.approx(half_width(math.sqrt(0.25 / 8)), rel=1e-6)
    # ...while split pairs (1 point each) vary less than their games would alone: 2 / 16 per game, not 0.25
    balanced = estimate_elo([1, 1e-12, 6, 1e-12, 1])
    assert balanced.error == pytest.approx(half_width(math.sqrt(0.125 / 16)), rel=1e-6)
    assert balanced.error < estimate_elo([8, 1e-12, 8]).error
    assert estimate_elo([10, 0, 50, 0, 40]).elo == pytest.approx(score_elo(0.65), abs=0.01)
    assert estimate_elo([0, 0, 0, 0, 5]).elo < 1200 and score_elo(1.0) == pytest.approx(1199.826, abs=1e-3)


def test_settings_bounds() -> None:
    s = EloSprtSettings(0, 5, 0.05, 0.1)
    assert s.bounds == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))
    assert s.model is SprtModel.PENTANOMIAL
    assert s.to_dict() == {"elo0": 0, "elo1": 5, "alpha": 0.05, "beta": 0.1, "model": "pentanomial"}


def test_pairs_count_once_both_games_are_in() -> None:
    a1, a2 = pair(1, 2)
    b1, b2 = pair(2, 1)
    c1, c2 = pair(3, 0)
    stranger = game(1, "A", "C")
    state = sprt_from_records([a1, b1, stranger, b2, c1], PENTA, "A")
    assert state.opponent == "B" and state.pentanomial == (0, 0, 1, 0, 0) and state.pairs == 1
    assert state.trinomial == (2, 0, 2) and state.games == 4
    assert [key for key, _ in state.waiting] == [("t", 1), ("t", 3)]
    state = sprt_from_records([a1, b1, stranger, b2, c1, c2, a2], PENTA, "A")
    assert state.pentanomial == (1, 0, 1, 0, 1) and state.waiting == () and state.counted == 6
    # the same round in another tournament (a league of folders) is another pair
    other = pair(1, 2)[0]
    other = GameRecord(**{**other.__dict__, "tournament": "u"})
    assert sprt_from_records([a1, other], PENTA, "A").pairs == 0
    # the opponent, when named, filters the games
    assert sprt_from_records([stranger, a1, a2], PENTA, "A", "C").trinomial == (0, 0, 1)


def test_the_llr_moves_only_when_a_pair_completes() -> None:
    first, second = pair(1, 2)
    half = sprt_step(EloSprtState(PENTA, "A", "B"), first)
    assert half.llr == 0.0 and half.pairs == 0
    full = sprt_step(half, second)
    assert full.llr == pytest.approx(float(gsprt_llr([0, 0, 0, 0, 1], *PENTA.scores)))
    trinomial = sprt_step(EloSprtState(EloSprtSettings(0, 5, model=SprtModel.TRINOMIAL), "A", "B"), first)
    assert trinomial.llr == pytest.approx(float(gsprt_llr([0, 0, 1], *PENTA.scores)))


def test_the_first_crossing_decides_for_good() -> None:
    wide = EloSprtSettings(0, 200, 0.1, 0.1)
    records = [g for r in range(1, 40) for g in pair(r, 2)]
    state = EloSprtState(wide, "A", "B")
    for record in records:
        state = sprt_step(state, record)
        if state.finished:
            break
    assert state.decision is SprtDecision.ACCEPT_H1 and state.llr >= state.bounds[1]
    decided = state.decided_after
    assert decided == state.counted and decided % 2 == 0
    for r in range(100, 130):
        for record in pair(r, 0):
            state = sprt_step(state, record)
    assert state.decision is SprtDecision.ACCEPT_H1 and state.decided_after == decided
    assert state.llr < state.bounds[0] and state.decided_llr >= state.bounds[1]
    text = state.summary()
    assert f"H1 accepted after {decided // 2} pairs ({decided} games), LLR {state.decided_llr:.2f} then" in text
    assert "Ptnml(0-2) [30, 0, 0, 0, " in text and "pentanomial" in text
    assert state.to_dict()["decision"] == "H1" and state.to_dict()["pentanomial"][0] == 30


def test_losing_pairs_accept_h0() -> None:
    state = sprt_from_records([g for r in range(1, 200) for g in pair(r, 0)], EloSprtSettings(0, 10), "A", "B")
    assert state.decision is SprtDecision.ACCEPT_H0 and state.decided_llr <= state.bounds[0]
    assert "H0 accepted" in state.summary() and "A Elo <= 0" in state.summary()


def test_a_clear_difference_is_found_quickly_in_every_model() -> None:
    rng = random.Random(7)
    records = []
    for r in range(1, 400):
        for seat in range(2):
            first = "A" if seat == 0 else "B"
            # A is about 100 Elo stronger; whoever moves first gains 15 points of win probability
            p = expected_score(100) + (0.15 if first == "A" else -0.15)
            won = rng.random() < p
            records.append(game(r, "A" if won else "B", "B" if won else "A", first=first))
    for model in SprtModel:
        state = sprt_from_records(records, EloSprtSettings(0, 20, model=model), "A", "B")
        assert state.decision is SprtDecision.ACCEPT_H1, model
        assert state.decided_after < 400
        assert 40 < state.estimate.elo < 180


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=0, max_size=30), st.randoms(use_true_random=False),
       st.sampled_from(list(SprtModel)), st.floats(5, 300))
def test_incremental_equals_the_records_form(points: list[int], rng: random.Random, model: SprtModel,
                                            elo1: float) -> None:
    records = [g for r, p in enumerate(points, start=1) for g in pair(r, p)]
    records += [game(1, "A", "C"), game(2, "C", "B")]
    rng.shuffle(records)  # any completion order
    test_settings = EloSprtSettings(0, elo1, 0.2, 0.2, model=model)
    test = EloSprt(test_settings, "A", "B")
    decisions = [test.update(record) for record in records]
    batch = sprt_from_records(records, test_settings, "A", "B")
    assert test.state == batch and test.decision is batch.decision
    # the decision, once taken, never changes
    taken = [d for d in decisions if d is not SprtDecision.CONTINUE]
    assert len(set(taken)) <= 1 and (not taken or decisions[-len(taken):] == taken)
    assert batch.pairs == sum(1 for r in range(1, len(points) + 1)
                              if sum(1 for g in records if g.round == r and "C" not in (g.black, g.white)) == 2)
