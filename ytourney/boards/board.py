"""Board geometry only: cells, flat indices, neighbour tables and side masks for every board spec."""

from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass, field
from importlib import resources

import numpy as np

from ytourney.errors import BoardSpecError
from ytourney.numerals import check_ascii_digits

SIDE_A = 1
SIDE_B = 2
SIDE_C = 4
ALL_SIDES = SIDE_A | SIDE_B | SIDE_C

MIN_TRI_SIZE = 2
MAX_TRI_SIZE = 26
MIN_HEX_SIZE = 3
MAX_HEX_SIZE = 12
ACCEPTED_SPECS = (f"'tri:N' with {MIN_TRI_SIZE} <= N <= {MAX_TRI_SIZE} (e.g. 'tri:11'), 'kadon', "
                  f"or 'hex:N' with {MIN_HEX_SIZE} <= N <= {MAX_HEX_SIZE} (e.g. 'hex:7')")


class BoardKind(enum.Enum):
    """The families of boards ytourney knows."""

    TRI = "tri"
    KADON = "kadon"
    HEX = "hex"


@dataclass(frozen=True, eq=False)
class Board:
    """One board: cell names, neighbour lists and side masks, indexed by flat cell number."""

    spec: str
    kind: BoardKind
    size: int
    names: tuple[str, ...]
    coords: tuple[tuple[int, int], ...]
    neighbors: tuple[tuple[int, ...], ...]
    sides: tuple[int, ...]
    _index: dict[str, int] = field(repr=False)
    sprouts: frozenset[int] = frozenset()
    """The sprout cells of a hex:N board (the ring outside the base hexagon); empty on other boards."""

    @property
    def num_cells(self) -> int:
        """Number of cells on the board."""
        return len(self.names)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other.spec == self.spec

    def __hash__(self) -> int:
        return hash(self.spec)

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Boards travel to worker processes as their spec and are rebuilt from the cache there.
        return (parse_board, (self.spec,))

    def index_of(self, name: str) -> int | None:
        """Flat index of a cell name (any case), or None when the board has no such cell."""
        return self._index.get(name.lower())

    @functools.cached_property
    def neighbor_array(self) -> np.ndarray:
        """Neighbour table as an int array of shape (cells, 6), padded with -1."""
        table = np.full((self.num_cells, 6), -1, dtype=np.int32)
        for cell, nbrs in enumerate(self.neighbors):
            table[cell, : len(nbrs)] = nbrs
        return table

    @functools.cached_property
    def side_array(self) -> np.ndarray:
        """Side masks as a uint8 array indexed by cell."""
        return np.array(self.sides, dtype=np.uint8)

    def cells_on_side(self, side: int) -> tuple[int, ...]:
        """Cells whose side mask includes `side` (SIDE_A, SIDE_B or SIDE_C)."""
        return tuple(c for c, m in enumerate(self.sides) if m & side)

    def side_distances(self, side: int) -> tuple[int, ...]:
        """Each cell's distance in steps to the cells of `side` (0 on them)."""
        dist = [self.num_cells] * self.num_cells
        frontier = list(self.cells_on_side(side))
        for cell in frontier:
            dist[cell] = 0
        while frontier:
            following = []
            for cell in frontier:
                for nb in self.neighbors[cell]:
                    if dist[nb] > dist[cell] + 1:
                        dist[nb] = dist[cell] + 1
                        following.append(nb)
            frontier = following
        return tuple(dist)

    def name_of(self, cell: int) -> str:
        """The printed name of a cell (upper case on kadon, lower case elsewhere)."""
        return self.names[cell]

    @functools.cached_property
    def continuation_table(self) -> dict[tuple[int, int], tuple[int, ...]]:
        """Every (a, b) with a next to b mapped to the nodes where the line a->b continues after b."""
        if self.kind is BoardKind.KADON:
            return _graph_continuations(self)
        return _axial_continuations(self)

    def continuations(self, a: int, b: int) -> tuple[int, ...]:
        """Where the line a->b continues after b: none at a line's end, two at a kadon pentad's fork."""
        try:
            return self.continuation_table[(a, b)]
        except KeyError:
            raise BoardSpecError(f"cells {a!r} and {b!r} are not neighbours on {self.spec!r}") from None

    def line_from(self, a: int, b: int, steps: int | None = None) -> tuple[tuple[int, ...], ...]:
        """Every line that starts a, b and runs on (at most `steps` steps past a), one tuple per branch.

        Without a fork there is one branch; each fork at a pentad doubles them. A branch stops at the end of its
        line, after `steps` steps, or before a node it already holds.
        """
        limit = self.num_cells if steps is None else steps
        if limit < 1:
            return ((a,),)
        self.continuations(a, b)  # checks that a and b are neighbours
        done: list[tuple[int, ...]] = []
        stack = [(a, b)]
        while stack:
            path = stack.pop()
            nexts = [] if len(path) > limit else [c for c in self.continuations(path[-2], path[-1]) if c not in path]
            if not nexts:
                done.append(path)
            stack.extend(path + (c,) for c in reversed(nexts))
        return tuple(done)

    def lines_through(self, cell: int, steps: int | None = None) -> tuple[tuple[int, ...], ...]:
        """Every line leaving `cell` in any direction (see line_from), grouped by first step."""
        return tuple(line for b in self.neighbors[cell] for line in self.line_from(cell, b, steps))

    @functools.cached_property
    def rays(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """For each node, every line leaving it to its end (each fork's branches apart), without the node itself:
        what a slide walks until the first occupied node."""
        return tuple(tuple(line[1:] for line in self.lines_through(cell)) for cell in range(self.num_cells))


def parse_board(spec: str) -> Board:
    """Return the board for a spec such as 'tri:11' or 'kadon' (case-insensitive, cached)."""
    if not isinstance(spec, str):
        raise BoardSpecError(f"board spec must be a string, got {spec!r}; expected {ACCEPTED_SPECS}")
    check_ascii_digits(spec, "board spec", BoardSpecError)  # 'tri:１１' is no board, though int('１１') is 11
    return _build_board(spec.strip().lower())


@functools.cache
def _build_board(spec: str) -> Board:
    if spec == "kadon":
        return _kadon_board()
    hex_match = re.fullmatch(r"hex:([0-9]+)", spec)
    if hex_match is not None:
        return _hex_board(_size(hex_match.group(1), spec, MIN_HEX_SIZE, MAX_HEX_SIZE))
    match = re.fullmatch(r"tri:([0-9]+)", spec)
    if match is None:
        shown = spec if len(spec) <= 40 else f"{spec[:40]}... ({len(spec)} characters)"
        raise BoardSpecError(f"unknown board spec {shown!r}; expected {ACCEPTED_SPECS}")
    return _tri_board(_size(match.group(1), spec, MIN_TRI_SIZE, MAX_TRI_SIZE))


def _size(digits: str, spec: str, low: int, high: int) -> int:
    """The size a spec's digits give, within [low, high]; a number of thousands of digits is never converted."""
    if len(digits) > 6 or not low <= int(digits) <= high:
        shown = digits if len(digits) <= 12 else f"of {len(digits)} digits"
        spec = spec if len(spec) <= 40 else f"{spec[:40]}..."
        raise BoardSpecError(f"board size {shown} in {spec!r} is out of range; expected {ACCEPTED_SPECS}")
    return int(digits)


def tri_index(size: int, x: int, y: int) -> int:
    """Flat index of (x, y) on tri:size; rows y = 0.. are stored one after another."""
    return y * size - (y * (y - 1)) // 2 + x


def _tri_board(size: int) -> Board:
    coords = [(x, y) for y in range(size) for x in range(size - y)]
    names = tuple(f"{chr(ord('a') + x)}{y + 1}" for x, y in coords)
    neighbors = []
    sides = []
    for x, y in coords:
        nbrs = []
        for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1), (1, -1), (-1, 1)):
            nx, ny = x + dx, y + dy
            if nx >= 0 and ny >= 0 and nx + ny < size:
                nbrs.append(tri_index(size, nx, ny))
        neighbors.append(tuple(nbrs))
        sides.append((SIDE_A if y == 0 else 0) | (SIDE_B if x == 0 else 0) | (SIDE_C if x + y == size - 1 else 0))
    return Board(
        spec=f"tri:{size}",
        kind=BoardKind.TRI,
        size=size,
        names=names,
        coords=tuple(coords),
        neighbors=tuple(neighbors),
        sides=tuple(sides),
        _index={name: i for i, name in enumerate(names)},
    )


