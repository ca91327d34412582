"""Board diagrams as SVG through each game's views: positions with numbered stones, and per-node heat maps.

The geometry (where each node sits, which nodes are joined) is `ytourney.boards.layout`: hexagonal cells on grid
boards (tri:N, hex:N), circles joined by their lines on the curved kadon board. A position is drawn from the
game's own replay of a record (`ytourney.games.replay`): stones numbered by the move that placed them, the last move
ringed (and, for a step or a jump, arrows along its path), and the game's highlight (Y's winning group) joined by a
gold band.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from ytourney.boards.board import Board, BoardKind, parse_board
from ytourney.boards.layout import BoardLayout, board_layout
from ytourney.games.api import EMPTY, Color, Game, Move, MoveKind, State
from ytourney.games.replay import ReplayError, replay

__all__ = ["BoardLayout", "DIVERGING", "Replayed", "WIN_RING", "board_layout", "colour_at", "heatmap_svg",
           "position_svg", "replay_moves"]

UNIT = 34.0
"""Pixels per unit of layout (the distance between neighbouring tri cells)."""
MARGIN = 1.25
"""Layout units of margin around the board (room for coordinates)."""

BOARD_FILL = "#ecd9b0"
BOARD_LINE = "#9c8157"
BLACK_STONE = "#1b1b1b"
WHITE_STONE = "#fbfbf8"
WIN_RING = "#e0a100"
LAST_RING = "#d03030"
EMPTY_CELL = "#e2e4e8"


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
                names: bool = True, name_filled: bool = False) -> None:
    """Cells (hexagons on tri and hex, nodes and lines on kadon), optional per-cell fills, and coordinates: along
    the sides on tri, in each cell on hex and kadon (in a filled cell too when `name_filled`: a game's marks)."""
    layout = canvas.layout
    fills = fills or {}
    if layout.hexagons:
        for cell in range(board.num_cells):
            fill = fills.get(cell, BOARD_FILL)
            canvas.add(f'<polygon points="{canvas.hexagon(cell, HEX_RADIUS)}" fill="{fill}" stroke="{BOARD_LINE}" '
                       f'stroke-width="1"><title>{escape(board.names[cell])}</title></polygon>')
        if names and board.kind is BoardKind.TRI:
            _tri_coordinates(canvas, board)
        elif names:  # hex cells have no straight sides to letter: each cell carries its name, as kadon's nodes do
            for cell in range(board.num_cells):
                if cell not in fills or name_filled:
                    _cell_name(canvas, board, cell, 0.36 * canvas.unit)
        return
    if layout.outline:
        _outline(canvas, layout.outline)
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
        if names and (cell not in fills or name_filled):
            _cell_name(canvas, board, cell, 0.34 * r * 2)


def _cell_name(canvas: _Canvas, board: Board, cell: int, font: float) -> None:
    """A cell's name written in it, in the board's line colour."""
    x, y = canvas.cell_xy(cell)
    canvas.add(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{font:.1f}" fill="{BOARD_LINE}" text-anchor="middle" '
               f'dominant-baseline="central">{escape(board.names[cell])}</text>')


def _outline(canvas: _Canvas, corners: Sequence[int]) -> None:
    """The board's filled polygon through its corner nodes, pushed outwards from their centre."""
    points = [canvas.cell_xy(cell) for cell in corners]
    pad = 0.55 * canvas.unit
    cx = sum(x for x, _ in points) / len(points)
    cy = sum(y for _, y in points) / len(points)
    outline = []
    for x, y in points:
        dx, dy = x - cx, y - cy
        length = math.hypot(dx, dy)
        outline.append((x + dx / length * pad * 2, y + dy / length * pad * 2))
    canvas.add(f'<polygon points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in outline)}" fill="{BOARD_FILL}" '
               f'stroke="{BOARD_LINE}" stroke-width="1.5" stroke-linejoin="round"/>')


@functools.lru_cache(maxsize=16)
def _empty_board(spec: str, unit: float, marks: tuple[tuple[int, str], ...] = ()) -> tuple[str, ...]:
    """The SVG elements of an empty board with its coordinates and the game's marked cells (cached: every game
    page of a board starts so)."""
    canvas = _Canvas(board_layout(spec), unit)
    _draw_board(canvas, parse_board(spec), dict(marks), name_filled=True)
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
    """A record's moves replayed as far as they go: the state, the move number of each numbered stone (its
    placement, following the stone when it moves), the last move with a path, and the first move that failed."""

    state: State
    numbers: dict[int, int]
    last: Move | None
    failed_at: int | None
    colours: tuple[Color | None, ...] = ()


def replay_moves(game: Game, board: Board, moves: Sequence[str], rules: Any = None, handicap: int = 0) -> Replayed:
    """Replay move tokens as far as they are legal: `numbers` maps node -> the 1-based turn that placed the stone
    standing there (a handicap level's stones share turn 1); `colours` holds the colour of each move replayed (None
    for a swap)."""
    rules = game.parse_rules(None) if rules is None else rules
    numbers: dict[int, int] = {}
    colours: list[Color | None] = []
    last: list[Move] = []

    def visit(number: int, move: Move, colour: Color) -> None:
        kind = move.kind
        colours.append(None if kind is MoveKind.SWAP else colour)
        if kind is MoveKind.PLACE:
            numbers[move.cell] = number - max(0, min(number, handicap) - 1)  # counted by turn, as the move list
        elif kind in (MoveKind.STEP, MoveKind.JUMP):
            placed = numbers.pop(move.source, None)
            if placed is not None:
                numbers[move.target] = placed
        if move.path:
            last[:] = [move]

    failed_at = None
    try:
        state = replay(game, board, rules, handicap, moves, visit)
    except ReplayError as err:
        state, failed_at = err.state, err.number
    cells = state.cells
    if any(cells[node] == EMPTY for node in numbers):  # captured stones lose their numbers
        numbers = {node: n for node, n in numbers.items() if cells[node] != EMPTY}
    return Replayed(state, numbers, last[0] if last else None, failed_at, tuple(colours))


def position_svg(board: Board | str, moves: Sequence[str], *, rules: Any = None, handicap: int = 0,
                 numbered: bool = True, highlight: bool = True, label: str = "", unit: float = UNIT,
                 game: Game) -> str:
    """The position after a move list: stones numbered by the move that placed them, the last move ringed (with
    arrows along its path for a step or a jump), the game's highlight (Y's winning group) joined in gold."""
    board = game.parse_board(board) if isinstance(board, str) else board
    return diagram_svg(game, replay_moves(game, board, moves, rules, handicap), numbered=numbered,
                       highlight=highlight, label=label, unit=unit)


def start_svg(game: Game, board_spec: str | None = None, unit: float = UNIT) -> str:
    """The start position of `game` on its default board (or `board_spec`), for its rules page."""
    board = game.parse_board(board_spec or game.default_board)
    played = replay_moves(game, board, (), game.parse_rules(None))
    return diagram_svg(game, played, numbered=False, highlight=False, unit=unit,
                       label=f"{game.title}: the start position on {board.spec}")


def diagram_svg(game: Game, played: Replayed, *, numbered: bool = True, highlight: bool = True, label: str = "",
                unit: float = UNIT) -> str:
    """The SVG of a replayed position (see `position_svg`)."""
    state = played.state
    board = state.board
    layout = board_layout(board.spec)
    canvas = _Canvas(layout, unit)
    canvas.parts.extend(_empty_board(board.spec, unit, tuple(sorted(game.views.marked_cells(board).items()))))
    group = game.views.highlight(state) if highlight else frozenset()
    last_move = played.last
    last = last_move.target if last_move is not None else None
    r = layout.radius * unit
    stones = state.cells
    if group:  # the highlight: its stones joined by a broad gold band under them, so it stands out at a glance
        band = []
        for a, b in layout.edges:
            if a in group and b in group:
                (x1, y1), (x2, y2) = canvas.cell_xy(a), canvas.cell_xy(b)
                band.append(f"M{x1:.1f} {y1:.1f}L{x2:.1f} {y2:.1f}")
        if band:
            canvas.add(f'<path d="{"".join(band)}" stroke="{WIN_RING}" stroke-width="{1.1 * r:.1f}" '
                       'stroke-linecap="round" fill="none" opacity="0.9"/>')
    numbers = played.numbers
    unnumbered = [cell for cell in range(board.num_cells) if stones[cell] != EMPTY and cell not in numbers]
    order = [(cell, None) for cell in unnumbered]
    order += sorted(numbers.items(), key=lambda item: item[1])
    for cell, number in order:
        x, y = canvas.cell_xy(cell)
        colour = Color(stones[cell])
        fill, ink = (BLACK_STONE, "#ffffff") if colour is Color.BLACK else (WHITE_STONE, "#111111")
        name = escape(board.names[cell])
        if cell in group:
            canvas.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r + 3:.1f}" fill="none" stroke="{WIN_RING}" '
                       'stroke-width="5"/>')
        title = f"{number}. {name} ({colour})" if number is not None else f"{name} ({colour})"
        canvas.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" stroke="#222" stroke-width="1">'
                   f'<title>{title}</title></circle>')
        if cell == last:
            canvas.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r - 2:.1f}" fill="none" stroke="{LAST_RING}" '
                       'stroke-width="1.6"/>')
        if numbered and number is not None:
            font = r * (0.95 if number < 10 else 0.8 if number < 100 else 0.62)
            canvas.add(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{font:.1f}" fill="{ink}" text-anchor="middle" '
                       f'dominant-baseline="central">{number}</text>')
    if last_move is not None and last_move.kind in (MoveKind.STEP, MoveKind.JUMP) and len(last_move.path) > 1:
        _arrows(canvas, board, last_move, r)
    return canvas.svg(label or f"final position on {board.spec}")


