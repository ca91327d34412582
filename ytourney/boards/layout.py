"""Drawing layouts: where every node of a board sits in the plane, and which nodes are joined (pure geometry).

Grid boards place each cell by its coordinates read as axial hexagon coordinates: on `tri:N` the cell (x, y) is a
hexagon centred at (x + y/2, -y·√3/2), so row 1 is at the bottom and the apex `a<N>` at the top (y grows
downwards, as in SVG). `hex:N` boards (axial coordinates (q, r)) are drawn the same way, as hexagons.

The curved 93-node `kadon` board has no grid, so its layout is computed once: a Tutte embedding (every inner node at
the mean of its neighbours) with the corners A1, I1, A9 pinned to a triangle's corners and the edge nodes spaced
evenly along its sides, then a few edge-length relaxation sweeps that keep the drawing planar (checked; the plain
Tutte embedding is kept if a sweep would make edges cross). Kadon nodes are drawn as circles joined by their
adjacency lines, like the printed board.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ytourney.boards.board import SIDE_A, SIDE_B, SIDE_C, Board, parse_board
from ytourney.errors import BoardSpecError

KADON_RELAX_SWEEPS = 30
"""Edge-length relaxation sweeps applied to the kadon Tutte embedding."""
KADON_CORNERS = ("A1", "I1", "A9")
"""The kadon corners, pinned to a triangle's corners (bottom left, bottom right, top)."""


@dataclass(frozen=True, eq=False)
class BoardLayout:
    """2-D positions of a board's nodes in layout units (y grows downwards), its edges, and its drawing style.

    `hexagons` boards draw each node as a hexagonal cell (neighbours one unit apart); the others as circles joined
    by their edges, inside the polygon through the nodes of `outline` (empty: no outline).
    """

    spec: str
    points: np.ndarray
    edges: tuple[tuple[int, int], ...]
    hexagons: bool
    spacing: float
    outline: tuple[int, ...] = ()

    @property
    def radius(self) -> float:
        """Radius of a stone in layout units."""
        return 0.43 * self.spacing

    def bounds(self) -> tuple[float, float, float, float]:
        """(min_x, min_y, max_x, max_y) of the node centres."""
        low = self.points.min(axis=0)
        high = self.points.max(axis=0)
        return float(low[0]), float(low[1]), float(high[0]), float(high[1])


def board_edges(board: Board) -> tuple[tuple[int, int], ...]:
    """Every pair of neighbouring nodes once, (low, high), in node order."""
    return tuple((a, b) for a in range(board.num_cells) for b in board.neighbors[a] if a < b)


def axial_layout(board: Board) -> BoardLayout:
    """Hexagonal cells at their axial coordinates (q, r): centre (q + r/2, -r·√3/2); tri:N and hex:N."""
    points = np.array([(q + r / 2, -r * math.sqrt(3) / 2) for q, r in board.coords], dtype=float)
    return BoardLayout(board.spec, points, board_edges(board), hexagons=True, spacing=1.0)


def _side_path(board: Board, side: int, start: int) -> list[int]:
    """The nodes of one side in order from the corner `start`, walking side neighbours."""
    cells = set(board.cells_on_side(side))
    path = [start]
    while True:
        following = [c for c in board.neighbors[path[-1]] if c in cells and c not in path]
        if not following:
            return path
        path.append(following[0])


