"""Dialects of GTP engines: moves, cells and colours as the engine names them, and the pie for engines that cannot
decide it. Moves travel in their game's notation (`game.format_move`/`game.parse_move`); dialects rename within it."""

from __future__ import annotations

import functools
import math
import random
import re

from collections.abc import Sequence

from ytourney.boards.board import Board, BoardKind
from ytourney.errors import NotationError, YTourneyError
from ytourney.games.api import Color, Game, Move, MoveKind, State, Termination
from ytourney.players.gtp.settings import FirstColor, GtpSettings, PiePolicy, RowOrder, SwapStyle

# --- board dialect: cell names and colour names as the engine knows them ----------------------------------------
#
# Cells travel in our notation (`a1`; kadon `E5`): row 1 is the long edge, row r holds N + 1 - r cells and
# the top corner is `a<N>`. An engine with `rows: flipped` numbers the rows from the top corner instead, as the
# Fuego-based Y engines do: its row r holds r cells `a<r> ... <r-th letter><r>`, its row 1 is the top cell and its
# row N the long edge. Columns keep their letters, so its (column x, row r) is our (x, N + 1 - r): its `a1` is our
# `a<N>`, its `e5` on tri:5 our `e1`, its `d6` on tri:7 our `d2`. The map only renames rows, so it is its own
# inverse and a name exists in one notation exactly when its image exists in the other.
#
# Moves of any game are written in the game's notation; on a tri board with `rows: flipped` every cell name inside a
# move (`a1`, `b2-c3`) is renamed the same way, so the engine's text parses in the game's notation once renamed.
#
# Colours: with `first_color: white` the engine calls the player who places the first stone "white"; we swap the two
# names on the wire in both directions. Under `swap_style: exchange` (the rulebooks') stones keep their colour after a pie
# swap and the players exchange theirs, so a `swap` never changes the names. Under `swap_style: recolor` (HexGUI's
# convention) the first stone changes colour and the players keep theirs: the engine's board is ours with every
# colour renamed, so from the swap on the names are exchanged once more.
#
# Kadon: GTP has no standard way to select the 93-node board, so an engine plays it only when `kadon_boardsize`
# names the argument its `boardsize` command accepts for it (`ytourney gtp` accepts `boardsize kadon`). Cell names
# are then the Boardspace names. Flipped rows apply to tri boards only.

VERTEX = re.compile(r"[a-z]{1,2}[0-9]{1,3}")
MOVE_TOKEN = re.compile(r"[a-z]{1,2}[0-9]{1,3}([-x][a-z]{1,2}[0-9]{1,3})*")
"""What an answer naming a move looks like in every game's notation: nodes joined by '-' (and 'x' for a capture)."""
_VERTEX_IN_TEXT = re.compile(r"[a-z][0-9]{1,3}", re.IGNORECASE)
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


def to_engine_move(game: Game, board: Board, move: Move, rows: str = RowOrder.NORMAL.value) -> str:
    """The engine's text for `move`: the game's notation, its cell names renamed under the `rows` dialect."""
    if move.kind is MoveKind.PLACE and len(move.path) == 1:
        return to_engine_cell(board, move.cell, rows) if _flipped(board, rows) else game.format_move(board, move)
    text = game.format_move(board, move)
    if not _flipped(board, rows):
        return text
    return _VERTEX_IN_TEXT.sub(lambda match: _renumbered(board, match.group(0)), text)


def from_engine_move(game: Game, board: Board, token: str, rows: str = RowOrder.NORMAL.value) -> Move:
    """Our Move for the engine's text of one, under the `rows` dialect; NotationError when it names none."""
    text = token.strip()
    if _flipped(board, rows):
        text = _VERTEX_IN_TEXT.sub(lambda match: _renumbered(board, match.group(0)), text)
    try:
        return game.parse_move(board, text)
    except NotationError:
        if VERTEX.fullmatch(token.strip().lower()):
            from_engine_cell(board, token, rows)  # a name with no cell: say so in the dialect's words
        raise


def _flipped(board: Board, rows: str) -> bool:
    return rows == RowOrder.FLIPPED.value and board.kind is BoardKind.TRI


@functools.lru_cache(maxsize=64)
def places_cells(game: Game, board: Board) -> bool:
    """True when a bare node name is a move of `game` on `board` (a placement game): answers are then 'cells'."""
    try:
        return game.parse_move(board, board.names[0]).kind is MoveKind.PLACE
    except YTourneyError:
        return False


def to_engine_color(color: Color, first_color: str = FirstColor.BLACK.value, recolored: bool = False) -> str:
    """The GTP colour word ('b'/'w') the engine uses for our `color` (`recolored`: after a swap it recolours)."""
    if (first_color == FirstColor.WHITE.value) != recolored:
        color = color.other
    return "b" if color is Color.BLACK else "w"


def from_engine_color(word: str, first_color: str = FirstColor.BLACK.value, recolored: bool = False) -> Color:
    """Our colour for a GTP colour word of an engine with the given `first_color` dialect."""
    color = Color.parse(word)
    return color.other if (first_color == FirstColor.WHITE.value) != recolored else color


def engine_colors_flipped(swap_style: str, swapped: bool) -> bool:
    """True when the engine names every colour the other way round: after a swap under `swap_style: recolor`."""
    return swapped and swap_style == SwapStyle.RECOLOR.value


# --- what a fault says of the swap dialect ---------------------------------------------------------------------------


SWAP_FAULT_PLIES = 4
"""A fault with at most this many moves played (the swap among the first two) is one 'right after a swap'."""


def swap_style_hint(moves: Sequence[str], termination: Termination, reason: str, settings: GtpSettings) -> str:
    """A hint at gtp.swap_style when an engine lost by a fault (a resignation included) soon after a swap, else ''.

    `moves` is the record's move list as played, `termination` and `reason` how the engine lost. An engine whose
    board recolours the first stone on `swap` resigns or refuses the next colour it is told when we exchange colours,
    and the other way round; nothing else in the first moves after a swap looks like that.
    """
    if not termination.is_fault or "swap" not in [move.lower() for move in moves[:2]]:
        return ""
    if len(moves) > SWAP_FAULT_PLIES:
        return ""
    style = SwapStyle(settings.swap_style)
    other = SwapStyle.RECOLOR if style is SwapStyle.EXCHANGE else SwapStyle.EXCHANGE
    what = ("the engine changes the first stone's colour on `swap`, the players keeping theirs (HexGUI's convention)"
            if other is SwapStyle.RECOLOR else "the engine exchanges the players' colours on `swap`")
    return (f"the engine went wrong right after a swap: check gtp.swap_style (now {style.value!r}; "
            f"{other.value!r} when {what})")


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


def decide_pie(policy: str, state: State, rng: random.Random) -> bool:
    """The pie answer the tool gives for an engine that cannot swap, given the position after the first stone."""
    if policy == PiePolicy.NEVER.value:
        return False
    if policy == PiePolicy.ALWAYS.value:
        return True
    if policy == PiePolicy.RANDOM.value:
        return rng.random() < 0.5
    first = next((move for move in state.history if move.path), None)
    distances = side_distances(state.board)
    if first is None or max(distances) < 0:
        return False  # nothing on the board to take, or a board without sides
    return distances[first.target] >= max(1, math.ceil(max(distances) / 3))


