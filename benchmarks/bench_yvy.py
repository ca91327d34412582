"""Benchmark: YvY's loop detectors, and its kernel's random playouts with undo.

For each board, `--games` random move orders (random colours, as random play makes them) are replayed to the first
loop by four detectors, which must all find it at the same stone of every game:
- `undo-uf`: geometry.LoopTracker, the kernel's: union-find by size without path compression plus 6-bit patterns
  of each colour's stones round every cell, every stone undone afterwards from its log (the time includes the undo);
- `labels`: an undoable alternative measured against it: a group label per stone, merging relabels the smaller
  groups' stones, undo relabels them back;
- `halving`: the tracker before the kernel (union-find with path halving, no undo: a search copies it instead);
- `flood`: a flood fill of the whole board after every stone (the tests' oracle, `naive_loop`).
Then random playouts on the kernel (`YvyKernel.apply` of a random legal action, passes included, to the end, then
`undo` of every ply) and `YvyKnowledge.rollout` from the empty board.

Run: PYTHONPATH=. python benchmarks/bench_yvy.py [--games 200] [--boards 5,7,12] [--seconds 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ytourney.boards.board import parse_board  # noqa: E402
from ytourney.games.kernel import ONGOING  # noqa: E402
from ytourney.games.yvy.geometry import Geometry, LoopTracker, geometry, naive_loop  # noqa: E402
from ytourney.games.yvy.kernel import YvyKernel  # noqa: E402
from ytourney.games.yvy.knowledge import YvyKnowledge  # noqa: E402

Plays = list[list[tuple[int, int]]]


class HalvingTracker:
    """The tracker before the kernel: union-find with path halving (no undo) and same-colour neighbour counts."""

    def __init__(self, geo: Geometry) -> None:
        self.around, self.inner = geo.around, geo.inner
        self.parent = list(range(len(geo.around)))
        self.same = [0] * len(geo.around)

    def find(self, cell: int) -> int:
        parent = self.parent
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    def place(self, cells: Sequence[int], cell: int, colour: int) -> bool:
        ring, same, loop = self.around[cell], self.same, False
        roots: list[int] = []
        own_cells: list[int] = []
        previous_own = ring[5] >= 0 and cells[ring[5]] == colour
        for nb in ring:
            if nb >= 0 and cells[nb] == colour:
                own_cells.append(nb)
                same[nb] += 1
                loop = loop or (same[nb] == 6 and self.inner[nb])
                if not previous_own:
                    roots.append(self.find(nb))
                previous_own = True
            else:
                previous_own = False
        same[cell] = len(own_cells)
        loop = loop or (len(own_cells) == 6 and self.inner[cell]) or len(set(roots)) < len(roots)
        for nb in own_cells:
            self.parent[self.find(nb)] = cell
        return loop


class LabelTracker:
    """Undoable by relabelling: each stone carries its group's label, a merge relabels the smaller groups."""

    def __init__(self, geo: Geometry) -> None:
        self.around, self.inner = geo.around, geo.inner
        self.label = list(range(len(geo.around)))
        self.members: list[list[int]] = [[c] for c in range(len(geo.around))]
        self.same = [0] * len(geo.around)
        self.log: list[tuple[Sequence[int], int, int, int, list[int]]] = []

    def place(self, cells: Sequence[int], cell: int, colour: int) -> bool:
        ring, same, label, loop = self.around[cell], self.same, self.label, False
        labels: list[int] = []
        own = 0
        previous_own = ring[5] >= 0 and cells[ring[5]] == colour
        for nb in ring:
            if nb >= 0 and cells[nb] == colour:
                own += 1
                same[nb] += 1
                loop = loop or (same[nb] == 6 and self.inner[nb])
                if not previous_own:
                    if label[nb] in labels:
                        loop = True
                    else:
                        labels.append(label[nb])
                previous_own = True
            else:
                previous_own = False
        same[cell] = own
        if own == 6:
            loop = True
            labels.append(label[ring[0]])
        members = self.members
        big = max(labels, key=lambda g: len(members[g]), default=cell)
        merged = [g for g in labels if g != big]
        for g in merged:
            for c in members[g]:
                label[c] = big
            members[big].extend(members[g])
        if big != cell:
            label[cell] = big
            members[big].append(cell)
        self.log.append((cells, cell, colour, big, merged))
        return loop

    def undo(self) -> None:
        cells, cell, colour, big, merged = self.log.pop()
        for nb in self.around[cell]:
            if nb >= 0 and cells[nb] == colour:
                self.same[nb] -= 1
        members, label = self.members, self.label
        if big != cell:
            members[big].pop()
            label[cell] = cell
        for g in reversed(merged):
            del members[big][len(members[big]) - len(members[g]):]
            for c in members[g]:
                label[c] = g


