"""The automorphisms of a board's graph: the permutations of cells that keep every adjacency."""

from __future__ import annotations

import functools

from ytourney.boards.board import Board, parse_board


def automorphisms(board: Board) -> tuple[tuple[int, ...], ...]:
    """Every automorphism of the board graph as a tuple image[cell], the identity first (cached per board)."""
    return _automorphisms(board.spec)


@functools.cache
def _automorphisms(spec: str) -> tuple[tuple[int, ...], ...]:
    board = parse_board(spec)
    nbrs = [frozenset(n) for n in board.neighbors]
    degree = [len(n) for n in nbrs]
    start = min(range(board.num_cells), key=lambda c: (sum(1 for d in degree if d == degree[c]), c))
    order = _bfs_order(board, start)
    position = {cell: i for i, cell in enumerate(order)}
    # the earliest already-placed neighbour of every cell but the first, to draw candidates from
    anchor = [min((n for n in nbrs[c] if position[n] < position[c]), key=position.__getitem__, default=-1)
              for c in order]
    found: list[tuple[int, ...]] = []
    image = [-1] * board.num_cells
    used = [False] * board.num_cells

    def extend(i: int) -> None:
        if i == len(order):
            found.append(tuple(image))
            return
        cell = order[i]
        pool = range(board.num_cells) if anchor[i] < 0 else nbrs[image[anchor[i]]]
        for target in sorted(pool):
            if used[target] or degree[target] != degree[cell]:
                continue
            if any((image[n] in nbrs[target]) != (n in nbrs[cell])
                   for n in order[:i] if n in nbrs[cell] or image[n] in nbrs[target]):
                continue
            image[cell], used[target] = target, True
            extend(i + 1)
            image[cell], used[target] = -1, False

    extend(0)
    identity = tuple(range(board.num_cells))
    return tuple(sorted(found, key=lambda p: p != identity))


def _bfs_order(board: Board, start: int) -> list[int]:
    """Cells in breadth-first order from `start` (the board graph is connected)."""
    order, seen = [start], {start}
    for cell in order:
        for n in board.neighbors[cell]:
            if n not in seen:
                seen.add(n)
                order.append(n)
    return order
