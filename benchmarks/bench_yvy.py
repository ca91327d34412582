"""Benchmark: YvY's incremental loop detector against a flood fill of the whole board after every move (baseline).

For each board, `--games` random move orders (random colours, as random play makes them) are replayed twice: once
through `LoopTracker.place` (union-find arcs round the new stone plus the solid-ring count), once asking
`naive_loop` (the flood fill the tests use as the oracle) after every stone. Both must find the first loop at the
same stone of every game; the time per stone of each and the ratio baseline / incremental are printed.

Run: PYTHONPATH=. python benchmarks/bench_yvy.py [--games 200] [--boards 5,7,12]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ytourney.boards.board import parse_board  # noqa: E402
from ytourney.games.yvy.geometry import LoopTracker, geometry, naive_loop  # noqa: E402


def games(n_cells: int, count: int, seed: int) -> list[list[tuple[int, int]]]:
    """Random games as (cell, colour) lists: a random order of every cell, colours alternating."""
    rng = random.Random(seed)
    result = []
    for _ in range(count):
        order = list(range(n_cells))
        rng.shuffle(order)
        result.append([(cell, 1 + (i % 2)) for i, cell in enumerate(order)])
    return result


def incremental(geo, plays: list[list[tuple[int, int]]]) -> tuple[list[int], int]:
    """Stones until the first loop in each game, and the stones placed, with the tracker."""
    ends, placed = [], 0
    for game in plays:
        cells = [0] * len(geo.around)
        tracker = LoopTracker(geo)
        end = len(game)
        for i, (cell, colour) in enumerate(game):
            cells[cell] = colour
            placed += 1
            if tracker.place(cells, cell, colour):
                end = i
                break
        ends.append(end)
    return ends, placed


def flood(geo, plays: list[list[tuple[int, int]]]) -> tuple[list[int], int]:
    """The same with a whole-board flood fill after every stone."""
    ends, placed = [], 0
    for game in plays:
        cells = [0] * len(geo.around)
        end = len(game)
        for i, (cell, colour) in enumerate(game):
            cells[cell] = colour
            placed += 1
            if naive_loop(geo, cells, colour):
                end = i
                break
        ends.append(end)
    return ends, placed


def main() -> int:
    """Run the comparison and print one line per board."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--boards", default="5,7,12")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'board':<7} {'games':>5} {'stones':>7} {'incremental us/stone':>21} {'flood fill us/stone':>20} "
          f"{'ratio':>7}")
    for size in (int(s) for s in args.boards.split(",")):
        board = parse_board(f"hex:{size}")
        geo = geometry(board)
        plays = games(board.num_cells, args.games, args.seed + size)
        start = time.perf_counter()
        fast_ends, placed = incremental(geo, plays)
        fast = time.perf_counter() - start
        start = time.perf_counter()
        slow_ends, _ = flood(geo, plays)
        slow = time.perf_counter() - start
        if fast_ends != slow_ends:
            print(f"hex:{size}: the detectors disagree", file=sys.stderr)
            return 1
        print(f"hex:{size:<3} {args.games:>5} {placed:>7} {fast / placed * 1e6:>21.2f} {slow / placed * 1e6:>20.2f} "
              f"{slow / fast:>6.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
