"""Pictures of a solitaire position: the terminal diagram and a small SVG of the start and the end."""

from __future__ import annotations

from collections.abc import Collection
from xml.sax.saxutils import escape

from ytourney.boards.board import Board
from ytourney.boards.layout import board_layout
from ytourney.boards.text import board_text


def diagram(board: Board, stones: Collection[int], marks: Collection[int] = ()) -> str:
    """The position as text (X for a stone); `marks` (the goal nodes) show as lower-case x when filled."""
    return board_text(board, [1 if c in stones else 0 for c in range(board.num_cells)], last=marks)


SOLVE_MARK = 'data-ytourney="solve"'
"""What the root element of every SVG `ytourney solve --svg` writes carries: an existing file without it is not one
to replace unless --force."""


def svg(board: Board, panels: list[tuple[str, Collection[int]]], goal: Collection[int] = ()) -> str:
    """One SVG with a titled panel per position side by side; goal nodes are ringed."""
    layout = board_layout(board.spec)
    x0, y0, x1, y1 = layout.bounds()
    pad = 2 * layout.spacing
    width, height = x1 - x0 + 2 * pad, y1 - y0 + 2 * pad
    radius = layout.radius
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" {SOLVE_MARK} viewBox="0 0 {width * len(panels):.1f} {height:.1f}" '
             f'width="{360 * len(panels)}" height="{360 * height / width:.0f}">']
    for i, (title, stones) in enumerate(panels):
        dx, dy = i * width + pad - x0, pad - y0
        parts.append(f'<g transform="translate({dx:.2f},{dy:.2f})">')
        parts.append(f'<text x="{x0:.1f}" y="{y0 - pad / 2:.1f}" font-size="{layout.spacing * 0.8:.2f}" '
                     f'font-family="sans-serif">{escape(title)}</text>')
        for a, b in layout.edges:
            (ax, ay), (bx, by) = layout.points[a], layout.points[b]
            parts.append(f'<line x1="{ax:.2f}" y1="{ay:.2f}" x2="{bx:.2f}" y2="{by:.2f}" stroke="#aaa" '
                         f'stroke-width="{radius * 0.12:.3f}"/>')
        for cell in range(board.num_cells):
            x, y = layout.points[cell]
            fill = "#111" if cell in stones else "#fff"
            stroke = "#c33" if cell in goal else "#888"
            parts.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{radius * (0.8 if cell in stones else 0.45):.2f}" '
                         f'fill="{fill}" stroke="{stroke}" stroke-width="{radius * 0.2:.3f}">'
                         f'<title>{board.names[cell]}</title></circle>')
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
