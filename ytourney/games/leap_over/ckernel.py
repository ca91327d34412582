"""Leap Over's kernel choice: the optional C core (`_leapcore.Kernel`) when built and allowed, else the pure-Python
`LeapOverKernel`; both list the same chains in the same order, end games alike, and their playouts agree move for
move for one seed (YTOURNEY_PURE_PYTHON=1 picks Python). The core's `MoveCache` keeps the Move of every chain met,
so the state lists Moves without building them in Python."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from types import ModuleType

from ytourney.boards.board import Board
from ytourney.games.api import PASS, Move, MoveKind, Termination
from ytourney.games.cores import load_core
from ytourney.games.kernel import Kernel
from ytourney.games.leap_over import evaluation
from ytourney.games.leap_over.kernel import BLOCKED, FILLED, LeapOverKernel, tables

core = load_core("ytourney.games.leap_over._leapcore", ("race_value",))
"""The C core module, or None (not built, YTOURNEY_PURE_PYTHON=1, or built from a source before the search's own
evaluation: it lacks `race_value`)."""

CORE_NODES = 128
CORE_JUMPS = 8
"""The largest board and the most jumps from one node the core holds (kadon: 93 nodes, at most 7 jumps)."""


def _mask(nodes: Iterable[int]) -> int:
    mask = 0
    for node in nodes:
        mask |= 1 << node
    return mask


def build_tables(module: ModuleType, board: Board) -> object | None:
    """A core module's tables of `board` (the Python tables' jumps in the same order, the evaluation's tables),
    or None for a board the core cannot hold."""
    t = tables(board)
    if t.size > CORE_NODES or any(len(row) > CORE_JUMPS or len({to for _, to in row}) < len(row) for row in t.jumps):
        return None
    cost, home, far, near, rings = evaluation._tables(board)
    return module.Tables(t.size, t.jumps, t.targets, t.reversible, FILLED, BLOCKED, Termination.MOVE_LIMIT,
                         (0, _mask(home[1]), _mask(home[2])), cost, far, near, rings,
                         (evaluation.HOME_PENALTY, evaluation.STRANDED_WEIGHT, evaluation.LAST_WEIGHT,
                          evaluation.TEMPERATURE, evaluation.TOGETHER_WEIGHT))


@functools.lru_cache(maxsize=4)
def core_tables(board: Board) -> object | None:
    """The loaded core's tables of `board`, built once (None without the core or for a board it cannot hold)."""
    return None if core is None else build_tables(core, board)


CHAINS_KEPT = 4096
"""Chains the core's MoveCache keeps before it starts afresh (reusing the Moves no one else holds). Far below the
front's TABLE_LIMIT on purpose: random play meets ~13 new chains a ply, and a small trie with its reused Moves stays
in the CPU caches (measured: 2^12 chains 240k random plies/s through the API, 2^15 190k, 2^18 137k)."""


@functools.lru_cache(maxsize=4)
def move_cache(board: Board) -> object | None:
    """The core's Move of the chains met on `board` (a trie walked as the chains are listed; at most CHAINS_KEPT
    chains kept, then it starts afresh), or None without the core."""
    t = core_tables(board)
    return None if t is None else core.MoveCache(t, Move, MoveKind.JUMP, PASS, CHAINS_KEPT)  # type: ignore[union-attr]


def new_kernel(board: Board, goal: str, max_plies: int) -> Kernel:
    """The start position's kernel: the C one when the core is loaded and holds the board."""
    t = core_tables(board)
    if t is None:
        return LeapOverKernel(board, goal, max_plies)
    homes = tables(board).home_nodes
    return core.Kernel(t, goal == "all", max_plies, homes[1], homes[2], 1)  # type: ignore[union-attr, no-any-return]


def to_core(kernel: LeapOverKernel, board: Board, module: ModuleType | None = None,
            board_tables: object | None = None) -> Kernel:
    """A C kernel of the same position as a pure-Python one of `board` (its ply count, no history, not judged):
    on the loaded core unless a core `module` and its `board_tables` are given."""
    if module is None or board_tables is None:
        module, board_tables = core, core_tables(board)
    assert module is not None and board_tables is not None
    masks = kernel.masks
    black = [node for node in range(len(kernel.cells)) if masks[1] >> node & 1]
    white = [node for node in range(len(kernel.cells)) if masks[2] >> node & 1]
    new = module.Kernel(board_tables, kernel.goal_all, kernel.max_plies, black, white, kernel.to_move)
    for _ in range(kernel.plies):
        new.count_swap()  # the ply count only: a set-up position has no history to undo
    new.setup(black, white, kernel.to_move)
    return new  # type: ignore[no-any-return]
