"""Benchmark: RMSE of the Bayesian fair-handicap estimator against one-up/one-down staircases on simulated pairs.

Two settings, each run for every method on the very same simulated games' truths and seeds:

1. Independent pairs (the issue's benchmark): each pair has its own fair level and slope and nothing else is
   known; games are played one at a time (each result known before the next game is dispatched) or with
   `--in-flight` games of the pair dispatched before their results arrive.
2. Round-robin tournaments: `--players` players whose fair levels are nearly additive on the level scale
   (pair (a, b) needs h_a - h_b levels plus a departure of sd `--additivity-sd`) and whose pairs share the
   board's slope up to a log-sd `--slope-spread`; pairs take turns as a round-robin does, one game in flight or
   `--workers` games in flight across the tournament. Here the planner pools the pairs (its default).

Staircases (one level up after a loss of the receiver, one down after a win, starting with an even game):
  plain      the estimate is the mean of every level played -- the textbook up-and-down estimate, nothing
             discarded; this is the "plain one-up/one-down staircase" of the issue's target;
  reversals  mean of the reversal levels after the first two (Wetherill/Levitt), a tuned variant;
  tail       mean of the last half of the levels played, another tuned variant.
Games in flight of a staircase are all played at its current position (it cannot step before a result).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from handicap_baselines import Staircase, ThompsonEstimator

from ytourney.stats.handicap import HandicapMode, HandicapPlanner, HandicapSettings, PairEstimator
from ytourney.stats.normal import normal_cdf

CHECKPOINTS = (20, 50, 100)
MAX_LEVEL = 6
TARGET = 0.75


@dataclass(frozen=True)
class Pair:
    """A simulated pair: a receives `theta_signed` levels for a fair game (negative: b is the weaker)."""

    theta_signed: float
    slope: float


Result = dict[int, tuple[float, float, float]]
"""Checkpoint -> (signed median, signed low, signed high) of one pair's estimate."""


def draw_pair(rng: random.Random, low: float, high: float, slope_low: float, slope_high: float) -> Pair:
    """Fair level uniform in [low, high], slope log-uniform, weaker side at random."""
    theta = rng.uniform(low, high)
    slope = math.exp(rng.uniform(math.log(slope_low), math.log(slope_high)))
    return Pair(theta if rng.random() < 0.5 else -theta, slope)


def a_wins(pair: Pair, level: int, weaker: str, rng: random.Random) -> bool:
    """Simulate one game at the given level: P(a wins) = Phi(s * (x - d))."""
    x = 0 if level == 0 else (level if weaker == "a" else -level)
    return rng.random() < normal_cdf(pair.slope * (x - pair.theta_signed))


def signed(estimate: object, a: str) -> tuple[float, float, float]:
    """(median, low, high) of an estimate on the signed axis of pair (a, ...)."""
    if estimate.weaker == a:  # type: ignore[attr-defined]
        return estimate.median, estimate.low, estimate.high  # type: ignore[attr-defined]
    return -estimate.median, -estimate.high, -estimate.low  # type: ignore[attr-defined]


# --- independent pairs ------------------------------------------------------------------------------------------


def run_bayes(pair: Pair, rng: random.Random, estimator: type[PairEstimator], in_flight: int) -> Result:
    """Estimates at the checkpoints; `in_flight` games are dispatched before their results arrive."""
    est = estimator("a", "b", max_level=MAX_LEVEL)
    out: Result = {}
    pending: list[tuple[str, int]] = []
    for played in range(1, CHECKPOINTS[-1] + 1):
        while len(pending) < in_flight:
            pending.append(est.next_level(rng))
        weaker, level = pending.pop(0)
        est.record(level, weaker, "a" if a_wins(pair, level, weaker, rng) else "b")
        if played in CHECKPOINTS:
            out[played] = signed(est.estimate(), "a")
    return out


def run_staircase(pair: Pair, rng: random.Random, method: str, in_flight: int) -> Result:
    """Staircase estimates at the checkpoints (no interval); games dispatched meanwhile reuse its position."""
    stair = Staircase("a", "b", max_level=MAX_LEVEL, method=method)
    out: Result = {}
    pending: list[tuple[str, int]] = []
    for played in range(1, CHECKPOINTS[-1] + 1):
        while len(pending) < in_flight:
            pending.append(stair.next_level())
        weaker, level = pending.pop(0)
        stair.record(level, weaker, "a" if a_wins(pair, level, weaker, rng) else "b")
        if played in CHECKPOINTS:
            value = stair.signed_estimate()
            out[played] = (value, math.nan, math.nan)
    return out