def kadon_layout(board: Board) -> BoardLayout:
    """The kadon board as a planar triangle: a Tutte embedding relaxed towards even edge lengths."""
    n = board.num_cells
    corners = [board.index_of(name) for name in KADON_CORNERS]
    if any(c is None for c in corners):
        raise BoardSpecError(f"board {board.spec!r} has no corners {', '.join(KADON_CORNERS)} to pin its drawing to")
    a1, i1, a9 = (int(c) for c in corners)  # type: ignore[arg-type]
    height = math.sqrt(3) / 2
    corner_at = {a1: np.array([0.0, 0.0]), i1: np.array([1.0, 0.0]), a9: np.array([0.5, -height])}
    points = np.zeros((n, 2))
    pinned = np.zeros(n, dtype=bool)
    for side, start, end in ((SIDE_A, a1, i1), (SIDE_C, i1, a9), (SIDE_B, a1, a9)):
        path = _side_path(board, side, start)
        if path[-1] != end:
            raise BoardSpecError(f"kadon side {side} does not run from {board.names[start]} to {board.names[end]}")
        for k, cell in enumerate(path):
            points[cell] = corner_at[start] + (corner_at[end] - corner_at[start]) * k / (len(path) - 1)
            pinned[cell] = True
    free = np.flatnonzero(~pinned)
    slot = {cell: i for i, cell in enumerate(free)}
    laplacian = np.zeros((len(free), len(free)))
    rhs = np.zeros((len(free), 2))
    for cell in free:
        i = slot[cell]
        laplacian[i, i] = len(board.neighbors[cell])
        for nb in board.neighbors[cell]:
            if pinned[nb]:
                rhs[i] += points[nb]
            else:
                laplacian[i, slot[nb]] -= 1.0
    points[free] = np.linalg.solve(laplacian, rhs)
    edges = board_edges(board)
    edge_array = np.array(edges)
    target = 1.05 * float(np.median(np.linalg.norm(points[edge_array[:, 0]] - points[edge_array[:, 1]], axis=1)))
    relaxed = _relax(board, points, free, target, KADON_RELAX_SWEEPS)
    if not crossings(relaxed, edges):
        points = relaxed
    lengths = np.linalg.norm(points[edge_array[:, 0]] - points[edge_array[:, 1]], axis=1)
    scale = 1.0 / float(np.median(lengths))  # median edge = one layout unit, like tri boards
    points = points * scale
    return BoardLayout(board.spec, points, edges, hexagons=False, spacing=float(lengths.min() * scale),
                       outline=(a1, i1, a9))


def _relax(board: Board, points: np.ndarray, free: np.ndarray, target: float, sweeps: int) -> np.ndarray:
    """Move free nodes towards edge length `target` from each neighbour (Jacobi sweeps, boundary fixed)."""
    current = points.copy()
    for _ in range(sweeps):
        moved = current.copy()
        for cell in free:
            total = np.zeros(2)
            for nb in board.neighbors[cell]:
                offset = current[cell] - current[nb]
                length = float(np.hypot(*offset)) or 1e-12
                total += current[nb] + target * offset / length
            moved[cell] = total / len(board.neighbors[cell])
        current = moved
    return current


def crossings(points: np.ndarray, edges: Sequence[tuple[int, int]]) -> int:
    """Number of pairs of edges that cross (sharing an end point does not count)."""
    a = np.array(edges)
    p, q = points[a[:, 0]], points[a[:, 1]]

    def orient(u: np.ndarray, v: np.ndarray, w: np.ndarray) -> np.ndarray:
        return np.sign((v[..., 0] - u[..., 0]) * (w[..., 1] - u[..., 1]) - (v[..., 1] - u[..., 1]) * (w[..., 0] - u[..., 0]))

    p1, q1 = p[:, None, :], q[:, None, :]
    p2, q2 = p[None, :, :], q[None, :, :]
    proper = (orient(p1, q1, p2) * orient(p1, q1, q2) < 0) & (orient(p2, q2, p1) * orient(p2, q2, q1) < 0)
    shared = (a[:, None, 0] == a[None, :, 0]) | (a[:, None, 0] == a[None, :, 1]) | \
             (a[:, None, 1] == a[None, :, 0]) | (a[:, None, 1] == a[None, :, 1])
    return int(np.triu(proper & ~shared, 1).sum())


LAYOUTS: dict[str, Callable[[Board], BoardLayout]] = {
    "tri": axial_layout,
    "kadon": kadon_layout,
    "hex": axial_layout,  # hex:N (YvY): axial (q, r) coordinates, drawn as hexagonal cells like tri:N
}
"""The layout of each board kind (BoardKind value); a kind not listed is drawn from its coordinates as axial."""


@functools.cache
def board_layout(spec: str) -> BoardLayout:
    """The drawing layout of a board spec (cached)."""
    board = parse_board(spec)
    return LAYOUTS.get(board.kind.value, axial_layout)(board)
