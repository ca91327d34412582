"""Board geometry only: cells, flat indices, neighbour tables and side masks for every board spec."""

from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass, field
from importlib import resources

import numpy as np

from ytourney.errors import BoardSpecError

SIDE_A = 1
SIDE_B = 2
SIDE_C = 4
ALL_SIDES = SIDE_A | SIDE_B | SIDE_C

MIN_TRI_SIZE = 2
MAX_TRI_SIZE = 26
ACCEPTED_SPECS = f"'tri:N' with {MIN_TRI_SIZE} <= N <= {MAX_TRI_SIZE} (e.g. 'tri:11') or 'kadon'"


class BoardKind(enum.Enum):
    """The families of boards ytourney knows."""

    TRI = "tri"
    KADON = "kadon"


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


def parse_board(spec: str) -> Board:
    """Return the board for a spec such as 'tri:11' or 'kadon' (case-insensitive, cached)."""
    if not isinstance(spec, str):
        raise BoardSpecError(f"board spec must be a string, got {spec!r}; expected {ACCEPTED_SPECS}")
    return _build_board(spec.strip().lower())


@functools.cache
def _build_board(spec: str) -> Board:
    if spec == "kadon":
        return _kadon_board()
    match = re.fullmatch(r"tri:(\d+)", spec)
    if match is None:
        raise BoardSpecError(f"unknown board spec {spec!r}; expected {ACCEPTED_SPECS}")
    size = int(match.group(1))
    if not MIN_TRI_SIZE <= size <= MAX_TRI_SIZE:
        raise BoardSpecError(f"board size {size} in {spec!r} is out of range; expected {ACCEPTED_SPECS}")
    return _tri_board(size)


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
