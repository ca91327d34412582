"""Quinta's measure of progress for the draw adjudication: no stone ever enters or leaves, so progress is a side's
best run of five (the most of its stones on a run holding none of the other's) reaching a count not seen before."""

from __future__ import annotations

from ytourney.games.api import State
from ytourney.games.progress import best_alone
from ytourney.games.quinta.kernel import segments

PROGRESS_TEXT = "a side's best open run of five at a new count"


def progress_marks(state: State) -> tuple[int, ...]:
    """Black's and White's best counts on a run of five the other side does not touch."""
    return best_alone(state.cells, segments(state.board))
