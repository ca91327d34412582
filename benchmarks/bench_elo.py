"""Benchmark: Bradley–Terry Elo (ytourney.stats.elo) against an independent MM solver, and interval coverage.

1. Agreement. A simulated 6-player round-robin league (`--games-per-pair` games for each of the 15 pairs) is fitted
   by `fit_elo` and by a plain minorization-maximization solver written here (Hunter 2004, "MM algorithms for
   generalized Bradley-Terry models"), on the same games. Every Elo difference must agree within 1 Elo; the
   maximum difference is printed, and the time of each method with their ratio.
2. Coverage. Over `--leagues` simulated leagues the 95% interval of every player (pool average 0, and anchored on
   the first player) must cover the simulated truth about 95% of the time; the coverage is printed with its binomial
   standard error.

Run: PYTHONPATH=. python benchmarks/bench_elo.py [--leagues 200] [--games-per-pair 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ytourney.games.record import GameRecord  # noqa: E402
from ytourney.games.api import Color  # noqa: E402
from ytourney.games.y.rules import Rules  # noqa: E402
from ytourney.stats.elo import fit_elo  # noqa: E402
from ytourney.games.y.state import CONNECTION

TRUTH = (-260.0, -110.0, -20.0, 40.0, 130.0, 220.0)
"""Simulated Elo of the six players (mean 0)."""
NAMES = tuple(f"p{i}" for i in range(len(TRUTH)))
RULES = Rules()


def simulate_league(rng: np.random.Generator, per_pair: int) -> list[GameRecord]:
    """Every pair plays `per_pair` games, seats alternating, with P(a beats b) = 1 / (1 + 10^((b - a) / 400))."""
    records = []
    game_id = 0
    for a, b in itertools.combinations(range(len(NAMES)), 2):
        p = 1 / (1 + 10 ** ((TRUTH[b] - TRUTH[a]) / 400))
        a_wins = rng.random(per_pair) < p
        for k, won in enumerate(a_wins):
            game_id += 1
            black, white = (NAMES[a], NAMES[b]) if k % 2 == 0 else (NAMES[b], NAMES[a])
            black_wins = bool(won) == (black == NAMES[a])
            records.append(GameRecord(game="y",
                tournament="bench", round=k // 2 + 1, board="tri:11", rules=RULES, handicap=0, first=black,
                second=white, black=black, white=white, moves=(), winner=Color.BLACK if black_wins else Color.WHITE,
                termination=CONNECTION, move_seconds=(), seed=None, started="", finished="", id=game_id))
    return records


def mm_reference(records: list[GameRecord], tolerance: float = 1e-13, limit: int = 100_000) -> dict[str, float]:
    """Hunter's MM iteration γᵢ ← Wᵢ / Σⱼ nᵢⱼ / (γᵢ + γⱼ), normalized to geometric mean 1; Elo with mean 0."""
    index = {name: i for i, name in enumerate(NAMES)}
    n = len(NAMES)
    meetings = np.zeros((n, n))
    wins = np.zeros(n)
    for r in records:
        i, j = index[r.black], index[r.white]
        meetings[i, j] += 1
        meetings[j, i] += 1
        wins[index[r.winner_name]] += 1
    gamma = np.ones(n)
    for _ in range(limit):
        new = wins / (meetings / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new /= math.exp(np.log(new).mean())
        done = np.max(np.abs(np.log(new / gamma))) < tolerance
        gamma = new
        if done:
            break
    return {name: 400 * math.log10(gamma[index[name]]) for name in NAMES}


def agreement(args: argparse.Namespace) -> bool:
    rng = np.random.default_rng(args.seed)
    records = simulate_league(rng, args.games_per_pair)
    started = time.perf_counter()
    for _ in range(args.repeat):
        fit = fit_elo(records)
    newton_seconds = (time.perf_counter() - started) / args.repeat
    started = time.perf_counter()
    for _ in range(args.repeat):
        reference = mm_reference(records)
    mm_seconds = (time.perf_counter() - started) / args.repeat
    ours = {r.name: r.elo for r in fit.ratings}
    worst = max(abs((ours[a] - ours[b]) - (reference[a] - reference[b])) for a, b in itertools.combinations(NAMES, 2))
    print(f"agreement: one league of {len(records)} games ({args.games_per_pair} per pair, 6 players)")
    print("  player   truth   fit_elo   MM ref    interval")
    for rating in sorted(fit.ratings, key=lambda r: r.name):
        truth = TRUTH[NAMES.index(rating.name)]
        print(f"  {rating.name:6} {truth:7.1f} {rating.elo:9.3f} {reference[rating.name]:8.3f}   "
              f"[{rating.low:7.1f}, {rating.high:7.1f}]")
    ok = worst < 1.0
    print(f"  max |difference of Elo differences| = {worst:.2e} Elo (must be < 1): {'ok' if ok else 'FAILED'}")
    print(f"  time per fit: fit_elo (Newton) {1000 * newton_seconds:.1f} ms, MM reference {1000 * mm_seconds:.1f} ms "
          f"(ratio MM / Newton {mm_seconds / newton_seconds:.1f}x; records -> tallies included in both)")
    return ok


def coverage(args: argparse.Namespace) -> bool:
    rng = np.random.default_rng(args.seed + 1)
    truth = np.array(TRUTH) - np.mean(TRUTH)
    covered_pool = covered_anchor = anchored_total = 0
    total = 0
    widths = []
    started = time.perf_counter()
    for _ in range(args.leagues):
        records = simulate_league(rng, args.games_per_pair)
        pool = fit_elo(records)
        anchored = fit_elo(records, anchor=NAMES[0])
        for i, name in enumerate(NAMES):
            rating = pool.rating(name)
            covered_pool += rating.low <= truth[i] <= rating.high
            widths.append(rating.error)
            total += 1
            if i:
                relative = TRUTH[i] - TRUTH[0]
                other = anchored.rating(name)
                covered_anchor += other.low <= relative <= other.high
                anchored_total += 1
    seconds = time.perf_counter() - started
    ok = True
    print(f"coverage: {args.leagues} simulated leagues of {15 * args.games_per_pair} games "
          f"({seconds:.1f} s, two fits each)")
    for label, hits, count in (("pool average 0", covered_pool, total),
                               (f"anchor {NAMES[0]} = 0", covered_anchor, anchored_total)):
        rate = hits / count
        se = math.sqrt(0.95 * 0.05 / count)
        good = abs(rate - 0.95) <= 3 * se
        ok &= good
        print(f"  {label:15}: {hits}/{count} intervals cover the truth = {100 * rate:.1f}% "
              f"(target 95%, binomial se {100 * se:.1f} pp): {'ok' if good else 'FAILED'}")
    print(f"  mean ± (pool average) {np.mean(widths):.1f} Elo")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--leagues", type=int, default=200)
    parser.add_argument("--games-per-pair", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5, help="fits timed in the agreement part")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ok = agreement(args)
    ok &= coverage(args)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
