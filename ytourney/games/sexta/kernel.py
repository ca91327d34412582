"""Sexta's kernel: the slide games' kernel with a chain of six as the win, tested on the mover's stone mask (the
moved stone must touch one or two of its six before the whole chain is flooded)."""

from __future__ import annotations

from typing import Any

from ytourney.boards.board import Board
from ytourney.games.bitboard import bits
from ytourney.games.slides import SlideKernel
from ytourney.games.termination import Termination

CHAIN = Termination.define("chain")
SIX = 6


def is_chain(own: int, neighbours: tuple[int, ...], rings: bool) -> bool:
    """True when the six stones of `own` form one chain in which none touches more than two of them (a closed
    ring of six only when `rings`)."""
    if own.bit_count() != SIX:
        return False
    ends = 0
    rest = own
    while rest:
        low = rest & -rest
        rest ^= low
        degree = (neighbours[low.bit_length() - 1] & own).bit_count()
        if degree == 0 or degree > 2:
            return False
        if degree == 1:
            ends += 1
    if not ends and not rings:
        return False
    seen = frontier = own & -own
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        new = neighbours[low.bit_length() - 1] & own & ~seen
        seen |= new
        frontier |= new
    return seen == own


class SextaKernel(SlideKernel):
    """A Sexta position: six stones a side; all six in one chain, none touching three, wins."""

    win_termination = CHAIN

    def setup(self) -> None:
        """Whether a ring counts."""
        self._rings = bool(self.rules.rings)

    @classmethod
    def core_spec(cls, board: Board, rules: Any) -> tuple[int, tuple[tuple[int, ...], ...], bool]:
        """Sexta (1), no runs, and whether a ring counts."""
        return 1, (), bool(rules.rings)

    def won(self, own: int, target: int) -> bool:
        """The mover's six in one chain (the moved stone touches one or two of them first: a cheap early no)."""
        touching = (self._neighbours[target] & own).bit_count()
        return 0 < touching <= 2 and is_chain(own, self._neighbours, self._rings)

    def winning_stones(self) -> tuple[int, ...]:
        """The winner's six, by node."""
        target = self.last_target()
        if target is None or not self.cells[target]:
            return ()
        return tuple(bits(self.masks[self.cells[target]]))
