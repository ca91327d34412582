"""Bit masks over a board's nodes, the kernels' position sets: node i is bit i of a Python int."""

from __future__ import annotations

import functools

from ytourney.boards.board import Board


def bits(mask: int) -> list[int]:
    """The nodes of a mask in ascending order."""
    nodes = []
    while mask:
        low = mask & -mask
        nodes.append(low.bit_length() - 1)
        mask ^= low
    return nodes


def mask_of(nodes: object) -> int:
    """The mask of an iterable of nodes."""
    mask = 0
    for node in nodes:  # type: ignore[attr-defined]
        mask |= 1 << node
    return mask


@functools.lru_cache(maxsize=16)
def neighbour_masks(board: Board) -> tuple[int, ...]:
    """For each node, the mask of its neighbours."""
    return tuple(mask_of(board.neighbors[node]) for node in range(board.num_cells))


@functools.lru_cache(maxsize=16)
def full_mask(board: Board) -> int:
    """Every node of the board."""
    return (1 << board.num_cells) - 1
