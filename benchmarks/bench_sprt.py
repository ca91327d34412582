"""Benchmark: error rates and length of the SPRT in Elo (ytourney.stats.elo_sprt) for each model.

For every model (pentanomial, trinomial, bernoulli) `--matches` simulated matches are run at the true Elo elo0 and
as many at elo1, each until the test decides. Games have a first-mover advantage: the tested player, expected score
s = 1 / (1 + 10^(-elo / 400)), wins with probability s + `--seat-bias` when it moves first and s - bias when it
moves second, so every seat-reversed pair still averages s per game but its two games differ. The observed
alpha (H1 accepted at elo0) and beta (H0 accepted at elo1) are printed with their binomial standard errors and must
lie within one percentage point of the settings; the mean number of game pairs the test needed is printed for each
model beside the Bernoulli model's (the baseline, classic Wald on single games), with the ratio.

The simulation is vectorized over matches: at each step every undecided match plays one pair (pentanomial) or one
game, and the LLR of all of them comes from the module's own `gsprt_llr` / `wald_llr` at once. The two shortest of the
first 50 matches of each run are also replayed record by record through `EloSprt` (what the scheduler uses): they
must reach the same decision after the same number of games. Times printed are the simulations' alone.

Run: PYTHONPATH=. python benchmarks/bench_sprt.py [--matches 2000] [--elo0 0 --elo1 10] [--seat-bias 0.1]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ytourney.games.record import GameRecord  # noqa: E402
from ytourney.games.api import Color  # noqa: E402
from ytourney.games.y.rules import Rules  # noqa: E402
from ytourney.stats.elo_sprt import (  # noqa: E402
    EloSprt,
    EloSprtSettings,
    SprtModel,
    expected_score,
    gsprt_llr,
    wald_llr,
)
from ytourney.stats.sprt import SprtDecision  # noqa: E402
from ytourney.games.y.state import CONNECTION

WATCHED = 50
"""Matches per run whose games are kept; the shortest REPLAYED of them are replayed through EloSprt."""
REPLAYED = 2


@dataclass(frozen=True)
class Run:
    """Outcome of `matches` simulated tests at one true Elo."""

    accepted_h1: int
    undecided: int
    mean_pairs: float
    seconds: float
    replay_agrees: bool


def game(round_number: int, tested_first: bool, tested_won: bool) -> GameRecord:
    first, second = ("A", "B") if tested_first else ("B", "A")
    winner_first = tested_won == tested_first
    return GameRecord(game="y",
        tournament="bench", round=round_number, board="tri:11", rules=Rules(), handicap=0, first=first,
        second=second, black=first, white=second, moves=(), winner=Color.BLACK if winner_first else Color.WHITE,
        termination=CONNECTION, move_seconds=(), seed=None, started="", finished="")


def replay(settings: EloSprtSettings, outcomes: list[bool], decision: int, games: int) -> bool:
    """Feed one simulated match's games to EloSprt: same decision after the same number of games?"""
    test = EloSprt(settings, "A", "B")
    for k, won in enumerate(outcomes):
        test.update(game(k // 2 + 1, k % 2 == 0, won))
        if test.state.finished:
            break
    expected = {1: SprtDecision.ACCEPT_H1, -1: SprtDecision.ACCEPT_H0, 0: SprtDecision.CONTINUE}[decision]
    return test.decision is expected and (decision == 0 or test.state.decided_after == games)


def simulate(settings: EloSprtSettings, true_elo: float, matches: int, bias: float, rng: np.random.Generator,
             max_pairs: int, block: int) -> Run:
    """Run `matches` tests at `true_elo` until each decides (or `max_pairs` pairs), `block` steps at a time.

    All undecided matches move in lockstep (one pair, or one game, per step; the tested player moves first in the
    odd games). Each block draws `block` steps for every undecided match, and the LLR after every step of the block
    comes from one call on the running counts; a match decided inside a block stops at its first crossing.
    """
    started = time.perf_counter()
    s = expected_score(true_elo)
    seat_p = np.array([s + bias, s - bias])  # tested player first, then second
    score0, score1 = settings.scores
    lower, upper = settings.bounds
    paired = settings.model is SprtModel.PENTANOMIAL
    per_step = 2 if paired else 1
    bins = 5 if paired else 3
    counts = np.zeros((matches, bins))
    active = np.arange(matches)
    verdict = np.zeros(matches, dtype=np.int8)
    games_at_decision = np.zeros(matches, dtype=np.int64)
    kept: list[list[bool]] = [[] for _ in range(min(WATCHED, matches))]
    games = 0
    while active.size and games < 2 * max_pairs:
        if paired:
            won = rng.random((active.size, block, 2)) < seat_p
            outcome = 2 * won.sum(axis=2)
        else:
            seats = (games + np.arange(block)) % 2
            won = rng.random((active.size, block)) < seat_p[seats]
            outcome = 2 * won
        steps = np.zeros((active.size, block, bins))
        np.put_along_axis(steps, outcome[:, :, None], 1.0, axis=2)
        running = counts[active][:, None, :] + np.cumsum(steps, axis=1)
        if settings.model is SprtModel.BERNOULLI:
            llr = wald_llr(running[..., 2], running[..., 1], running[..., 0], score0, score1)
        else:
            llr = gsprt_llr(running, score0, score1)
        crossed = (llr >= upper) | (llr <= lower)
        decided = crossed.any(axis=1)
        first = np.argmax(crossed, axis=1)
        for row, match in enumerate(active):
            if match >= len(kept):
                break
            taken = won[row, : first[row] + 1] if decided[row] else won[row]
            kept[match].extend(bool(w) for w in np.ravel(taken))
        rows = np.flatnonzero(decided)
        verdict[active[rows]] = np.where(llr[rows, first[rows]] >= upper, 1, -1)
        games_at_decision[active[rows]] = games + per_step * (first[rows] + 1)
        counts[active] = running[:, -1, :]
        active = active[~decided]
        games += per_step * block
    games_at_decision[active] = games
    seconds = time.perf_counter() - started
    shortest = np.argsort(games_at_decision[:len(kept)], kind="stable")[:REPLAYED]
    agrees = all(replay(settings, kept[m], int(verdict[m]), int(games_at_decision[m])) for m in shortest)
    return Run(int((verdict == 1).sum()), int(active.size), float(games_at_decision.mean() / 2), seconds, agrees)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=2000, help="simulated matches per model and hypothesis")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=10.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--seat-bias", type=float, default=0.1, help="first mover's extra win probability")
    parser.add_argument("--max-pairs", type=int, default=200_000)
    parser.add_argument("--block", type=int, default=128, help="steps simulated per vectorized LLR call")
    parser.add_argument("--models", default="pentanomial,trinomial,bernoulli")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    models = [SprtModel(m.strip()) for m in args.models.split(",")]
    print(f"SPRT elo0 {args.elo0:g}, elo1 {args.elo1:g}, alpha {args.alpha:g}, beta {args.beta:g}; "
          f"{args.matches} matches per model and hypothesis; P(first mover wins) = s(elo) ± {args.seat_bias:g}")
    print(f"  {'model':12} {'alpha obs':>10} {'(se)':>6} {'beta obs':>9} {'(se)':>6} {'pairs@elo0':>11} "
          f"{'pairs@elo1':>11} {'undecided':>9} {'replay':>7} {'time':>7}")
    results: dict[SprtModel, tuple[Run, Run]] = {}
    ok = True
    for offset, model in enumerate(models):
        settings = EloSprtSettings(args.elo0, args.elo1, args.alpha, args.beta, model)
        at0 = simulate(settings, args.elo0, args.matches, args.seat_bias,
                       np.random.default_rng([args.seed, offset, 0]), args.max_pairs, args.block)
        at1 = simulate(settings, args.elo1, args.matches, args.seat_bias,
                       np.random.default_rng([args.seed, offset, 1]), args.max_pairs, args.block)
        results[model] = (at0, at1)
        alpha = at0.accepted_h1 / args.matches
        beta = (args.matches - at1.accepted_h1 - at1.undecided) / args.matches
        se_a = math.sqrt(alpha * (1 - alpha) / args.matches)
        se_b = math.sqrt(beta * (1 - beta) / args.matches)
        good = abs(alpha - args.alpha) <= 0.01 and abs(beta - args.beta) <= 0.01
        ok &= good and at0.replay_agrees and at1.replay_agrees
        print(f"  {model.value:12} {100 * alpha:9.2f}% {100 * se_a:5.2f} {100 * beta:8.2f}% {100 * se_b:5.2f} "
              f"{at0.mean_pairs:11.0f} {at1.mean_pairs:11.0f} {at0.undecided + at1.undecided:9d} "
              f"{'same' if at0.replay_agrees and at1.replay_agrees else 'DIFFER':>7} "
              f"{at0.seconds + at1.seconds:6.1f}s  {'ok' if good else 'OUT OF RANGE (> 1 pp)'}")
    baseline = results.get(SprtModel.BERNOULLI)
    if baseline is not None:
        print("  mean game pairs needed, against the Bernoulli model's (ratio < 1: fewer pairs):")
        for model, (at0, at1) in results.items():
            print(f"    {model.value:12} at elo0 {at0.mean_pairs:7.0f} ({at0.mean_pairs / baseline[0].mean_pairs:.2f}x)"
                  f"   at elo1 {at1.mean_pairs:7.0f} ({at1.mean_pairs / baseline[1].mean_pairs:.2f}x)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
