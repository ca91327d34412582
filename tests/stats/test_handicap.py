"""Tests of the handicap ladder: settings, randomized rounding, the Bayesian pair estimator and the planner."""

from __future__ import annotations

import math
import random
import re
import time
from dataclasses import replace

import pytest

from ytourney.errors import HandicapError
from ytourney.games.record import GameRecord, Termination
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import CONNECTION
from ytourney.stats.handicap import (
    HandicapEstimate,
    HandicapMode,
    HandicapPlanner,
    HandicapSettings,
    PairEstimator,
    round_level,
)
from ytourney.stats.normal import normal_cdf
from ytourney.tournament.config import TournamentConfig, parse_config
from ytourney.tournament.schedule import GameTask, Scheduler, build_slots


def play(weaker_true: str, theta: float, slope: float, level: int, receiver: str, rng: random.Random,
         stronger_true: str | None = None) -> str:
    """Winner of one simulated game where P(weaker wins | L) = Phi(slope * (L - theta)); players a, b by default."""
    if stronger_true is None:
        stronger_true = "b" if weaker_true == "a" else "a"
    received = 0 if level == 0 else (level if receiver == weaker_true else -level)
    return weaker_true if rng.random() < normal_cdf(slope * (received - theta)) else stronger_true


def draw_truth(rng: random.Random) -> tuple[str, float, float]:
    """A random pair: the weaker side, a fair level in [0.3, 4.5] and a slope log-uniform in [0.4, 2.5]."""
    weaker = "a" if rng.random() < 0.5 else "b"
    return weaker, rng.uniform(0.3, 4.5), math.exp(rng.uniform(math.log(0.4), math.log(2.5)))


def run_pair(seed: int, games: int = 100) -> tuple[str, float, HandicapEstimate]:
    """Play `games` sequential games of a random pair with the default estimator; return truth and estimate."""
    rng = random.Random(seed)
    weaker, theta, slope = draw_truth(rng)
    estimator = PairEstimator("a", "b")
    for _ in range(games):
        receiver, level = estimator.next_level(rng)
        estimator.record(level, receiver, play(weaker, theta, slope, level, receiver, rng))
    return weaker, theta, estimator.estimate()


# --- settings -----------------------------------------------------------------------------------------------


def test_settings_defaults_are_an_even_ladder_of_six_levels() -> None:
    assert HandicapSettings() == HandicapSettings(HandicapMode.NONE, level=0.0, max_level=6, target=0.5)
    assert HandicapSettings().stop_width is None


# --- randomized rounding ------------------------------------------------------------------------------------


def test_round_level_integer_levels_are_exact() -> None:
    rng = random.Random(1)
    assert [round_level(k, rng) for k in (0, 1, 2.0, 6)] == [0, 1, 2, 6]


@pytest.mark.parametrize("level", [0.25, 1.5, 3.9])
def test_round_level_frequencies_within_binomial_tolerance(level: float) -> None:
    rng = random.Random(11)
    draws = 10_000
    results = [round_level(level, rng) for _ in range(draws)]
    low = math.floor(level)
    assert set(results) <= {low, low + 1}
    fraction = level - low
    share_up = sum(r == low + 1 for r in results) / draws
    assert abs(share_up - fraction) <= 4 * math.sqrt(fraction * (1 - fraction) / draws)


@pytest.mark.parametrize("level", [-0.5, float("inf"), "1", None])
def test_round_level_rejects_bad_levels(level: object) -> None:
    with pytest.raises(HandicapError, match=re.escape(repr(level))):
        round_level(level, random.Random(0))  # type: ignore[arg-type]


# --- the estimator, statistically ---------------------------------------------------------------------------


def test_median_within_half_a_level_after_100_games() -> None:
    hits = 0
    for seed in range(30):
        weaker, theta, estimate = run_pair(1000 + seed)
        hits += estimate.weaker == weaker and abs(estimate.median - theta) <= 0.5
    assert hits >= 24  # >= 80% of 30 pairs; about 29 in practice


