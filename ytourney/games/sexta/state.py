"""Sexta's positions: six stones each on every other perimeter node, slid any distance along a line; all six of a
colour in one chain where no stone touches more than two of the six wins."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ytourney.boards.board import Board
from ytourney.games.api import Color, Move, Outcome, Termination
from ytourney.games.slides import SlideState

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


class SextaState(SlideState):
    """A Sexta position: the stones and whose turn it is."""

    example = "B1-B5"

    def start_sets(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Every other perimeter node (DESIGN: Black B1 F1 J2 L6 A8 A4, White D1 H1 L4 J8 A6 A2)."""
        return START_SETS[self.rules.start]

    def setup(self) -> None:
        """No winning chain yet."""
        self._nbrs = self.board.neighbors
        self.winning_chain: tuple[int, ...] = ()

    def judge(self, move: Move) -> Outcome | None:
        """A win when the mover's six stones now form one chain (no stone touching more than two of them)."""
        mover = self.to_move.other
        chain = chain_of(self.board, self.cells, mover, self.rules.rings)
        if chain:
            self.winning_chain = chain
            names = " ".join(self.board.names[n] for n in chain)
            return Outcome(mover, CHAIN, None, f"{mover} has a chain of six: {names}")
        return None

    # --- the rollout's pieces for the generic mcts (players/bots/uct.py) ----------------------------------

    def rollout_won(self, cells: list[int], mover: int, target: int) -> bool:
        """The mover's six in one chain."""
        return bool(chain_of(self.board, cells, mover, self.rules.rings))

    def rollout_score(self, cells: list[int], own: dict[int, list[int]], mover: int) -> float:
        """The shape heuristic: how near each side's six are to a chain."""
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
