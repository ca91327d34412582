"""Engine dialects: what the GTP layer asks a game about how its engines speak beyond standard GTP.

The GTP layer (`players/gtp`) keeps the transport, the deadlines and the protocol; what one game's engines call
things comes from that game's dialect, `Game.engine_dialect()`. `EngineDialect` is the generic one: it knows no game,
only the boards (a tri board's flipped row numbers, kadon's `boardsize` argument, the distance of a node from the
board's sides). A game whose engines know more (Y's engine families and their time commands) returns a subclass
from its own package.

Rows: cells travel in our notation (`a1`; kadon `E5`): row 1 is a tri board's long edge, row r holds N + 1 - r
cells and the top corner is `a<N>`. An engine with `rows: flipped` numbers the rows from the top corner instead: its
row r holds r cells `a<r> ... <r-th letter><r>`, its row 1 is the top cell and its row N the long edge. Columns keep
their letters, so its (column x, row r) is our (x, N + 1 - r): its `a1` is our `a<N>`, its `e5` on tri:5 our `e1`,
its `d6` on tri:7 our `d2`. The map only renames rows, so it is its own inverse and a name exists in one notation
exactly when its image exists in the other. Every cell name inside a move's text (`a1`, `b2-c3`) is renamed the
same way. Flipped rows apply to tri boards only.

Kadon: GTP has no standard way to select the 93-node board, so an engine plays it only when it is told the argument
its `boardsize` command accepts for it. Cell names are then the Boardspace names.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from ytourney.boards.board import Board, BoardKind
from ytourney.errors import NotationError

NORMAL_ROWS = "normal"
"""Rows as we number them: row 1 the long edge of a tri board."""
FLIPPED_ROWS = "flipped"
"""Rows numbered from a tri board's top corner: row r holds r cells."""

_VERTEX_IN_TEXT = re.compile(r"[a-z][0-9]{1,3}", re.IGNORECASE)
_COLUMN_ROW = re.compile(r"([a-z])([1-9][0-9]?)")


@dataclass(frozen=True)
class TimeSetting:
    """A clock a served engine is given by a time command: main time, a period of `stones` moves, an increment."""

    main: float = 0.0
    period: float = 0.0
    stones: int = 0
    increment: float = 0.0


NumberReader = Callable[[str, str], float]
"""(word, what it is) -> the number the word gives, checked for range by the GTP layer (its error names `what`)."""
TimeParser = Callable[[Sequence[str], NumberReader], TimeSetting]
"""The arguments of a served time command -> the clock it sets; NotationError (its message the `?` answer) when the
arguments are not that command's."""


# --- board facts: flipped rows, kadon's row names, sides --------------------------------------------------------


def renames_rows(board: Board, rows: str) -> bool:
    """True when `rows` renames the cells of `board` (flipped rows on a tri board)."""
    return rows == FLIPPED_ROWS and board.kind is BoardKind.TRI


def renumbered(board: Board, name: str) -> str:
    """A tri cell name with its row r renamed N + 1 - r; a name with no row 1..N is returned as it is (no cell)."""
    match = _COLUMN_ROW.fullmatch(name.lower())
    if match is None or not 1 <= int(match.group(2)) <= board.size:
        return name
    return f"{match.group(1)}{board.size + 1 - int(match.group(2))}"


def to_engine_cell(board: Board, cell: int, rows: str = NORMAL_ROWS) -> str:
    """The engine's name for a flat cell index under the `rows` dialect."""
    if not 0 <= cell < board.num_cells:
        raise NotationError(f"cell index {cell!r} is outside board {board.spec!r} (0..{board.num_cells - 1})")
    if renames_rows(board, rows):
        return renumbered(board, board.names[cell])
    return board.names[cell]


def from_engine_cell(board: Board, token: str, rows: str = NORMAL_ROWS) -> int:
    """Flat cell index of an engine's cell name under the `rows` dialect; NotationError when it names no cell."""
    name = token.strip()
    flipped = renames_rows(board, rows)
    index = board.index_of(renumbered(board, name) if flipped else name)
    if index is None:
        if board.kind is not BoardKind.TRI:  # row orders are a tri board's
            raise NotationError(f"{token!r} is not a cell of board {board.spec!r}")
        shape = "row 1 the top corner, row r holding r cells" if flipped else "row 1 the long edge"
        raise NotationError(f"{token!r} is not a cell of board {board.spec!r} (rows {rows!r}: {shape})")
    return index


