"""A second referee for the tests: Y-reduction of full tri boards, one board in plain lists or many in big ints.

A full board of size N reduces to one of size N - 1 whose cell (x, y) takes the majority colour of the old cells
(x, y), (x + 1, y) and (x, y + 1); the last remaining cell holds the colour of the player with the Y. Written
apart from the playout kernel's numpy reduction, so the two check each other.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ytourney.boards.board import Board, BoardKind


def reduce_winner(board: Board, cells: Sequence[int]) -> int:
    """Colour (1 Black, 2 White) holding the Y on a full tri board, by repeated majority over lists of bools."""
    assert board.kind is BoardKind.TRI and len(cells) == board.num_cells
    assert all(c in (1, 2) for c in cells), "Y-reduction needs a full board"
    rows: list[list[bool]] = []
    start = 0
    for y in range(board.size):
        rows.append([c == 1 for c in cells[start : start + board.size - y]])
        start += board.size - y
    while len(rows) > 1:
        rows = [
            [(a and (b or c)) or (b and c) for a, b, c in zip(rows[y][:-1], rows[y][1:], rows[y + 1])]
            for y in range(len(rows) - 1)
        ]
    return 1 if rows[0][0] else 2


def reduce_winners(board: Board, boards: np.ndarray) -> np.ndarray:
    """Colour holding the Y on each full tri board of `boards` (n, cells), all boards at once in Python ints.

    Each row of the triangle is one int: cell x of the row owns bits [x * n, (x + 1) * n), bit j set when the
    cell is Black on board j, so one majority step is a few big-integer operations per row.
    """
    assert board.kind is BoardKind.TRI and boards.shape[1] == board.num_cells
    count = len(boards)
    lanes = [int("".join("1" if b else "0" for b in reversed(column)) or "0", 2) for column in (boards == 1).T]
    rows = []
    start = 0
    for y in range(board.size):
        row = 0
        for x, lane in enumerate(lanes[start : start + board.size - y]):
            row |= lane << (x * count)
        rows.append(row)
        start += board.size - y
    while len(rows) > 1:
        rows = [(a & (a >> count)) | (c & (a | (a >> count))) for a, c in zip(rows[:-1], rows[1:])]
    top = rows[0] & ((1 << count) - 1)
    return np.array([1 if top >> j & 1 else 2 for j in range(count)], dtype=np.int8)
