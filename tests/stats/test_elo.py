"""Bradley–Terry Elo: hand-computed fits and intervals, agreement with an independent MM solver and a numeric
Hessian, the prior for players the data cannot place, anchors, handicap games, order independence."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ytourney.errors import RatingsError
from ytourney.games.record import GameRecord, Termination
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import CONNECTION
from ytourney.stats.elo import ELO_PER_NAT, Z95, EloFit, fit_elo


def game(winner: str, loser: str, *, black: str | None = None, handicap: int = 0, game_id: int | None = None,
         termination: Termination = CONNECTION) -> GameRecord:
    """`winner` beat `loser`; `black` (default the winner) placed the first stone."""
    black = black or winner
    white = loser if black == winner else winner
    return GameRecord(game="y",
        tournament="t", round=1, board="tri:5", rules=Rules(pie=handicap == 0), handicap=handicap, first=black,
        second=white, black=black, white=white, moves=(), winner=Color.BLACK if winner == black else Color.WHITE,
        termination=termination, move_seconds=(), seed=None, started="", finished="", id=game_id,
    )


def games(winner: str, loser: str, count: int, **options: object) -> list[GameRecord]:
    return [game(winner, loser, **options) for _ in range(count)]


def league(strengths: dict[str, float], per_pair: int, seed: int) -> list[GameRecord]:
    """Every pair plays `per_pair` games with Bradley–Terry win probabilities from the given Elo."""
    rng = random.Random(seed)
    records = []
    for a, b in itertools.combinations(sorted(strengths), 2):
        p = 1 / (1 + 10 ** ((strengths[b] - strengths[a]) / 400))
        for _ in range(per_pair):
            records.append(game(a, b) if rng.random() < p else game(b, a))
    return records


def mm_fit(records: list[GameRecord]) -> dict[str, float]:
    """Hunter's (2004) minorization-maximization for Bradley–Terry strengths, as Elo with mean 0 (independent)."""
    names = sorted({r.black for r in records} | {r.white for r in records})
    wins = {name: 0 for name in names}
    meetings: dict[tuple[str, str], int] = {}
    for r in records:
        wins[r.winner_name] += 1
        key = tuple(sorted((r.black, r.white)))
        meetings[key] = meetings.get(key, 0) + 1
    gamma = {name: 1.0 for name in names}
    for _ in range(20_000):
        new = {}
        for i in names:
            denominator = sum(n / (gamma[i] + gamma[j if i == k else k])
                              for (k, j), n in meetings.items() if i in (k, j))
            new[i] = wins[i] / denominator
        scale = math.exp(sum(math.log(v) for v in new.values()) / len(names))
        new = {name: v / scale for name, v in new.items()}
        done = max(abs(math.log(new[n] / gamma[n])) for n in names) < 1e-13
        gamma = new
        if done:
            break
    return {name: 400 * math.log10(g) for name, g in gamma.items()}


def elo_of(fit: EloFit) -> dict[str, float]:
    return {rating.name: rating.elo for rating in fit.ratings}


def test_two_players_match_the_closed_form() -> None:
    records = games("A", "B", 7) + games("B", "A", 3)
    diff = 400 * math.log10(7 / 3)
    sd = ELO_PER_NAT / math.sqrt(10 * 0.7 * 0.3)  # observed information of the difference: n p (1 - p)
    fit = fit_elo(records)
    a, b = fit.rating("A"), fit.rating("B")
    assert a.elo == pytest.approx(diff / 2, abs=1e-9) and b.elo == pytest.approx(-diff / 2, abs=1e-9)
    # pool average: each rating is half the difference, so its deviation is half the difference's
    assert a.error == pytest.approx(Z95 * sd / 2) and b.error == pytest.approx(Z95 * sd / 2)
    assert (a.games, a.wins, b.games, b.wins) == (10, 7, 10, 3)
    assert [r.name for r in fit.ratings] == ["A", "B"] and not a.bounded and not b.bounded
    assert (fit.games_used, fit.handicap_games_left_out, fit.prior_games, fit.anchor) == (10, 0, 0.0, None)

    anchored = fit_elo(records, anchor="B")
    assert anchored.rating("B").elo == 0.0 and anchored.rating("B").error == 0.0
    assert anchored.rating("A").elo == pytest.approx(diff)
    assert anchored.rating("A").low == pytest.approx(diff - Z95 * sd)
    assert anchored.rating("A").high == pytest.approx(diff + Z95 * sd)


def test_three_players_agree_with_an_independent_mm_solver() -> None:
    records = (games("A", "B", 6) + games("B", "A", 4) + games("B", "C", 7) + games("C", "B", 3)
               + games("A", "C", 5) + games("C", "A", 2))
    fit = fit_elo(records)
    reference = mm_fit(records)
    for name, elo in elo_of(fit).items():
        assert elo == pytest.approx(reference[name], abs=1e-6)
    assert sum(elo_of(fit).values()) == pytest.approx(0.0, abs=1e-9)
    # the score equations of the maximum-likelihood fit: every player's wins equal its expected wins
    rating = elo_of(fit)
    for name in rating:
        expected = sum(1 / (1 + 10 ** ((rating[r.black if r.white == name else r.white] - rating[name]) / 400))
                       for r in records if name in (r.black, r.white))
        assert expected == pytest.approx(fit.rating(name).wins, abs=1e-8)


