"""The search kernel in pure Python: chain moves, admissible bounds and depth-first search with a table.

The C kernel (_solvecore.c) is the same algorithm step for step: same move order, same bounds, same table
policy, so both return the same solutions and, while the table has room, the same node counts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

INFINITE = 1 << 30
PROGRESS_EVERY = 1 << 14


@dataclass(frozen=True)
class Tables:
    """Everything a kernel needs, as plain numbers (cells are bits of an int mask)."""

    cells: int
    jumps: tuple[tuple[tuple[int, int], ...], ...]
    unjumpable: int
    pagodas: tuple[tuple[int, ...], ...]
    targets: tuple[int, ...]
    needs: tuple[tuple[int, ...], ...]
    """needs[t][p]: the value of pagoda p on target t; a position below it on any p cannot reach t."""
    symmetries: tuple[tuple[int, ...], ...]
    """The board symmetries that map the goal's set of targets onto itself (identity first)."""
    classes: tuple[int, ...]
    """The jump classes as masks: a stone never leaves its class."""
    jumpers: tuple[int, ...]
    """jumpers[k]: the set (bit i for class i) of classes whose stones can jump over a stone of class k."""
    near: tuple[int, ...]
    """near[c]: the mask of nodes within two steps of c (the stones one move can take away hang together so)."""


Move = tuple[int, int, tuple[int, ...]]
"""A generated move: the position after it, the node the stone ends on, and its path of landings."""


