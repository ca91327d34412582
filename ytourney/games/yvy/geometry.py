"""YvY's board facts, the incremental loop detector and the slow flood-fill reference it is checked against.

A loop is a group that surrounds at least one cell, whatever holds that cell. Loops are found incrementally: a
stone placed at c closes a loop exactly when
- two separate arcs of its own colour among c's six neighbours (read in order round c, an off-board position
  breaking an arc) already belong to one group: the new cycle through c has one of the gaps between the arcs
  inside it, and a gap inside a cycle holds at least one board cell (every off-board position reaches the far
  outside without crossing the board); or
- c, or a neighbour of c of c's colour, now has six neighbours of its colour: the ring of six surrounds it (a
  solid loop, the surrounded cell being the group's own).
No other placement closes a loop (a loop closed away from c existed before, and a cycle re-entering one arc
surrounded c itself before c was played). tests/games/yvy check this against `naive_loop` on random positions.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from ytourney.boards.board import Board

EMPTY = 0
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1))
"""The six axial directions of hex:N in order round a cell."""


@dataclass(frozen=True, eq=False)
class Geometry:
    """Per-board tables: each cell's six neighbours in order round it (-1 off the board), sprouts, edges."""

    board: Board
    around: tuple[tuple[int, ...], ...]
    inner: tuple[bool, ...]
    """True for a cell with six board neighbours (only such a cell can be surrounded by a solid ring)."""
    sprout: tuple[bool, ...]
    sprouts: tuple[int, ...]
    edge: tuple[int, ...]
    """Cells with an off-board neighbour: where the outside touches the board."""


@functools.cache
def _geometry(spec: str, board: Board) -> Geometry:
    index = {c: i for i, c in enumerate(board.coords)}
    around = tuple(tuple(index.get((x + dx, y + dy), -1) for dx, dy in DIRECTIONS) for x, y in board.coords)
    inner = tuple(-1 not in ring for ring in around)
    sprout = tuple(cell in board.sprouts for cell in range(board.num_cells))
    return Geometry(board, around, inner, sprout, tuple(sorted(board.sprouts)),
                    tuple(c for c in range(board.num_cells) if not inner[c]))


def geometry(board: Board) -> Geometry:
    """The (cached) tables of a hex:N board."""
    return _geometry(board.spec, board)


class LoopTracker:
    """Union-find over the stones of both colours plus same-colour neighbour counts; `place` says if a loop closed."""

    __slots__ = ("around", "inner", "parent", "same")

    def __init__(self, geo: Geometry) -> None:
        n = len(geo.around)
        self.around = geo.around
        self.inner = geo.inner
        self.parent = list(range(n))
        self.same = [0] * n

    def copy(self) -> LoopTracker:
        """An independent copy (the tables are shared)."""
        new = object.__new__(LoopTracker)
        new.around = self.around
        new.inner = self.inner
        new.parent = self.parent.copy()
        new.same = self.same.copy()
        return new

    def find(self, cell: int) -> int:
        """The root of the group holding `cell` (path halving)."""
        parent = self.parent
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    def place(self, cells: Sequence[int], cell: int, colour: int) -> bool:
        """Record a stone of `colour` just put on `cell` (cells[cell] already set); True when it closed a loop."""
        ring = self.around[cell]
        same = self.same
        parent = self.parent
        loop = False
        roots: list[int] = []
        own_cells: list[int] = []
        # arcs of own stones round the cell: an arc starts where an own neighbour follows a non-own position
        last = ring[5]
        previous_own = last >= 0 and cells[last] == colour
        for nb in ring:
            if nb >= 0 and cells[nb] == colour:
                own_cells.append(nb)
                same[nb] += 1
                if same[nb] == 6 and self.inner[nb]:
                    loop = True
                if not previous_own:
                    root = nb
                    while parent[root] != root:
                        parent[root] = parent[parent[root]]
                        root = parent[root]
                    roots.append(root)
                previous_own = True
            else:
                previous_own = False
        same[cell] = len(own_cells)
        if len(own_cells) == 6 and self.inner[cell]:
            loop = True
        if len(roots) > 1 and len(set(roots)) < len(roots):
            loop = True
        for nb in own_cells:
            parent[self.find(nb)] = cell
        return loop


def naive_loop(geo: Geometry, cells: Sequence[int], colour: int) -> bool:
    """The slow reference: does any group of `colour` surround a cell? One flood fill of the whole board.

    A cell not of `colour` that the outside cannot reach through cells not of `colour` is surrounded; so is a
    stone of `colour` whose six neighbours are all of `colour`. (Any group surrounding a region whose cells all
    hold its own stones has such a stone.)
    """
    n = len(cells)
    for cell in range(n):
        if cells[cell] == colour and geo.inner[cell] and all(cells[nb] == colour for nb in geo.around[cell]):
            return True
    reached = [False] * n
    queue = deque(c for c in geo.edge if cells[c] != colour)
    for c in queue:
        reached[c] = True
    while queue:
        for nb in geo.around[queue.popleft()]:
            if nb >= 0 and not reached[nb] and cells[nb] != colour:
                reached[nb] = True
                queue.append(nb)
    return any(cells[c] != colour and not reached[c] for c in range(n))


def groups_of(geo: Geometry, cells: Sequence[int], colour: int) -> list[list[int]]:
    """The groups (connected stones) of one colour, each a list of cells."""
    seen = [False] * len(cells)
    groups = []
    for start in range(len(cells)):
        if cells[start] != colour or seen[start]:
            continue
        seen[start] = True
        group, stack = [start], [start]
        while stack:
            for nb in geo.around[stack.pop()]:
                if nb >= 0 and not seen[nb] and cells[nb] == colour:
                    seen[nb] = True
                    group.append(nb)
                    stack.append(nb)
        groups.append(group)
    return groups


def loop_cells(geo: Geometry, cells: Sequence[int], cell: int) -> frozenset[int]:
    """The stones of the group at `cell` that ring the cells it surrounds (empty if it surrounds none)."""
    colour = cells[cell]
    if colour == EMPTY:
        return frozenset()
    group = next(g for g in groups_of(geo, cells, colour) if cell in g)
    members = set(group)
    inside = {c for c in group if geo.inner[c] and all(nb in members for nb in geo.around[c])}
    reached = [False] * len(cells)
    queue = deque(c for c in geo.edge if c not in members)
    for c in queue:
        reached[c] = True
    while queue:
        for nb in geo.around[queue.popleft()]:
            if nb >= 0 and not reached[nb] and nb not in members:
                reached[nb] = True
                queue.append(nb)
    inside |= {c for c in range(len(cells)) if c not in members and not reached[c]}
    return frozenset(c for c in members - inside if any(nb in inside for nb in geo.around[c]))
