"""YvY's count after two passes: the seed's own example, hand-drawn positions with their scores, a slow reference."""

from __future__ import annotations

import math
import random
from collections import deque

import pytest
from yvy_helpers import build

from ytourney.games.api import Color
from ytourney.games.yvy.game import GAME
from ytourney.games.yvy.geometry import geometry, naive_loop
from ytourney.games.yvy.scoring import count
from ytourney.games.yvy.state import SCORE

# --- the seed's example (base 9, 27 sprouts) -----------------------------------------------------------------


def _distance(board, c: int) -> int:
    x, y = board.coords[c]
    dx, dy = x - board.size, y - board.size
    return max(abs(dx), abs(dy), abs(dx - dy))


def _ring_order(board) -> list[int]:
    """The sprouts in order round the board."""
    def angle(c: int) -> float:
        x, y = board.coords[c]
        return math.atan2(-(y - board.size) * math.sqrt(3) / 2, (x - board.size) - (y - board.size) / 2)
    return sorted(board.sprouts, key=angle)


def _path(board, a: int, b: int, allowed: set[int]) -> list[int]:
    """A shortest path a..b through `allowed` cells (a and b included)."""
    before = {a: a}
    queue = deque([a])
    while queue:
        c = queue.popleft()
        if c == b:
            break
        for nb in board.neighbors[c]:
            if nb not in before and (nb in allowed or nb == b):
                before[nb] = c
                queue.append(nb)
    path = [b]
    while path[-1] != a:
        path.append(before[path[-1]])
    return path


def _edge_group(board, sprouts: list[int], skip_link: int | None = None) -> set[int]:
    """Consecutive sprouts joined along the hexagon's outer row (the link after position `skip_link` left out)."""
    rim = {c for c in range(board.num_cells) if _distance(board, c) == board.size - 1}
    cells = set(sprouts)
    for i, (a, b) in enumerate(zip(sprouts, sprouts[1:])):
        if i != skip_link:
            cells |= set(_path(board, a, b, rim))
    return cells


def seed_example(black_groups: int):
    """White: one group holding 11 sprouts (three stretches of edge joined by spokes through the centre); Black:
    the other 16 sprouts in three stretches of edge (or four: one stretch broken in two)."""
    board = GAME.parse_board("hex:9")
    ring = _ring_order(board)
    black_arcs = [ring[0:6], ring[9:14], ring[18:23]]
    white_arcs = [ring[6:9], ring[14:18], ring[23:27]]
    black = set()
    for i, arc in enumerate(black_arcs):
        black |= _edge_group(board, arc, skip_link=2 if i == 0 and black_groups == 4 else None)
    white = set()
    centre = board.index_of("j10")
    interior = {c for c in range(board.num_cells) if _distance(board, c) < board.size - 1}
    for arc in white_arcs:
        stones = _edge_group(board, arc)
        white |= stones
        start = next(c for c in stones if _distance(board, c) == board.size - 1)
        white |= set(_path(board, start, centre, interior))
    assert not white & black
    names = board.names
    return build("hex:9", [names[c] for c in sorted(white)], [names[c] for c in sorted(black)], finish=True)


@pytest.mark.parametrize(("black_groups", "scores", "winner"), [(3, (10, 9), Color.BLACK), (4, (8, 9), Color.WHITE)])
def test_seed_example_eleven_sprouts_one_group_against_sixteen(black_groups, scores, winner) -> None:
    # "one group controlling 11 sprouts ... his score would be 9. The other player controls the remaining 16, so
    # if he managed to do that with three groups, he has 10 points and wins, but if he needed four he has 8"
    state = seed_example(black_groups)
    result = state.final_count
    assert state.outcome.termination is SCORE
    assert len(state.board.sprouts) == 27
    assert (result.white.sprouts, result.white.counted_groups) == (11, 1)
    assert (result.black.sprouts, result.black.counted_groups) == (16, black_groups)
    assert result.neutral == 0 and result.removed == ()
    assert state.outcome.score == scores and state.outcome.winner is winner


# --- hand-drawn positions on hex:4 (12 sprouts: a1 c1 e1 g3 i5 i7 i9 g9 e9 c7 a5 a3) ------------------------

