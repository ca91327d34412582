"""Benchmark: RMSE of the Bayesian fair-handicap estimator against a one-up/one-down staircase on simulated pairs."""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ytourney.handicap import PairEstimator, Staircase, normal_cdf  # noqa: E402

CHECKPOINTS = (20, 50, 100)
MAX_LEVEL = 6


@dataclass(frozen=True)
class Pair:
    """A simulated pair: a receives `theta_signed` levels for a fair game (negative: b is the weaker)."""

    theta_signed: float
    slope: float


def draw_pair(rng: random.Random, low: float, high: float, slope_low: float, slope_high: float) -> Pair:
    """Fair level uniform in [low, high], slope log-uniform, weaker side at random."""
    theta = rng.uniform(low, high)
    slope = math.exp(rng.uniform(math.log(slope_low), math.log(slope_high)))
    return Pair(theta if rng.random() < 0.5 else -theta, slope)


def a_wins(pair: Pair, level: int, weaker: str, rng: random.Random) -> bool:
    """Simulate one game at the given level: P(a wins) = Phi(s * (x - d))."""
    x = 0 if level == 0 else (level if weaker == "a" else -level)
    return rng.random() < normal_cdf(pair.slope * (x - pair.theta_signed))


def run_bayes(pair: Pair, rng: random.Random, policy: str, in_flight: int) -> dict[int, float]:
    """Signed estimates at the checkpoints; `in_flight` games are dispatched before their results arrive."""
    est = PairEstimator("a", "b", max_level=MAX_LEVEL, policy=policy)
    out: dict[int, float] = {}
    pending: list[tuple[str, int]] = []
    played = 0
    while played < CHECKPOINTS[-1]:
        while len(pending) < in_flight:
            pending.append(est.next_level(rng))
        weaker, level = pending.pop(0)
        est.record(level, weaker, "a" if a_wins(pair, level, weaker, rng) else "b")
        played += 1
        if played in CHECKPOINTS:
            e = est.estimate()
            out[played] = e.median if e.weaker == "a" else -e.median
    return out


def run_staircase(pair: Pair, rng: random.Random, method: str, in_flight: int) -> dict[int, float]:
    """Signed staircase estimates at the checkpoints; in flight, games dispatched meanwhile reuse its position."""
    stair = Staircase("a", "b", max_level=MAX_LEVEL, method=method)
    out: dict[int, float] = {}
    pending: list[tuple[str, int]] = []
    for played in range(1, CHECKPOINTS[-1] + 1):
        while len(pending) < in_flight:
            pending.append(stair.next_level())
        weaker, level = pending.pop(0)
        stair.record(level, weaker, "a" if a_wins(pair, level, weaker, rng) else "b")
        if played in CHECKPOINTS:
            out[played] = stair.signed_estimate()
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


def rmse(pairs: list[Pair], estimates: list[dict[int, float]], n: int) -> float:
    """Root mean squared error of the signed estimates after n games."""
    return math.sqrt(sum((e[n] - p.theta_signed) ** 2 for p, e in zip(pairs, estimates)) / len(pairs))


def main() -> None:
    """Simulate, then print the RMSE table and the ratio at 50 games."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=500, help="simulated pairs (default 500)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument("--theta", type=float, nargs=2, default=(0.3, 4.5), metavar=("LOW", "HIGH"),
                        help="range of the true fair level (default 0.3 4.5)")
    parser.add_argument("--slope", type=float, nargs=2, default=(0.4, 2.5), metavar=("LOW", "HIGH"),
                        help="range of the true slope, drawn log-uniform (default 0.4 2.5)")
    parser.add_argument("--in-flight", type=int, default=8, help="games of the pair in flight for the parallel rows (default 8)")
    args = parser.parse_args()

    master = random.Random(args.seed)
    pairs = [draw_pair(master, *args.theta, *args.slope) for _ in range(args.pairs)]
    seeds = [master.getrandbits(64) for _ in pairs]
    k = args.in_flight
    methods = {
        "bayes median (default)": lambda p, s: run_bayes(p, random.Random(s), "median", 1),
        "bayes sample": lambda p, s: run_bayes(p, random.Random(s), "sample", 1),
        "staircase reversals": lambda p, s: run_staircase(p, random.Random(s), "reversals", 1),
        "staircase tail-mean": lambda p, s: run_staircase(p, random.Random(s), "tail", 1),
        f"bayes median, {k} in flight": lambda p, s: run_bayes(p, random.Random(s), "median", k),
        f"staircase reversals, {k} in flight": lambda p, s: run_staircase(p, random.Random(s), "reversals", k),
        f"staircase tail-mean, {k} in flight": lambda p, s: run_staircase(p, random.Random(s), "tail", k),
    }
    print(f"{args.pairs} pairs, seed {args.seed}, theta ~ U{tuple(args.theta)}, slope ~ logU{tuple(args.slope)}, "
          f"max_level {MAX_LEVEL}; games one at a time unless 'in flight'")
    print(f"{'method':38s}" + "".join(f"  RMSE@{n:<4d}" for n in CHECKPOINTS) + "   seconds")
    table: dict[str, dict[int, float]] = {}
    for name, run in methods.items():
        started = time.perf_counter()
        estimates = [run(p, s) for p, s in zip(pairs, seeds)]
        elapsed = time.perf_counter() - started
        table[name] = {n: rmse(pairs, estimates, n) for n in CHECKPOINTS}
        print(f"{name:38s}" + "".join(f"  {table[name][n]:9.3f}" for n in CHECKPOINTS) + f"  {elapsed:8.2f}")
    print(f"{'information bound (slope known)':38s}"
          + "".join(f"  {information_bound(pairs, n):9.3f}" for n in CHECKPOINTS))
    for label, bayes, stairs in (
        ("one at a time", "bayes median (default)", ("staircase reversals", "staircase tail-mean")),
        (f"{k} in flight", f"bayes median, {k} in flight",
         (f"staircase reversals, {k} in flight", f"staircase tail-mean, {k} in flight")),
    ):
        for stair in stairs:
            ratio = table[bayes][50] / table[stair][50]
            print(f"ratio at 50 games, {label}: bayes median / {stair.split(',')[0]}: {ratio:.3f}  (target <= 0.75)")
    games = args.pairs * CHECKPOINTS[-1]
    est = PairEstimator("a", "b", max_level=MAX_LEVEL)
    rng = random.Random(0)
    started = time.perf_counter()
    for i in range(2000):
        est.record(1 + i % 3, "a", "a" if i % 2 else "b")
        est.next_level(rng)
    per_call = (time.perf_counter() - started) / 2000 * 1e6
    print(f"record + next_level: {per_call:.0f} us per game ({games} simulated games per method)")


if __name__ == "__main__":
    main()