def games(n_cells: int, count: int, seed: int) -> Plays:
    """Random games as (cell, colour) lists: a random order of every cell, colours alternating."""
    rng = random.Random(seed)
    result = []
    for _ in range(count):
        order = list(range(n_cells))
        rng.shuffle(order)
        result.append([(cell, 1 + (i % 2)) for i, cell in enumerate(order)])
    return result


def replay(geo: Geometry, plays: Plays, make: Callable[[Geometry], object], undo: bool) -> tuple[list[int], int]:
    """Stones until the first loop in each game, and the stones placed, with one tracker kind (then undone)."""
    ends, placed = [], 0
    for game in plays:
        cells = [0] * len(geo.around)
        tracker = make(geo)
        place = tracker.place  # type: ignore[attr-defined]
        end = len(game)
        for i, (cell, colour) in enumerate(game):
            cells[cell] = colour
            placed += 1
            if place(cells, cell, colour):
                end = i
                break
        if undo:
            for cell, _ in reversed(game[:end + 1]):
                tracker.undo()  # type: ignore[attr-defined]
                cells[cell] = 0
        ends.append(end)
    return ends, placed


def flood(geo: Geometry, plays: Plays) -> tuple[list[int], int]:
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


def kernel_playouts(spec: str, seconds: float, seed: int) -> tuple[float, float, float]:
    """Kernel plies/s of random playouts applied to the end and undone, plies a playout, and rollouts/s."""
    kernel = YvyKernel(parse_board(spec), 1000)
    start_key = kernel.key()
    rng = random.Random(seed)
    plies = playouts = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        played = 0
        while kernel.result == ONGOING:
            actions = kernel.legal_actions()
            kernel.apply(actions[int(rng.random() * len(actions))])
            played += 1
        for _ in range(played):
            kernel.undo()
        plies += played
        playouts += 1
    rate = plies / (time.process_time() - start)
    if kernel.key() != start_key:
        raise SystemExit(f"{spec}: undo did not restore the start position")
    knowledge, rollouts = YvyKnowledge(), 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        knowledge.rollout(kernel, rng, 1000)
        rollouts += 1
    return rate, plies / playouts, rollouts / (time.process_time() - start)


def main() -> int:
    """Run the comparisons and print one line per board."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--boards", default="5,7,12")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds of kernel playouts per board")
    args = parser.parse_args()
    sizes = [int(s) for s in args.boards.split(",")]
    print("loop detectors, us per stone (ratio: flood fill / undoable union-find)")
    print(f"{'board':<7} {'games':>5} {'stones':>7} {'undo-uf':>8} {'labels':>8} {'halving':>8} {'flood':>8} "
          f"{'ratio':>7}")
    for size in sizes:
        geo = geometry(parse_board(f"hex:{size}"))
        plays = games(len(geo.around), args.games, args.seed + size)
        times, found = {}, {}
        for name, run in (("undo-uf", lambda: replay(geo, plays, LoopTracker, True)),
                          ("labels", lambda: replay(geo, plays, LabelTracker, True)),
                          ("halving", lambda: replay(geo, plays, HalvingTracker, False)),
                          ("flood", lambda: flood(geo, plays))):
            start = time.perf_counter()
            found[name], placed = run()
            times[name] = (time.perf_counter() - start) / placed * 1e6
        if len({tuple(ends) for ends in found.values()}) != 1:
            print(f"hex:{size}: the detectors disagree", file=sys.stderr)
            return 1
        print(f"hex:{size:<3} {args.games:>5} {placed:>7} {times['undo-uf']:>8.2f} {times['labels']:>8.2f} "
              f"{times['halving']:>8.2f} {times['flood']:>8.2f} {times['flood'] / times['undo-uf']:>6.1f}x")
    print("\nkernel random playouts (apply to the end, undo all) and YvyKnowledge.rollout from the empty board")
    print(f"{'board':<7} {'plies/s':>9} {'plies/playout':>14} {'rollouts/s':>11}")
    for size in sizes:
        rate, per, rollouts = kernel_playouts(f"hex:{size}", args.seconds, args.seed)
        print(f"hex:{size:<3} {rate:>9.0f} {per:>14.1f} {rollouts:>11.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
