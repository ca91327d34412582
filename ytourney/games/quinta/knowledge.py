"""Quinta's search knowledge: a win in one (a stone slides onto the one empty node of a run it holds four of), the
one block, and the runs of five each side holds alone as the evaluation after a short rollout."""

from __future__ import annotations

import math

from ytourney.games.api import Color
from ytourney.games.bitboard import mask_of
from ytourney.games.quinta.kernel import segments
from ytourney.games.slide_tables import slide_action
from ytourney.games.slides import SlideKernel, SlideKnowledge

WEIGHTS = (0.0, 0.0, 1.0, 5.0, 25.0, 125.0)
"""A run's weight by the stones one side holds on it alone."""
TO_MOVE_BONUS = 1.5
TEMPERATURE = 40.0


class QuintaKnowledge(SlideKnowledge):
    """Quinta's knowledge on the kadon board, counting the stones on all 198 runs at once: bit i of a per-node mask
    is run i, and a side's stones are summed into three bit-sliced counters (a run holds at most five)."""

    core_params = (*WEIGHTS, TO_MOVE_BONUS, TEMPERATURE)

    def setup(self) -> None:
        """The runs of five as masks, and per node the runs through it as a mask over run indices."""
        runs = segments(self.board)
        self._runs = tuple(mask_of(seg) for seg in runs)
        self._node_runs = tuple(mask_of(i for i, seg in enumerate(runs) if node in seg)
                                for node in range(self.board.num_cells))

    def _counts(self, stones: int) -> tuple[int, int, int]:
        """Bit-sliced counts of `stones` on every run: bits 1, 2 and 4 of each run's count."""
        node_runs = self._node_runs
        ones = twos = fours = 0
        while stones:
            low = stones & -stones
            stones ^= low
            runs = node_runs[low.bit_length() - 1]
            carry = ones & runs
            ones ^= runs
            fours |= twos & carry
            twos ^= carry
        return ones, twos, fours

    def _touched(self, stones: int) -> int:
        """The runs holding any of `stones`."""
        node_runs = self._node_runs
        touched = 0
        while stones:
            low = stones & -stones
            stones ^= low
            touched |= node_runs[low.bit_length() - 1]
        return touched

    def win_for(self, kernel: SlideKernel, colour: int) -> int | None:
        """A slide of `colour` onto the one empty node of a run holding four of its stones and none of the other
        side's, by the first stone met walking out from that node that is not on the run (lines run both ways)."""
        ones, twos, fours = self._counts(kernel.masks[colour])
        ready = fours & ~twos & ~ones
        if not ready:
            return None
        ready &= ~self._touched(kernel.masks[3 - colour])
        cells = kernel.cells
        own = kernel.masks[colour]
        rays = self.tables.rays
        while ready:
            low = ready & -ready
            ready ^= low
            window = self._runs[low.bit_length() - 1]
            target = (window ^ (own & window)).bit_length() - 1
            for ray in rays[target]:
                for node in ray:
                    stone = cells[node]
                    if stone:
                        if stone == colour and not window >> node & 1:
                            action = slide_action(node, target)
                            if action in kernel.source_actions(node):
                                return action
                        break
        return None

    def position_value(self, kernel: SlideKernel) -> float:
        """Black's prospects in [0, 1]: the runs each side holds alone, weighted 5^stones, the side to move's
        counting half again."""
        black, white = kernel.masks[1], kernel.masks[2]
        ours = self._weight(self._counts(black), self._touched(white))
        theirs = self._weight(self._counts(white), self._touched(black))
        if kernel.to_move == Color.BLACK:
            ours *= TO_MOVE_BONUS
        else:
            theirs *= TO_MOVE_BONUS
        return 1.0 / (1.0 + math.exp(-(ours - theirs) / TEMPERATURE))

    @staticmethod
    def _weight(counts: tuple[int, int, int], spoiled: int) -> float:
        """The weights of the runs a side holds alone, from its counts and the runs the other side touches."""
        ones, twos, fours = counts
        alone_ones = ones & ~spoiled
        return (WEIGHTS[2] * (~fours & twos & ~alone_ones & ~spoiled).bit_count()
                + WEIGHTS[3] * (~fours & twos & alone_ones).bit_count()
                + WEIGHTS[4] * (fours & ~twos & ~alone_ones & ~spoiled).bit_count()
                + WEIGHTS[5] * (fours & ~twos & alone_ones).bit_count())