def test_credible_interval_coverage_is_near_95_percent() -> None:
    # 200 runs at nominal 0.95: sd 0.015, so [0.88, 0.995] is more than 4 sd below and forbids only 200/200.
    covered = 0
    runs = 200
    for seed in range(runs):
        weaker, theta, estimate = run_pair(50_000 + seed)
        signed_truth = theta if estimate.weaker == weaker else -theta
        covered += estimate.low <= signed_truth <= estimate.high
    assert 0.88 <= covered / runs <= 0.995


@pytest.mark.parametrize("weaker", ["a", "b"])
def test_orientation_names_the_weaker_player(weaker: str) -> None:
    rng = random.Random(5)
    estimator = PairEstimator("a", "b")
    for _ in range(60):
        receiver, level = estimator.next_level(rng)
        estimator.record(level, receiver, play(weaker, 2.0, 1.0, level, receiver, rng))
    estimate = estimator.estimate()
    assert estimate.weaker == weaker and estimate.stronger == ("b" if weaker == "a" else "a")
    assert estimate.p_weaker > 0.99
    assert estimator.next_level(rng)[0] == weaker


def test_orientation_flips_when_early_luck_misleads() -> None:
    estimator = PairEstimator("a", "b")
    for _ in range(3):
        estimator.record(0, None, "b")  # a looks weaker at first
    assert estimator.estimate().weaker == "a"
    for _ in range(12):
        estimator.record(0, None, "a")
    for _ in range(8):
        estimator.record(1, "a", "a")
    estimate = estimator.estimate()
    assert estimate.weaker == "b"
    # games in which a (now the stronger) received level 1 show under key -1, counted as wins of b
    assert estimate.per_level == {-1: (8, 0), 0: (15, 3)}
    assert estimate.low <= estimate.median <= estimate.high


def test_dispatch_with_games_in_flight() -> None:
    rng = random.Random(3)
    planner = HandicapPlanner(HandicapSettings(HandicapMode.AUTO, max_level=6))
    dispatched = [planner.next_game("x", "y", rng) for _ in range(8)]
    for weaker, level in dispatched:
        assert weaker in ("x", "y") and isinstance(level, int) and 0 <= level <= 6
    for round_ in range(5):
        batch = [planner.next_game("y", "x", rng) for _ in range(8)]  # order of names does not matter
        assert all(w in ("x", "y") and 0 <= lvl <= 6 for w, lvl in batch)
        for weaker, level in dispatched:
            planner.record("x", "y", level, weaker, play("y", 3.0, 1.0, level, weaker, rng, stronger_true="x"))
        dispatched = batch
    assert planner.estimator("y", "x").games == 40


def test_next_level_is_a_pure_function_of_results_and_rng() -> None:
    estimator = PairEstimator("a", "b")
    for winner in "abbabb":
        estimator.record(0, None, winner)
    first = [estimator.next_level(random.Random(9)) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    assert estimator.games == 6


def test_done_once_interval_is_narrow() -> None:
    rng = random.Random(8)
    estimator = PairEstimator("a", "b")
    assert not estimator.done(None)
    assert not estimator.done(1.0)
    for _ in range(150):
        receiver, level = estimator.next_level(rng)
        estimator.record(level, receiver, play("a", 2.4, 2.0, level, receiver, rng))
    assert estimator.estimate().width < 1.0
    assert estimator.done(1.0)
    with pytest.raises(HandicapError, match="0"):
        estimator.done(0)


def test_target_other_than_half_moves_the_level() -> None:
    # with the weaker winning 70% instead of 50%, the estimated level must be higher
    rng_half, rng_seventy = random.Random(4), random.Random(4)
    half, seventy = PairEstimator("a", "b"), PairEstimator("a", "b", target=0.7)
    for estimator, rng in ((half, rng_half), (seventy, rng_seventy)):
        for _ in range(80):
            receiver, level = estimator.next_level(rng)
            estimator.record(level, receiver, play("a", 2.0, 1.0, level, receiver, rng))
    expected = 2.0 + 0.5244 / 1.0  # Phi^-1(0.7) / slope above the fair level
    assert seventy.estimate().median > half.estimate().median + 0.2
    assert abs(seventy.estimate().median - expected) < 0.6


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ((1, "a", "c"), "'c'"),
        ((2, "z", "a"), "'z'"),
        ((2, None, "a"), "None"),
        ((-1, "a", "a"), "-1"),
        ((1.5, "a", "a"), "1.5"),
        ((True, "a", "a"), "True"),
    ],
)
def test_record_rejects_bad_results(args: tuple[object, object, object], fragment: str) -> None:
    estimator = PairEstimator("a", "b")
    with pytest.raises(HandicapError, match=re.escape(fragment)):
        estimator.record(*args)  # type: ignore[arg-type]
    assert estimator.games == 0