def _kadon_board() -> Board:
    text = resources.files("ytourney.boards").joinpath("data/kadon93.txt").read_text(encoding="utf-8")
    rows = [line.split() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    names = tuple(row[0].upper() for row in rows)
    index = {name.lower(): i for i, name in enumerate(names)}
    side_bits = {"1": SIDE_A, "2": SIDE_B, "3": SIDE_C}
    sides = tuple(0 if row[1] == "-" else sum(side_bits[ch] for ch in row[1]) for row in rows)
    neighbors = tuple(tuple(index[n.lower()] for n in row[3:]) for row in rows)
    coords = tuple((ord(name[0]) - ord("A"), int(name[1:]) - 1) for name in names)
    return Board(
        spec="kadon",
        kind=BoardKind.KADON,
        size=9,
        names=names,
        coords=coords,
        neighbors=neighbors,
        sides=sides,
        _index=index,
    )


def _hex_board(size: int) -> Board:
    """hex:N: the base-N hexagon plus 3N sprouts on every other cell of the ring outside it.

    Every cell is named in the Havannah notation of the base-(N+1) hexagon that holds the sprout ring: columns
    a.. (x = 0..2N) and rows 1.. (y = 0..2N) with |x - y| <= N, so the base hexagon is the cells with
    |x - y| <= N - 1 and 1 <= x, y <= 2N - 1 (its corner cells are b2, <N+1>2, ...). Axial neighbours of (x, y):
    (x±1, y), (x, y±1), (x+1, y+1), (x-1, y-1). The sprouts start at the ring's corner a1 and take every other
    ring cell going round it (a1, c1, e1, ...): 3-fold symmetric about the centre (N, N).
    """
    centre = size
    ring = _hex_ring(size)
    sprout_coords = set(ring[::2])
    base = [(x, y) for y in range(1, 2 * size) for x in range(1, 2 * size) if abs(x - y) <= size - 1]
    coords = sorted(set(base) | sprout_coords, key=lambda c: (c[1], c[0]))
    index_of = {c: i for i, c in enumerate(coords)}
    names = tuple(f"{chr(ord('a') + x)}{y + 1}" for x, y in coords)
    neighbors = []
    for x, y in coords:
        around = ((x + 1, y), (x + 1, y + 1), (x, y + 1), (x - 1, y), (x - 1, y - 1), (x, y - 1))
        neighbors.append(tuple(index_of[c] for c in around if c in index_of))
    assert all(max(abs(x - centre), abs(y - centre), abs(x - y)) <= size for x, y in coords)
    return Board(
        spec=f"hex:{size}",
        kind=BoardKind.HEX,
        size=size,
        names=names,
        coords=tuple(coords),
        neighbors=tuple(neighbors),
        sides=(0,) * len(coords),
        _index={name: i for i, name in enumerate(names)},
        sprouts=frozenset(index_of[c] for c in sprout_coords),
    )


def _hex_ring(size: int) -> list[tuple[int, int]]:
    """The 6N cells at distance N from the centre (N, N), in order round the ring from its corner a1."""
    cells = []
    x, y = 0, 0
    for dx, dy in ((1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)):
        for _ in range(size):
            cells.append((x, y))
            x, y = x + dx, y + dy
    return cells


def _axial_continuations(board: Board) -> dict[tuple[int, int], tuple[int, ...]]:
    """Straight lines on a lattice board: the line a->b goes on to 2b - a when that cell is on the board."""
    index_of = {c: i for i, c in enumerate(board.coords)}
    table = {}
    for b, (bx, by) in enumerate(board.coords):
        for a in board.neighbors[b]:
            ax, ay = board.coords[a]
            c = index_of.get((2 * bx - ax, 2 * by - ay))
            table[(a, b)] = () if c is None else (c,)
    return table


def neighbour_cycle(board: Board, cell: int) -> tuple[int, ...]:
    """The neighbours of an interior node in order round it, read from the graph alone (they form a cycle)."""
    nbrs = board.neighbors[cell]
    among = {n: [m for m in board.neighbors[n] if m in nbrs] for n in nbrs}
    if any(len(v) != 2 for v in among.values()):
        raise BoardSpecError(f"the neighbours of {board.names[cell]!r} on {board.spec!r} do not form a cycle")
    cycle = [min(nbrs)]
    previous = -1
    while len(cycle) < len(nbrs):
        step = next(m for m in sorted(among[cycle[-1]]) if m != previous)
        previous = cycle[-1]
        cycle.append(step)
    if cycle[0] not in among[cycle[-1]]:
        raise BoardSpecError(f"the neighbours of {board.names[cell]!r} on {board.spec!r} do not form one cycle")
    return tuple(cycle)


def _graph_continuations(board: Board) -> dict[tuple[int, int], tuple[int, ...]]:
    """DESIGN's reading of lines on kadon: opposite at a hexad, the fork at a pentad, along a side at the edge."""
    table: dict[tuple[int, int], tuple[int, ...]] = {}
    for b, nbrs in enumerate(board.neighbors):
        side = board.sides[b]
        if side == 0:
            cycle = neighbour_cycle(board, b)
            k = len(cycle)
            for i, a in enumerate(cycle):
                if k == 6:
                    table[(a, b)] = (cycle[(i + 3) % 6],)
                else:
                    table[(a, b)] = tuple(sorted({cycle[(i + 2) % k], cycle[(i - 2) % k]}))
            continue
        corner = bin(side).count("1") > 1
        for a in nbrs:
            if corner or not board.sides[a] & side:
                table[(a, b)] = ()
                continue
            along = tuple(n for n in nbrs if n != a and board.sides[n] & side)
            if len(along) != 1:
                raise BoardSpecError(f"node {board.names[b]!r} on {board.spec!r} has no single next node on its side")
            table[(a, b)] = along
    return table
