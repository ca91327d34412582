"""Singularity's search knowledge: a cheap evaluation that scores a leaf of the generic `mcts` at once.

Random play needs hundreds of plies to finish a game of Singularity, so random playouts say almost nothing. A leaf
is scored instead by fewer own stones (fusions made) and stones closer to the central triangle, squashed into a
win probability (see `SingularityState.rollout`).
"""

from __future__ import annotations

import functools

from ytourney.boards.board import Board
from ytourney.boards.regions import region
from ytourney.games.api import Color, State
from ytourney.games.stones import bfs_distances, outcome_value, squash

STONE_WEIGHT = 3.0
DISTANCE_WEIGHT = 0.35
CENTRAL_BONUS = 0.5
TEMPERATURE = 3.0


@functools.cache
def distances(board: Board) -> tuple[int, ...]:
    """Graph distance of every node to the central triangle (0 inside it)."""
    return tuple(bfs_distances(board, region(board, "central-triangle")))


def evaluate(state: State, colour: Color) -> float:
    """The chance `colour` wins, guessed from stone counts and distances to the central triangle."""
    if state.outcome is not None:
        return outcome_value(state.outcome, colour)
    dist = distances(state.board)
    central = state.geo.central  # type: ignore[attr-defined]
    score = [0.0, 0.0, 0.0]
    for node, stone in enumerate(state.cells):
        if stone:
            score[stone] -= STONE_WEIGHT + DISTANCE_WEIGHT * dist[node] - CENTRAL_BONUS * central[node]
    return squash(score[colour] - score[colour.other], TEMPERATURE)
