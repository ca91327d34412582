"""Strength ladder of the built-in bots: games between rungs with the pie rule, printed as a win-rate table.

Each pair plays `--games` games, seats alternated (with the pie rule the first stone is no advantage), seeds
fixed, so a run is reproducible. The expected order is random < heuristic < mcts:playouts=1000 <
mcts:playouts=10000; each cell is the row bot's score against the column bot with its 95% Wilson interval.

    python benchmarks/ladder.py --board tri:11 --games 20 --workers 2
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from intervals import wilson

from ytourney.games.registry import get_game
from ytourney.games.y.rules import Rules
from ytourney.players import create_bot, parse_bot_spec
from ytourney.tournament.match import Seat, play_game

DEFAULT_LADDER = ("random", "heuristic", "mcts:playouts=1000", "mcts:playouts=10000")


def play_one(job: tuple[str, str, str, Rules, int, bool]) -> tuple[str, str, bool, float]:
    """One game; returns (first spec, second spec, did the first spec win, seconds)."""
    first, second, board, rules, seed, swap_seats = job
    a = Seat(first, create_bot(parse_bot_spec(first, get_game("y")), seed=seed))
    b = Seat(second, create_bot(parse_bot_spec(second, get_game("y")), seed=seed + 1))
    seats = [b, a] if swap_seats else [a, b]
    begin = time.perf_counter()
    record = play_game(seats, board, rules, seed=seed)
    if record.termination.is_fault:
        print(f"  {first} vs {second}: {record.termination.value} ({record.reason})", file=sys.stderr)
    return first, second, record.winner_name == first, time.perf_counter() - begin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bots", nargs="*", default=list(DEFAULT_LADDER), help="bot specs, weakest first")
    parser.add_argument("--board", default="tri:11")
    parser.add_argument("--games", type=int, default=20, help="games per pair")
    parser.add_argument(
        "--pairs", choices=("adjacent", "all", "gauntlet"), default="adjacent",
        help="neighbouring rungs, every pair, or every bot against the first",
    )
    parser.add_argument("--misere", action="store_true")
    parser.add_argument("--no-pie", dest="pie", action="store_false", help="play without the pie rule")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    bots = args.bots
    for spec in bots:
        parse_bot_spec(spec, get_game("y"))
    if args.pairs == "adjacent":
        pairs = list(itertools.pairwise(bots))
    elif args.pairs == "gauntlet":
        pairs = [(bots[0], bot) for bot in bots[1:]]
    else:
        pairs = list(itertools.combinations(bots, 2))
    jobs = [
        (high, low, args.board, Rules(pie=args.pie, misere=args.misere), args.seed * 100_000 + p * 1000 + g, g % 2 == 1)
        for p, (low, high) in enumerate(pairs)
        for g in range(args.games)
    ]
    rules = ("pie rule" if args.pie else "no pie") + (", misère" if args.misere else "")
    print(f"board {args.board}, {rules}, {args.games} games per pair")
    score: dict[tuple[str, str], float] = {}
    seconds: dict[tuple[str, str], float] = {}
    began = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for first, second, won, spent in pool.map(play_one, jobs):
            score[first, second] = score.get((first, second), 0) + won
            seconds[first, second] = seconds.get((first, second), 0.0) + spent

    width = max(len(b) for b in bots) + 2
    print(f"\n{'stronger (row) vs weaker':<{width + 8}}  {'score':>7}  {'win rate':>8}  {'95% Wilson':>16}  s/game")
    for low, high in pairs:
        wins = score.get((high, low), 0)
        low_ci, high_ci = wilson(wins, args.games)
        print(
            f"{high:<{width}} vs {low:<{width}}  {wins:>3}/{args.games:<3}  {wins / args.games:>8.0%}  "
            f"[{low_ci:5.0%}, {high_ci:5.0%}]  {seconds[high, low] / args.games:6.1f}"
        )
    print(f"\n{len(jobs)} games in {time.perf_counter() - began:.0f}s")


if __name__ == "__main__":
    main()
