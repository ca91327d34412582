"""Singularity's evaluation: fewer own stones (fusions made) and stones nearer the central triangle, as a win chance.

Random play needs hundreds of plies to finish a game of Singularity, so random playouts say almost nothing. A leaf
is scored instead by 3 points per own stone, 0.35 per node of each stone's distance to the central triangle and a
bonus for a stone on a central node, the margin squashed into a win probability. The per-node weights are summed
over a stone mask a chunk of bits at a time, from tables built once per board.
"""

from __future__ import annotations

import functools

from ytourney.boards.board import Board
from ytourney.boards.regions import region
from ytourney.games.stones import bfs_distances

STONE_WEIGHT = 3.0
DISTANCE_WEIGHT = 0.35
CENTRAL_BONUS = 0.5
TEMPERATURE = 3.0
CHUNK = 12
"""Bits of a stone mask one table lookup sums."""
CHUNK_MASK = (1 << CHUNK) - 1


@functools.cache
def distances(board: Board) -> tuple[int, ...]:
    """Graph distance of every node to the central triangle (0 inside it)."""
    return tuple(bfs_distances(board, region(board, "central-triangle")))


@functools.cache
def node_costs(board: Board) -> tuple[float, ...]:
    """What each node's stone costs its owner: the stone, its distance to the triangle, less a central bonus."""
    dist = distances(board)
    central = set(region(board, "central-nodes"))
    return tuple(STONE_WEIGHT + DISTANCE_WEIGHT * dist[node] - CENTRAL_BONUS * (node in central)
                 for node in range(board.num_cells))


@functools.cache
def cost_tables(board: Board) -> tuple[tuple[float, ...], ...]:
    """For each CHUNK-bit slice of a mask, the summed node costs of every pattern of that slice."""
    costs = node_costs(board)
    result = []
    for low in range(0, board.num_cells, CHUNK):
        width = min(CHUNK, board.num_cells - low)
        table = [0.0] * (1 << width)
        for pattern in range(1, 1 << width):
            top = pattern.bit_length() - 1
            table[pattern] = table[pattern ^ (1 << top)] + costs[low + top]
        result.append(tuple(table))
    return tuple(result)