def _arrows(canvas: _Canvas, board: Board, move: Move, r: float) -> None:
    """Arrows along the path of a step or a jump chain, from stone edge to stone edge, one per leg."""
    legs = []
    for a, b in itertools.pairwise(move.path):
        (x1, y1), (x2, y2) = canvas.cell_xy(a), canvas.cell_xy(b)
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        sx, sy, ex, ey = x1 + ux * r * 0.6, y1 + uy * r * 0.6, x2 - ux * r * 1.05, y2 - uy * r * 1.05
        head = 0.45 * r
        left = (ex - ux * head - uy * head * 0.6, ey - uy * head + ux * head * 0.6)
        right = (ex - ux * head + uy * head * 0.6, ey - uy * head - ux * head * 0.6)
        legs.append(f'<path class="arrow" d="M{sx:.1f} {sy:.1f}L{ex:.1f} {ey:.1f}" stroke="{LAST_RING}" '
                    f'stroke-width="{max(2.0, 0.18 * r):.1f}" stroke-linecap="round" fill="none"/>'
                    f'<polygon class="arrow-head" points="{ex:.1f},{ey:.1f} {left[0]:.1f},{left[1]:.1f} '
                    f'{right[0]:.1f},{right[1]:.1f}" fill="{LAST_RING}"/>')
    path_names = "-".join(board.names[node] for node in move.path)
    canvas.add(f'<g class="last-move"><title>last move {escape(path_names)}</title>{"".join(legs)}</g>')


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
