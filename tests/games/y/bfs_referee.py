"""An independent referee for the tests: Y detection by plain breadth-first search over the board."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from ytourney.boards.board import ALL_SIDES, Board


def bfs_has_y(board: Board, cells: Sequence[int], color: int) -> bool:
    """True when some group of `color` touches all three sides."""
    seen: set[int] = set()
    for start in range(board.num_cells):
        if cells[start] != color or start in seen:
            continue
        seen.add(start)
        queue = deque([start])
        sides = 0
        while queue:
            cell = queue.popleft()
            sides |= board.sides[cell]
            for nb in board.neighbors[cell]:
                if cells[nb] == color and nb not in seen:
                    seen.add(nb)
                    queue.append(nb)
        if sides == ALL_SIDES:
            return True
    return False


def bfs_owner(board: Board, cells: Sequence[int]) -> int:
    """Y owner (1 or 2) of a full board, checking that exactly one colour has a Y."""
    black, white = bfs_has_y(board, cells, 1), bfs_has_y(board, cells, 2)
    assert black != white, "a full board must have exactly one Y"
    return 1 if black else 2
