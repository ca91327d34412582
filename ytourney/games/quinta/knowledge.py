"""Quinta's search knowledge: a win in one (a stone slides onto the one empty node of a run it holds four of), the
one block, and the runs of five each side holds alone as the evaluation after a short rollout."""

from __future__ import annotations

import math

from ytourney.games.api import Color
from ytourney.games.bitboard import mask_of
from ytourney.games.quinta.kernel import segments
from ytourney.games.slides import SlideKernel, SlideKnowledge, slide_action

WEIGHTS = (0.0, 0.0, 1.0, 5.0, 25.0, 125.0)
"""A run's weight by the stones one side holds on it alone."""
TO_MOVE_BONUS = 1.5
TEMPERATURE = 40.0


class QuintaKnowledge(SlideKnowledge):
    """Quinta's knowledge on the kadon board."""

    def setup(self) -> None:
        """The runs of five as masks."""
        self._runs = tuple((mask_of(seg), seg) for seg in segments(self.board))
        self._masks = tuple(mask for mask, _ in self._runs)

    def win_for(self, kernel: SlideKernel, colour: int) -> int | None:
        """A slide of `colour` onto the one empty node of a run holding four of its stones, by the first stone met
        walking out from that node that is not on the run (lines run both ways)."""
        cells = kernel.cells
        own = kernel.masks[colour]
        theirs = kernel.masks[3 - colour]
        rays = self.tables.rays
        for window, _ in self._runs:
            if window & theirs:
                continue
            held = own & window
            if held.bit_count() != 4:
                continue
            target = (window ^ held).bit_length() - 1
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

    def evaluate(self, kernel: SlideKernel) -> float:  # type: ignore[override]
        """Black's prospects in [0, 1]: the runs each side holds alone, weighted 5^stones, the side to move's
        counting half again."""
        black, white = kernel.masks[1], kernel.masks[2]
        ours = theirs = 0.0
        for window in self._masks:
            b = black & window
            w = white & window
            if b:
                if not w:
                    ours += WEIGHTS[b.bit_count()]
            elif w:
                theirs += WEIGHTS[w.bit_count()]
        if kernel.to_move == Color.BLACK:
            ours *= TO_MOVE_BONUS
        else:
            theirs *= TO_MOVE_BONUS
        return 1.0 / (1.0 + math.exp(-(ours - theirs) / TEMPERATURE))
