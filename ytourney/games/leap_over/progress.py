"""Leap Over's measure of progress for the draw adjudication: no stone enters or leaves, so progress is a side's
stones advancing, its total distance to its goal triangle reaching a value not seen before."""

from __future__ import annotations

from ytourney.games.api import Color, State
from ytourney.games.leap_over.evaluation import distances

PROGRESS_TEXT = "a side's total distance to its goal at a new value"


def progress_marks(state: State) -> tuple[int, ...]:
    """Black's and White's summed distances to their goals (evaluation.distances: the goal's far apex inside it)."""
    table = distances(state.board)
    black, white = table[Color.BLACK], table[Color.WHITE]
    totals = [0, 0, 0]
    for node, cell in enumerate(state.cells):
        if cell == Color.BLACK:
            totals[Color.BLACK] += black[node]
        elif cell == Color.WHITE:
            totals[Color.WHITE] += white[node]
    return totals[Color.BLACK], totals[Color.WHITE]
