"""Tetra's winning figures, read from the board's lines (DESIGN §1b): four stones on a line with one node between
neighbours, four on a line of bridges, or a side-2 diamond. On kadon: 156 + 153 + 174 = 483 figures."""

from __future__ import annotations

import functools

from ytourney.boards.board import Board

LINE_NODE = "line-node"
LINE_BRIDGE = "line-bridge"
DIAMOND = "diamond"
KINDS = (LINE_NODE, LINE_BRIDGE, DIAMOND)


def line_node_figures(board: Board) -> set[frozenset[int]]:
    """Every other node of a 7-node straight line (either branch at a pentad's fork)."""
    return {frozenset(line[::2]) for c in range(board.num_cells)
            for line in board.lines_through(c, 6) if len(line) == 7}


def bridge_pairs(board: Board) -> dict[int, dict[int, frozenset[int]]]:
    """For each node, its bridge partners with their carriers: two adjacent common neighbours, no others."""
    nbrs = [set(n) for n in board.neighbors]
    out: dict[int, dict[int, frozenset[int]]] = {p: {} for p in range(board.num_cells)}
    for p in range(board.num_cells):
        for q in range(board.num_cells):
            common = nbrs[p] & nbrs[q]
            if q != p and q not in nbrs[p] and len(common) == 2:
                x, y = common
                if y in nbrs[x]:
                    out[p][q] = frozenset(common)
    return out


def line_bridge_figures(board: Board) -> set[frozenset[int]]:
    """Four stones on a line of bridges: each next bridge's carriers continue the lines carrier -> stone."""
    bridges = bridge_pairs(board)
    found: set[frozenset[int]] = set()

    def extend(chain: list[int], carriers: frozenset[int]) -> None:
        if len(chain) == 4:
            found.add(frozenset(chain))
            return
        x, y = carriers
        p = chain[-1]
        for cx in board.continuations(x, p):
            for cy in board.continuations(y, p):
                for q, carry in bridges[p].items():
                    if carry == {cx, cy}:
                        extend([*chain, q], carry)

    for p in range(board.num_cells):
        for q, carry in bridges[p].items():
            extend([p, q], carry)
    return found


def diamond_figures(board: Board) -> set[frozenset[int]]:
    """Two side-2 triangles sharing a side; a side is two nodes with one node between them on a line."""
    two = {c: {line[2] for line in board.lines_through(c, 2) if len(line) == 3} for c in range(board.num_cells)}
    triangles = {frozenset((p, q, r)) for p in two for q in two[p] for r in two[p] if q != r and r in two[q]}
    return {t | u for t in triangles for u in triangles if len(t & u) == 2}


@functools.lru_cache(maxsize=8)
def figures(board: Board, bridge_lines: bool = True) -> tuple[tuple[str, tuple[int, int, int, int]], ...]:
    """Every winning figure as (kind, its four nodes sorted), kinds in KINDS order; bridge lines only when asked."""
    found = [(LINE_NODE, line_node_figures(board)), (DIAMOND, diamond_figures(board))]
    if bridge_lines:
        found.insert(1, (LINE_BRIDGE, line_bridge_figures(board)))
    return tuple((kind, tuple(sorted(fig))) for kind, figs in found for fig in sorted(figs, key=sorted))


@functools.lru_cache(maxsize=8)
def figures_by_node(board: Board, bridge_lines: bool = True) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each node, the four nodes of every figure it belongs to."""
    table: list[list[tuple[int, ...]]] = [[] for _ in range(board.num_cells)]
    for _, fig in figures(board, bridge_lines):
        for node in fig:
            table[node].append(fig)
    return tuple(tuple(figs) for figs in table)
