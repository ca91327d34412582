"""The slide games' kernel choice: the optional C core (`_slidecore.Kernel`) when built and allowed, else the game's
pure-Python `SlideKernel`; both list the same slides in the same order, end games alike, evaluate leaves to the
same float, and their playouts agree move for move for one seed (YTOURNEY_PURE_PYTHON=1 picks Python)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ytourney.boards.board import Board
from ytourney.games.slide_tables import core, core_walks, slide_tables
from ytourney.games.termination import Termination

if TYPE_CHECKING:
    from ytourney.games.front import MoveTable

__all__ = ["CoreKernel", "build_tables", "core", "core_tables_with_moves", "kernel_tables", "to_core"]

CoreKernel: type | None = None if core is None else core.Kernel
"""The C kernel type, or None (the state tests `type(kernel) is CoreKernel`). The kernel classes are the games'
`SlideKernel` subclasses (typed Any here: slides.py imports this module)."""


def build_tables(module: ModuleType, board: Board, kernel_class: Any, spec: tuple[int, Any, bool],
                 params: Sequence[float]) -> Any:
    """A C core module's tables of `board` for the game of `kernel_class` (its `core_spec` under some rules), with
    the knowledge's constants `params`: the Python tables' walks, line pairs, neighbours and rays, in their order."""
    t = slide_tables(board)
    walks, actions = core_walks(board)
    pairs = list(t.pairs.values())
    game, runs, rings = spec
    return module.Tables(board.num_cells, walks, actions, pairs, list(t.neighbours), t.rays, game, runs, rings,
                         tuple(params), (kernel_class.win_termination, Termination.MOVE_LIMIT,
                                         Termination.NO_MOVES))


@functools.lru_cache(maxsize=16)
def kernel_tables(board: Board, kernel_class: Any, spec: tuple[int, Any, bool],
                params: tuple[float, ...]) -> Any:
    """The loaded core's tables, built once per board, game, rules spec and knowledge constants."""
    assert core is not None
    return build_tables(core, board, kernel_class, spec, params)


def core_tables_with_moves(tables: Any, move_table: MoveTable) -> Any:
    """The C tables with the Move of every line pair from `move_table` (a state's own, so its identities hold)."""
    if not tables.has_moves:
        tables.set_moves(tuple(None if action is None else move_table[action] for action in tables.actions))
    return tables


def to_core(kernel: Any, tables: Any, module: ModuleType | None = None) -> Any:
    """A C kernel of the same stones, side to move and move limit as a pure-Python one (no history, not judged),
    on `tables` of the loaded core unless a core `module` is given."""
    module = module or core
    assert module is not None
    limit = None if kernel.limit >= 1 << 62 else kernel.limit
    return module.Kernel(tables, limit, kernel.masks[1], kernel.masks[2], kernel.to_move)
