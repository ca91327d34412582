"""Board diagrams in plain text: any board's nodes row by row, with the stones on them."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ytourney.boards.board import Board, BoardKind

STONE_CHARS = {0: ".", 1: "X", 2: "O"}
"""Node contents to characters: empty, the first colour (Black), the second (White)."""


def board_text(board: Board, stones: Sequence[int], last: Collection[int] = ()) -> str:
    """The position as text: row 1 at the bottom, X for Black and O for White, the last move's nodes in lower case.

    A triangle's column letters go under row 1, its long side. Kadon's cells are named along each row (A1..I1,
    A5..M5), so one letter line would fit row 1 only: every kadon row is followed by the names of its first and last
    cells instead, as GTP `showboard` shows them."""
    rows = _rows(board)
    width = max(len(r) for r in rows)
    label_width = len(str(len(rows)))
    lines = []
    for row_number in range(len(rows), 0, -1):
        cells = rows[row_number - 1]
        indent = " " * (width - len(cells))
        marks = []
        for cell in cells:
            char = STONE_CHARS[stones[cell]]
            marks.append(char.lower() if cell in last and char != "." else char)
        lines.append(f"{row_number:>{label_width}} {indent}{' '.join(marks)}")
    if board.kind is BoardKind.KADON:
        drawn = max(len(line) for line in lines)
        return "\n".join(f"{line:<{drawn}}   {board.names[cells[0]].upper()}-{board.names[cells[-1]].upper()}"
                         for line, cells in zip(lines, reversed(rows)))
    letters = " ".join(chr(ord("a") + i) for i in range(len(rows[0])))
    lines.append(" " * (label_width + 1 + width - len(rows[0])) + letters)
    return "\n".join(lines)


def _rows(board: Board) -> list[list[int]]:
    """Cells grouped by row (row 1 first), each row in column order."""
    rows: dict[int, list[int]] = {}
    for cell, (_, row) in enumerate(board.coords):
        rows.setdefault(row, []).append(cell)
    return [sorted(rows[r], key=lambda c: board.coords[c][0]) for r in sorted(rows)]