def test_pair_needs_two_players() -> None:
    with pytest.raises(HandicapError, match="'a'"):
        PairEstimator("a", "a")
    with pytest.raises(HandicapError, match="'a'"):
        HandicapPlanner(HandicapSettings(HandicapMode.AUTO)).estimator("a", "a")


def test_dispatch_is_cheap() -> None:
    estimator = PairEstimator("a", "b")
    rng = random.Random(0)
    started = time.perf_counter()
    for i in range(300):
        estimator.record(i % 4, "a", "ab"[i % 2])
        estimator.next_level(rng)
    assert (time.perf_counter() - started) / 300 < 0.005


# --- planner ------------------------------------------------------------------------------------------------


def test_planner_modes() -> None:
    rng = random.Random(6)
    none = HandicapPlanner(HandicapSettings())
    assert none.next_game("y", "x", rng) == ("x", 0)
    fixed = HandicapPlanner(HandicapSettings(HandicapMode.FIXED, level=1.5))
    levels = {fixed.next_game("x", "y", rng)[1] for _ in range(50)}
    assert levels == {1, 2}
    fixed.record("x", "y", 2, "x", "y")
    fixed.record("x", "y", 2, "x", "y")
    assert fixed.next_game("x", "y", rng)[0] == "x"  # receiver follows the evidence
    auto = HandicapPlanner(HandicapSettings(HandicapMode.AUTO, stop_width=0.5))
    assert auto.next_game("x", "y", rng) == ("x", 0)
    assert not auto.done("x", "y")


def handicap_record(game_id: int, black: str, white: str, level: int, winner: str,
                    termination: Termination = CONNECTION) -> GameRecord:
    """A stored game: Black moved first; at level >= 1 Black is the weaker player and received the level."""
    return GameRecord(game="y", tournament="t", round=game_id, board="tri:7", rules=Rules(pie=level == 0, misere=False),
                      handicap=level, first=black, second=white, black=black, white=white, moves=(),
                      winner=Color.BLACK if winner == black else Color.WHITE, termination=termination,
                      move_seconds=(), seed=game_id, started="", finished="", id=game_id)


def game_records(seed: int, count: int) -> list[GameRecord]:
    """The game records of a three-player tournament with auto handicaps."""
    rng = random.Random(seed)
    planner = HandicapPlanner(HandicapSettings(HandicapMode.AUTO))
    strength = {"p": 0.0, "q": 1.5, "r": 3.0}
    records = []
    for i in range(count):
        a, b = [("p", "q"), ("q", "r"), ("p", "r")][i % 3]
        weaker, level = planner.next_game(a, b, rng)
        stronger = b if weaker == a else a
        gap = strength[stronger] - strength[weaker]
        winner = weaker if rng.random() < normal_cdf(1.0 * (level - gap)) else stronger
        black, white = (weaker, stronger) if level else ((a, b) if i % 2 else (b, a))
        planner.record(a, b, level, weaker if level else None, winner)
        records.append(handicap_record(i + 1, black, white, level, winner))
    return records


def test_records_and_results_give_the_same_estimates_in_any_order() -> None:
    records = game_records(12, 90)
    planner = HandicapPlanner(HandicapSettings(HandicapMode.AUTO))
    assert all(planner.record_game(record) for record in records)
    estimates = planner.estimates()
    assert list(estimates) == [("p", "q"), ("p", "r"), ("q", "r")]
    assert {e.weaker for e in estimates.values()} == {"p", "q"}
    assert estimates[("p", "r")].weaker == "p" and sum(n for n, _ in estimates[("p", "r")].per_level.values()) == 30

    results = [(r.white, r.black, r.handicap, r.black if r.handicap else None, r.winner_name) for r in records]
    shuffled = list(results)
    random.Random(1).shuffle(shuffled)
    for other_results in (results, shuffled):
        other = HandicapPlanner(HandicapSettings(HandicapMode.AUTO))
        for result in other_results:
            other.record(*result)
        for key, estimate in other.estimates().items():
            assert estimate.weaker == estimates[key].weaker
            assert estimate.median == pytest.approx(estimates[key].median, abs=1e-9)
            assert estimate.per_level == estimates[key].per_level