def rename_cells(board: Board, text: str, rows: str) -> str:
    """A move's text with every cell name in it renamed under the `rows` dialect (the map is its own inverse)."""
    if not renames_rows(board, rows):
        return text
    return _VERTEX_IN_TEXT.sub(lambda match: renumbered(board, match.group(0)), text)


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


# --- the dialect ---------------------------------------------------------------------------------------------------


class EngineDialect:
    """What the GTP layer asks a game about its engines; this generic one knows no game, only the boards."""

    time_commands: ClassVar[Mapping[str, str]] = {}
    """`gtp.time_command` values the game's engines know besides `gtp` and `none` -> the command that tells an engine
    its seconds per move, with `{seconds}` in it."""
    fallback_time_commands: ClassVar[Mapping[str, str]] = {}
    """A command asked about with `known_command` -> the `time_commands` value that tells an engine under the default
    `gtp` its move time when it takes no `time_left`."""
    served_time_commands: ClassVar[Mapping[str, TimeParser]] = {}
    """The time commands of the game's engine families a served bot answers -> how to read their arguments."""

    # --- cells and moves under a row order

    def row_misfit(self, board: Board, rows: str) -> str:
        """'' when an engine may number the rows of `board` as `rows` says, else what `rows` applies to."""
        return "" if rows != FLIPPED_ROWS or board.kind is BoardKind.TRI else "applies to tri boards only"

    def renames(self, board: Board, rows: str) -> bool:
        """True when cell names differ between us and an engine numbering rows as `rows` says on `board`."""
        return renames_rows(board, rows)

    def to_engine_cell(self, board: Board, cell: int, rows: str) -> str:
        """The engine's name for the flat cell index `cell`."""
        return to_engine_cell(board, cell, rows)

    def from_engine_cell(self, board: Board, token: str, rows: str) -> int:
        """The flat cell index of the engine's cell name `token`; NotationError, in the dialect's words, for none."""
        return from_engine_cell(board, token, rows)

    def to_engine_text(self, board: Board, text: str, rows: str) -> str:
        """The engine's text for a move written `text` in the game's notation."""
        return rename_cells(board, text, rows)

    def from_engine_text(self, board: Board, text: str, rows: str) -> str:
        """The game's notation for an engine's text of a move."""
        return rename_cells(board, text, rows)

    def showboard_lines(self, board: Board, lines: list[str], rows: str) -> list[str]:
        """The game's board diagram (`lines`, the last the column letters) as the engine's `showboard` shows it."""
        if renames_rows(board, rows):
            width = len(str(board.size))
            lines = [*(f"{index + 1:>{width}}{line[width:]}" for index, line in enumerate(lines[:-1])), *lines[-1:]]
        return lines  # kadon's rows carry their cell names already (boards.text)

    # --- the board and the clock

    def boardsize(self, board: Board, kadon_argument: str) -> str | None:
        """The `boardsize` argument for `board` (`kadon_argument` for kadon); None when GTP has no standard one."""
        if board.kind is BoardKind.KADON:
            return kadon_argument or None
        return str(board.size)

    def time_command(self, name: str, seconds: str) -> str:
        """The command telling an engine of time command `name` its `seconds` per move; NotationError for a name the
        game's engines do not know."""
        if name not in self.time_commands:
            raise NotationError(f"time command {name!r} is not one this game's engines know")
        return self.time_commands[name].format(seconds=seconds)

    # --- the pie for engines that cannot decide it

    def takes_first_stone(self, board: Board, node: int) -> bool:
        """The centre pie policy: swap a first stone at least a third of the board's depth away from every side."""
        distances = side_distances(board)
        if max(distances) < 0:
            return False  # a board without sides
        return distances[node] >= max(1, math.ceil(max(distances) / 3))


GENERIC_DIALECT = EngineDialect()
"""The dialect of a game whose engines speak standard GTP in its notation."""
