"""Singularity's kernel choice: the optional C core (`_singcore`) when built and allowed, else the pure-Python
`SingularityKernel`; both list the same actions in the same order, end games alike, evaluate leaves to the same
float, and their playouts agree move for move for one seed (YTOURNEY_PURE_PYTHON=1 picks Python)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ytourney.boards.board import Board
from ytourney.games.bitboard import bits
from ytourney.games.cores import load_core
from ytourney.games.kernel import Kernel
from ytourney.games.singularity.evaluation import CHUNK, TEMPERATURE, node_costs
from ytourney.games.singularity.kernel import SINGULARITY, SingularityKernel, tables
from ytourney.games.termination import Termination

if TYPE_CHECKING:
    from ytourney.games.front import MoveTable

core = load_core("ytourney.games.singularity._singcore")
"""The C core module, or None (not built, or YTOURNEY_PURE_PYTHON=1)."""


def build_tables(module: ModuleType, board: Board, fusion: str = "both") -> Any:
    """A C core module's tables of `board` and a fusion zone, from the Python tables (the same slides and lines)."""
    t = tables(board, fusion)
    slides: list[tuple[int, int, tuple[int, ...]]] = []
    index: dict[tuple[int, int], int] = {}
    for s, reach in enumerate(t.paths):
        for target, path in sorted(reach.items()):
            index[s, target] = len(slides)
            slides.append((s, target, path))
    named = [(i, c) for i, (_, target, _) in enumerate(slides) for c in bits(t.partners[target])]
    groups = [tuple(tuple((guard, tuple(index[s, target] for target, _, _ in entries)) for guard, entries in group)
                    for group in row) for s, row in enumerate(t.lines)]
    return module.Tables(board.num_cells, slides, named, groups, [tuple(bits(p)) for p in t.partners],
                         t.central_nodes, node_costs(board), CHUNK, TEMPERATURE,
                         (SINGULARITY, Termination.MOVE_LIMIT, Termination.NO_MOVES))


@functools.lru_cache(maxsize=8)
def core_tables(board: Board, fusion: str = "both") -> Any:
    """The loaded core's tables of `board` and a fusion zone, built once."""
    assert core is not None
    return build_tables(core, board, fusion)


def core_tables_with_moves(board: Board, fusion: str, move_table: MoveTable) -> Any:
    """The C tables with the Move of every action from `move_table` (a state's own, so its identities hold)."""
    t = core_tables(board, fusion)
    if not t.has_moves:
        t.set_moves(tuple(move_table[action] for action in t.actions))
    return t


def new_kernel(board: Board, fusion: str, max_plies: int, black: Sequence[int], white: Sequence[int],
               to_move: int = 1, module: ModuleType | None = None, board_tables: Any = None) -> Kernel:
    """A kernel of these stones: the C one when the core is loaded (or a core `module` and its `board_tables` are
    given), else the pure-Python one."""
    if module is None:
        if core is None:
            return SingularityKernel(board, fusion, max_plies, list(black), list(white), to_move)
        module, board_tables = core, core_tables(board, fusion)
    return module.Kernel(board_tables, max_plies, list(black), list(white), to_move)  # type: ignore[no-any-return]