def information_bound(pairs: list[Pair], n: int) -> float:
    """RMSE floor of any unbiased estimator knowing each slope and playing n games at the best integer level."""
    def fisher(slope: float, z: float) -> float:
        p = normal_cdf(z)
        density = math.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)
        return slope * slope * density * density / max(p * (1.0 - p), 1e-300)

    variances = [1.0 / (n * max(fisher(p.slope, p.slope * (level - abs(p.theta_signed)))
                                for level in range(MAX_LEVEL + 1))) for p in pairs]
    return math.sqrt(sum(variances) / len(variances))


# --- tournaments ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tournament:
    """Players' pairs with their true signed fair levels and slopes (pair (a, b): a receives d for a fair game)."""

    pairs: dict[tuple[str, str], Pair]


def draw_tournament(rng: random.Random, players: int, args: argparse.Namespace) -> Tournament:
    """Strengths uniform on the level scale, near-additive fair levels, slopes near a shared board slope."""
    names = [f"p{i:02d}" for i in range(players)]
    strength = [rng.uniform(0.0, args.theta[1]) for _ in names]
    board_slope = math.exp(rng.uniform(*(math.log(v) for v in args.slope)))
    pairs = {}
    for i, a in enumerate(names):
        for j in range(i + 1, players):
            d = strength[j] - strength[i] + rng.gauss(0.0, args.additivity_sd)  # > 0: a is the weaker
            d = max(-MAX_LEVEL + 0.5, min(MAX_LEVEL - 0.5, d))
            pairs[(a, names[j])] = Pair(d, board_slope * math.exp(rng.gauss(0.0, args.slope_spread)))
    return Tournament(pairs)


class _Bayes:
    """A tournament method: the handicap planner, pooling across pairs or not."""

    def __init__(self, pooling: bool) -> None:
        self.planner = HandicapPlanner(HandicapSettings(HandicapMode.AUTO, max_level=MAX_LEVEL), pooling=pooling)

    def dispatch(self, a: str, b: str, rng: random.Random) -> tuple[str, int]:
        return self.planner.next_game(a, b, rng)

    def record(self, a: str, b: str, level: int, weaker: str, winner: str) -> None:
        self.planner.record(a, b, level, weaker if level else None, winner)

    def estimates(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], tuple[float, float, float]]:
        found = self.planner.estimates()
        return {key: signed(found[key], key[0]) for key in keys}


class _Stairs:
    """A tournament method: an independent staircase per pair."""

    def __init__(self, method: str) -> None:
        self.method = method
        self.stairs: dict[tuple[str, str], Staircase] = {}

    def _stair(self, a: str, b: str) -> Staircase:
        if (a, b) not in self.stairs:
            self.stairs[(a, b)] = Staircase(a, b, max_level=MAX_LEVEL, method=self.method)
        return self.stairs[(a, b)]

    def dispatch(self, a: str, b: str, rng: random.Random) -> tuple[str, int]:
        return self._stair(a, b).next_level()

    def record(self, a: str, b: str, level: int, weaker: str, winner: str) -> None:
        self._stair(a, b).record(level, weaker, winner)

    def estimates(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], tuple[float, float, float]]:
        return {key: (self._stair(*key).signed_estimate(), math.nan, math.nan) for key in keys}


