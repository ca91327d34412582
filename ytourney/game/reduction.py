"""Y-reduction: an independent second referee for full `tri` boards, one board at a time or many at once.

A full board of size N reduces to one of size N - 1 whose cell (x, y) takes the majority colour of the old cells
(x, y), (x + 1, y) and (x, y + 1) (the "upward" triangle). The last remaining cell holds the colour of the player
who has a Y on the full board. The vectorised forms work on bit planes: one unsigned word per cell holds the
colour of that cell in 8/16/32/64 boards at once (bit set = Black), so a majority is `(a & b) | (c & (a | b))`
over whole words; each row of the triangle is one Python int of all its cells' words, so a reduction level is
a few big-integer operations per row.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ytourney.errors import YTourneyError
from ytourney.game.board import Board, BoardKind, parse_board
from ytourney.game.rules import Color

__all__ = [
    "reduce_planes",
    "reduce_rows",
    "reduce_winner",
    "reduce_winners",
]


def _tri_board(board: Board | str) -> Board:
    if isinstance(board, str):
        board = parse_board(board)
    if board.kind is not BoardKind.TRI:
        raise YTourneyError(f"Y-reduction needs a 'tri:N' board, got {board.spec!r}")
    return board


def reduce_winner(board: Board | str, cells: Sequence[int]) -> Color:
    """Colour holding the Y on a full tri board (cells 1 = Black, 2 = White), found by repeated majority."""
    board = _tri_board(board)
    if len(cells) != board.num_cells:
        raise YTourneyError(f"expected {board.num_cells} cells for {board.spec!r}, got {len(cells)}")
    size = board.size
    rows: list[list[bool]] = []
    start = 0
    for y in range(size):
        row = cells[start : start + size - y]
        if any(c != 1 and c != 2 for c in row):
            raise YTourneyError(f"Y-reduction needs a full board of 1 (black) / 2 (white) cells, got row {y}: {row!r}")
        rows.append([c == 1 for c in row])
        start += size - y
    while len(rows) > 1:
        rows = [
            [
                (a and (b or c)) or (b and c)
                for a, b, c in zip(rows[y][:-1], rows[y][1:], rows[y + 1])
            ]
            for y in range(len(rows) - 1)
        ]
    return Color.BLACK if rows[0][0] else Color.WHITE


def reduce_rows(size: int, rows: list[int], width: int) -> int:
    """Reduce a full tri board held as one Python int per row: row y packs its cells x = 0..size-1-y, each a
    `width`-bit lane mask (bit set = Black), cell x at bits [x * width, (x + 1) * width). Returns the top
    cell's `width`-bit mask: the boards in which Black holds the Y."""
    for m in range(size, 1, -1):
        # new (x, y) = majority(old (x, y), old (x + 1, y), old (x, y + 1)); cells past a row's end are ignored
        new = []
        for y in range(m - 1):
            a = rows[y]
            b = a >> width
            c = rows[y + 1]
            new.append((a & b) | (c & (a | b)))
        rows = new
    return rows[0] & ((1 << width) - 1)


def reduce_planes(board: Board | str, planes: np.ndarray) -> np.ndarray:
    """Y owner of many full tri boards in bit-plane form: planes (cells, W) in flat cell order -> (W,) plane.

    Bit j of word w in row `cell` is 1 when that cell is Black in board (w, j); the result has bit j of word w
    set when Black holds the Y on that board. Any unsigned integer dtype.
    """
    board = _tri_board(board)
    planes = np.asarray(planes)
    if planes.ndim != 2 or planes.shape[0] != board.num_cells or planes.dtype.kind != "u":
        raise YTourneyError(
            f"planes must be an unsigned integer array of shape ({board.num_cells}, words), "
            f"got {planes.dtype} {planes.shape}"
        )
    dtype = planes.dtype
    little = dtype.newbyteorder("<")
    step = planes.shape[1] * dtype.itemsize  # bytes per cell
    data = np.ascontiguousarray(planes, dtype=little).tobytes()
    size = board.size
    top = reduce_rows(size, row_ints(size, data, step), 8 * step)
    return np.frombuffer(top.to_bytes(step, "little"), dtype=little).astype(dtype)


def reduce_winners(board: Board | str, boards: np.ndarray) -> np.ndarray:
    """Y owner (1 Black / 2 White, as uint8) of each full tri board in `boards`, shape (n, cells) of 1/2."""
    board = _tri_board(board)
    boards = np.asarray(boards)
    if boards.ndim != 2 or boards.shape[1] != board.num_cells:
        raise YTourneyError(f"boards must have shape (n, {board.num_cells}), got {boards.shape}")
    if boards.size and not np.isin(boards, (1, 2)).all():
        raise YTourneyError("Y-reduction needs full boards of 1 (black) / 2 (white) cells")
    n = boards.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.uint8)
    packed = np.packbits((boards == 1).T, axis=1, bitorder="little")  # (cells, ceil(n / 8)) bytes
    pad = (-packed.shape[1]) % 8
    if pad:
        packed = np.pad(packed, ((0, 0), (0, pad)))
    planes = np.ascontiguousarray(packed).view("<u8")
    top = reduce_planes(board, planes)
    black = np.unpackbits(top.view(np.uint8), bitorder="little")[:n]
    return (2 - black).astype(np.uint8)


def row_ints(size: int, data: bytes, step: int) -> list[int]:
    """One little-endian Python int per row of tri:size from packed planes of `step` bytes per cell."""
    rows = []
    start = 0
    for y in range(size):
        stop = start + (size - y) * step
        rows.append(int.from_bytes(data[start:stop], "little"))
        start = stop
    return rows
