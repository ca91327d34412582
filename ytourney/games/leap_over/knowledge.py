"""Leap Over's search knowledge: one chain per stone and landing, and leaves scored by the race evaluation at once.

Random play never finishes a game of Leap Over, so a playout says nothing: the defaults score each new leaf by
`evaluation.black_value` without playing on (exploration 0.5, no playout plies).
"""

from __future__ import annotations

import functools

from ytourney.boards.board import Board
from ytourney.games.kernel import PASS_ACTION
from ytourney.games.knowledge import Knowledge, SearchDefaults
from ytourney.games.leap_over.evaluation import black_value
from ytourney.games.leap_over.kernel import FIRST_FIELD, LeapOverKernel


class LeapOverKnowledge(Knowledge):
    """The chains worth searching and the race evaluation of Leap Over on one board."""

    defaults = SearchDefaults(exploration=0.5, playout_plies=0)

    def __init__(self, board: Board) -> None:
        self.board = board

    def search_actions(self, kernel: LeapOverKernel) -> list[int]:  # type: ignore[override]
        """One chain per stone and landing (chains ending on the same node give the same position), the shortest,
        found breadth first instead of listing every chain; the pass when there is none."""
        t = kernel.tables
        order, shift, over_start, landings = t.order, t.shift, t.over_start, t.landings
        occupied = kernel.masks[1] | kernel.masks[2]
        found: list[int] = []
        append = found.append
        mine = kernel.masks[kernel.to_move]
        while mine:
            low = mine & -mine
            mine ^= low
            s = low.bit_length() - 1
            if not landings(s, occupied):
                continue
            lifted = over_start[s]
            seen = low
            todo = [(s, 1 + ((s + 1) << FIRST_FIELD), 1)]
            for p, action, depth in todo:
                new = landings(p, occupied) & ~(seen | lifted[p])
                if new:
                    seen |= new
                    terms = shift[depth]
                    for q, _ in order[p][new]:
                        longer = action + terms[q]
                        append(longer)
                        todo.append((q, longer, depth + 1))
        return found or [PASS_ACTION]

    def evaluate(self, kernel: LeapOverKernel) -> float:  # type: ignore[override]
        """Black's chance by the race evaluation (distances still to go, the last stone, stranded stones, stones
        at home)."""
        return black_value(self.board, kernel.cells, kernel.masks[1] | kernel.masks[2])


@functools.lru_cache(maxsize=4)
def knowledge(board: Board) -> LeapOverKnowledge:
    """The knowledge of `board`, made once."""
    return LeapOverKnowledge(board)