def numeric_information(records: list[GameRecord], names: list[str], theta: np.ndarray) -> np.ndarray:
    """Negative Hessian of the log-likelihood by central finite differences (independent of the fit's algebra)."""
    index = {name: i for i, name in enumerate(names)}

    def loglik(t: np.ndarray) -> float:
        return sum(-math.log1p(math.exp(t[index[r.loser_name]] - t[index[r.winner_name]])) for r in records)

    h = 1e-4
    n = len(names)
    hessian = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            def at(di: float, dj: float) -> float:
                t = theta.copy()
                t[i] += di
                t[j] += dj
                return loglik(t)
            hessian[i, j] = (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h)
    return -hessian


def test_intervals_come_from_the_observed_information_for_each_anchor() -> None:
    records = league({"A": 150, "B": 0, "C": -100, "D": -200}, per_pair=30, seed=3)
    names = ["A", "B", "C", "D"]
    fit = fit_elo(records, anchor="C")
    theta = np.array([fit.rating(n).elo for n in names]) / ELO_PER_NAT
    information = numeric_information(records, names, theta)
    keep = [i for i, n in enumerate(names) if n != "C"]
    covariance = np.linalg.inv(information[np.ix_(keep, keep)])
    for position, i in enumerate(keep):
        expected = Z95 * math.sqrt(covariance[position, position]) * ELO_PER_NAT
        assert fit.rating(names[i]).error == pytest.approx(expected, rel=1e-5)
    assert fit.rating("C").error == 0.0

    pooled = fit_elo(records)
    centring = np.eye(4) - 1 / 4
    covariance = centring @ np.linalg.pinv(information) @ centring.T
    for i, name in enumerate(names):
        assert pooled.rating(name).error == pytest.approx(Z95 * math.sqrt(covariance[i, i]) * ELO_PER_NAT, rel=1e-5)
        # the same differences whatever the anchor
        assert pooled.rating(name).elo - pooled.rating("C").elo == pytest.approx(fit.rating(name).elo, abs=1e-8)


def test_a_player_who_won_every_game_gets_a_finite_bounded_estimate() -> None:
    records = (games("A", "B", 5) + games("A", "C", 5) + games("B", "C", 6) + games("C", "B", 4))
    fit = fit_elo(records)
    top = fit.rating("A")
    assert top.bounded and math.isfinite(top.elo) and math.isfinite(top.low) and math.isfinite(top.high)
    assert top.low < top.elo < top.high
    assert not fit.rating("B").bounded and not fit.rating("C").bounded
    assert fit.prior_games == 2.0 and [r.name for r in fit.ratings] == ["A", "B", "C"]
    assert fit.rating("B").elo > fit.rating("C").elo
    # a stronger prior pulls the unbeaten player closer to the pool
    assert fit_elo(records, prior_games=8).rating("A").elo < top.elo


def test_a_player_who_lost_every_game_is_bounded_below() -> None:
    pool = league({"A": 100, "B": 0, "C": -50}, per_pair=40, seed=1)
    fit = fit_elo(pool + games("A", "Z", 3) + games("C", "Z", 2), anchor="C")
    assert fit.ratings[-1].name == "Z" and fit.rating("Z").bounded
    assert not any(fit.rating(n).bounded for n in "ABC")
    assert math.isfinite(fit.rating("Z").elo) and fit.rating("Z").elo < -200
    # the prior pulls the pool too, but only a little: A and B move by a few Elo
    plain = fit_elo(pool, anchor="C")
    assert plain.prior_games == 0.0
    assert all(abs(fit.rating(n).elo - plain.rating(n).elo) < 5 for n in "AB")
    # more losses, further down
    assert fit_elo(pool + games("A", "Z", 30) + games("C", "Z", 20), anchor="C").rating("Z").elo < -500


def test_the_named_anchors_group_decides_what_is_bounded() -> None:
    records = games("A", "B", 4) + games("B", "C", 3) + games("C", "B", 3)
    assert not fit_elo(records, anchor="B").rating("C").bounded
    assert fit_elo(records, anchor="B").rating("A").bounded
    # anchored on the unbeaten player, nobody's number is measured: every distance to it comes from the prior
    assert all(r.bounded for r in fit_elo(records, anchor="A").ratings)


def test_a_chain_of_perfect_results_keeps_its_order_and_stays_finite() -> None:
    fit = fit_elo(games("A", "B", 3) + games("B", "C", 3))
    assert [r.name for r in fit.ratings] == ["A", "B", "C"]
    assert all(r.bounded and math.isfinite(r.low) and math.isfinite(r.high) for r in fit.ratings)


