"""Tetra's measure of progress for the draw adjudication: a stone placed, or a side's best figure (the most of its
stones on one winning figure holding none of the other's) at a count not seen before."""

from __future__ import annotations

import functools

from ytourney.boards.board import Board
from ytourney.games.api import State
from ytourney.games.progress import best_alone, stone_counts
from ytourney.games.tetra.figures import figures

PROGRESS_TEXT = "a stone placed, or a side's best open figure at a new count"


@functools.lru_cache(maxsize=8)
def _figure_nodes(board: Board, bridge_lines: bool) -> tuple[tuple[int, ...], ...]:
    return tuple(nodes for _, nodes in figures(board, bridge_lines))


def progress_marks(state: State) -> tuple[int, ...]:
    """Each side's stones on the board and its best count on a figure the other side does not touch."""
    cells = state.cells
    return (*stone_counts(cells), *best_alone(cells, _figure_nodes(state.board, state.rules.bridge_lines)))
