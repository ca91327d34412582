"""Tetra's kernel choice: the optional C core (`_tetracore`) when built and allowed, else the pure-Python
`TetraKernel`; both play the same actions in the same order, end games alike, and their playouts agree move for
move for one seed (YTOURNEY_PURE_PYTHON=1 picks Python)."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from types import ModuleType
from typing import TYPE_CHECKING

from ytourney.boards.board import Board
from ytourney.games.bitboard import bits
from ytourney.games.cores import load_core
from ytourney.games.kernel import Kernel
from ytourney.games.termination import Termination
from ytourney.games.tetra.kernel import FIGURE, TetraKernel, step_table, tables

if TYPE_CHECKING:
    from ytourney.games.front import MoveTable

core = load_core("ytourney.games.tetra._tetracore", ("one_ply_values", "forced_winner", "block"))
"""The C core module, or None (not built, built from an older source, or YTOURNEY_PURE_PYTHON=1)."""


def build_tables(module: ModuleType, board: Board, bridge_lines: bool = True) -> object:
    """A C core module's tables of `board`: the Python tables' figures and moves, in the same order."""
    t = tables(board, bridge_lines)
    figures = [tuple(bits(mask)) for mask in t.figures]
    moves = [(source, target, via + 1) for source, row in enumerate(step_table(board)) for target, via in row]
    return module.Tables(t.size, figures, moves, [tuple(row) for row in board.neighbors], FIGURE,
                         Termination.MOVE_LIMIT, Termination.NO_MOVES)


@functools.lru_cache(maxsize=8)
def core_tables(board: Board, bridge_lines: bool = True) -> object:
    """The loaded core's tables of `board`, built once."""
    assert core is not None
    return build_tables(core, board, bridge_lines)


def core_tables_with_moves(board: Board, bridge_lines: bool, move_table: MoveTable) -> object:
    """The C tables with the Move of every action from `move_table` (a state's own, so its identities hold)."""
    t = core_tables(board, bridge_lines)
    if not t.has_moves:  # type: ignore[attr-defined]
        t.set_moves(tuple(move_table[action] for action in t.actions))  # type: ignore[attr-defined]
    return t


def new_kernel(board: Board, bridge_lines: bool, max_plies: int | None) -> Kernel:
    """The start position's kernel: the C one when the core is loaded."""
    if core is None:
        return TetraKernel(tables(board, bridge_lines), max_plies)
    return core.Kernel(core_tables(board, bridge_lines), max_plies)


def setup_kernel(board: Board, bridge_lines: bool, max_plies: int | None, black: Iterable[int] = (),
                 white: Iterable[int] = (), in_hand: tuple[int, int] = (0, 0), to_move: int = 1) -> Kernel:
    """A set-up position (checked as `TetraKernel.setup` checks it), not judged; the C one when loaded."""
    kernel = TetraKernel.setup(tables(board, bridge_lines), max_plies, black, white, in_hand, to_move)
    return kernel if core is None else to_core(kernel, board, bridge_lines)


def to_core(kernel: TetraKernel, board: Board, bridge_lines: bool, module: ModuleType | None = None,
            board_tables: object | None = None) -> Kernel:
    """A C kernel of the same position as a pure-Python one of `board` (no history, not judged): on the loaded core
    unless a core `module` and its `board_tables` are given."""
    if module is None or board_tables is None:
        module, board_tables = core, core_tables(board, bridge_lines)
    assert module is not None
    limit = None if kernel.max_plies >= 1 << 62 else kernel.max_plies
    return module.Kernel(board_tables, limit, kernel.cells, (kernel.hand[1], kernel.hand[2]),  # type: ignore[no-any-return]
                         kernel.to_move)