CASES = {
    # empty board: no stone borders the one empty region, so every sprout is neutral
    "empty": ("", "", (0, 0), None),
    # one live white stone: its sprout, and the 11 empty sprouts of the one region that touches only white
    "lone-stone": ("a1", "", (0, 10), Color.WHITE),
    # white d4 stands on no sprout: removed, then black's a1 owns the whole board
    "dead-removed": ("d4", "a1", (10, 0), Color.BLACK),
    # both live, one empty region touching both: only occupied sprouts count, 1 - 2 each: a draw
    "neutral-draw": ("a1", "e1", (-1, -1), None),
    # the wall a3-b3-c3-c2-c1 (sprouts a3, c1) cuts off the corner b2 a1; white a1 there is fenced in, one group:
    # white 3 sprouts - 2 = 1; black i5 alone in the big region touching both: 1 - 2 = -1
    "fenced-group": ("a3 b3 c3 c2 c1 a1", "i5", (-1, 1), Color.WHITE),
    # the same wall with a1 empty: a1 lies in the region {b2, a1} touching only white, so it is white's
    "fenced-sprout": ("a3 b3 c3 c2 c1", "i5", (-1, 1), Color.WHITE),
    # black b2 inside the corner holds no sprout: removed first, so white a1 is fenced in again
    "dead-inside-fence": ("a3 b3 c3 c2 c1 a1", "i5 b2", (-1, 1), Color.WHITE),
    # without c2 the wall is broken: a3-b3-c3, c1 and a1 are three groups none fences (black is reachable):
    # white 3 - 6 = -3, black -1
    "broken-fence": ("a3 b3 c3 c1 a1", "i5", (-1, -3), Color.BLACK),
    # two lone stones each (i9 and g9 are not neighbours, nor a1 and e1), none fenced in: 2 - 4 = -2 each
    "two-groups-each": ("i9 g9", "a1 e1", (-2, -2), None),
    # black a1-b2-c2-c1 joins two sprouts in one group: 2 - 2 = 0; white i5: 1 - 2 = -1
    "joined-sprouts": ("i5", "a1 b2 c2 c1", (0, -1), Color.BLACK),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_hand_drawn_counts(name: str) -> None:
    white, black, scores, winner = CASES[name]
    state = build("hex:4", white, black, finish=True)
    assert state.outcome.termination is SCORE
    assert state.outcome.score == scores, state.outcome.reason
    assert state.outcome.winner is winner
    assert state.outcome.score == reference_score(state.geo, state.cells)


def test_removed_stones_are_reported() -> None:
    state = build("hex:4", "d4 d5", "a1", finish=True)
    assert [state.board.names[c] for c in state.final_count.removed] == ["d4", "d5"]


# --- a slow reference count, written independently ------------------------------------------------------------


def _component(geo, cells, start, passable) -> set[int]:
    seen, queue = {start}, deque([start])
    while queue:
        for nb in geo.around[queue.popleft()]:
            if nb >= 0 and nb not in seen and passable(nb):
                seen.add(nb)
                queue.append(nb)
    return seen


def reference_score(geo, stones) -> tuple[int, int]:
    """Pairwise: groups by search, dead ones off, H joins G when H's side of G holds no opposing stone."""
    cells = list(stones)
    n = len(cells)
    for colour in (1, 2):
        for c in range(n):
            if cells[c] == colour:
                group = _component(geo, cells, c, lambda x, k=colour: cells[x] == k)
                if not any(g in geo.board.sprouts for g in group):
                    for g in group:
                        cells[g] = 0
    scores = []
    for colour in (1, 2):
        other = 3 - colour
        groups = []
        for c in range(n):
            if cells[c] == colour and not any(c in g for g in groups):
                groups.append(_component(geo, cells, c, lambda x, k=colour: cells[x] == k))
        label = list(range(len(groups)))
        for i, g in enumerate(groups):
            for j, h in enumerate(groups):
                if i != j:
                    side = _component(geo, cells, next(iter(h)), lambda x, g=g: x not in g)
                    if not any(cells[x] == other for x in side):
                        old, new = label[j], label[i]
                        label = [new if v == old else v for v in label]
        sprouts = 0
        for s in geo.board.sprouts:
            if cells[s] == colour:
                sprouts += 1
            elif cells[s] == 0:
                region = _component(geo, cells, s, lambda x: cells[x] == 0)
                touching = {cells[nb] for x in region for nb in geo.around[x] if nb >= 0 and cells[nb]}
                sprouts += touching == {colour}
        scores.append(sprouts - 2 * len(set(label)))
    return scores[0], scores[1]


@pytest.mark.parametrize("spec", ["hex:3", "hex:4", "hex:5"])
def test_count_agrees_with_the_reference_on_random_positions(spec: str) -> None:
    geo = geometry(GAME.parse_board(spec))
    rng = random.Random(spec)
    n = len(geo.around)
    for _ in range(150):
        density = rng.random()
        cells = [rng.choice((1, 2)) if rng.random() < density else 0 for _ in range(n)]
        assert count(geo, cells).score == reference_score(geo, cells), cells


def test_seed_example_position_has_no_loop() -> None:
    state = seed_example(3)
    assert not naive_loop(state.geo, state.cells, 1) and not naive_loop(state.geo, state.cells, 2)
