"""Dialects of GTP engines: cell and colour names as the engine knows them, and the pie for engines that cannot decide it."""

from __future__ import annotations

import functools
import math
import random
import re

from ytourney.errors import (
    NotationError,
)
from ytourney.game.board import Board, BoardKind
from ytourney.game.notation import SWAP
from ytourney.game.rules import Color
from ytourney.game.state import GameState
from ytourney.players.gtp.settings import FirstColor, PiePolicy, RowOrder

# --- board dialect: cell names and colour names as the engine knows them ----------------------------------------
#
# Cells travel in the DESIGN notation (`a1`; kadon `E5`). An engine with `rows: flipped` counts rows from the other
# end: its rows run parallel to our side C (x + y = N - 1) and its row 1 is that side; columns keep their letters.
# In coordinates, our (x, y) is the engine's (x, N - 1 - x - y). That map is the mirror of the triangle that swaps
# sides A and C (it fixes the corner at the end of row 1), so every cell has a valid engine name, neighbours stay
# neighbours, the game is the same game, and the map is its own inverse (the round trip is exact).
#
# Colours: with `first_color: white` the engine calls the player who places the first stone "white"; we swap the two
# names on the wire in both directions. Stones keep their colour after a pie swap (DESIGN §1), so a `swap` never
# changes the names either.
#
# Kadon: GTP has no standard way to select the 93-node board, so an engine plays it only when `kadon_boardsize`
# names the argument its `boardsize` command accepts for it (`ytourney gtp` accepts `boardsize kadon`). Cell names
# are then the Boardspace names. Flipped rows apply to tri boards only.

VERTEX = re.compile(r"[a-z]{1,2}[0-9]{1,3}")


def to_engine_cell(board: Board, cell: int, rows: str = RowOrder.NORMAL.value) -> str:
    """The engine's name for a flat cell index under the `rows` dialect."""
    if not 0 <= cell < board.num_cells:
        raise NotationError(f"cell index {cell!r} is outside board {board.spec!r} (0..{board.num_cells - 1})")
    if rows == RowOrder.FLIPPED.value and board.kind is BoardKind.TRI:
        x, y = board.coords[cell]
        return f"{chr(ord('a') + x)}{board.size - x - y}"
    return board.names[cell]


def from_engine_cell(board: Board, token: str, rows: str = RowOrder.NORMAL.value) -> int:
    """Flat cell index of an engine's cell name under the `rows` dialect; NotationError when it names no cell."""
    index = board.index_of(token.strip())
    if index is None:
        raise NotationError(f"{token!r} is not a cell of board {board.spec!r}")
    if rows == RowOrder.FLIPPED.value and board.kind is BoardKind.TRI:
        x, engine_y = board.coords[index]
        return board.index_of(f"{chr(ord('a') + x)}{board.size - x - engine_y}")  # type: ignore[return-value]
    return index


def to_engine_color(color: Color, first_color: str = FirstColor.BLACK.value) -> str:
    """The GTP colour word ('b'/'w') the engine uses for our `color`."""
    if first_color == FirstColor.WHITE.value:
        color = color.other
    return "b" if color is Color.BLACK else "w"


# --- the pie for engines that cannot decide it -------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def side_distances(board: Board) -> tuple[int, ...]:
    """Steps from every cell to the nearest cell on a side (0 on the sides), by breadth-first search."""
    distance = [-1] * board.num_cells
    frontier = [cell for cell, mask in enumerate(board.sides) if mask]
    for cell in frontier:
        distance[cell] = 0
    while frontier:
        following = []
        for cell in frontier:
            for neighbor in board.neighbors[cell]:
                if distance[neighbor] < 0:
                    distance[neighbor] = distance[cell] + 1
                    following.append(neighbor)
        frontier = following
    return tuple(distance)


def decide_pie(policy: str, state: GameState, rng: random.Random) -> bool:
    """The pie answer the tool gives for an engine that cannot swap, given the position after the first stone."""
    if policy == PiePolicy.NEVER.value:
        return False
    if policy == PiePolicy.ALWAYS.value:
        return True
    if policy == PiePolicy.RANDOM.value:
        return rng.random() < 0.5
    first = next(move for move in state.moves if move != SWAP)
    distances = side_distances(state.board)
    return distances[first] >= max(1, math.ceil(max(distances) / 3))


