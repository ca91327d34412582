"""Quinta's kernel: the slide games' kernel with five in a line as the win, tested on the windows of five nodes
through the moved stone (bit masks, about ten a node)."""

from __future__ import annotations

import functools
from typing import Any

from ytourney.boards.board import Board
from ytourney.games.bitboard import mask_of
from ytourney.games.slides import SlideKernel
from ytourney.games.termination import Termination

LINE = Termination.define("line")
RUN = 5
"""Stones in a winning line."""


@functools.lru_cache(maxsize=8)
def segments(board: Board) -> tuple[tuple[int, ...], ...]:
    """Every run of five adjacent nodes along one line (either branch at a fork), each once, nodes sorted."""
    found = {tuple(sorted(line)) for a in range(board.num_cells) for b in board.neighbors[a]
             for line in board.line_from(a, b, RUN - 1) if len(line) == RUN}
    return tuple(sorted(found))


@functools.lru_cache(maxsize=8)
def windows_by_node(board: Board) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
    """For each node, the five-node runs through it as (mask, nodes), in the order of `segments`."""
    table: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(board.num_cells)]
    for seg in segments(board):
        for node in seg:
            table[node].append((mask_of(seg), seg))
    return tuple(tuple(t) for t in table)


@functools.lru_cache(maxsize=8)
def window_masks(board: Board) -> tuple[tuple[int, ...], ...]:
    """For each node, the masks of the five-node runs through it."""
    return tuple(tuple(mask for mask, _ in row) for row in windows_by_node(board))


class QuintaKernel(SlideKernel):
    """A Quinta position: twelve stones a side; five of one colour on a run of five wins."""

    win_termination = LINE

    def setup(self) -> None:
        """The windows of five through each node."""
        self._windows = window_masks(self.board)

    @classmethod
    def core_spec(cls, board: Board, rules: Any) -> tuple[int, tuple[tuple[int, ...], ...], bool]:
        """Quinta (0) and its runs of five, in `segments` order."""
        return 0, segments(board), False

    def won(self, own: int, target: int) -> bool:
        """Five of `own` on a run through `target`."""
        for window in self._windows[target]:
            if own & window == window:
                return True
        return False

    def winning_stones(self) -> tuple[int, ...]:
        """The first run of five (in `segments` order) through the last slide's stone that its colour fills."""
        target = self.last_target()
        if target is None or not self.cells[target]:
            return ()
        own = self.masks[self.cells[target]]
        for window, seg in windows_by_node(self.board)[target]:
            if own & window == window:
                return seg
        return ()
