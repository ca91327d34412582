"""Game state of Y: stones, turns, pie rule, handicap stones, misère, and win detection by union-find.

Two implementations with one API, rules and set of errors: `CGameState` keeps its stones and union-find in the
optional C extension `ytourney._gamecore` (built at install time where a C compiler exists), `PyGameState` is pure
Python. `GameState` is the C one when it is built, unless the environment variable YTOURNEY_PURE_PYTHON=1 asks
for the pure-Python one.
"""

from __future__ import annotations

import os
from itertools import compress
from operator import not_

from ytourney.errors import (
    GameOverError,
    IllegalMoveError,
    OccupiedCellError,
    SwapNotAllowedError,
    UnknownCellError,
    YTourneyError,
)
from ytourney.boards.board import ALL_SIDES, Board, parse_board
from ytourney.games.api import EMPTY, Color, Move, MoveKind, Outcome
from ytourney.games.api import SWAP as SWAP_MOVE
from ytourney.games.pie import PieSeats
from ytourney.games.y.notation import SWAP, move_name
from ytourney.games.y.rules import Rules

from ytourney.games.y.kernel import CONNECTION, YKernel

__all__ = ["CONNECTION", "EMPTY", "GameState", "PyGameState", "placements"]


_BLACK = Color.BLACK
_WHITE = Color.WHITE
_OUTCOMES = {color: Outcome(color, CONNECTION) for color in (_BLACK, _WHITE)}
"""Y's two endings, one value each: what `play` returns when a move decides the game."""


_MOVE_TABLES: dict[str, tuple[tuple[int, ...], tuple[int, ...], dict[int, tuple[int, ...]]]] = {}


def _move_tables(board: Board) -> tuple[tuple[int, ...], tuple[int, ...], dict[int, tuple[int, ...]]]:
    """Per-board tables for `play`: cell bits, neighbour bitmasks, and for every subset of a cell's neighbours
    (as a bitmask) one cell per run of mutually adjacent cells in it -- stones of one run already share a group,
    so `play` finds one root per run. The runs of a subset do not depend on the centre cell, so one table serves
    all cells."""
    tables = _MOVE_TABLES.get(board.spec)
    if tables is not None:
        return tables
    bits = tuple(1 << c for c in range(board.num_cells))
    nbmasks = tuple(sum(bits[nb] for nb in nbrs) for nbrs in board.neighbors)
    runs: dict[int, tuple[int, ...]] = {}
    neighbor_sets = [set(nbrs) for nbrs in board.neighbors]
    for nbrs in board.neighbors:
        for subset in range(1, 1 << len(nbrs)):
            members = [nbrs[i] for i in range(len(nbrs)) if subset >> i & 1]
            key = sum(bits[c] for c in members)
            if key in runs:
                continue
            reps: list[int] = []
            seen: set[int] = set()
            for cell in members:
                if cell in seen:
                    continue
                reps.append(cell)
                seen.add(cell)
                stack = [cell]
                while stack:
                    for other in neighbor_sets[stack.pop()]:
                        if other in members and other not in seen:
                            seen.add(other)
                            stack.append(other)
            runs[key] = tuple(reps)
    tables = _MOVE_TABLES[board.spec] = (bits, nbmasks, runs)
    return tables


_DEFAULT_RULES = Rules().interned()

_PLACEMENTS: dict[str, tuple[Move, ...]] = {}


def _cell_of(move: Move) -> int:
    """The cell index (or SWAP) the core plays for a Move; Y has no other kind of move."""
    if move.kind is MoveKind.PLACE and len(move.path) == 1 and type(move.path[0]) is int and move.path[0] >= 0:
        return move.path[0]  # a negative index would read as SWAP: it is refused below
    if move.kind is MoveKind.SWAP:
        return SWAP
    if move.kind is MoveKind.PLACE:
        raise IllegalMoveError(f"a placement names one cell by its index, a whole number from 0; got {move.path!r}")
    raise IllegalMoveError(f"{move.kind.value} moves are not part of Y: a move places one stone, or swaps")


def _legal_cell(move: object) -> object:
    """What `is_legal` checks for a Move: its cell, or None for a Move Y has no cell for (never legal)."""
    try:
        return _cell_of(move)  # type: ignore[arg-type]
    except IllegalMoveError:
        return None


