"""The kernel a position gets: the optional C core's (`_aacore.c`, with the Python kernel's views on top) when it
is built and not refused by YTOURNEY_PURE_PYTHON=1, else the pure-Python `AliensAmazonsKernel`, which the core
agrees with move for move (the same actions in the same order, the same endings, the same playouts for a seed);
and the board's Move table, whose placements and steps the core's tables hold to hand back as they are."""

from __future__ import annotations

import functools
from typing import Any

from ytourney.boards.board import Board
from ytourney.games.aliens_amazons import tables as t
from ytourney.games.aliens_amazons.kernel import (
    CAPTURES,
    IMMOBILIZED,
    NO_LIMIT,
    AliensAmazonsKernel,
    KernelTables,
    KernelViews,
    kernel_tables,
)
from ytourney.games.api import Move, MoveKind
from ytourney.games.cores import load_core
from ytourney.games.front import MoveTable, action_move
from ytourney.games.termination import Termination

CORE = load_core("ytourney.games.aliens_amazons._aacore")
"""The C core module, or None (not built, or the pure-Python kernels asked for)."""


class PathMoves(MoveTable):
    """Actions to Moves on one board: a two-node path is a step between neighbours, else a jump."""

    def __init__(self, neighbors: tuple[tuple[int, ...], ...]) -> None:
        super().__init__(jumps=False)
        self.neighbors = neighbors

    def make(self, action: int) -> Move:
        """A step between neighbours, else a jump."""
        move = action_move(action)
        if move.kind is MoveKind.STEP and move.capture is None and not (
                0 <= move.path[0] < len(self.neighbors) and move.path[1] in self.neighbors[move.path[0]]):
            move = Move.jump(move.path)
        return move


@functools.lru_cache(maxsize=16)
def path_moves(board: Board) -> PathMoves:
    """The move table of `board`, shared by every position on it."""
    return PathMoves(t.tables_for(board.spec).neighbors)


@functools.lru_cache(maxsize=16)
def core_tables(board: Board) -> Any:
    """The C core's tables of `board` (built once per board; requires CORE)."""
    kt = kernel_tables(board)
    tables = kt.tables
    within = tuple(tuple(c for c, d in enumerate(row) if 0 <= d <= 3) for row in tables.distance)
    terminations = (CAPTURES, IMMOBILIZED, Termination.MOVE_LIMIT, Termination.NO_MOVES)
    return CORE.Tables(tables.neighbors, tables.jumps, tables.need_nodes, within, terminations,  # type: ignore[union-attr]
                       kt, path_moves(board))


if CORE is not None:

    class CoreKernel(KernelViews, CORE.Kernel):  # type: ignore[misc, name-defined]
        """The C core's kernel, with the views the knowledge and the tests read of the Python one."""

        __slots__ = ()

        @property
        def kt(self) -> KernelTables:  # type: ignore[override]
            """The board's Python kernel tables."""
            return self.core_tables.info

        @property
        def tables(self) -> t.Tables:
            """The board's step and jump tables."""
            return self.core_tables.info.tables

    KERNELS: tuple[type, ...] = (AliensAmazonsKernel, CoreKernel)
else:
    KERNELS = (AliensAmazonsKernel,)
"""The kernel classes a position of this game may have."""


def new_kernel(board: Board, threshold: int | None = None, max_plies: int | None = None,
               amazons: int = t.AMAZONS) -> AliensAmazonsKernel:
    """The start position's kernel (with `amazons` Amazons): the C core's when loaded, else the pure-Python one."""
    if CORE is None:
        return AliensAmazonsKernel(board, threshold, max_plies, amazons)
    kt = kernel_tables(board)
    return CoreKernel(core_tables(board), threshold or kt.tables.threshold, max_plies or NO_LIMIT,  # type: ignore[return-value]
                      amazons)
