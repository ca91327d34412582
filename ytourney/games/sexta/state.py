"""Sexta's positions: six stones each on every other perimeter node, slid any distance along a line; all six of a
colour in one chain where no stone touches more than two of the six wins."""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from ytourney.boards.board import Board
from ytourney.games.api import EMPTY, Color, Move, MoveKind, Outcome, Termination
from ytourney.games.stones import StoneState, slide_table, slide_targets

CHAIN = Termination.define("chain")
SIX = 6

START_SETS = {
    "between": (("B1", "F1", "J2", "L6", "A8", "A4"), ("D1", "H1", "L4", "J8", "A6", "A2")),
    "corners": (("A1", "E1", "I1", "M5", "A9", "A5"), ("C1", "G1", "K3", "K7", "A7", "A3")),
}
"""Every other perimeter node: DESIGN's `between` (the nodes between corners and side middles), or `corners`
(the other parity: Black on the corners and side middles)."""


@dataclass(frozen=True)
class SextaRules:
    """Sexta's rule options (see docs/games/sexta.md)."""

    pie: bool = False
    start: str = "between"
    rings: bool = True
    max_plies: int | None = 1000

    def to_dict(self) -> dict[str, Any]:
        """JSON form kept in records."""
        return {"pie": self.pie, "start": self.start, "rings": self.rings, "max_plies": self.max_plies}


@functools.lru_cache(maxsize=8)
def step_moves(board: Board) -> tuple[dict[int, Move], ...]:
    """The slide moves by source and target, made once per board."""
    return tuple({t: Move.step(s, t) for ray in board.rays[s] for t in ray} for s in range(board.num_cells))


def chain_of(board: Board, cells: list[int], colour: int, rings: bool) -> tuple[int, ...]:
    """The stones of `colour` when they number six and form one chain in which none touches more than two of them
    (a closed ring of six only when `rings`), else ()."""
    stones = [n for n, c in enumerate(cells) if c == colour]
    if len(stones) != SIX:
        return ()
    members = set(stones)
    ends = 0
    for n in stones:
        degree = sum(1 for m in board.neighbors[n] if m in members)
        if degree == 0 or degree > 2:
            return ()
        ends += degree == 1
    if ends == 0 and not rings:
        return ()
    seen, stack = {stones[0]}, [stones[0]]
    while stack:
        for m in board.neighbors[stack.pop()]:
            if m in members and m not in seen:
                seen.add(m)
                stack.append(m)
    return tuple(stones) if len(seen) == SIX else ()


class SextaState(StoneState):
    """A Sexta position: the stones and whose turn it is."""

    def start(self) -> None:
        """Every other perimeter node (DESIGN: Black B1 F1 J2 L6 A8 A4, White D1 H1 L4 J8 A6 A2)."""
        board = self.board
        for names, colour in zip(START_SETS[self.rules.start], (Color.BLACK, Color.WHITE), strict=True):
            for name in names:
                self.cells[board.index_of(name)] = colour  # type: ignore[index]
        self._rays = slide_table(board)
        self._moves = step_moves(board)
        self._nbrs = board.neighbors
        self.winning_chain: tuple[int, ...] = ()

    def generate_moves(self) -> list[Move]:
        """Every slide of an own stone any distance along a line through empty nodes."""
        cells, mover, rays, table = self.cells, self.to_move, self._rays, self._moves
        moves: list[Move] = []
        for source, stone in enumerate(cells):
            if stone == mover:
                by_target = table[source]
                moves.extend(by_target[t] for t in slide_targets(rays[source], cells))
        return moves

    def is_legal(self, move: Move) -> bool:
        """Checked on the board (the stone, then its slides), not by a search of the move list."""
        if self._outcome is not None or not isinstance(move, Move) or move.kind is not MoveKind.STEP:
            return super().is_legal(move)
        if move.capture is not None or len(move.path) != 2 or not all(0 <= n < len(self.cells) for n in move.path):
            return False
        source, target = move.path
        return self.cells[source] == self.to_move and target in slide_targets(self._rays[source], self.cells)

    def apply(self, move: Move) -> None:
        """Slide the stone."""
        self.cells[move.source] = EMPTY
        self.cells[move.target] = self.to_move

    def judge(self, move: Move) -> Outcome | None:
        """A win when the mover's six stones now form one chain (no stone touching more than two of them)."""
        mover = self.to_move.other
        chain = chain_of(self.board, self.cells, mover, self.rules.rings)
        if chain:
            self.winning_chain = chain
            names = " ".join(self.board.names[n] for n in chain)
            return Outcome(mover, CHAIN, None, f"{mover} has a chain of six: {names}")
        return None

    def refusal(self, move: Move) -> str:
        """Why `move` is illegal, in one line naming it."""
        name = self._name(move).strip("'")
        names = self.board.names
        if move.kind is not MoveKind.STEP or move.capture is not None:
            return f"{name}: sexta moves slide a stone along a line (FROM-TO, e.g. B1-B5), no {move.kind.value}"
        source, target = move.path
        if self.cells[source] != self.to_move:
            return f"{name}: no {self.to_move} stone on {names[source]}"
        if self.cells[target] != EMPTY:
            return f"{name}: node {names[target]} is occupied"
        if target not in self._moves[source]:
            return f"{name}: not on a line from {names[source]}"
        return f"{name}: the line from {names[source]} to {names[target]} is blocked"

    # --- search hooks for the generic mcts (players/bots/uct.py) ----------------------------------------

    def rollout(self, rng: random.Random, plies: int) -> float:
        """Up to `plies` random slides on scratch stones; Black's share: 1 or 0 on a win, else the heuristic."""
        cells = self.cells.copy()
        mover = int(self.to_move)
        rays, board, rings = self._rays, self.board, self.rules.rings
        own = {Color.BLACK: [n for n, c in enumerate(cells) if c == Color.BLACK],
               Color.WHITE: [n for n, c in enumerate(cells) if c == Color.WHITE]}
        for _ in range(plies):
            stones = own[mover]
            i = rng.randrange(len(stones))
            targets = slide_targets(rays[stones[i]], cells)
            if not targets:
                movable = [j for j, n in enumerate(stones) if slide_targets(rays[n], cells)]
                if not movable:
                    return 0.0 if mover == Color.BLACK else 1.0
                i = rng.choice(movable)
                targets = slide_targets(rays[stones[i]], cells)
            source = stones[i]
            target = rng.choice(targets)
            stones[i] = target
            cells[source] = EMPTY
            cells[target] = mover
            if chain_of(board, cells, mover, rings):
                return 1.0 if mover == Color.BLACK else 0.0
            mover = 3 - mover
        return 0.5 + (shape(self._nbrs, own[Color.BLACK]) - shape(self._nbrs, own[Color.WHITE])) / 24.0


def shape(neighbors: tuple[tuple[int, ...], ...], stones: list[int]) -> float:
    """How near six stones are to a chain, 0..10: touching pairs (at most two per stone) and the largest group."""
    members = set(stones)
    pairs = 0.0
    for n in stones:
        degree = sum(1 for m in neighbors[n] if m in members)
        pairs += min(degree, 2) - max(0, degree - 2)
    largest = 0
    seen: set[int] = set()
    for start in stones:
        if start in seen:
            continue
        group, stack = 1, [start]
        seen.add(start)
        while stack:
            for m in neighbors[stack.pop()]:
                if m in members and m not in seen:
                    seen.add(m)
                    stack.append(m)
                    group += 1
        largest = max(largest, group)
    return pairs / 2 + largest - 1
