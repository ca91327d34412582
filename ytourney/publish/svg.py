"""Board diagrams as SVG: final positions with numbered stones, and per-cell heat maps.

Layouts: on `tri:N` the cell (x, y) is a hexagon centred at (x + y/2, y·√3/2), flipped so row 1 is at the bottom
and the apex `a<N>` at the top. The curved 93-node `kadon` board has no grid, so its layout is computed once: a
Tutte embedding (every inner node at the mean of its neighbours) with the corners A1, I1, A9 pinned to a triangle's
corners and the edge nodes spaced evenly along its sides, then a few edge-length relaxation sweeps that keep the
drawing planar (checked; the plain Tutte embedding is kept if a sweep would make edges cross). Kadon nodes are drawn
as circles joined by their adjacency lines, like the printed board.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

import numpy as np

from ytourney.errors import YTourneyError
from ytourney.boards.board import SIDE_A, SIDE_B, SIDE_C, Board, BoardKind, parse_board
from ytourney.games.y.notation import SWAP, parse_move
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import EMPTY, GameState

UNIT = 34.0
"""Pixels per unit of layout (the distance between neighbouring tri cells)."""
MARGIN = 1.25
"""Layout units of margin around the board (room for coordinates)."""
KADON_RELAX_SWEEPS = 30
"""Edge-length relaxation sweeps applied to the kadon Tutte embedding."""

BOARD_FILL = "#ecd9b0"
BOARD_LINE = "#9c8157"
BLACK_STONE = "#1b1b1b"
WHITE_STONE = "#fbfbf8"
WIN_RING = "#e0a100"
LAST_RING = "#d03030"
EMPTY_CELL = "#e2e4e8"


@dataclass(frozen=True, eq=False)
class BoardLayout:
    """2-D positions of a board's cells in layout units (y grows downwards), its edges, and its drawing style."""

    spec: str
    points: np.ndarray
    edges: tuple[tuple[int, int], ...]
    hexagons: bool
    spacing: float

    @property
    def radius(self) -> float:
        """Radius of a stone in layout units."""
        return 0.43 * self.spacing

    def bounds(self) -> tuple[float, float, float, float]:
        """(min_x, min_y, max_x, max_y) of the cell centres."""
        low = self.points.min(axis=0)
        high = self.points.max(axis=0)
        return float(low[0]), float(low[1]), float(high[0]), float(high[1])


@functools.cache
def board_layout(spec: str) -> BoardLayout:
    """The drawing layout of a board spec (cached)."""
    board = parse_board(spec)
    if board.kind is BoardKind.TRI:
        return _tri_layout(board)
    return _kadon_layout(board)


def _tri_layout(board: Board) -> BoardLayout:
    points = np.array([(x + y / 2, -y * math.sqrt(3) / 2) for x, y in board.coords], dtype=float)
    return BoardLayout(board.spec, points, _edges(board), hexagons=True, spacing=1.0)


def _edges(board: Board) -> tuple[tuple[int, int], ...]:
    return tuple((a, b) for a in range(board.num_cells) for b in board.neighbors[a] if a < b)


def _side_path(board: Board, side: int, start: int) -> list[int]:
    """The cells of one side in order from the corner `start`, walking side neighbours."""
    cells = set(board.cells_on_side(side))
    path = [start]
    while True:
        following = [c for c in board.neighbors[path[-1]] if c in cells and c not in path]
        if not following:
            return path
        path.append(following[0])


def _kadon_layout(board: Board) -> BoardLayout:
    n = board.num_cells
    a1, i1, a9 = (board.index_of(name) for name in ("A1", "I1", "A9"))
    height = math.sqrt(3) / 2
    corner_at = {a1: np.array([0.0, 0.0]), i1: np.array([1.0, 0.0]), a9: np.array([0.5, -height])}
    points = np.zeros((n, 2))
    pinned = np.zeros(n, dtype=bool)
    for side, start, end in ((SIDE_A, a1, i1), (SIDE_C, i1, a9), (SIDE_B, a1, a9)):
        path = _side_path(board, side, start)
        if path[-1] != end:
            raise YTourneyError(f"kadon side {side} does not run from {board.names[start]} to {board.names[end]}")
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
    edges = _edges(board)
    edge_array = np.array(edges)
    target = 1.05 * float(np.median(np.linalg.norm(points[edge_array[:, 0]] - points[edge_array[:, 1]], axis=1)))
    relaxed = _relax(board, points, free, target, KADON_RELAX_SWEEPS)
    if not _crossings(relaxed, edges):
        points = relaxed
    lengths = np.linalg.norm(points[edge_array[:, 0]] - points[edge_array[:, 1]], axis=1)
    scale = 1.0 / float(np.median(lengths))  # median edge = one layout unit, like tri boards
    points = points * scale
    return BoardLayout(board.spec, points, edges, hexagons=False, spacing=float(lengths.min() * scale))


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


