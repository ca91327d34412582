"""The kernel protocol under every game: integer actions, `apply`/`undo`, the legal actions, the end, a position key.

Modelled on OpenSpiel's state API: a kernel is one mutable position that a search walks down and back up without
copying. Actions are ints: a placement is its node, a pass `PASS_ACTION`, any other move its path packed by
`encode_path` (9 bits a node). The pie answer is not a kernel action: it changes who owns the stones, never the
position, so the Move-level front (`games.front.KernelState`) keeps it and counts its ply with `count_swap`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ytourney.games.termination import Termination

ONGOING = -1
"""`Kernel.result` while the game goes on; once over it is 0 for a draw or the winner's Color value (1 or 2)."""
DRAW = 0

NODE_BITS = 9
"""Bits a node takes in a packed path: boards here have at most 511 nodes (YvY's hex:12 has 433)."""
NODE_LIMIT = 1 << NODE_BITS
PASS_ACTION = NODE_LIMIT
"""The pass: above every node, below every packed path."""


class Kernel(Protocol):
    """One position of a game as a search walks it: mutable, undoable, keyed.

    Attributes read by everyone and written by the kernel alone: `cells` (EMPTY or a Color value per node),
    `to_move` (the Color value of the side to move), `plies` (actions since the start, the pie answer included),
    `result` (ONGOING, DRAW or the winner's Color value), `termination` (None while the game goes on) and `score`
    (Black's and White's, where the game keeps one).
    """

    cells: list[int]
    to_move: int
    plies: int
    result: int
    termination: Termination | None
    score: tuple[float, float] | None

    def legal_actions(self) -> list[int]:
        """Every legal action of the side to move, a fresh list; empty once the game is over."""

    def is_legal(self, action: int) -> bool:
        """True when `apply(action)` is allowed now (any int may be asked)."""

    def apply(self, action: int) -> None:
        """Play a legal action and decide the end it brings (the caller has checked legality)."""

    def undo(self) -> None:
        """Take back the last `apply` or `count_swap`, restoring the position, its key and its legal actions."""

    def count_swap(self) -> None:
        """Count the pie answer's ply: the position and the side to move stay (undone by `undo`)."""

    def key(self) -> int:
        """A hash of the position (stones, stones in hand, side to move): equal positions, equal keys."""

    def clone(self) -> Kernel:
        """An independent copy at the cost of its data, not of a replay."""


def encode_path(path: Sequence[int], capture: int | None = None) -> int:
    """The action of a move along `path` (a placement: the node itself), with the node it chooses to capture."""
    if len(path) == 1 and capture is None:
        return path[0]
    packed = 0
    for node in reversed(path):
        packed = (packed << NODE_BITS) | (node + 1)
    packed = (packed << NODE_BITS) | (0 if capture is None else capture + 1)
    return (packed << 1) | 1


def decode_path(action: int) -> tuple[tuple[int, ...], int | None]:
    """The path and capture of a packed action (a placement: its node alone)."""
    if action < NODE_LIMIT:
        return (action,), None
    packed = action >> 1
    capture_field = packed & (NODE_LIMIT - 1)
    packed >>= NODE_BITS
    path = []
    while packed:
        path.append((packed & (NODE_LIMIT - 1)) - 1)
        packed >>= NODE_BITS
    return tuple(path), (None if capture_field == 0 else capture_field - 1)
