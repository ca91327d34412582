"""Tetra's kernel: two stone masks, the stones in hand, and per-node tables of figures and moves built once a board.

A placement's action is its node; a move of 1 or 2 nodes is `encode_path((source, target))`. Each colour's stones
in every figure are counted incrementally, bit-sliced over figure indices, so a win is a count of three carried
over by the stone just placed or moved; "no moves" is no own stone with an empty neighbour (a 2-node move passes
over a neighbour, so it needs one empty too).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from ytourney.boards.board import Board
from ytourney.errors import GameSpecError
from ytourney.games.bitboard import bits, mask_of, neighbour_masks
from ytourney.games.kernel import DRAW, ONGOING, encode_path
from ytourney.games.termination import Termination
from ytourney.games.tetra.figures import figures

FIGURE = Termination.define("figure")
STONES = 10
"""Stones each player places before the movement phase (the rulebook's ten)."""
_SWAP = -1
"""The undo stack's entry for the pie answer's ply."""
_NO_LIMIT = 1 << 62
_MEMO_LIMIT = 4096
"""Patterns a source's MoveMemo keeps before it starts afresh (a region has at most 13 nodes)."""


@functools.lru_cache(maxsize=8)
def step_table(board: Board) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each node, its moves as (target, via): via -1 for a step to a neighbour, else the node passed over on
    a 2-node move along a line (either branch at a pentad)."""
    table = []
    for source in range(board.num_cells):
        moves = [(b, -1) for b in board.neighbors[source]]
        moves += [(c, b) for b in board.neighbors[source] for c in board.continuations(source, b) if c != source]
        table.append(tuple(moves))
    return tuple(table)


class MoveMemo(dict[int, tuple[int, ...]]):
    """One source's legal moves by the occupied nodes of its region, each pattern worked out on its first lookup
    (a miss is `__missing__`, so a hit is one C lookup); capped, random play meets about 2,000 a source."""

    def __init__(self, moves: tuple[tuple[int, int], ...]) -> None:
        super().__init__()
        self.moves = moves

    def __missing__(self, near: int) -> tuple[int, ...]:
        if len(self) >= _MEMO_LIMIT:
            self.clear()
        found = self[near] = tuple(action for need, action in self.moves if not need & near)
        return found


@dataclass(frozen=True, eq=False)
class TetraTables:
    """Everything the kernel and the knowledge look up, built once per board and figure set."""

    size: int
    figures: tuple[int, ...]
    """Every figure as a node mask, in `figures()` order."""
    figure_bits: tuple[int, ...]
    """For each node, the figures through it as a mask over figure indices (bit k: figure k)."""
    moves_from: tuple[tuple[tuple[int, int], ...], ...]
    """For each source, its moves as (need, action): need is the target's bit and the passed node's, all empty."""
    steps: dict[int, tuple[int, int, int]]
    """Every move's action to (source, target, need)."""
    reaching: tuple[tuple[tuple[int, int, int], ...], ...]
    """For each target, the moves ending there as (source bit, passed node's bit or 0, action)."""
    neighbours: tuple[int, ...]
    regions: tuple[int, ...]
    """For each source, every node its moves need empty (their targets and passed nodes)."""
    memo: tuple[MoveMemo, ...]
    """For each source, its legal moves by the occupied part of its region, filled as positions come up."""


@functools.lru_cache(maxsize=8)
def tables(board: Board, bridge_lines: bool = True) -> TetraTables:
    """The tables of `board` with or without the bridge-line figures."""
    size = board.num_cells
    masks = tuple(mask_of(fig) for _, fig in figures(board, bridge_lines))
    figure_bits = [0] * size
    for k, fig in enumerate(masks):
        for node in bits(fig):
            figure_bits[node] |= 1 << k
    moves_from: list[list[tuple[int, int]]] = []
    steps: dict[int, tuple[int, int, int]] = {}
    reaching: list[list[tuple[int, int, int]]] = [[] for _ in range(size)]
    for source, moves in enumerate(step_table(board)):
        entry = []
        for target, via in moves:
            action = encode_path((source, target))
            if action in steps:
                # one way a pair: DESIGN's FROM-TO names a move by its ends (docs/games/tetra.md checks kadon)
                raise GameSpecError(f"board {board.spec!r} has two ways from {source!r} to {target!r}")
            via_bit = 0 if via < 0 else 1 << via
            need = (1 << target) | via_bit
            entry.append((need, action))
            steps[action] = (source, target, need)
            reaching[target].append((1 << source, via_bit, action))
        moves_from.append(entry)
    regions = tuple(functools.reduce(int.__or__, (need for need, _ in entry), 0) for entry in moves_from)
    return TetraTables(size, masks, tuple(figure_bits),
                       tuple(map(tuple, moves_from)), steps, tuple(map(tuple, reaching)), neighbour_masks(board),
                       regions, tuple(MoveMemo(tuple(entry)) for entry in moves_from))


class TetraKernel:
    """One Tetra position as a search walks it (games/kernel.py's protocol)."""

    __slots__ = ("_stack", "cells", "hand", "masks", "max_plies", "ones", "plies", "result", "score", "t",
                 "termination", "to_move", "twos", "win")

    def __init__(self, t: TetraTables, max_plies: int | None) -> None:
        self.t = t
        self.max_plies = _NO_LIMIT if max_plies is None else max_plies
        self.cells = [0] * t.size
        self.masks = [0, 0, 0]
        """The stones as node masks: index 1 Black's, 2 White's."""
        self.hand = [0, STONES, STONES]
        """Stones in hand: index 1 Black's, 2 White's."""
        self.ones = [0, 0, 0]
        self.twos = [0, 0, 0]
        """Each colour's stones in every figure, counted mod 4 and bit-sliced over figure indices (bit k of `ones`
        and of `twos`: figure k's count's two bits); a count of 3 turning to 0 is a figure completed."""
        self.to_move = 1
        self.plies = 0
        self.result = ONGOING
        self.termination: Termination | None = None
        self.score: tuple[float, float] | None = None
        self.win = 0
        """The winning figure's mask once a figure ended the game, else 0."""
        self._stack: list[int] = []

    @classmethod
    def setup(cls, t: TetraTables, max_plies: int | None, black: Iterable[int] = (), white: Iterable[int] = (),
              in_hand: tuple[int, int] = (0, 0), to_move: int = 1) -> TetraKernel:
        """A position with the given stones, stones in hand (Black's, White's) and side to move; not judged."""
        kernel = cls(t, max_plies)
        for colour, nodes in ((1, black), (2, white)):
            for node in nodes:
                if type(node) is not int or not 0 <= node < t.size or kernel.cells[node]:
                    raise GameSpecError(f"node {node!r} is off the board or given twice")
                kernel.cells[node] = colour
                kernel.masks[colour] |= 1 << node
        for count in in_hand:
            if type(count) is not int or not 0 <= count <= STONES:
                raise GameSpecError(f"stones in hand {count!r}; expected 0 to {STONES}")
        if to_move not in (1, 2):
            raise GameSpecError(f"side to move {to_move!r}; expected 1 (black) or 2 (white)")
        kernel.hand = [0, *in_hand]
        kernel.to_move = to_move
        for colour in (1, 2):
            stones = kernel.masks[colour]
            while stones:
                low = stones & -stones
                stones ^= low
                kernel._add(colour, t.figure_bits[low.bit_length() - 1])
        return kernel

    def _add(self, colour: int, figures: int) -> int:
        """Count one more `colour` stone in `figures`; returns those it completes."""
        ones, twos = self.ones[colour], self.twos[colour]
        carry = ones & figures
        self.ones[colour] = ones ^ figures
        self.twos[colour] = twos ^ carry
        return twos & carry

    def legal_actions(self) -> list[int]:
        """Placements on empty nodes while stones are in hand, else every 1- or 2-node move of an own stone."""
        if self.result != ONGOING:
            return []
        c = self.to_move
        if self.hand[c]:
            cells = self.cells
            return [n for n in range(self.t.size) if not cells[n]]
        masks = self.masks
        occupied = masks[1] | masks[2]
        t = self.t
        regions, memo = t.regions, t.memo
        out: list[int] = []
        own = masks[c]
        while own:
            low = own & -own
            own ^= low
            source = low.bit_length() - 1
            out += memo[source][occupied & regions[source]]
        return out

    def is_legal(self, action: int) -> bool:
        """True when `apply(action)` is allowed now, checked on the board (any int may be asked)."""
        if type(action) is not int or self.result != ONGOING:
            return False
        c = self.to_move
        if 0 <= action < self.t.size:
            return self.hand[c] > 0 and not self.cells[action]
        step = self.t.steps.get(action)
        if step is None or self.hand[c]:
            return False
        source, _, need = step
        return self.cells[source] == c and not need & (self.masks[1] | self.masks[2])

    def apply(self, action: int) -> None:
        """Place or move a stone, then judge: a figure, the move limit, the next side's lack of moves."""
        c = self.to_move
        masks = self.masks
        t = self.t
        figure_bits = t.figure_bits
        ones = self.ones[c]
        twos = self.twos[c]
        if action < t.size:
            self.hand[c] -= 1
            self.cells[action] = c
            masks[c] |= 1 << action
            add = figure_bits[action]
        else:
            source, target, _ = t.steps[action]
            cells = self.cells
            cells[source] = 0
            cells[target] = c
            masks[c] ^= (1 << source) | (1 << target)
            remove = figure_bits[source]
            twos ^= remove & ~ones
            ones ^= remove
            add = figure_bits[target]
        carry = ones & add
        self.ones[c] = ones ^ add
        self.twos[c] = twos ^ carry
        self._stack.append(action)
        self.plies += 1
        other = 3 - c
        self.to_move = other
        full = twos & carry
        if full:
            # the lowest index: the first of the target's figures in `figures()` order, as the old loop found
            self.win = t.figures[(full & -full).bit_length() - 1]
            self.result = c
            self.termination = FIGURE
        elif self.plies >= self.max_plies:
            self.result = DRAW
            self.termination = Termination.MOVE_LIMIT
        elif not self.hand[other] and not self._can_move(masks[other]):
            self.result = c
            self.termination = Termination.NO_MOVES

    def _can_move(self, stones: int) -> bool:
        """True when one of `stones` has an empty neighbour."""
        occupied = self.masks[1] | self.masks[2]
        neighbours = self.t.neighbours
        while stones:
            low = stones & -stones
            if neighbours[low.bit_length() - 1] & ~occupied:
                return True
            stones ^= low
        return False

    def undo(self) -> None:
        """Take back the last action or pie answer's ply."""
        action = self._stack.pop()
        self.plies -= 1
        if action == _SWAP:
            return
        c = 3 - self.to_move
        self.to_move = c
        self.result = ONGOING
        self.termination = None
        self.win = 0
        t = self.t
        figure_bits = t.figure_bits
        ones, twos = self.ones[c], self.twos[c]
        if action < t.size:
            self.hand[c] += 1
            self.cells[action] = 0
            self.masks[c] ^= 1 << action
            remove = figure_bits[action]
        else:
            source, target, _ = t.steps[action]
            self.cells[target] = 0
            self.cells[source] = c
            self.masks[c] ^= (1 << source) | (1 << target)
            remove = figure_bits[target]
            add = figure_bits[source]
            twos ^= ones & add
            ones ^= add
        # mod 4: a completed figure's 0 takes back to 3
        self.twos[c] = twos ^ (remove & ~ones)
        self.ones[c] = ones ^ remove

    def count_swap(self) -> None:
        """Count the pie answer's ply; stones and side to move stay."""
        self._stack.append(_SWAP)
        self.plies += 1

    def key(self) -> int:
        """The stones, the stones in hand and the side to move, hashed."""
        return hash((self.masks[1], self.masks[2], self.hand[1], self.hand[2], self.to_move))

    def clone(self) -> TetraKernel:
        """An independent copy (its undo stack too)."""
        new = object.__new__(TetraKernel)
        new.t = self.t
        new.max_plies = self.max_plies
        new.cells = self.cells.copy()
        new.masks = self.masks.copy()
        new.hand = self.hand.copy()
        new.ones = self.ones.copy()
        new.twos = self.twos.copy()
        new.to_move = self.to_move
        new.plies = self.plies
        new.result = self.result
        new.termination = self.termination
        new.score = self.score
        new.win = self.win
        new._stack = self._stack.copy()
        return new