class PyKernel:
    """Iterative-deepening search over moves in pure Python."""

    name = "python"

    def __init__(self, tables: Tables, progress: Callable[[int, int], None] | None = None) -> None:
        self.t = tables
        self.progress = progress
        self.nodes = 0
        self.table: dict[tuple[int, int], int] = {}
        self._bytes = [[[_byte_image(perm, k, v) for v in range(256)] for k in range((tables.cells + 7) // 8)]
                       for perm in tables.symmetries]

    def moves(self, pos: int, last: int) -> list[Move]:
        """Every distinct move (one stone's chain of one or more jumps) not made by the stone on `last`."""
        found: list[Move] = []
        seen: set[tuple[int, int]] = set()
        for result, to, route in self._chains(pos, pos, last, len(self.t.jumps)):
            if (result, to) not in seen:
                seen.add((result, to))
                found.append((result, to, route))
        # longest chains first (they remove the most stones); ties keep the order of discovery
        order = sorted(range(len(found)), key=lambda i: (-len(found[i][2]), i))
        return [found[i] for i in order]

    def _chains(self, pos: int, starts: int, last: int, limit: int) -> Iterator[Move]:
        """Every jump chain from a stone of `starts` other than the one on `last`, each prefix a move of its own, as
        (position after, end node, path); a chain grows no longer than `limit` jumps."""
        jumps = self.t.jumps
        bits = starts
        while bits:
            low = bits & -bits
            bits ^= low
            start = low.bit_length() - 1
            if start == last:
                continue
            stack = [(start, pos ^ low, (start,))]
            while stack:
                at, rest, path = stack.pop()
                for over, to in reversed(jumps[at]):
                    if rest >> over & 1 and not (rest >> to & 1):
                        after = rest ^ (1 << over)
                        route = path + (to,)
                        yield after | (1 << to), to, route
                        if len(path) < limit:
                            stack.append((to, after, route))

    def values(self, pos: int) -> list[int]:
        """The value of every pagoda on a position."""
        out = []
        for weights in self.t.pagodas:
            total, bits = 0, pos
            while bits:
                low = bits & -bits
                total += weights[low.bit_length() - 1]
                bits ^= low
            out.append(total)
        return out

    def bound(self, pos: int) -> int:
        """An admissible lower bound on the moves left: 0 on a target, INFINITE when every target is cut off.

        A target t is cut off when some pagoda is below its value on t, or when the position has no more stones
        than t (a move removes at least one). Otherwise `moves_needed` counts the moves t needs, and two when
        one is counted but the stones outside t do not lie in one cluster of stones two steps apart (one move
        takes its mover and the stones it jumps from one such cluster).
        """
        if pos in self.t.targets:
            return 0
        values = self.values(pos)
        count = pos.bit_count()
        best = INFINITE
        for target, needs in zip(self.t.targets, self.t.needs):
            if count <= target.bit_count() or any(v < n for v, n in zip(values, needs)):
                continue
            h = self.moves_needed(pos, target)
            if h == 1 and not self.one_cluster(pos, pos & ~target):
                h = 2
            best = min(best, h)
        return best

    def moves_needed(self, pos: int, target: int) -> int:
        """At least one move, and a count of moves by their mover's jump class, summed over the classes.

        A mover stays in its class, so moves of different classes are different moves. Within class k, at least:
        one per empty node of t in k (a move fills one node, its end); one per stone on an unjumpable node of k
        outside t (it leaves only by moving, and a move moves one stone); one if only class k can take away
        stones that must go (more stones of some class than t keeps, and only k jumps that class; or the last
        stones of a class t does not keep, and only k, a class other than theirs, jumps it).
        """
        per_class = []
        for cells in self.t.classes:
            per_class.append(max((target & cells & ~pos).bit_count(),
                                 (pos & self.t.unjumpable & cells & ~target).bit_count()))
        wanted = []
        for k, cells in enumerate(self.t.classes):
            if (pos & cells).bit_count() <= (target & cells).bit_count():
                continue
            movers = self.t.jumpers[k] if target & cells else self.t.jumpers[k] & ~(1 << k)
            if not movers:
                return INFINITE
            wanted.append(movers)
        for movers in wanted:
            if movers.bit_count() == 1:
                j = movers.bit_length() - 1
                per_class[j] = max(per_class[j], 1)
        loose = any(not any(per_class[j] for j in range(len(per_class)) if movers >> j & 1) for movers in wanted)
        return max(1, sum(per_class) + loose)

    def one_cluster(self, pos: int, outside: int) -> bool:
        """True if every stone of `outside` is in the cluster of `pos` (stones two steps apart) of its first one."""
        if not outside:
            return True
        near = self.t.near
        low = outside & -outside
        cluster, frontier = low, low
        while frontier:
            reach = 0
            while frontier:
                bit = frontier & -frontier
                frontier ^= bit
                reach |= near[bit.bit_length() - 1]
            frontier = reach & pos & ~cluster
            cluster |= frontier
        return outside & ~cluster == 0

    def key(self, pos: int, last: int) -> tuple[int, int]:
        """The table key: the least image of (position, last node) under the goal's symmetries."""
        best = None
        for perm, tables in zip(self.t.symmetries, self._bytes):
            image, k, bits = 0, 0, pos
            while bits:
                image |= tables[k][bits & 255]
                bits >>= 8
                k += 1
            candidate = (image, perm[last] if last >= 0 else -1)
            if best is None or candidate < best:
                best = candidate
        assert best is not None
        return best

    def one_move(self, pos: int, last: int) -> list[tuple[int, ...]] | None:
        """The one move from `pos` that ends on a target, as a solution, walking chains in `moves`' order."""
        count = pos.bit_count()
        need = max(count - target.bit_count() for target in self.t.targets)
        targets = self.t.targets
        movers = 0  # a last move ends on the target's one empty node, so its mover is of that node's class
        for target in targets:
            empty = target & ~pos
            if not empty:
                movers = pos
            elif empty.bit_count() == 1:
                movers |= next(cells for cells in self.t.classes if cells & empty)
        for result, _, route in self._chains(pos, pos & movers, last, need):
            if result in targets:
                return [route]
        return None

    def search(self, pos: int, last: int, budget: int) -> list[tuple[int, ...]] | None:
        """A solution of at most `budget` moves from `pos` (its paths), or None when there is none."""
        self.nodes += 1
        if self.progress is not None and self.nodes % PROGRESS_EVERY == 0:
            self.progress(self.nodes, len(self.table))
        if pos in self.t.targets:
            return []
        if budget == 0 or self.bound(pos) > budget:
            return None
        if budget == 1:
            return self.one_move(pos, last)
        key = self.key(pos, last)
        if self.table.get(key, -1) >= budget:
            return None
        for after, end, path in self.moves(pos, last):
            rest = self.search(after, end, budget - 1)
            if rest is not None:
                return [path, *rest]
        self.table[key] = budget
        return None


def _byte_image(perm: tuple[int, ...], k: int, value: int) -> int:
    out = 0
    for bit in range(8):
        cell = 8 * k + bit
        if value >> bit & 1 and cell < len(perm):
            out |= 1 << perm[cell]
    return out
