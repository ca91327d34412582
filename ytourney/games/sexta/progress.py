"""Sexta's measure of progress for the draw adjudication: no stone ever enters or leaves, so progress is a side's
largest group (stones joined through neighbours, the stuff of a chain of six) reaching a size not seen before."""

from __future__ import annotations

from ytourney.games.api import State
from ytourney.games.progress import largest_groups

PROGRESS_TEXT = "a side's largest group at a new size"


def progress_marks(state: State) -> tuple[int, ...]:
    """Black's and White's largest groups."""
    return largest_groups(state.board, state.cells)