def _crossings(points: np.ndarray, edges: Sequence[tuple[int, int]]) -> int:
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


# --- SVG building ---------------------------------------------------------------------------------------------


class _Canvas:
    """Collects SVG elements in pixel coordinates for one layout."""

    def __init__(self, layout: BoardLayout, unit: float, extra_bottom: float = 0.0) -> None:
        self.layout = layout
        self.unit = unit
        min_x, min_y, max_x, max_y = layout.bounds()
        self.origin = (min_x - MARGIN, min_y - MARGIN)
        self.width = (max_x - min_x + 2 * MARGIN) * unit
        self.height = (max_y - min_y + 2 * MARGIN + extra_bottom) * unit
        self.parts: list[str] = []

    def xy(self, point: Sequence[float]) -> tuple[float, float]:
        return (point[0] - self.origin[0]) * self.unit, (point[1] - self.origin[1]) * self.unit

    def cell_xy(self, cell: int) -> tuple[float, float]:
        return self.xy(self.layout.points[cell])

    def hexagon(self, cell: int, radius: float) -> str:
        cx, cy = self.cell_xy(cell)
        r = radius * self.unit
        corners = [(cx + r * math.cos(math.radians(90 + 60 * k)), cy + r * math.sin(math.radians(90 + 60 * k)))
                   for k in range(6)]
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)

    def add(self, element: str) -> None:
        self.parts.append(element)

    def svg(self, label: str) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width:.0f} {self.height:.0f}" '
                f'width="{self.width:.0f}" height="{self.height:.0f}" role="img" aria-label="{escape(label)}" '
                'font-family="Helvetica, Arial, sans-serif">')
        return "\n".join([head, f"<title>{escape(label)}</title>", *self.parts, "</svg>"])


HEX_RADIUS = 1 / math.sqrt(3)
"""Circumradius of a tri cell's hexagon when neighbouring centres are one unit apart."""


def _draw_board(canvas: _Canvas, board: Board, fills: Mapping[int, str] | None = None,
                names: bool = True) -> None:
    """Cells (hexagons on tri, nodes and lines on kadon), optional per-cell fills, and coordinates."""
    layout = canvas.layout
    fills = fills or {}
    if layout.hexagons:
        for cell in range(board.num_cells):
            fill = fills.get(cell, BOARD_FILL)
            canvas.add(f'<polygon points="{canvas.hexagon(cell, HEX_RADIUS)}" fill="{fill}" stroke="{BOARD_LINE}" '
                       f'stroke-width="1"><title>{escape(board.names[cell])}</title></polygon>')
        if names:
            _tri_coordinates(canvas, board)
        return
    corners = [canvas.cell_xy(board.index_of(name)) for name in ("A1", "I1", "A9")]
    pad = 0.55 * canvas.unit
    cx = sum(x for x, _ in corners) / 3
    cy = sum(y for _, y in corners) / 3
    outline = []
    for x, y in corners:
        dx, dy = x - cx, y - cy
        length = math.hypot(dx, dy)
        outline.append((x + dx / length * pad * 2, y + dy / length * pad * 2))
    canvas.add(f'<polygon points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in outline)}" fill="{BOARD_FILL}" '
               f'stroke="{BOARD_LINE}" stroke-width="1.5" stroke-linejoin="round"/>')
    lines = []
    for a, b in layout.edges:
        (x1, y1), (x2, y2) = canvas.cell_xy(a), canvas.cell_xy(b)
        lines.append(f"M{x1:.1f} {y1:.1f}L{x2:.1f} {y2:.1f}")
    canvas.add(f'<path d="{"".join(lines)}" stroke="{BOARD_LINE}" stroke-width="1.2" fill="none"/>')
    r = layout.radius * canvas.unit
    for cell in range(board.num_cells):
        x, y = canvas.cell_xy(cell)
        fill = fills.get(cell, BOARD_FILL)
        canvas.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" stroke="{BOARD_LINE}" '
                   f'stroke-width="1"><title>{escape(board.names[cell])}</title></circle>')
        if names and cell not in fills:
            canvas.add(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{0.34 * r * 2:.1f}" fill="{BOARD_LINE}" '
                       f'text-anchor="middle" dominant-baseline="central">{escape(board.names[cell])}</text>')


