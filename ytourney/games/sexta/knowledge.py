"""Sexta's search knowledge: a win in one (one stone slides to close the chain), the one block, and the shape of
each side's six (touching pairs, at most two a stone, and the largest group) as the evaluation after a rollout."""

from __future__ import annotations

from ytourney.games.bitboard import bits
from ytourney.games.sexta.kernel import SIX, is_chain
from ytourney.games.slide_tables import slide_target
from ytourney.games.slides import SlideKernel, SlideKnowledge

SHAPE_SCALE = 24.0
"""Shape points (0..10 a side) per unit of value."""


def groups(neighbours: tuple[int, ...], own: int) -> list[int]:
    """The connected groups of the stones of `own`, as masks."""
    found = []
    left = own
    while left:
        seen = frontier = left & -left
        while frontier:
            low = frontier & -frontier
            frontier ^= low
            new = neighbours[low.bit_length() - 1] & own & ~seen
            seen |= new
            frontier |= new
        found.append(seen)
        left &= ~seen
    return found


def shape(neighbours: tuple[int, ...], own: int) -> float:
    """How near the stones of `own` are to a chain, 0..10 for six: touching pairs (at most two per stone) and the
    largest group."""
    pairs = 0.0
    for node in bits(own):
        degree = (neighbours[node] & own).bit_count()
        pairs += min(degree, 2) - max(0, degree - 2)
    largest = max((group.bit_count() for group in groups(neighbours, own)), default=0)
    return pairs / 2 + largest - 1


class SextaKnowledge(SlideKnowledge):
    """Sexta's knowledge on the kadon board."""

    core_params = (SHAPE_SCALE,)

    def win_for(self, kernel: SlideKernel, colour: int) -> int | None:
        """A slide of one of `colour`'s six after which all six form a chain (the other five must already have
        no stone touching three of them, and the target must touch them)."""
        own = kernel.masks[colour]
        if own.bit_count() != SIX:
            return None
        neighbours = self.tables.neighbours
        if len(groups(neighbours, own)) > 3:  # the moved stone joins at most two groups, and leaves at most one
            return None
        empty = self.tables.full ^ (kernel.masks[1] | kernel.masks[2])
        rings = bool(self.rules.rings)
        for source in bits(own):
            rest = own ^ (1 << source)
            near = 0
            for node in bits(rest):
                if (neighbours[node] & rest).bit_count() > 2:
                    break
                near |= neighbours[node]
            else:
                if not near & empty:
                    continue
                for action in kernel.source_actions(source):
                    target = slide_target(action)
                    if near >> target & 1 and is_chain(rest | (1 << target), neighbours, rings):
                        return action
        return None

    def position_value(self, kernel: SlideKernel) -> float:
        """Black's prospects in [0, 1]: the difference of the two sides' shapes."""
        neighbours = self.tables.neighbours
        return 0.5 + (shape(neighbours, kernel.masks[1]) - shape(neighbours, kernel.masks[2])) / SHAPE_SCALE