# --- order independence, faults ----------------------------------------------------------------------------


def test_replay_order_gives_identical_bits_pooled_or_not() -> None:
    records = game_records(21, 120)
    shuffled = list(records)
    random.Random(4).shuffle(shuffled)
    for pooling in (True, False):
        first, second = (HandicapPlanner(HandicapSettings(HandicapMode.AUTO), pooling=pooling) for _ in range(2))
        for record, other in zip(records, shuffled):
            first.record_game(record)
            second.record_game(other)
        assert first.estimates() == second.estimates()  # exact equality, not approx
        assert all(e.pooled == pooling for e in first.estimates().values())


def test_faults_are_left_out_of_the_estimate() -> None:
    planner = HandicapPlanner(HandicapSettings(HandicapMode.AUTO))
    fault = handicap_record(1, "x", "y", 2, "y", Termination.TIME)
    won = replace(fault, termination=CONNECTION)
    assert [planner.record_game(r) for r in (fault, won, replace(fault, termination=Termination.FORFEIT))] == [
        False, True, False]
    assert planner.estimator("x", "y").games == 1
    record = handicap_record(2, "y", "x", 1, "x", Termination.CRASH)
    assert not planner.record_game(record)
    assert planner.record_game(replace(record, termination=CONNECTION))
    estimate = planner.estimates()[("x", "y")]
    assert estimate.games == 2 and sum(games for games, _ in estimate.per_level.values()) == 2


# --- pooling across the pairs of a tournament --------------------------------------------------------------


def play_tournament(seed: int, strengths: dict[str, float], rounds: int, pooling: bool = True,
                    slope: float = 1.0, departure: float = 0.2) -> tuple[dict[tuple[str, str], float],
                                                                          dict[tuple[str, str], HandicapEstimate]]:
    """A round-robin where pair (a, b) needs strengths[b] - strengths[a] levels (a few tenths off); truth, estimates."""
    rng = random.Random(seed)
    names = sorted(strengths)
    truth = {(a, b): strengths[b] - strengths[a] + rng.gauss(0.0, departure)
             for i, a in enumerate(names) for b in names[i + 1:]}  # > 0: a is the weaker
    planner = HandicapPlanner(HandicapSettings(HandicapMode.AUTO), pooling=pooling)
    for _ in range(rounds):
        order = list(truth)
        rng.shuffle(order)
        for a, b in order:
            weaker, level = planner.next_game(a, b, rng)
            x = 0 if level == 0 else (level if weaker == a else -level)
            winner = a if rng.random() < normal_cdf(slope * (x - truth[(a, b)])) else b
            planner.record(a, b, level, weaker if level else None, winner)
    return truth, planner.estimates()


def test_pooling_predicts_a_new_pair_from_the_others() -> None:
    planner = HandicapPlanner(HandicapSettings(HandicapMode.AUTO))
    rng = random.Random(7)
    # p needs 2 levels against q, q needs 2 against r; p and r have not met
    for a, b, need in (("p", "q", 2.0), ("q", "r", 2.0)):
        for _ in range(60):
            weaker, level = planner.next_game(a, b, rng)
            x = level if weaker == a else -level
            planner.record(a, b, level, weaker if level else None, a if rng.random() < normal_cdf(x - need) else b)
    assert ("p", "r") not in planner.estimates()  # not created until used
    weaker, level = planner.next_game("r", "p", rng)
    estimate = planner.estimates()[("p", "r")]
    assert estimate.games == 0 and estimate.pooled and estimate.weaker == "p"
    assert 3.0 < estimate.median < 5.0 and estimate.low > 1.0
    assert weaker == "p" and level in (3, 4, 5)
    alone = HandicapPlanner(HandicapSettings(HandicapMode.AUTO), pooling=False)
    assert alone.next_game("r", "p", rng)[1] == 0
    narrow = HandicapPlanner(HandicapSettings(HandicapMode.AUTO, stop_width=5.0))
    for _ in range(7):
        narrow.record("p", "q", 2, "p", "q")
    assert not narrow.done("p", "q")  # seven games are not enough to stop, however narrow the interval
    narrow.record("p", "q", 2, "p", "p")
    assert narrow.done("p", "q")