@functools.lru_cache(maxsize=16)
def _empty_board(spec: str, unit: float) -> tuple[str, ...]:
    """The SVG elements of an empty board with its coordinates (cached: every game page of a board starts so)."""
    canvas = _Canvas(board_layout(spec), unit)
    _draw_board(canvas, parse_board(spec))
    return tuple(canvas.parts)


def _tri_coordinates(canvas: _Canvas, board: Board) -> None:
    """Column letters under row 1 and row numbers left of column a."""
    size = board.size
    font = 0.36 * canvas.unit
    for x in range(size):
        px, py = canvas.xy((x, 0.9))
        canvas.add(f'<text x="{px:.1f}" y="{py:.1f}" font-size="{font:.1f}" fill="#6b5a3c" text-anchor="middle" '
                   f'dominant-baseline="central">{chr(ord("a") + x)}</text>')
    for y in range(size):
        px, py = canvas.xy((y / 2 - 0.95, -y * math.sqrt(3) / 2))
        canvas.add(f'<text x="{px:.1f}" y="{py:.1f}" font-size="{font:.1f}" fill="#6b5a3c" text-anchor="middle" '
                   f'dominant-baseline="central">{y + 1}</text>')


@dataclass(frozen=True)
class Replayed:
    """A record's moves replayed: final state, move number of each stone, and the first move that failed."""

    state: GameState
    numbers: dict[int, int]
    failed_at: int | None


def replay(board: Board, moves: Sequence[str], rules: Rules | None = None, handicap: int = 0) -> Replayed:
    """Replay move tokens as far as they are legal; `numbers` maps cell -> 1-based index in the move list."""
    state = GameState(board, rules or Rules(), handicap)
    numbers: dict[int, int] = {}
    for index, token in enumerate(moves, start=1):
        try:
            move = parse_move(board, token)
            state.play(move)
        except YTourneyError:
            return Replayed(state, numbers, index)
        if move != SWAP:
            numbers[move] = index
    return Replayed(state, numbers, None)


def winning_group(state: GameState) -> set[int]:
    """Cells of the completed Y (the group touching all three sides), empty when there is none."""
    board = state.board
    stones = state.cells  # one read: on the C core every read builds a new list
    for cell in range(board.num_cells):
        if stones[cell] != EMPTY and state.group_sides(cell) == SIDE_A | SIDE_B | SIDE_C:
            colour = stones[cell]
            group, stack = {cell}, [cell]
            while stack:
                current = stack.pop()
                for nb in board.neighbors[current]:
                    if nb not in group and stones[nb] == colour:
                        group.add(nb)
                        stack.append(nb)
            return group
    return set()


def position_svg(board: Board | str, moves: Sequence[str], *, rules: Rules | None = None, handicap: int = 0,
                 numbered: bool = True, highlight: bool = True, label: str = "", unit: float = UNIT) -> str:
    """The final position of a move list: stones numbered by move, the last one ringed, the winning Y outlined."""
    board = parse_board(board) if isinstance(board, str) else board
    layout = board_layout(board.spec)
    played = replay(board, moves, rules, handicap)
    state = played.state
    canvas = _Canvas(layout, unit)
    canvas.parts.extend(_empty_board(board.spec, unit))
    group = winning_group(state) if highlight else set()
    last = max(played.numbers, key=played.numbers.__getitem__) if played.numbers else None
    r = layout.radius * unit
    stones = state.cells
    if group:  # the winning Y: its stones joined by a broad gold band under them, so it stands out at a glance
        band = []
        for a, b in layout.edges:
            if a in group and b in group:
                (x1, y1), (x2, y2) = canvas.cell_xy(a), canvas.cell_xy(b)
                band.append(f"M{x1:.1f} {y1:.1f}L{x2:.1f} {y2:.1f}")
        if band:
            canvas.add(f'<path d="{"".join(band)}" stroke="{WIN_RING}" stroke-width="{1.1 * r:.1f}" '
                       'stroke-linecap="round" fill="none" opacity="0.9"/>')
    for cell, number in sorted(played.numbers.items(), key=lambda item: item[1]):
        x, y = canvas.cell_xy(cell)
        colour = Color(stones[cell])
        fill, ink = (BLACK_STONE, "#ffffff") if colour is Color.BLACK else (WHITE_STONE, "#111111")
        name = escape(board.names[cell])
        if cell in group:
            canvas.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r + 3:.1f}" fill="none" stroke="{WIN_RING}" '
                       'stroke-width="5"/>')
        canvas.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" stroke="#222" stroke-width="1">'
                   f'<title>{number}. {name} ({colour})</title></circle>')
        if cell == last:
            canvas.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r - 2:.1f}" fill="none" stroke="{LAST_RING}" '
                       'stroke-width="1.6"/>')
        if numbered:
            font = r * (0.95 if number < 10 else 0.8 if number < 100 else 0.62)
            canvas.add(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{font:.1f}" fill="{ink}" text-anchor="middle" '
                       f'dominant-baseline="central">{number}</text>')
    return canvas.svg(label or f"final position on {board.spec}")


