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
    links: tuple[tuple[tuple[int, int], ...], ...]
    """Per cell, (neighbour, the bit of the cell in the neighbour's pattern) for each board neighbour."""
    adjacent: tuple[tuple[int, ...], ...]
    """Per cell, its board neighbours."""


@functools.cache
def _geometry(spec: str, board: Board) -> Geometry:
    index = {c: i for i, c in enumerate(board.coords)}
    around = tuple(tuple(index.get((x + dx, y + dy), -1) for dx, dy in DIRECTIONS) for x, y in board.coords)
    inner = tuple(-1 not in ring for ring in around)
    sprout = tuple(cell in board.sprouts for cell in range(board.num_cells))
    links = tuple(tuple((nb, 1 << ((d + 3) % 6)) for d, nb in enumerate(ring) if nb >= 0) for ring in around)
    return Geometry(board, around, inner, sprout, tuple(sorted(board.sprouts)),
                    tuple(c for c in range(board.num_cells) if not inner[c]), links,
                    tuple(tuple(nb for nb in ring if nb >= 0) for ring in around))


def geometry(board: Board) -> Geometry:
    """The (cached) tables of a hex:N board."""
    return _geometry(board.spec, board)


FULL = 63
"""The pattern of a cell whose six neighbours are all on the board and all of one colour."""
ARC_STARTS = tuple(tuple(d for d in range(6) if p >> d & 1 and not p >> (d - 1) % 6 & 1) for p in range(64))
"""For a pattern, the directions where an arc of own stones starts (an own neighbour after a non-own position)."""
MAY_CLOSE = tuple(len(ARC_STARTS[p]) >= 2 or bin(p).count("1") >= 3 for p in range(64))
"""False for a pattern round an empty cell where no stone can close a loop: one arc of at most two stones (a ring
completed round a neighbour needs that neighbour and the two cells beside it, three in a row round the cell)."""


class LoopTracker:
    """Loop detection that undoes: union-find over the stones (union by size, no path compression, so each union is
    undone from its log entry) and, per colour and cell, the 6-bit pattern of that colour's stones round the cell
    (bit d: the neighbour in direction d); `place` says if a loop closed, `undo` takes the last stone back."""

    __slots__ = ("around", "links", "log", "parent", "pattern", "size")

    def __init__(self, geo: Geometry) -> None:
        n = len(geo.around)
        self.around = geo.around
        self.links = geo.links
        self.parent = list(range(n))
        self.size = [1] * n
        self.pattern = ([], [0] * n, [0] * n)
        """Indexed by colour (1 Black, 2 White)."""
        self.log: list[tuple[int, int, int, list[int]]] = []

    def copy(self) -> LoopTracker:
        """An independent copy (the tables are shared)."""
        new = object.__new__(LoopTracker)
        new.around = self.around
        new.links = self.links
        new.parent = self.parent.copy()
        new.size = self.size.copy()
        new.pattern = ([], self.pattern[1].copy(), self.pattern[2].copy())
        new.log = self.log.copy()
        return new

    def find(self, cell: int) -> int:
        """The root of the group holding `cell`."""
        parent = self.parent
        while parent[cell] != cell:
            cell = parent[cell]
        return cell

    def place(self, cells: Sequence[int], cell: int, colour: int) -> bool:
        """Record a stone of `colour` just put on `cell` (cells[cell] already set); True when it closed a loop."""
        pattern = self.pattern[colour]
        parent = self.parent
        ring = self.around[cell]
        own = pattern[cell]
        loop = own == FULL
        roots: list[int] = []
        for d in ARC_STARTS[own]:
            root = ring[d]
            while parent[root] != root:
                root = parent[root]
            if root in roots:
                loop = True
            else:
                roots.append(root)
        for nb, bit in self.links[cell]:
            around = pattern[nb] | bit
            pattern[nb] = around
            if around == FULL and cells[nb] == colour:  # the new stone completed a ring round its neighbour
                loop = True
        if own == FULL:  # one arc all round has no start
            root = ring[0]
            while parent[root] != root:
                root = parent[root]
            roots.append(root)
        if not roots:
            self.log.append((cell, colour, cell, roots))
            return loop
        size = self.size
        big = roots[0]
        for root in roots:
            if size[root] > size[big]:
                big = root
        total = size[big] + 1
        for root in roots:
            if root != big:
                parent[root] = big
                total += size[root]
        size[big] = total
        parent[cell] = big
        self.log.append((cell, colour, big, roots))
        return loop

    def undo(self) -> None:
        """Take back the last `place`."""
        cell, colour, big, roots = self.log.pop()
        pattern = self.pattern[colour]
        for nb, bit in self.links[cell]:
            pattern[nb] ^= bit
        if not roots:
            return
        parent = self.parent
        size = self.size
        total = size[big] - 1
        for root in roots:
            if root != big:
                parent[root] = root
                total -= size[root]
        size[big] = total
        parent[cell] = cell

    def closes(self, cells: Sequence[int], cell: int, colour: int) -> bool:
        """True when a stone of `colour` on the empty `cell` would close a loop (nothing changes)."""
        pattern = self.pattern[colour]
        own = pattern[cell]
        if not MAY_CLOSE[own]:
            return False
        if own == FULL:
            return True
        starts = ARC_STARTS[own]
        if len(starts) > 1:
            parent = self.parent
            ring = self.around[cell]
            roots: list[int] = []
            for d in starts:
                root = ring[d]
                while parent[root] != root:
                    root = parent[root]
                if root in roots:
                    return True
                roots.append(root)
        for nb, bit in self.links[cell]:
            if pattern[nb] | bit == FULL and cells[nb] == colour:
                return True
        return False

    def closing_cells(self, cells: Sequence[int], candidates: Sequence[int], colour: int) -> list[int]:
        """The cells among the empty `candidates` where a stone of `colour` would close a loop."""
        may = MAY_CLOSE
        pattern = self.pattern[colour]
        closes = self.closes
        return [cell for cell in candidates if may[pattern[cell]] and closes(cells, cell, colour)]


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