def placements(board: Board) -> tuple[Move, ...]:
    """The placement Move of every cell of `board`, built once per board so legal moves cost no allocation."""
    table = _PLACEMENTS.get(board.spec)
    if table is None:
        table = _PLACEMENTS[board.spec] = tuple(Move(MoveKind.PLACE, (cell,)) for cell in range(board.num_cells))
    return table


class _GameStateCommon(PieSeats):
    """Queries, API views and messages both GameState implementations share (written against public properties)."""

    __slots__ = ()

    board: Board
    rules: Rules
    handicap: int
    game: object = None  # the YGame, set by ytourney.games.y.game
    first_action = "the first stone is placed"

    # --- the game API (ytourney.games.api.State) -------------------------------------------------------------

    @property
    def history(self) -> tuple[Move, ...]:
        """Every action so far as Moves, swaps included."""
        table = placements(self.board)
        return tuple(SWAP_MOVE if m == SWAP else table[m] for m in self.moves)

    @property
    def outcome(self) -> Outcome | None:
        """The end of the game once a Y is completed (misère already applied), else None."""
        winner = self.winner
        return None if winner is None else _OUTCOMES[winner]

    def search_kernel(self) -> YKernel:
        """An independent kernel of this position for a search."""
        return YKernel(self.copy())

    def action_of(self, move: object) -> int | None:
        """The cell a placement fills (None for the pie answer or anything not a cell of this board)."""
        if not isinstance(move, Move) or move.kind is not MoveKind.PLACE or len(move.path) != 1:
            return None
        cell = move.path[0]
        return cell if type(cell) is int and 0 <= cell < len(self.cells) else None

    def move_of(self, action: int) -> Move:
        """The placement on cell `action`."""
        return placements(self.board)[action]

    def _swap_refusal(self) -> str:
        return self.swap_refusal(self.num_stones)

    def _describe(self, move: object) -> str:
        try:
            return repr(move_name(self.board, move))
        except (YTourneyError, TypeError):  # not a cell of this board, or not even a number
            return repr(move)

    def __repr__(self) -> str:
        return (
            f"GameState({self.board.spec!r}, moves={len(self.moves)}, "
            f"to_move={self.to_move}, winner={self.winner})"
        )

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Pickled as its moves (small, and independent of either implementation's internals).
        return (_replay, (self.board, self.rules, self.handicap, self.moves, type(self) is not PyGameState))

    def __copy__(self) -> _GameStateCommon:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> _GameStateCommon:
        return self.copy()


class PyGameState(_GameStateCommon):
    """A position of Y with its history; `play` validates every move and detects the winner incrementally.

    The pure-Python implementation: always available, used when the C core is not built or when
    YTOURNEY_PURE_PYTHON=1."""

    __slots__ = (
        "_bits",
        "_black",
        "_mask",
        "_moves",
        "_nbmasks",
        "_neighbors",
        "_parent",
        "_range",
        "_runs",
        "_sides",
        "_stones_left",
        "_swapped",
        "_to_move",
        "_white",
        "_winner",
        "board",
        "cells",
        "handicap",
        "rules",
    )

    def __init__(self, board: Board | str, rules: Rules | None = None, handicap: int = 0) -> None:
        if isinstance(board, str):
            board = parse_board(board)
        if not isinstance(handicap, int) or handicap < 0:
            raise YTourneyError(f"handicap level must be a whole number >= 0, got {handicap!r}")
        sides = board.sides
        n = len(sides)
        if handicap >= n:
            raise YTourneyError(f"handicap {handicap} is too large for board {board.spec!r} of {n} cells")
        self.board = board
        self.rules = rules or _DEFAULT_RULES
        self.handicap = handicap
        self.cells = [EMPTY] * n
        self._parent = list(range(n))
        self._mask = list(sides)
        self._moves: list[int] = []
        self._to_move = _BLACK
        self._stones_left = handicap or 1
        self._winner: Color | None = None
        self._swapped = False
        self._neighbors = board.neighbors
        self._sides = sides
        self._black = 0  # bitboards of the stones of each colour
        self._white = 0
        self._bits, self._nbmasks, self._runs = _move_tables(board)
        self._range = range(n)

    # --- queries -------------------------------------------------------------------------------

    @property
    def to_move(self) -> Color:
        """Colour of the stone the next move places (a swap never changes it)."""
        return self._to_move

    @property
    def winner(self) -> Color | None:
        """The winning colour once the game is decided (misère already applied), else None."""
        return self._winner

    @property
    def is_over(self) -> bool:
        """True once a player has completed a Y."""
        return self._winner is not None

    @property
    def moves(self) -> tuple[int, ...]:
        """Every action so far in order, SWAP included."""
        return tuple(self._moves)

    @property
    def swapped(self) -> bool:
        """True when the second player took the first stone with the pie rule."""
        return self._swapped

    @property
    def stones_left_this_turn(self) -> int:
        """Stones the side to move still places before the turn passes (handicap turns place several)."""
        return self._stones_left

    @property
    def num_stones(self) -> int:
        """Stones on the board."""
        return len(self._moves) - self._swapped

    def can_swap(self) -> bool:
        """True when the next action may be the pie answer 'swap'."""
        return self.pie_active and len(self._moves) == 1 and self._winner is None

    def empty_cells(self) -> list[int]:
        """Empty cells in index order."""
        return list(compress(self._range, map(not_, self.cells)))

    def legal_moves(self) -> list[Move]:
        """Every legal action as a Move: the empty cells, then swap when the pie rule offers it; empty once over."""
        if self._winner is not None:
            return []
        moves = list(compress(placements(self.board), map(not_, self.cells)))
        if len(self._moves) == 1 and self.rules.pie and self.handicap == 0:
            moves.append(SWAP_MOVE)
        return moves

    def is_legal(self, move: int | Move) -> bool:
        """True when `play(move)` would succeed."""
        if type(move) is Move:
            move = _legal_cell(move)
        if self._winner is not None:
            return False
        if move == SWAP:
            return self.can_swap()
        return isinstance(move, int) and 0 <= move < len(self.cells) and self.cells[move] == EMPTY

    def group_sides(self, cell: int) -> int:
        """Side mask of the group holding `cell` (0 for an empty cell)."""
        if self.cells[cell] == EMPTY:
            return 0
        return self._mask[self._find(cell)]

    # --- moves ---------------------------------------------------------------------------------

    def play(self, move: int | Move) -> Outcome | None:
        """Apply one action (a cell index, a placement Move, SWAP), raising a specific IllegalMoveError if it is not
        legal; returns the outcome when this move decides the game, else None."""
        if self._winner is not None:
            raise GameOverError(
                f"move {self._describe(move)} after the game ended ({self._winner} won) on {self.board.spec!r}"
            )
        cells = self.cells
        if type(move) is not int or move < 0:
            return self._play_other(move)
        try:
            if cells[move]:
                raise OccupiedCellError(
                    f"cell {move_name(self.board, move)!r} is already occupied by {Color(cells[move])}"
                )
        except IndexError:
            raise UnknownCellError(
                f"cell {move!r} is not on board {self.board.spec!r} (0..{len(cells) - 1})"
            ) from None
        color = self._to_move
        cells[move] = color
        self._moves.append(move)
        if color is _BLACK:
            same = self._black
            self._black = same | self._bits[move]
            other = _WHITE
        else:
            same = self._white
            self._white = same | self._bits[move]
            other = _BLACK
        same &= self._nbmasks[move]
        if same:
            # Union the new stone with one stone of every run of same-coloured neighbours; the new stone
            # becomes the root and holds the merged side mask.
            parent = self._parent
            mask = self._mask
            side_mask = mask[move]
            for root in self._runs[same]:
                while parent[root] != root:
                    parent[root] = parent[parent[root]]
                    root = parent[root]
                parent[root] = move
                side_mask |= mask[root]
            mask[move] = side_mask
            if side_mask == ALL_SIDES:
                winner = self._winner = other if self.rules.misere else color
                return _OUTCOMES[winner]
        if self._stones_left == 1:
            self._to_move = other
        else:
            self._stones_left -= 1
        return None

    def _play_other(self, move: object) -> Outcome | None:
        """The rare actions: a Move of the game API, SWAP, or anything that is not a cell index of this board."""
        if type(move) is Move:
            return self.play(_cell_of(move))
        if move == SWAP:
            if not self.can_swap():
                raise SwapNotAllowedError(self._swap_refusal())
            self._swapped = True
            self._moves.append(SWAP)
            return
        raise UnknownCellError(f"cell {move!r} is not on board {self.board.spec!r} (0..{len(self.cells) - 1})")

    def copy(self) -> PyGameState:
        """An independent copy of this state."""
        new = PyGameState.__new__(PyGameState)
        new.board = self.board
        new.rules = self.rules
        new.handicap = self.handicap
        new.cells = self.cells.copy()
        new._parent = self._parent.copy()
        new._mask = self._mask.copy()
        new._moves = self._moves.copy()
        new._to_move = self._to_move
        new._stones_left = self._stones_left
        new._winner = self._winner
        new._swapped = self._swapped
        new._neighbors = self._neighbors
        new._sides = self._sides
        new._black = self._black
        new._white = self._white
        new._bits = self._bits
        new._nbmasks = self._nbmasks
        new._runs = self._runs
        new._range = self._range
        return new

    # --- helpers -------------------------------------------------------------------------------

    def _find(self, cell: int) -> int:
        parent = self._parent
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell


# --- the optional C core -----------------------------------------------------------------------

try:
    from ytourney.games.y import _gamecore
except ImportError:  # no compiler at install time: the pure-Python state serves alone
    _gamecore = None

_TOPOLOGIES: dict[str, object] = {}


def _topology_for(board: Board) -> object:
    """The C core's neighbour and side tables of `board`, built once per board spec."""
    topology = _TOPOLOGIES.get(board.spec)
    if topology is None:
        topology = _TOPOLOGIES[board.spec] = _gamecore.Topology(board.neighbors, board.sides, placements(board))
    return topology




if _gamecore is not None:
    _gamecore.configure(
        black=_BLACK,
        white=_WHITE,
        default_rules=_DEFAULT_RULES,
        parse_board=parse_board,
        topology_for=_topology_for,
        error=YTourneyError,
        all_sides=ALL_SIDES,
        move_type=Move,
        place_kind=MoveKind.PLACE,
        swap_move=SWAP_MOVE,
        outcomes=(_OUTCOMES[_BLACK], _OUTCOMES[_WHITE]),
    )

    class CGameState(_gamecore.Core, _GameStateCommon):
        """A position of Y with its history; `play` validates every move and detects the winner incrementally.

        The C-accelerated implementation: stones, turn and union-find live in the C core, whose `play` handles
        a legal cell index without leaving C; SWAP and every illegal action come back to `_play_slow` here, so
        the errors are the pure-Python ones. `cells` is a new list on every read."""

        __slots__ = ()

        legal_moves = _gamecore.Core.move_list

        def is_legal(self, move: int | Move) -> bool:
            """True when `play(move)` would succeed."""
            return _gamecore.Core.is_legal(self, _legal_cell(move) if type(move) is Move else move)

        def _play_slow(self, move: object) -> None:
            """Everything the C fast path declines: a Move of the game API, a move after the end, SWAP, a bad or
            occupied cell."""
            if type(move) is Move:
                return self.play(_cell_of(move))
            winner = self.winner
            if winner is not None:
                raise GameOverError(
                    f"move {self._describe(move)} after the game ended ({winner} won) on {self.board.spec!r}"
                )
            num_cells = self.board.num_cells
            if type(move) is int and 0 <= move < num_cells:
                raise OccupiedCellError(
                    f"cell {move_name(self.board, move)!r} is already occupied by {Color(self.cells[move])}"
                )
            if move == SWAP:
                if not self.can_swap():
                    raise SwapNotAllowedError(self._swap_refusal())
                self._record_swap()
                return
            raise UnknownCellError(f"cell {move!r} is not on board {self.board.spec!r} (0..{num_cells - 1})")

else:
    CGameState = None  # type: ignore[assignment,misc]


def _pure_python_forced() -> bool:
    """True when YTOURNEY_PURE_PYTHON asks for the pure-Python state even though the C core is built."""
    return os.environ.get("YTOURNEY_PURE_PYTHON", "").strip().lower() not in ("", "0", "false", "no")


GameState = PyGameState if CGameState is None or _pure_python_forced() else CGameState
"""The game state class in use: `CGameState` when the C core is built, else (or with YTOURNEY_PURE_PYTHON=1)
the pure-Python `PyGameState`; both have the same API, rules and errors."""


def _replay(board: Board, rules: Rules, handicap: int, moves: tuple[int, ...], accelerated: bool) -> GameState:
    """Rebuild a pickled state by replaying its moves (pure Python where the C core is missing)."""
    state = (CGameState if accelerated and CGameState is not None else PyGameState)(board, rules, handicap)
    for move in moves:
        state.play(move)
    return state

