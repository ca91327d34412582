"""Leap Over's search knowledge: a cheap evaluation that scores a leaf of the generic `mcts` at once.

Random play never finishes a game of Leap Over (it wanders until the move limit), so random playouts say nothing.
A leaf is scored instead by how far each side's stones still are from the far apex of the triangle they must fill,
squashed into a win probability (see `LeapOverKnowledge.evaluate`).
"""

from __future__ import annotations

import functools

from ytourney.boards.board import Board
from ytourney.boards.regions import region
from ytourney.games.api import Color
from ytourney.games.stones import bfs_distances, squash

TEMPERATURE = 4.0
HOME_PENALTY = 1.0
OUTSIDE = 4
STRANDED_WEIGHT = 3.0
LAST_WEIGHT = 2.0
TOGETHER_WEIGHT = 3.0
"""The search's evaluation (not the one-ply race): what each node between a side's last stone outside its goal and
its nearest own stone costs. A last stone with no own stone near is left behind: only other stones coming back for
it (to leap over) bring it home, so the search is drawn to send them before the opponent's stones bury it."""


@functools.cache
def distances(board: Board) -> dict[Color, tuple[int, ...]]:
    """For each colour, what every node still costs a stone of it: inside its goal the distance to the goal's far
    apex (0 to 3, so stones pack from the back), outside it OUTSIDE plus the distance to the goal."""
    goals = {Color.BLACK: region(board, "side-triangle-3"), Color.WHITE: region(board, "side-triangle-2")}
    table = {}
    for colour, goal in goals.items():
        apex = bfs_distances(board, goal[:1])
        outside = bfs_distances(board, goal)
        table[colour] = tuple(apex[node] if node in goal else OUTSIDE + outside[node]
                              for node in range(board.num_cells))
    return table


@functools.cache
def pair_distances(board: Board) -> tuple[tuple[int, ...], ...]:
    """Graph distance between every two nodes."""
    return tuple(tuple(bfs_distances(board, (node,))) for node in range(board.num_cells))


@functools.cache
def homes(board: Board) -> dict[Color, frozenset[int]]:
    """Each colour's start triangle."""
    return {Color.BLACK: frozenset(region(board, "side-triangle-2")),
            Color.WHITE: frozenset(region(board, "side-triangle-3"))}


@functools.cache
def _tables(board: Board) -> tuple[tuple, ...]:
    """`distances` and `homes` indexed by colour value (0 unused), `pair_distances`, every node's neighbours as a
    mask and its rings (the nodes at distance 1, 2, ... as masks), for `black_value`."""
    dist, home = distances(board), homes(board)
    near = tuple(sum(1 << nb for nb in board.neighbors[node]) for node in range(board.num_cells))
    far = pair_distances(board)
    rings = tuple(tuple(sum(1 << other for other, d in enumerate(row) if d == ring) for ring in range(1, max(row) + 1))
                  for row in far)
    return (((), dist[Color.BLACK], dist[Color.WHITE]), ((), home[Color.BLACK], home[Color.WHITE]), far, near, rings)


def black_value(board: Board, cells: list[int], occupied: int, together: bool = True) -> float:
    """The chance Black wins, guessed from how far each side still has to go: the sum of its stones' distances, its
    last stone's distance (the race ends when the last one arrives), stones outside the goal with no stone next to
    them (they cannot leap until one comes by: the farther the nearest stone, the worse) and stones still at home;
    with `together` (the search's value) also its last stone's distance to its nearest own stone (TOGETHER_WEIGHT).
    `occupied` is the mask of every stone."""
    cost, home, far, near, rings = _tables(board)
    stones = [node for node, stone in enumerate(cells) if stone]
    left = [0.0, 0.0, 0.0]
    last = [0, 0, 0]
    last_node = [-1, -1, -1]
    for node in stones:
        stone = cells[node]
        d = cost[stone][node]
        left[stone] += d + HOME_PENALTY * (node in home[stone])
        if node not in home[3 - stone]:
            if d > last[stone]:
                last[stone] = d
                last_node[stone] = node
            if not occupied & near[node]:
                for apart, ring in enumerate(rings[node], 1):  # the nearest other stone, ring by ring
                    if ring & occupied:
                        break
                else:
                    row = far[node]
                    apart = min(row[other] for other in stones if other != node)
                left[stone] += STRANDED_WEIGHT * (apart - 1)
    for side in (1, 2):
        left[side] += LAST_WEIGHT * last[side]
        node = last_node[side]
        if together and node >= 0:
            others = [other for other in stones if cells[other] == side and other != node]
            if others:
                left[side] += TOGETHER_WEIGHT * (min(far[node][other] for other in others) - 1)
    return squash(left[2] - left[1], TEMPERATURE)