def run_tournament(tournament: Tournament, seed: int, make: Callable[[], object], workers: int
                   ) -> dict[int, dict[tuple[str, str], tuple[float, float, float]]]:
    """Play CHECKPOINTS[-1] rounds (every pair once per round, shuffled) with `workers` games in flight."""
    rng = random.Random(seed)
    method = make()
    keys = list(tournament.pairs)
    schedule = []
    for _ in range(CHECKPOINTS[-1]):
        order = list(keys)
        rng.shuffle(order)
        schedule.extend(order)
    played: dict[tuple[str, str], int] = dict.fromkeys(keys, 0)
    out: dict[int, dict[tuple[str, str], tuple[float, float, float]]] = {}
    pending: list[tuple[tuple[str, str], str, int]] = []
    next_slot = 0
    finished = 0
    while finished < len(schedule):
        while next_slot < len(schedule) and len(pending) < workers:
            key = schedule[next_slot]
            next_slot += 1
            pending.append((key, *method.dispatch(*key, rng)))  # type: ignore[attr-defined]
        key, weaker, level = pending.pop(0)
        pair = tournament.pairs[key]
        side = "a" if weaker == key[0] else "b"
        winner = key[0] if a_wins(pair, level, side, rng) else key[1]
        method.record(key[0], key[1], level, weaker, winner)  # type: ignore[attr-defined]
        finished += 1
        played[key] += 1
        if finished % len(keys) == 0 and finished // len(keys) in CHECKPOINTS:
            out[finished // len(keys)] = method.estimates(keys)  # type: ignore[attr-defined]
    return out


# --- reporting --------------------------------------------------------------------------------------------------


def summarise(truths: list[float], results: list[Result]) -> tuple[dict[int, float], float]:
    """RMSE at each checkpoint and the 95% interval coverage at the last one (nan without intervals)."""
    table = {n: math.sqrt(sum((r[n][0] - t) ** 2 for t, r in zip(truths, results)) / len(truths))
             for n in CHECKPOINTS}
    last = CHECKPOINTS[-1]
    covered = [r[last][1] <= t <= r[last][2] for t, r in zip(truths, results) if not math.isnan(r[last][1])]
    return table, (sum(covered) / len(covered) if covered else math.nan)


def print_row(name: str, table: dict[int, float], coverage: float, seconds: float) -> None:
    """One line of a results table."""
    cover = f"{coverage:8.3f}" if not math.isnan(coverage) else f"{'-':>8s}"
    print(f"  {name:44s}" + "".join(f"  {table[n]:8.3f}" for n in CHECKPOINTS) + f"  {cover}  {seconds:7.1f}")


def header() -> None:
    """Column headers of a results table."""
    print(f"  {'method':44s}" + "".join(f"  RMSE@{n:<3d}" for n in CHECKPOINTS) + "  cover95   seconds")


def ratios(label: str, table: dict[str, dict[int, float]], bayes: str, stairs: list[str]) -> None:
    """Ratio of the Bayes RMSE at 50 games to each staircase's, against the target."""
    for stair in stairs:
        ratio = table[bayes][50] / table[stair][50]
        verdict = "meets" if ratio <= TARGET else "misses"
        print(f"  ratio at 50 games, {label}: {bayes} / {stair} = {ratio:.3f}  ({verdict} target <= {TARGET})")


def independent(args: argparse.Namespace) -> None:
    """Setting 1: independent pairs."""
    master = random.Random(args.seed)
    pairs = [draw_pair(master, *args.theta, *args.slope) for _ in range(args.pairs)]
    seeds = [master.getrandbits(64) for _ in pairs]
    k = args.in_flight
    methods: dict[str, Callable[[Pair, int], Result]] = {
        "bayes median (default)": lambda p, s: run_bayes(p, random.Random(s), PairEstimator, 1),
        "bayes sample (Thompson)": lambda p, s: run_bayes(p, random.Random(s), ThompsonEstimator, 1),
        "staircase plain": lambda p, s: run_staircase(p, random.Random(s), "plain", 1),
        "staircase reversals": lambda p, s: run_staircase(p, random.Random(s), "reversals", 1),
        "staircase tail": lambda p, s: run_staircase(p, random.Random(s), "tail", 1),
        f"bayes median, {k} in flight": lambda p, s: run_bayes(p, random.Random(s), PairEstimator, k),
        f"staircase plain, {k} in flight": lambda p, s: run_staircase(p, random.Random(s), "plain", k),
        f"staircase reversals, {k} in flight": lambda p, s: run_staircase(p, random.Random(s), "reversals", k),
        f"staircase tail, {k} in flight": lambda p, s: run_staircase(p, random.Random(s), "tail", k),
    }
    print(f"1. independent pairs: {args.pairs} pairs, seed {args.seed}, |theta| ~ U{tuple(args.theta)}, "
          f"slope ~ logU{tuple(args.slope)}, max_level {MAX_LEVEL}; one game at a time unless 'in flight'")
    header()
    truths = [p.theta_signed for p in pairs]
    table: dict[str, dict[int, float]] = {}
    for name, run in methods.items():
        started = time.perf_counter()
        results = [run(p, s) for p, s in zip(pairs, seeds)]
        table[name], coverage = summarise(truths, results)
        print_row(name, table[name], coverage, time.perf_counter() - started)
    print(f"  {'information bound (slope known, unbiased)':44s}"
          + "".join(f"  {information_bound(pairs, n):8.3f}" for n in CHECKPOINTS))
    ratios("one at a time", table, "bayes median (default)",
           ["staircase plain", "staircase reversals", "staircase tail"])
    ratios(f"{k} in flight", table, f"bayes median, {k} in flight",
           [f"staircase plain, {k} in flight", f"staircase reversals, {k} in flight",
            f"staircase tail, {k} in flight"])


def tournaments(args: argparse.Namespace) -> None:
    """Setting 2: round-robin tournaments with near-additive strengths and a shared board slope."""
    master = random.Random(args.seed + 1)
    events = [draw_tournament(master, args.players, args) for _ in range(args.tournaments)]
    seeds = [master.getrandbits(64) for _ in events]
    w = args.workers
    methods: dict[str, tuple[Callable[[], object], int]] = {
        "bayes pooled (planner default)": (lambda: _Bayes(True), 1),
        "bayes per pair (pooling off)": (lambda: _Bayes(False), 1),
        "staircase plain": (lambda: _Stairs("plain"), 1),
        "staircase reversals": (lambda: _Stairs("reversals"), 1),
        f"bayes pooled, {w} in flight": (lambda: _Bayes(True), w),
        f"bayes per pair, {w} in flight": (lambda: _Bayes(False), w),
        f"staircase plain, {w} in flight": (lambda: _Stairs("plain"), w),
        f"staircase reversals, {w} in flight": (lambda: _Stairs("reversals"), w),
    }
    pairs = args.players * (args.players - 1) // 2
    print(f"2. round-robins: {args.tournaments} tournaments x {args.players} players ({pairs} pairs each), "
          f"additivity sd {args.additivity_sd}, slope spread {args.slope_spread} around a board slope ~ "
          f"logU{tuple(args.slope)}; games per pair at the checkpoints; one game in flight in the whole "
          f"tournament unless '{w} in flight'")
    header()
    truths = [pair.theta_signed for event in events for pair in event.pairs.values()]
    table: dict[str, dict[int, float]] = {}
    for name, (make, workers) in methods.items():
        started = time.perf_counter()
        results: list[Result] = []
        for event, seed in zip(events, seeds):
            found = run_tournament(event, seed, make, workers)
            results.extend({n: found[n][key] for n in CHECKPOINTS} for key in event.pairs)
        table[name], coverage = summarise(truths, results)
        print_row(name, table[name], coverage, time.perf_counter() - started)
    ratios("one at a time", table, "bayes pooled (planner default)", ["staircase plain", "staircase reversals"])
    ratios(f"{w} in flight", table, f"bayes pooled, {w} in flight",
           [f"staircase plain, {w} in flight", f"staircase reversals, {w} in flight"])


def main() -> None:
    """Run both settings and print their tables and ratios."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=500, help="independent simulated pairs (default 500)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument("--theta", type=float, nargs=2, default=(0.3, 4.5), metavar=("LOW", "HIGH"),
                        help="range of the true fair level (default 0.3 4.5)")
    parser.add_argument("--slope", type=float, nargs=2, default=(0.4, 2.5), metavar=("LOW", "HIGH"),
                        help="range of the true slope, drawn log-uniform (default 0.4 2.5)")
    parser.add_argument("--in-flight", type=int, default=8,
                        help="games of the pair in flight for the parallel rows of setting 1 (default 8)")
    parser.add_argument("--tournaments", type=int, default=16, help="simulated round-robins (default 16)")
    parser.add_argument("--players", type=int, default=6, help="players per round-robin (default 6)")
    parser.add_argument("--additivity-sd", type=float, default=0.3,
                        help="sd of a pair's departure from h_a - h_b, in levels (default 0.3)")
    parser.add_argument("--slope-spread", type=float, default=0.2,
                        help="sd of log slope around the board's slope (default 0.2)")
    parser.add_argument("--workers", type=int, default=8,
                        help="games in flight across a tournament for its parallel rows (default 8)")
    parser.add_argument("--only", choices=("pairs", "tournaments"), default=None, help="run one setting only")
    args = parser.parse_args()
    if args.only != "tournaments":
        independent(args)
    if args.only is None:
        print()
    if args.only != "pairs":
        tournaments(args)
    est = PairEstimator("a", "b", max_level=MAX_LEVEL)
    rng = random.Random(0)
    started = time.perf_counter()
    for i in range(2000):
        est.record(1 + i % 3, "a", "a" if i % 2 else "b")
        est.next_level(rng)
    per_call = (time.perf_counter() - started) / 2000 * 1e6
    print(f"\nrecord + next_level of one pair alone: {per_call:.0f} us per game")


if __name__ == "__main__":
    main()