# --- heat maps ------------------------------------------------------------------------------------------------

DIVERGING = ((0.0, (178, 24, 43)), (0.25, (239, 138, 98)), (0.5, (247, 247, 247)), (0.75, (103, 169, 207)),
             (1.0, (33, 102, 172)))
"""Red (0) - white (0.5) - blue (1), after ColorBrewer RdBu."""
SEQUENTIAL = ((0.0, (255, 247, 236)), (0.5, (252, 141, 89)), (1.0, (127, 0, 0)))
"""Light (0) to dark red (1), after ColorBrewer OrRd."""


def colour_at(value: float, stops: Sequence[tuple[float, tuple[int, int, int]]] = DIVERGING) -> str:
    """Hex colour of a value in 0..1 on a piecewise-linear colour scale."""
    v = min(1.0, max(0.0, float(value)))
    for (p0, c0), (p1, c1) in itertools.pairwise(stops):
        if v <= p1:
            t = 0.0 if p1 == p0 else (v - p0) / (p1 - p0)
            rgb = [round(a + (b - a) * t) for a, b in zip(c0, c1)]
            return "#{:02x}{:02x}{:02x}".format(*rgb)
    return "#{:02x}{:02x}{:02x}".format(*stops[-1][1])


def heatmap_svg(board: Board | str, values: Mapping[int, float], counts: Mapping[int, int] | None = None, *,
                label: str = "", low: str = "0%", high: str = "100%", diverging: bool = True,
                unit: float = UNIT) -> str:
    """Cells coloured by a value in 0..1 (percent and game count written in), a colour legend below."""
    board = parse_board(board) if isinstance(board, str) else board
    layout = board_layout(board.spec)
    stops = DIVERGING if diverging else SEQUENTIAL
    counts = counts or {}
    fills = {cell: colour_at(v, stops) for cell, v in values.items() if v is not None and not math.isnan(v)}
    for cell in counts:
        fills.setdefault(cell, EMPTY_CELL)
    canvas = _Canvas(layout, unit, extra_bottom=1.2)
    _draw_board(canvas, board, fills, names=True)
    r = (HEX_RADIUS if layout.hexagons else layout.radius) * unit
    for cell, value in values.items():
        if value is None or math.isnan(value):
            continue
        x, y = canvas.cell_xy(cell)
        dark = (value < 0.15 or value > 0.85) if diverging else value > 0.55
        ink = "#ffffff" if dark else "#111111"
        count = counts.get(cell)
        title = f"{board.names[cell]}: {100 * value:.0f}%" + (f" of {count}" if count is not None else "")
        canvas.add(f'<g><title>{escape(title)}</title>'
                   f'<text x="{x:.1f}" y="{y - 0.2 * r:.1f}" font-size="{0.7 * r:.1f}" fill="{ink}" '
                   f'text-anchor="middle" dominant-baseline="central">{100 * value:.0f}</text>'
                   + (f'<text x="{x:.1f}" y="{y + 0.48 * r:.1f}" font-size="{0.5 * r:.1f}" fill="{ink}" '
                      f'text-anchor="middle" dominant-baseline="central">n={count}</text>' if count else "")
                   + "</g>")
    _legend(canvas, stops, low, high)
    return canvas.svg(label or f"heat map on {board.spec}")


def _legend(canvas: _Canvas, stops: Sequence[tuple[float, tuple[int, int, int]]], low: str, high: str) -> None:
    width = min(canvas.width * 0.6, 260.0)
    x0 = (canvas.width - width) / 2
    y0 = canvas.height - 0.95 * canvas.unit
    steps = 40
    for k in range(steps):
        canvas.add(f'<rect x="{x0 + k * width / steps:.1f}" y="{y0:.1f}" width="{width / steps + 0.6:.1f}" '
                   f'height="10" fill="{colour_at(k / (steps - 1), stops)}"/>')
    canvas.add(f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{width:.1f}" height="10" fill="none" stroke="#888"/>')
    for x, text, anchor in ((x0, low, "start"), (x0 + width, high, "end")):
        canvas.add(f'<text x="{x:.1f}" y="{y0 + 24:.1f}" font-size="11" fill="#444" text-anchor="{anchor}">'
                   f"{escape(text)}</text>")
