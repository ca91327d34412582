"""The playout kernel the bots run: random completions of many positions at once, and who wins each.

Why a random fill is a random playout: in Y the first player to connect is the player holding the Y on the full
board (a Y never goes away and a full board has exactly one), so the winner of random play to the end depends only
on which empty cells each colour ends up with. Uniform random play fills the empty cells in a uniformly random
order, so the cells a colour gets are a uniformly random subset of the exact size alternating play gives it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ytourney.errors import YTourneyError
from ytourney.boards.board import SIDE_A, SIDE_B, SIDE_C, Board, BoardKind
from ytourney.games.api import Color
from ytourney.games.y.state import EMPTY, GameState


class RandomFill:
    """Completes positions at random many times at once and tells who wins each completion.

    Built for many small batches (a few playouts for each of a few leaves per call): one sort draws every fill
    with the exact stone counts alternating play gives, and the Y owner of 64 boards is one 64-bit word through
    Y-reduction (tri boards) or a bit-parallel flood fill from the three sides (kadon).
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.num_cells = board.num_cells
        self.is_tri = board.kind is BoardKind.TRI
        if self.is_tri:
            self.ys = np.array([y for _, y in board.coords], dtype=np.intp)
            self.xs = np.array([x for x, _ in board.coords], dtype=np.intp)
        else:
            nbr = board.neighbor_array.copy()
            nbr[nbr < 0] = board.num_cells
            self.neighbor_columns = [np.ascontiguousarray(nbr[:, k]) for k in range(nbr.shape[1])]
            self.side_rows = np.array(
                [[bool(m & side) for m in board.sides] for side in (SIDE_A, SIDE_B, SIDE_C)], dtype=bool
            )

    def play(
        self, states: Sequence[GameState], count: int, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray]:
        """Complete each of L positions `count` times: winners (L, count) and filled boards (L, count, cells).

        Playouts alternate from each state's side to move, which first places the stones left of its turn
        (handicap turns), so each colour receives exactly the number of empty cells alternating play gives it.
        The winner holds the Y, or under misère is the other colour.
        """
        wrong = [state.board.spec for state in states if state.board != self.board]
        if wrong:
            raise YTourneyError(f"positions on board {wrong[0]!r} given to a playout kernel for {self.board.spec!r}")
        cells = np.array([state.cells for state in states], dtype=np.int8)
        to_move = np.array([int(state.to_move) for state in states])
        stones_left = np.array([state.stones_left_this_turn for state in states])
        leaves, n = cells.shape
        empty = cells == EMPTY
        num_empty = empty.sum(axis=1)
        mover_stones = np.minimum(num_empty, stones_left) + np.maximum(0, num_empty - stones_left) // 2
        keys = rng.random((leaves, count, n))
        keys = np.where(empty[:, None, :], keys, 2.0)
        ordered = np.sort(keys, axis=2)
        pick = np.maximum(mover_stones - 1, 0)
        threshold = ordered[np.arange(leaves), :, pick]  # (leaves, count)
        threshold[mover_stones == 0] = -1.0
        mover_cells = keys <= threshold[:, :, None]
        mover = to_move.astype(np.int8)[:, None, None]
        boards = np.where(mover_cells, mover, np.where(empty[:, None, :], 3 - mover, cells[:, None, :]))
        black = (boards == Color.BLACK).reshape(leaves * count, n)
        holders = np.where(self.black_holds_y(black), Color.BLACK, Color.WHITE).astype(np.int8)
        holders = holders.reshape(leaves, count)
        misere = np.array([state.rules.misere for state in states])[:, None]
        return np.where(misere, 3 - holders, holders).astype(np.int8), boards

    def black_holds_y(self, black: np.ndarray) -> np.ndarray:
        """For full boards given as a (boards, cells) bool array of Black stones: does Black hold a Y?"""
        words = _pack(black)
        held = self._reduce(words) if self.is_tri else self._propagate(words)
        return _unpack(held, len(black))

    def _reduce(self, words: np.ndarray) -> np.ndarray:
        """Y-reduction: each cell of a board one smaller takes the majority of a triangle of three cells."""
        n = self.board.size
        grid = np.zeros((n, n, words.shape[1]), dtype=np.uint64)
        grid[self.ys, self.xs] = words
        for k in range(n - 1, 0, -1):
            a = grid[:k, :k]
            b = grid[:k, 1 : k + 1]
            c = grid[1 : k + 1, :k]
            grid = (a & b) | (c & (a | b))
        return grid[0, 0]

    def _propagate(self, words: np.ndarray) -> np.ndarray:
        """Grow, through Black stones, the cells reached from each side until nothing changes (Jacobi steps)."""
        n = self.num_cells
        width = words.shape[1]
        stones = np.tile(words, (1, 3))  # (cells, 3 * words): one block of words per side
        reach = np.zeros((n + 1, 3 * width), dtype=np.uint64)  # the last row stands for missing neighbours
        reach[:n] = np.where(np.repeat(self.side_rows.T, width, axis=1), stones, np.uint64(0))
        columns = self.neighbor_columns
        while True:
            grown = reach[columns[0]]
            for column in columns[1:]:
                grown |= reach[column]
            grown &= stones
            grown |= reach[:n]
            if np.array_equal(grown, reach[:n]):
                break
            reach[:n] = grown
        reached = reach[:n]
        return np.bitwise_or.reduce(
            reached[:, :width] & reached[:, width : 2 * width] & reached[:, 2 * width :], axis=0
        )


def _pack(bits: np.ndarray) -> np.ndarray:
    """(boards, cells) bools -> (cells, words) uint64 with board b in bit b % 64 of word b // 64."""
    count, cells = bits.shape
    packed = np.packbits(bits, axis=0, bitorder="little")
    rows = -(-count // 64) * 8
    if packed.shape[0] < rows:
        packed = np.concatenate([packed, np.zeros((rows - packed.shape[0], cells), dtype=np.uint8)])
    return np.ascontiguousarray(packed.T).view(np.uint64)


def _unpack(words: np.ndarray, count: int) -> np.ndarray:
    """uint64 words -> the first `count` bits as bools."""
    return np.unpackbits(np.ascontiguousarray(words).view(np.uint8), bitorder="little")[:count].astype(bool)
