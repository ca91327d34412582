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
# Cells travel in our notation (`a1`; kadon `E5`): row 1 is the long edge, row r holds N + 1 - r cells and
# the top corner is `a<N>`. An engine with `rows: flipped` numbers the rows from the top corner instead, as the
# Fuego-based Y engines do: its row r holds r cells `a<r> ... <r-th letter><r>`, its row 1 is the top cell and its
# row N the long edge. Columns keep their letters, so its (column x, row r) is our (x, N + 1 - r): its `a1` is our
# `a<N>`, its `e5` on tri:5 our `e1`, its `d6` on tri:7 our `d2`. The map only renames rows, so it is its own
# inverse and a name exists in one notation exactly when its image exists in the other.
#
# Colours: with `first_color: white` the engine calls the player who places the first stone "white"; we swap the two
# names on the wire in both directions. Stones keep their colour after a pie swap (the players swap), so a `swap` never
# changes the names either.
#
# Kadon: GTP has no standard way to select the 93-node board, so an engine plays it only when `kadon_boardsize`
# names the argument its `boardsize` command accepts for it (`ytourney gtp` accepts `boardsize kadon`). Cell names
# are then the Boardspace names. Flipped rows apply to tri boards only.

VERTEX = re.compile(r"[a-z]{1,2}[0-9]{1,3}")
_COLUMN_ROW = re.compile(r"([a-z])([1-9][0-9]?)")


def to_engine_cell(board: Board, cell: int, rows: str = RowOrder.NORMAL.value) -> str:
    """The engine's name for a flat cell index under the `rows` dialect."""
    if not 0 <= cell < board.num_cells:
        raise NotationError(f"cell index {cell!r} is outside board {board.spec!r} (0..{board.num_cells - 1})")
    if rows == RowOrder.FLIPPED.value and board.kind is BoardKind.TRI:
        return _renumbered(board, board.names[cell])
    return board.names[cell]


def from_engine_cell(board: Board, token: str, rows: str = RowOrder.NORMAL.value) -> int:
    """Flat cell index of an engine's cell name under the `rows` dialect; NotationError when it names no cell."""
    name = token.strip()
    flipped = rows == RowOrder.FLIPPED.value and board.kind is BoardKind.TRI
    index = board.index_of(_renumbered(board, name) if flipped else name)
    if index is None:
        if board.kind is BoardKind.KADON:
            raise NotationError(f"{token!r} is not a cell of board {board.spec!r}")
        shape = "row 1 the top corner, row r holding r cells" if flipped else "row 1 the long edge"
        raise NotationError(f"{token!r} is not a cell of board {board.spec!r} (rows {RowOrder(rows).value!r}: {shape})")
    return index


def _renumbered(board: Board, name: str) -> str:
    """A tri cell name with its row r renamed N + 1 - r; a name with no row 1..N is returned as it is (no cell)."""
    match = _COLUMN_ROW.fullmatch(name.lower())
    if match is None or not 1 <= int(match.group(2)) <= board.size:
        return name
    return f"{match.group(1)}{board.size + 1 - int(match.group(2))}"


def to_engine_color(color: Color, first_color: str = FirstColor.BLACK.value) -> str:
    """The GTP colour word ('b'/'w') the engine uses for our `color`."""
    if first_color == FirstColor.WHITE.value:
        color = color.other
    return "b" if color is Color.BLACK else "w"


def from_engine_color(word: str, first_color: str = FirstColor.BLACK.value) -> Color:
    """Our colour for a GTP colour word of an engine with the given `first_color` dialect."""
    color = Color.parse(word)
    return color.other if first_color == FirstColor.WHITE.value else color


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


