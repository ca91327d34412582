"""Cell and move notation: 'a1'-style names on tri boards, Boardspace names on kadon, and the token 'swap'."""

from __future__ import annotations

from collections.abc import Iterable

from ytourney.errors import NotationError
from ytourney.boards.board import Board, BoardKind

SWAP = -1
SWAP_TOKEN = "swap"


def _expected(board: Board) -> str:
    if board.kind is BoardKind.TRI:
        last = chr(ord("a") + board.size - 1)
        return f"a column a-{last} and a row 1-{board.size} with column + row <= {board.size + 1}, like 'a1'"
    return "a Boardspace cell name A1-I1, A2-J2, ... A9-E9, like 'E5'"


def parse_cell(board: Board, token: str) -> int:
    """Flat index of a cell name on `board`; case-insensitive."""
    if isinstance(token, str):
        index = board.index_of(token.strip())
        if index is not None:
            return index
    raise NotationError(f"unknown cell {token!r} on board {board.spec!r}; expected {_expected(board)}")


def cell_name(board: Board, cell: int) -> str:
    """Name of a flat cell index: lower case on tri boards, upper case on kadon."""
    if not 0 <= cell < board.num_cells:
        raise NotationError(f"cell index {cell!r} is outside board {board.spec!r} (0..{board.num_cells - 1})")
    return board.names[cell]


def parse_move(board: Board, token: str) -> int:
    """A cell index or SWAP for a move token ('swap' in any case)."""
    if isinstance(token, str) and token.strip().lower() == SWAP_TOKEN:
        return SWAP
    return parse_cell(board, token)


def move_name(board: Board, move: int) -> str:
    """The token of a move: a cell name or 'swap'."""
    return SWAP_TOKEN if move == SWAP else cell_name(board, move)


def parse_moves(board: Board, moves: str | Iterable[str]) -> list[int]:
    """Moves from a whitespace/comma separated string or a sequence of tokens."""
    tokens = moves.replace(",", " ").split() if isinstance(moves, str) else list(moves)
    parsed = []
    for position, token in enumerate(tokens, start=1):
        try:
            parsed.append(parse_move(board, token))
        except NotationError as err:
            raise NotationError(f"move {position}: {err}") from err
    return parsed
