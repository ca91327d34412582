"""YvY's kernel from the optional C core (_yvycore.c) when it is built and allowed, else the pure-Python YvyKernel.

The core's `Kernel` has the same actions, legal-action order, endings, score and playouts (the same splitmix64
stream) as `kernel.YvyKernel`; `CYvyKernel` adds what the views and tests read in Python (the count's details,
set-up positions). YTOURNEY_PURE_PYTHON=1 or a missing compiler keeps the pure-Python kernel.
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any

from ytourney.boards.board import Board
from ytourney.games.cores import load_core
from ytourney.games.kernel import PASS_ACTION
from ytourney.games.termination import Termination
from ytourney.games.yvy.geometry import Geometry, geometry
from ytourney.games.yvy.kernel import LOOP, SCORE, WHITE, YvyKernel
from ytourney.games.yvy.scoring import Count, count

CORE_MODULE = "ytourney.games.yvy._yvycore"


@functools.cache
def kernel_class(core: ModuleType) -> type:
    """The kernel class over a loaded core module (tests pass the module they import themselves)."""

    @functools.cache
    def tables(geo: Geometry) -> Any:
        return core.Tables(geo.around, geo.sprout, geo, (LOOP, SCORE, Termination.MOVE_LIMIT))

    class CYvyKernel(core.Kernel):  # type: ignore[misc, name-defined]
        """YvY's kernel in C: stones, the loop tracker and the undo stack in the core; the count's details here."""

        __slots__ = ()

        def __new__(cls, board: Board, max_plies: int) -> CYvyKernel:  # noqa: PYI034 - no typing.Self in 3.10
            return super().__new__(cls, tables(geometry(board)), max_plies)

        @classmethod
        def setup(cls, board: Board, black: list[int], white: list[int], to_move: int = WHITE,
                  max_plies: int = 1000) -> CYvyKernel:
            """A position with these stones (no ply counted, no loop judged), `to_move` to move: for tests and tools."""
            kernel = cls(board, max_plies)
            kernel._setup(black, white, to_move)
            return kernel

        @property
        def count(self) -> Count | None:
            """The count that ended the game after two passes (None otherwise)."""
            return count(self.geo, self.cells) if self.termination is SCORE else None

    return CYvyKernel


def _load() -> type:
    core = load_core(CORE_MODULE)
    return YvyKernel if core is None else kernel_class(core)


KERNEL: type = _load()
"""The kernel class the game plays on: CYvyKernel over the C core, else YvyKernel."""


def new_kernel(board: Board, max_plies: int) -> Any:
    """A new kernel of the empty board, White to move, on the C core when it is loaded."""
    return KERNEL(board, max_plies)


def uses_core() -> bool:
    """True when the game plays on the C core."""
    return KERNEL is not YvyKernel


_OBJECTS: dict[tuple[int, int], tuple[Any, tuple[Any, ...]]] = {}


def move_objects(table: Any, n: int) -> tuple[Any, ...]:
    """The front's Move of each cell 0..n-1, then of the pass, for `legal_objects` (a table's Moves never change)."""
    found = _OBJECTS.get((id(table), n))
    if found is None or found[0] is not table:
        found = _OBJECTS[id(table), n] = (table, tuple(table[action] for action in (*range(n), PASS_ACTION)))
    return found[1]
