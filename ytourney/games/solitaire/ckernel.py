"""The compiled kernel (_solvecore, an optional C extension) behind the same interface as PyKernel."""

from __future__ import annotations

from collections.abc import Callable

from ytourney.games.solitaire import _solvecore  # type: ignore[attr-defined]  # ImportError when not built
from ytourney.games.solitaire.kernel import Move, PyKernel, Tables

TABLE_BITS = 22
"""2**22 table slots (about 130 MB); a full neighbourhood replaces its entry with the smallest budget."""


class CKernel(PyKernel):
    """PyKernel with the search, moves and bound in C (one search context per process)."""

    name = "c"

    def __init__(self, tables: Tables, progress: Callable[[int, int], None] | None = None) -> None:
        super().__init__(tables, progress)
        self._base = 0
        _solvecore.setup(tables.cells, tables.jumps, tables.unjumpable, tables.pagodas, tables.targets,
                         tables.needs, tables.symmetries, tables.classes, tables.jumpers, tables.near, progress,
                         TABLE_BITS)

    def moves(self, pos: int, last: int) -> list[Move]:
        return _solvecore.moves(pos, last)

    def bound(self, pos: int) -> int:
        return _solvecore.bound(pos)

    def search(self, pos: int, last: int, budget: int) -> list[tuple[int, ...]] | None:
        try:
            return _solvecore.search(pos, last, budget)
        finally:
            self.nodes = _solvecore.stats()[0]

    def table_size(self) -> int:
        """Entries in the C table."""
        return _solvecore.stats()[1]
