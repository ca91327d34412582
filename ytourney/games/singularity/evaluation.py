"""Singularity's evaluation: the moves each side still needs, as a win chance.

Random play needs hundreds of plies to finish a game of Singularity, so random playouts say almost nothing. A leaf
is scored instead by a race count: each own stone costs the slides it needs at the least to reach the central
triangle (a slide goes up to 3 nodes, so its distance in nodes divided by 3, rounded up) and at least 1 (every stone
but the last leaves by a fusion, a slide of its own), a little less on a central node; the margin, in moves, squashed
into a win probability. An earlier weighting (3 points a stone, 0.35 a node of distance) rated fusions far above the
slides far stones still need: `mcts` led by its own count, fused the near stones first and lost the race to the far
ones. The per-node costs are summed over a stone mask a chunk of bits at a time, from tables built once per board.
"""

from __future__ import annotations

import functools

from ytourney.boards.board import Board
from ytourney.boards.regions import region
from ytourney.games.stones import bfs_distances

SLIDE_REACH = 3
"""Nodes one slide covers at most: a stone `d` nodes from the triangle needs ceil(d / 3) slides to enter it."""
CENTRAL_BONUS = 0.2
"""Moves a stone on a central node (F6, G6, F7) is worth beside the others: the last stone must end on one."""
TEMPERATURE = 1.5
"""Moves of margin that make a win chance of 1 / (1 + e^-1), about 73%: a race a move or two ahead is won."""
CHUNK = 12
"""Bits of a stone mask one table lookup sums."""
CHUNK_MASK = (1 << CHUNK) - 1


@functools.cache
def distances(board: Board) -> tuple[int, ...]:
    """Graph distance of every node to the central triangle (0 inside it)."""
    return tuple(bfs_distances(board, region(board, "central-triangle")))


@functools.cache
def node_costs(board: Board) -> tuple[float, ...]:
    """What each node's stone costs its owner in moves: the slides it needs to reach the triangle, at least 1, less
    a central bonus."""
    dist = distances(board)
    central = set(region(board, "central-nodes"))
    return tuple(max(1, -(-dist[node] // SLIDE_REACH)) - CENTRAL_BONUS * (node in central)
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