def test_pooled_estimates_are_accurate_and_their_intervals_cover() -> None:
    covered = total = 0
    errors = []
    for seed in range(8):
        rng = random.Random(seed)
        strengths = {name: rng.uniform(0.0, 4.0) for name in "abcd"}
        truth, estimates = play_tournament(900 + seed, strengths, rounds=30, slope=math.exp(rng.uniform(-0.7, 0.7)))
        for key, estimate in estimates.items():
            signed = estimate.median if estimate.weaker == key[0] else -estimate.median
            errors.append((signed - truth[key]) ** 2)
            target = truth[key] if estimate.weaker == key[0] else -truth[key]
            covered += estimate.low <= target <= estimate.high
            total += 1
    assert math.sqrt(sum(errors) / len(errors)) < 0.4  # about 0.25 in practice at 30 games per pair
    assert covered / total >= 0.85  # 48 intervals at nominal 0.95


# --- through the scheduler: decisions at dispatch time with games in flight --------------------------------


def scheduled_result(task: GameTask, config: TournamentConfig, rng: random.Random,
                     termination: Termination = CONNECTION) -> GameRecord:
    """The record of a dispatched game: `weak` needs 2.5 levels against `strong` (slope 1.5)."""
    first, second = (config.player_names[i] for i in task.seats)
    x = task.handicap if first == "weak" else -task.handicap
    weak_wins = rng.random() < normal_cdf(1.5 * (x - 2.5)) if task.handicap else rng.random() < normal_cdf(-3.75)
    winner = "weak" if weak_wins else "strong"
    return GameRecord(game="y",
        tournament=config.name, round=task.round, board=config.board, rules=config.rules.to_dict(),
        handicap=task.handicap, first=first, second=second, black=first, white=second, moves=("a1",),
        winner=Color.BLACK if winner == first else Color.WHITE, termination=termination, move_seconds=(0.0,),
        seed=task.seed, started="", finished="", id=task.slot,
    )


def test_scheduler_decides_with_games_of_the_pair_in_flight_and_resumes_by_replay() -> None:
    config = parse_config("name: t\nboard: tri:7\nseed: 2\nschedule: {format: match, games_per_pair: 60}\n"
                          "handicap: {mode: auto, max_level: 5}\n"
                          "players: [{name: strong, bot: random}, {name: weak, bot: random}]\n")
    scheduler = Scheduler(config, build_slots(config))
    rng = random.Random(5)
    in_flight = [scheduler.next_item() for _ in range(6)]  # six games of the one pair before any result
    assert all(isinstance(task, GameTask) for task in in_flight) and len({t.slot for t in in_flight}) == 6
    records: list[GameRecord] = []
    while in_flight:
        task = in_flight.pop(rng.randrange(len(in_flight)))  # results arrive in any order
        assert isinstance(task, GameTask) and 0 <= task.handicap <= 5
        faulty = len(records) % 10 == 9
        record = scheduled_result(task, config, rng, Termination.TIME if faulty else CONNECTION)
        records.append(record)
        scheduler.record(record)
        item = scheduler.next_item()  # dispatch again at once, never waiting for the other five
        if item is not None:
            in_flight.append(item)
    assert len(records) == 60 and {r.id for r in records} == set(range(1, 61))
    late = [r for r in records if r.id is not None and r.id > 40]
    assert all(r.first == "weak" and r.handicap >= 2 for r in late)
    planner = scheduler.planner
    assert planner is not None
    estimate = planner.estimates()[("strong", "weak")]
    assert estimate.games == 54  # the six time losses are left out
    assert estimate.weaker == "weak" and estimate.low < 2.5 < estimate.high
    shuffled = list(records)
    random.Random(1).shuffle(shuffled)
    resumed = Scheduler(config, build_slots(config), stored=shuffled)
    assert resumed.planner is not None and resumed.next_item() is None and resumed.skipped == 0
    assert resumed.planner.estimates() == planner.estimates()  # the same bits whatever the completion order
