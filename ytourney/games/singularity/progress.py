"""Singularity's measure of progress for the draw adjudication: a fusion (a capture), or a side's stones in the
central triangle, where fusions happen, at a count not seen before."""

from __future__ import annotations

import functools

from ytourney.boards.board import Board
from ytourney.boards.regions import region
from ytourney.games.api import State
from ytourney.games.progress import BLACK, WHITE, stone_counts

PROGRESS_TEXT = "a fusion, or a side's stones in the central triangle at a new count"


@functools.cache
def _central(board: Board) -> tuple[int, ...]:
    return region(board, "central-triangle")


def progress_marks(state: State) -> tuple[int, ...]:
    """Each side's stones on the board and in the central triangle."""
    cells = state.cells
    central = [cells[node] for node in _central(state.board)]
    return (*stone_counts(cells), central.count(BLACK), central.count(WHITE))
