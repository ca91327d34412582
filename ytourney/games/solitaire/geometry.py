"""What the solver needs to know about a board: jumps as bit masks, symmetries, and the admissible bounds."""

from __future__ import annotations

from dataclasses import dataclass

from ytourney.boards.board import Board
from ytourney.boards.symmetry import automorphisms


@dataclass(frozen=True)
class Geometry:
    """Jumps, unjumpable nodes, jump classes and symmetries of one board, in solver form."""

    board: Board
    jumps: tuple[tuple[tuple[int, int], ...], ...]
    """jumps[a]: every (over, to) a stone on a can jump along a line, in board order."""
    unjumpable: int
    """Mask of nodes no jump passes over (kadon's corners): a stone there leaves only by moving."""
    classes: tuple[int, ...]
    """Masks of the jump classes: a stone never leaves its class, so each class's count never grows."""
    symmetries: tuple[tuple[int, ...], ...]
    jumpers: tuple[int, ...]
    """jumpers[k]: the set (bit i for class i) of classes whose stones can jump over a stone of class k."""
    near: tuple[int, ...]
    """near[c]: the mask of nodes at one or two steps from c."""


def geometry(board: Board) -> Geometry:
    """The solver's view of `board`."""
    n = board.num_cells
    jumps: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    jumped = 0
    for (a, b), nexts in sorted(board.continuation_table.items()):
        for c in nexts:
            jumps[a].append((b, c))
            jumped |= 1 << b
    parent = list(range(n))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a in range(n):
        for _, c in jumps[a]:
            parent[root(a)] = root(c)
    classes: dict[int, int] = {}
    for cell in range(n):
        classes[root(cell)] = classes.get(root(cell), 0) | 1 << cell
    ordered = sorted(classes.values())
    class_of = {cell: i for i, cells in enumerate(ordered) for cell in range(n) if cells >> cell & 1}
    jumpers = [0] * len(ordered)
    for a in range(n):
        for b, _ in jumps[a]:
            jumpers[class_of[b]] |= 1 << class_of[a]
    near = []
    for cell in range(n):
        ring = {m for x in board.neighbors[cell] for m in (x, *board.neighbors[x])} - {cell}
        near.append(mask(ring))
    return Geometry(
        board=board,
        jumps=tuple(tuple(j) for j in jumps),
        unjumpable=((1 << n) - 1) & ~jumped,
        classes=tuple(ordered),
        symmetries=automorphisms(board),
        jumpers=tuple(jumpers),
        near=tuple(near),
    )


def mask(cells: object) -> int:
    """A set of cells as a bit mask."""
    out = 0
    for c in cells:  # type: ignore[attr-defined]
        out |= 1 << c
    return out


def permute(perm: tuple[int, ...], bits: int) -> int:
    """The image of a mask under a cell permutation."""
    out = 0
    while bits:
        low = bits & -bits
        out |= 1 << perm[low.bit_length() - 1]
        bits ^= low
    return out


def distance_pagoda(geo: Geometry, centre: int, reach: int = 30) -> tuple[int, ...]:
    """An integer pagoda function centred on `centre`: Fibonacci numbers falling with the graph distance.

    p(x) = F(max(reach - d(x), 1)) with F(1) = F(2) = 1, F(k) = F(k-1) + F(k-2). For a jump a over b to c,
    d(b) <= d(c) + 1 and d(a) <= d(c) + 2, so p(a) + p(b) >= p(c): no jump raises the sum over the stones, and a
    position whose sum is below a target's can never reach it (an admissible cut; valid on any board graph).
    """
    fib = [0, 1, 1]
    while len(fib) <= reach:
        fib.append(fib[-1] + fib[-2])
    dist = {centre: 0}
    frontier = [centre]
    while frontier:
        nxt = []
        for cell in frontier:
            for n in geo.board.neighbors[cell]:
                if n not in dist:
                    dist[n] = dist[cell] + 1
                    nxt.append(n)
        frontier = nxt
    return tuple(fib[max(reach - dist[c], 1)] for c in range(len(geo.jumps)))


def is_pagoda(geo: Geometry, weights: tuple[int, ...]) -> bool:
    """True if no jump raises the weighted count of stones: w(a) + w(b) >= w(c) for every jump a over b to c."""
    return all(weights[a] + weights[b] >= weights[c] for a, jumps in enumerate(geo.jumps) for b, c in jumps)


def class_pagoda(geo: Geometry, cells: int) -> tuple[int, ...]:
    """The 0/1 weights of a jump class (a pagoda: a jump into the class starts in it)."""
    return tuple(cells >> c & 1 for c in range(len(geo.jumps)))
