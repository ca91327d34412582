"""Aliens and Amazons on a board: step and jump tables and the Aliens' threshold (the fewest Amazons that can
immobilize three Aliens), all computed once per board."""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

from ytourney.boards.board import Board, parse_board

EMPTY, AMAZON, ALIEN = 0, 1, 2
"""Node contents: the Amazons are Black (1), the Aliens White (2), as `Color` numbers them."""
ALIENS = 3
AMAZONS = 30


@dataclass(frozen=True)
class Tables:
    """What move generation needs of one board, as plain tuples indexed by node."""

    board: Board
    neighbors: tuple[tuple[int, ...], ...]
    jumps: tuple[tuple[tuple[int, int], ...], ...]
    """jumps[a]: every (over, landing) of a jump from a along a line (both branches at a pentad's fork)."""
    middle: dict[tuple[int, int], int]
    """(from, landing) -> the node jumped over; unique on kadon, so a landing list names a chain."""
    need: tuple[int, ...]
    """need[a]: bit mask of the nodes that must be filled for an Alien on a to have no move (its neighbours and
    every landing beyond them)."""
    threshold: int
    """The fewest Amazons that can immobilize three Aliens on this board."""
    witness: tuple[int, ...]
    """One placement of three Aliens that `threshold` Amazons immobilize."""
    need_nodes: tuple[tuple[int, ...], ...]
    """need[a] as a tuple of nodes."""
    distance: tuple[tuple[int, ...], ...]
    """distance[a][b]: steps between two nodes."""


@functools.cache
def tables_for(spec: str) -> Tables:
    """The tables of the board `spec` (cached per process)."""
    board = parse_board(spec)
    n = board.num_cells
    jumps: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    middle: dict[tuple[int, int], int] = {}
    for a in range(n):
        for b in board.neighbors[a]:
            for c in board.continuations(a, b):
                jumps[a].append((b, c))
                if middle.setdefault((a, c), b) != b:  # pragma: no cover - a fact of the board, checked in tests
                    raise ValueError(f"two jumps from {board.names[a]} land on {board.names[c]}")
    need = []
    for a in range(n):
        nodes = set(board.neighbors[a]) | {c for _, c in jumps[a]}
        nodes.discard(a)
        need.append(sum(1 << c for c in nodes))
    threshold, witness = immobilizing_minimum(need)
    need_nodes = tuple(tuple(c for c in range(n) if mask >> c & 1) for mask in need)
    return Tables(board, board.neighbors, tuple(tuple(j) for j in jumps), middle, tuple(need), threshold, witness,
                  need_nodes, _distances(board))


def _distances(board: Board) -> tuple[tuple[int, ...], ...]:
    """All-pairs step distances (one breadth-first search per node)."""
    rows = []
    for start in range(board.num_cells):
        row = [-1] * board.num_cells
        row[start] = 0
        frontier = [start]
        while frontier:
            following = []
            for a in frontier:
                for b in board.neighbors[a]:
                    if row[b] < 0:
                        row[b] = row[a] + 1
                        following.append(b)
            frontier = following
        rows.append(tuple(row))
    return tuple(rows)


def immobilizing_minimum(need: list[int] | tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """The fewest Amazons that immobilize three Aliens, by exhaustive search, with a placement that needs them.

    Aliens on x, y, z have no move exactly when every node of need[x] | need[y] | need[z] other than x, y, z is
    filled: all their neighbours (no step), hence every neighbour is a stone, so every landing beyond one must
    be filled too (no jump; with no first jump there is no chain). Those nodes can only hold Amazons, and filling
    them is enough, so the minimum over all C(n, 3) placements of that count is exact.
    """
    best, witness = len(need) + 1, ()
    for trio in itertools.combinations(range(len(need)), 3):
        x, y, z = trio
        mask = (need[x] | need[y] | need[z]) & ~((1 << x) | (1 << y) | (1 << z))
        count = mask.bit_count()
        if count < best:
            best, witness = count, trio
    return best, witness