def test_groups_that_never_met_are_named_as_pools_and_nobody_is_starred_for_it() -> None:
    two = games("A", "B", 2) + games("B", "A", 1) + games("C", "D", 1) + games("D", "C", 2)
    fit = fit_elo(two)
    assert fit.pools == (("A", "B"), ("C", "D")) and fit.prior_games == 2.0
    assert not any(r.bounded for r in fit.ratings) and all(math.isfinite(r.elo) for r in fit.ratings)
    three = two + games("B", "E", 1) + games("E", "A", 1)
    assert fit_elo(three).pools == (("A", "B", "E"), ("C", "D"))
    # inside a pool, a player who won every game it played is still starred, and only that one
    lopsided = fit_elo(three + games("F", "C", 2) + games("F", "D", 1), anchor="A")
    assert {r.name for r in lopsided.ratings if r.bounded} == {"F"}
    assert lopsided.pools == (("A", "B", "E"), ("C", "D", "F"))
    assert fit_elo(games("A", "B", 2) + games("B", "A", 1)).pools == ()  # one pool: nothing to say


def test_an_unknown_anchor_and_bad_settings_are_named() -> None:
    records = games("A", "B", 2) + games("B", "A", 2)
    with pytest.raises(RatingsError, match="anchor 'Q' played no rated game; expected one of: A, B"):
        fit_elo(records, anchor="Q")
    with pytest.raises(RatingsError, match="prior_games must be a positive number, got 0"):
        fit_elo(records, prior_games=0)
    with pytest.raises(RatingsError, match="keys must be handicap levels >= 1, got 0"):
        fit_elo(records, level_elo={0: 10.0})
    with pytest.raises(RatingsError, match="level 2 must be a finite number, got nan"):
        fit_elo(records, level_elo={2: math.nan})
    with pytest.raises(RatingsError, match="no Elo rating for player 'Q'; rated players: A, B"):
        fit_elo(records).rating("Q")


def test_no_games_give_an_empty_fit() -> None:
    fit = fit_elo([game("A", "B", handicap=2)])
    assert fit.ratings == () and fit.games_used == 0 and fit.handicap_games_left_out == 1


def test_handicap_games_are_left_out_or_rated_with_their_worth() -> None:
    even = games("A", "B", 6) + games("B", "A", 4)
    # B received two stones (B is Black) and won 7 of 10 against A
    handicapped = games("B", "A", 7, black="B", handicap=2) + games("A", "B", 3, black="B", handicap=2)
    fit = fit_elo(even + handicapped)
    assert fit.handicap_games_left_out == 10 and fit.games_used == 10
    assert elo_of(fit) == elo_of(fit_elo(even))
    # with two stones worth 200 Elo to Black, B's 70% says B is 400 log10(7/3) - 200 Elo from A in even terms
    worth = fit_elo(handicapped, level_elo={2: 200.0}, anchor="A")
    assert worth.handicap_games_left_out == 0
    assert worth.rating("B").elo == pytest.approx(400 * math.log10(7 / 3) - 200)
    assert fit_elo(even + handicapped, level_elo={1: 50.0}).handicap_games_left_out == 10


def test_faults_and_forfeits_count_as_the_losses_the_records_say() -> None:
    records = games("A", "B", 3) + games("B", "A", 2) + [game("A", "B", termination=Termination.TIME)]
    assert fit_elo(records).rating("A").wins == 4


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("ABCDE"), st.sampled_from("ABCDE")).filter(lambda p: p[0] != p[1]),
                min_size=1, max_size=40), st.randoms(use_true_random=False), st.sampled_from([None, "A", "C"]))
def test_any_order_of_the_games_gives_the_same_fit(results: list[tuple[str, str]], rng: random.Random,
                                                   anchor: str | None) -> None:
    records = [game(w, l, game_id=i) for i, (w, l) in enumerate(results)]
    names = {n for pair in results for n in pair}
    anchor = anchor if anchor in names else None
    fit = fit_elo(records, anchor=anchor)
    shuffled = records[:]
    rng.shuffle(shuffled)
    assert fit_elo(shuffled, anchor=anchor) == fit
    assert all(math.isfinite(r.elo) and r.low <= r.elo <= r.high for r in fit.ratings)
    if anchor is None:
        assert sum(r.elo for r in fit.ratings) == pytest.approx(0.0, abs=1e-6)
    else:
        assert fit.rating(anchor).elo == 0.0


def test_a_league_fit_is_close_to_the_truth_it_was_drawn_from() -> None:
    truth = {"A": 300.0, "B": 120.0, "C": 0.0, "D": -60.0, "E": -360.0}
    fit = fit_elo(league(truth, per_pair=400, seed=11), anchor="C")
    for rating in fit.ratings:
        assert abs(rating.elo - truth[rating.name]) < 3 * rating.error / Z95 + 1e-9
        assert not rating.bounded
    assert fit.to_dict()["ratings"][0]["name"] == "A"


def test_self_play_is_left_out_of_elo_as_of_trueskill() -> None:
    fit = fit_elo([game("a", "b"), game("b", "a"), game("a", "a")])
    assert fit.games_used == 2 and fit.rating("a").games == 2
