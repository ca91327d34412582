"""Y-reduction: an independent second referee for full `tri` boards, one board at a time or many at once.

A full board of size N reduces to one of size N - 1 whose cell (x, y) takes the majority colour of the old cells
(x, y), (x + 1, y) and (x, y + 1) (the "upward" triangle). The last remaining cell holds the colour of the player
who has a Y on the full board. The vectorised forms work on bit planes: one unsigned word per cell holds the
colour of that cell in 8/16/32/64 boards at once (bit set = Black), so a majority is `(a & b) | (c & (a | b))`
over whole words.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from ytourney.board import Board, BoardKind, parse_board
from ytourney.errors import YTourneyError
from ytourney.game import Color

__all__ = [
    "grid_index",
    "reduce_grid_planes",
    "reduce_planes",
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


@functools.lru_cache(maxsize=None)
def grid_index(size: int) -> np.ndarray:
    """Position of every flat tri cell in a size x size grid stored row by row: index y * size + x."""
    return np.array([y * size + x for y in range(size) for x in range(size - y)], dtype=np.intp)


def reduce_grid_planes(grid: np.ndarray, scratch: np.ndarray | None = None) -> np.ndarray:
    """Reduce bit planes laid out as grid[y, x, word] (size x size x W) in place; returns the (W,) top plane.

    Bit set = Black. Only cells with x + y < size are read. `scratch`, if given, is a buffer of at least
    2 * (size - 1)**2 * W words of the grid's dtype (it saves the allocation when called in a loop).
    """
    size = grid.shape[0]
    if grid.ndim != 3 or grid.shape[1] != size:
        raise YTourneyError(f"grid planes must have shape (size, size, words), got {grid.shape}")
    words = grid.shape[2]
    side = size - 1
    if scratch is None:
        scratch = np.empty(2 * side * side * words, dtype=grid.dtype)
    half = side * side * words
    for m in range(size, 1, -1):
        # Rows y >= half-way only need x < m - 1 - y, so split the square into a wide and a narrow band to skip
        # most of the cells beyond the triangle.
        low = (m - 1 + 1) // 2
        for y0, y1, width in ((0, low, m - 1), (low, m - 1, m - 1 - low)):
            if y1 <= y0 or width <= 0:
                continue
            shape = (y1 - y0, width, words)
            count = shape[0] * width * words
            t1 = scratch[:count].reshape(shape)
            t2 = scratch[half : half + count].reshape(shape)
            a = grid[y0:y1, :width]
            b = grid[y0:y1, 1 : width + 1]
            c = grid[y0 + 1 : y1 + 1, :width]
            np.bitwise_and(a, b, out=t1)
            np.bitwise_or(a, b, out=t2)
            np.bitwise_and(t2, c, out=t2)
            np.bitwise_or(t1, t2, out=a)
    return grid[0, 0]


def reduce_planes(board: Board | str, planes: np.ndarray) -> np.ndarray:
    """Y owner of many full tri boards in bit-plane form: planes (cells, W) in flat cell order -> (W,) plane.

    Bit j of word w in row `cell` is 1 when that cell is Black in board (w, j); the result has bit j of word w
    set when Black holds the Y on that board.
    """
    board = _tri_board(board)
    planes = np.asarray(planes)
    if planes.ndim != 2 or planes.shape[0] != board.num_cells or planes.dtype.kind != "u":
        raise YTourneyError(
            f"planes must be an unsigned integer array of shape ({board.num_cells}, words), "
            f"got {planes.dtype} {planes.shape}"
        )
    size = board.size
    words = planes.shape[1]
    grid = np.zeros((size * size, words), dtype=planes.dtype)
    grid[grid_index(size)] = planes
    return reduce_grid_planes(grid.reshape(size, size, words)).copy()


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
