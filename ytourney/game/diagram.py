"""Board diagrams: the position as a triangle of stones in plain text."""

from __future__ import annotations

from ytourney.game.board import Board, BoardKind
from ytourney.game.rules import Color
from ytourney.game.state import EMPTY, GameState

STONE_CHARS = {EMPTY: ".", Color.BLACK: "X", Color.WHITE: "O"}


def board_text(state: GameState, last: int | None = None) -> str:
    """The position as text: apex at the top, row 1 at the bottom, X for Black and O for White."""
    board = state.board
    rows = _rows(board)
    width = max(len(r) for r in rows)
    label_width = len(str(len(rows)))
    stones = state.cells  # one read: on the C core every read builds a new list
    lines = []
    for row_number in range(len(rows), 0, -1):
        cells = rows[row_number - 1]
        indent = " " * (width - len(cells))
        marks = []
        for cell in cells:
            char = STONE_CHARS[stones[cell]]
            marks.append(char.lower() if cell == last and char != "." else char)
        lines.append(f"{row_number:>{label_width}} {indent}{' '.join(marks)}")
    letters = " ".join(chr(ord("a") + i) for i in range(len(rows[0])))
    if board.kind is BoardKind.KADON:
        letters = letters.upper()
    lines.append(" " * (label_width + 1 + width - len(rows[0])) + letters)
    return "\n".join(lines)


def _rows(board: Board) -> list[list[int]]:
    """Cells grouped by row (row 1 first), each row in column order."""
    rows: dict[int, list[int]] = {}
    for cell, (_, row) in enumerate(board.coords):
        rows.setdefault(row, []).append(cell)
    return [sorted(rows[r], key=lambda c: board.coords[c][0]) for r in sorted(rows)]
