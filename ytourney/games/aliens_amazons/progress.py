"""Aliens and Amazons' measure of progress for the draw adjudication: a stone placed or captured, and the Amazons
closing in: the empty nodes next to an Alien (their room to move) at a count not seen before."""

from __future__ import annotations

from ytourney.games.aliens_amazons.state import ALIENS_COLOR
from ytourney.games.api import EMPTY, State
from ytourney.games.progress import stone_counts

PROGRESS_TEXT = "a stone placed or captured, or the Aliens' room to move at a new size"


def progress_marks(state: State) -> tuple[int, ...]:
    """Each side's stones on the board, and the empty nodes next to an Alien."""
    cells = state.cells
    neighbors = state.board.neighbors
    room = {other for node, cell in enumerate(cells) if cell == ALIENS_COLOR
            for other in neighbors[node] if cells[other] == EMPTY}
    return (*stone_counts(cells), len(room))
