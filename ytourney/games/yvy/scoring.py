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
    sprout = geo.sprout
    removed: list[int] = []
    live: dict[int, list[list[int]]] = {}
    for colour in (BLACK, WHITE):
        live[colour] = []
        for group in groups_of(geo, cells, colour):
            if any(sprout[c] for c in group):
                live[colour].append(group)
            else:
                removed.extend(group)
    for c in removed:
        cells[c] = EMPTY
    sides = {colour: _side(geo, cells, colour, live[colour]) for colour in (BLACK, WHITE)}
    owner = _empty_owners(geo, cells)
    neutral = sum(1 for s in geo.sprouts if cells[s] == EMPTY and owner[s] == EMPTY)
    black, white = sides[BLACK], sides[WHITE]
    black = Side(black.groups, black.counted_groups, black.sprouts + sum(1 for s in geo.sprouts if owner[s] == BLACK))
    white = Side(white.groups, white.counted_groups, white.sprouts + sum(1 for s in geo.sprouts if owner[s] == WHITE))
    return Count(tuple(cells), tuple(sorted(removed)), black, white, neutral)


def _side(geo: Geometry, cells: Sequence[int], colour: int, groups: list[list[int]]) -> Side:
    """Live groups of `colour` (`groups`), joined where one fences another in, and the sprouts its stones occupy.

    The cells outside a group G are the other groups of the colour and the regions (connected cells not of the
    colour) between them; two groups never touch, so the parts of the board cut off by G are the components of
    the small graph of groups and regions, adjacent where they touch, with G taken out."""
    occupied = sum(1 for s in geo.sprouts if cells[s] == colour)
    k = len(groups)
    if k <= 1:
        return Side(k, k, occupied)
    other = WHITE if colour == BLACK else BLACK
    adjacent = geo.adjacent
    label = [-1] * len(cells)
    for i, group in enumerate(groups):
        for c in group:
            label[c] = i
    group_regions: list[list[int]] = [[] for _ in range(k)]
    region_groups: list[set[int]] = []
    opposed: list[bool] = []
    for start in range(len(cells)):
        if label[start] != -1:
            continue
        region = k + len(opposed)
        label[start] = region
        stack, touching, against = [start], set(), cells[start] == other
        while stack:
            for nb in adjacent[stack.pop()]:
                mark = label[nb]
                if mark == -1:
                    label[nb] = region
                    stack.append(nb)
                    if cells[nb] == other:
                        against = True
                elif mark < k:
                    touching.add(mark)
        for g in touching:
            group_regions[g].append(len(opposed))
        region_groups.append(touching)
        opposed.append(against)
    parent = list(range(k))

    def find(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for fence in range(k):
        seen = [False] * k
        seen[fence] = True
        visited = [False] * len(opposed)
        for first in range(k):
            if seen[first]:
                continue
            seen[first] = True
            part, todo, against = [first], [first], False
            while todo:
                for region in group_regions[todo.pop()]:
                    if visited[region]:
                        continue
                    visited[region] = True
                    against = against or opposed[region]
                    for g in region_groups[region]:
                        if not seen[g]:
                            seen[g] = True
                            part.append(g)
                            todo.append(g)
            if not against:
                for g in part:
                    parent[find(g)] = find(fence)
    counted = len({find(i) for i in range(k)})
    return Side(k, counted, occupied)


def _empty_owners(geo: Geometry, cells: Sequence[int]) -> list[int]:
    """For each empty cell, the colour of the only colour its empty region borders (EMPTY when both or none)."""
    adjacent = geo.adjacent
    owner = [EMPTY] * len(cells)
    seen = [False] * len(cells)
    for start in range(len(cells)):
        if cells[start] != EMPTY or seen[start]:
            continue
        seen[start] = True
        region, stack, borders = [start], [start], 0
        while stack:
            for nb in adjacent[stack.pop()]:
                held = cells[nb]
                if held != EMPTY:
                    borders |= held
                elif not seen[nb]:
                    seen[nb] = True
                    region.append(nb)
                    stack.append(nb)
        if borders == BLACK or borders == WHITE:
            for c in region:
                owner[c] = borders
    return owner
