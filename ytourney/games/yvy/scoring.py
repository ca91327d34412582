"""YvY's count after two passes: dead groups off, fenced-in groups joined to their fence, sprouts, score.

Readings (docs/games/yvy.md says why):
- a group is dead, and removed, when none of its stones stands on a sprout;
- a player's group H is fenced in by another of its groups G when the part of the board cut off from G's side
  that holds H (the connected component of the cells not in G) holds no stone of the opponent: G, with the
  board's edge, walls H off from every opposing stone; fenced-in groups count as one group with their fence;
- a player controls a sprout it occupies, and an empty sprout whose empty region (the connected empty cells
  round it) borders stones of that player only; a sprout in an empty region touching both colours, or none, is
  neutral;
- score = sprouts controlled - 2 x groups (after joining); equal scores draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ytourney.games.yvy.geometry import EMPTY, Geometry, groups_of

BLACK = 1
WHITE = 2


@dataclass(frozen=True)
class Side:
    """One player's count: live groups before and after joining fenced-in ones, sprouts, score."""

    groups: int
    counted_groups: int
    sprouts: int

    @property
    def score(self) -> int:
        """Sprouts minus twice the counted groups."""
        return self.sprouts - 2 * self.counted_groups


@dataclass(frozen=True)
class Count:
    """The whole count: the position after dead groups left, each side's figures, the neutral sprouts."""

    cells: tuple[int, ...]
    removed: tuple[int, ...]
    black: Side
    white: Side
    neutral: int

    @property
    def score(self) -> tuple[int, int]:
        """(Black's score, White's score)."""
        return self.black.score, self.white.score


def count(geo: Geometry, stones: Sequence[int]) -> Count:
    """Score a finished position (two passes)."""
    cells = list(stones)
    removed: list[int] = []
    for colour in (BLACK, WHITE):
        for group in groups_of(geo, cells, colour):
            if not any(geo.sprout[c] for c in group):
                removed.extend(group)
    for c in removed:
        cells[c] = EMPTY
    sides = {colour: _side(geo, cells, colour) for colour in (BLACK, WHITE)}
    owner = _empty_owners(geo, cells)
    neutral = sum(1 for s in geo.sprouts if cells[s] == EMPTY and owner[s] == EMPTY)
    black, white = sides[BLACK], sides[WHITE]
    black = Side(black.groups, black.counted_groups, black.sprouts + sum(1 for s in geo.sprouts if owner[s] == BLACK))
    white = Side(white.groups, white.counted_groups, white.sprouts + sum(1 for s in geo.sprouts if owner[s] == WHITE))
    return Count(tuple(cells), tuple(sorted(removed)), black, white, neutral)


def _side(geo: Geometry, cells: Sequence[int], colour: int) -> Side:
    """Live groups of `colour`, joined where one fences another in, and the sprouts its stones occupy."""
    other = WHITE if colour == BLACK else BLACK
    groups = groups_of(geo, cells, colour)
    group_of = {c: i for i, group in enumerate(groups) for c in group}
    parent = list(range(len(groups)))

    def find(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, group in enumerate(groups):
        members = set(group)
        seen = set(members)
        for start in range(len(cells)):
            if start in seen:
                continue
            part, stack, opposed = [start], [start], cells[start] == other
            seen.add(start)
            while stack:
                for nb in geo.around[stack.pop()]:
                    if nb >= 0 and nb not in seen:
                        seen.add(nb)
                        part.append(nb)
                        stack.append(nb)
                        opposed = opposed or cells[nb] == other
            if not opposed:
                for c in part:
                    if c in group_of:
                        parent[find(group_of[c])] = find(i)
    counted = len({find(i) for i in range(len(groups))})
    occupied = sum(1 for s in geo.sprouts if cells[s] == colour)
    return Side(len(groups), counted, occupied)


def _empty_owners(geo: Geometry, cells: Sequence[int]) -> list[int]:
    """For each empty cell, the colour of the only colour its empty region borders (EMPTY when both or none)."""
    owner = [EMPTY] * len(cells)
    seen = [False] * len(cells)
    for start in range(len(cells)):
        if cells[start] != EMPTY or seen[start]:
            continue
        seen[start] = True
        region, stack, borders = [start], [start], set()
        while stack:
            for nb in geo.around[stack.pop()]:
                if nb < 0:
                    continue
                if cells[nb] != EMPTY:
                    borders.add(cells[nb])
                elif not seen[nb]:
                    seen[nb] = True
                    region.append(nb)
                    stack.append(nb)
        if len(borders) == 1:
            colour = borders.pop()
            for c in region:
                owner[c] = colour
    return owner
