"""Aliens and Amazons' search knowledge on the kernel: a cheap playout policy and an evaluation, for the search's
rollouts (`knowledge.AliensAmazonsKnowledge`) and the `heuristic` bot: a few plies of policy play, then the position
is scored (captures against the Aliens' room to move).

Random playouts say little here: random Amazons feed the Aliens whole chains, random Aliens wander, and a game
runs hundreds of plies. The policy: Aliens take the longest capture most of the time; Amazons place or step
next to an Alien where no Alien can jump the stone at once, else anywhere safe.

The knowledge's rollouts draw from `SplitMix64`, as the C core's (_aacore.c) do: for one seed both play the same
moves and return the same value. On the C core's kernel `evaluate` is the core's own.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Protocol, TypeVar

from ytourney.games.aliens_amazons import tables as t
from ytourney.games.aliens_amazons.kernel import AliensAmazonsKernel
from ytourney.games.kernel import DRAW, NODE_LIMIT, ONGOING

T = TypeVar("T")
MASK64 = (1 << 64) - 1

CAPTURE_WEIGHT = 0.3
"""What each Amazon captured (or on offer to the Aliens to move) is worth to the Aliens in `evaluate`."""
HOLE_WEIGHT = 0.12
"""What each node of the gap is worth to the Aliens in `evaluate`."""
SPACE_WEIGHT = 0.03
"""What each empty node the Aliens can step to is worth to them in `evaluate`."""
LOOSE_WEIGHT = 0.15
"""What each Amazon open to a jump after an Alien's step is worth to the Aliens in `evaluate`."""
LOOSE_SLACK = 1
"""How many more loose Amazons than the fewest a searched Amazon move may leave (room to advance a wall)."""
TRAP_WEIGHT = 0.5
"""What each Alien's own gap (its need set's empty nodes) adds to the gap in `evaluate`, the smallest most, so the
Amazons close one trap at a time."""
GREED = 0.8
"""How often the playout policy plays its heuristic move, not a random one."""


class Draws(Protocol):
    """What the policy draws from: `random.Random` or `SplitMix64`."""

    def random(self) -> float:
        """A float in [0, 1)."""

    def choice(self, seq: Sequence[T]) -> T:
        """One element of a non-empty sequence."""


class SplitMix64:
    """The playouts' small PRNG (splitmix64), the C core's own: `random` from the top 53 bits of a draw, `choice`
    by the draw modulo the length."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """The next 64-bit draw."""
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def random(self) -> float:
        """A float in [0, 1), exactly as the C core makes it."""
        return (self.next() >> 11) * (1.0 / 9007199254740992.0)

    def choice(self, seq: Sequence[T]) -> T:
        """One element of a non-empty sequence."""
        return seq[self.next() % len(seq)]


def exposed(cells: list[int], node: int, tables: t.Tables) -> bool:
    """True when an Alien next to `node` could jump a stone there at once (its landing beyond is empty)."""
    for a in tables.neighbors[node]:
        if cells[a] == t.ALIEN:
            for over, land in tables.jumps[a]:
                if over == node and cells[land] == t.EMPTY:
                    return True
    return False


def capture_open(cells: list[int], tables: t.Tables) -> bool:
    """True when an Alien to move could capture at once: a jump over an Amazon from where it stands or from a
    landing it reaches by jumping over Aliens."""
    jumps = tables.jumps
    for a, stone in enumerate(cells):
        if stone != t.ALIEN:
            continue
        seen, todo = {a}, [a]
        for p in todo:
            for over, land in jumps[p]:
                held = cells[over]
                if held == t.EMPTY or over == a or land in seen or (cells[land] != t.EMPTY and land != a):
                    continue
                if held == t.AMAZON:
                    return True
                seen.add(land)
                todo.append(land)
    return False


def alien_space(kernel: AliensAmazonsKernel) -> int:
    """The empty nodes the Aliens reach by steps: the room the Amazons must take from them."""
    neighbour_mask = kernel.kt.neighbour_mask
    empty = kernel.kt.full & ~(kernel.amazons | kernel.aliens)
    seen = frontier = kernel.aliens
    while frontier:
        grown = 0
        while frontier:
            low = frontier & -frontier
            grown |= neighbour_mask[low.bit_length() - 1]
            frontier ^= low
        frontier = grown & empty & ~seen
        seen |= frontier
    return (seen & empty).bit_count()


_LINES_OVER: dict[int, tuple[tuple[tuple[int, int], ...], ...]] = {}


def lines_over(tables: t.Tables) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For every node x, the (from, landing) pairs of the jumps over x."""
    table = _LINES_OVER.get(id(tables))
    if table is None:
        over: list[list[tuple[int, int]]] = [[] for _ in tables.jumps]
        for a, pairs in enumerate(tables.jumps):
            for x, land in pairs:
                over[x].append((a, land))
        table = _LINES_OVER[id(tables)] = tuple(tuple(pairs) for pairs in over)
    return table


def _is_loose(cells: list[int], x: int, over: tuple[tuple[tuple[int, int], ...], ...]) -> bool:
    return cells[x] == t.AMAZON and any(cells[a] != t.AMAZON and cells[land] == t.EMPTY for a, land in over[x])


def loose(cells: list[int], tables: t.Tables) -> int:
    """Amazons an Alien could jump after stepping next to them: a line through the stone with both ends empty."""
    over = lines_over(tables)
    return sum(1 for x, stone in enumerate(cells)
               if stone == t.AMAZON and any(cells[a] != t.AMAZON and cells[land] == t.EMPTY for a, land in over[x]))


_TOUCHED: dict[int, tuple[tuple[int, ...], ...]] = {}


def touched(tables: t.Tables) -> tuple[tuple[int, ...], ...]:
    """For every node n, the nodes whose looseness n's contents can change (n itself and the stones it flanks)."""
    table = _TOUCHED.get(id(tables))
    if table is None:
        over = lines_over(tables)
        sets: list[set[int]] = [{n} for n in range(len(over))]
        for x, pairs in enumerate(over):
            for a, land in pairs:
                sets[a].add(x)
                sets[land].add(x)
        table = _TOUCHED[id(tables)] = tuple(tuple(sorted(nodes)) for nodes in sets)
    return table


def safe_amazon_actions(kernel: AliensAmazonsKernel, actions: list[int]) -> list[int]:
    """The Amazon placements and steps after which no Alien can capture at once and the fewest Amazons are
    `loose` (a solid formation: walls two deep or backed by the edge); all of them when every move opens a
    capture."""
    cells, tables = kernel.cells, kernel.tables
    scored = []
    over, near = lines_over(tables), touched(tables)
    for action in actions:
        source, target = kernel.source_target(action)
        nodes = set(near[target]).union(near[source]) if source >= 0 else near[target]
        before = sum(_is_loose(cells, x, over) for x in nodes)
        if source >= 0:
            cells[source] = t.EMPTY
        cells[target] = t.AMAZON
        if not capture_open(cells, tables):
            scored.append((sum(_is_loose(cells, x, over) for x in nodes) - before, action))
        cells[target] = t.EMPTY
        if source >= 0:
            cells[source] = t.AMAZON
    if not scored:
        return actions
    least = min(score for score, _ in scored)
    return [action for score, action in scored if score <= least + LOOSE_SLACK]


def need_union(kernel: AliensAmazonsKernel) -> int:
    """The mask of every node some Alien's need set holds."""
    need, union, aliens = kernel.kt.need, 0, kernel.aliens
    while aliens:
        low = aliens & -aliens
        union |= need[low.bit_length() - 1]
        aliens ^= low
    return union


def policy(kernel: AliensAmazonsKernel, actions: list[int], rng: Draws | random.Random, greed: float) -> int:
    """The playout policy: greedy captures for the Aliens, safe blocking stones for the Amazons."""
    if rng.random() >= greed:
        return rng.choice(actions)
    if kernel.to_move == t.ALIEN:
        if actions[0] < NODE_LIMIT:
            return rng.choice(actions)
        chosen = kernel.capture_moves()[1]
        return rng.choice(chosen) if chosen else rng.choice(actions)
    cells, tables = kernel.cells, kernel.tables
    union = need_union(kernel)
    near: list[int] = []
    safe: list[int] = []
    for _ in range(16):
        action = rng.choice(actions)
        source, target = kernel.source_target(action)
        if source >= 0:
            cells[source] = t.EMPTY
        bad = exposed(cells, target, tables)
        if source >= 0:
            cells[source] = t.AMAZON
        if bad:
            continue
        if union >> target & 1 and (source < 0 or not union >> source & 1):
            near.append(action)
            if len(near) >= 2:
                break
        else:
            safe.append(action)
    if near:
        return rng.choice(near)
    return rng.choice(safe) if safe else rng.choice(actions)


def evaluate(kernel: AliensAmazonsKernel) -> float:
    """The Aliens' chance of winning, guessed from captures (and the capture on offer), the gap the Amazons
    still have to fill to immobilize the Aliens (and each Alien's own, the smallest first), how many Amazons stand
    far from every Alien, the Aliens' room to step (`alien_space`) and the loose Amazons; centred so that a
    position where the Amazons hold out scores near the middle of the curve, where the search can tell moves apart."""
    if type(kernel) is not AliensAmazonsKernel:
        return kernel.aliens_value()  # the C core's, computed alike
    result = kernel.result
    if result != ONGOING:
        return 0.5 if result == DRAW else float(result == t.ALIEN)
    cells, tables = kernel.cells, kernel.tables
    threat = kernel.capture_moves()[0] if kernel.to_move == t.ALIEN else 0
    aliens = [a for a, stone in enumerate(cells) if stone == t.ALIEN]
    empty = kernel.kt.full & ~(kernel.amazons | kernel.aliens)
    hole = min((need_union(kernel) & empty).bit_count() + 8 * (t.ALIENS - len(aliens)), 24)
    far = 0
    if aliens:
        need = kernel.kt.need
        gaps = sorted((need[a] & empty).bit_count() for a in aliens)
        hole += TRAP_WEIGHT * sum(w * g for w, g in zip((1.0, 0.5, 0.25), gaps))
        close = 0
        within = within_three(tables)
        for a in aliens:
            close |= within[a]
        far = (kernel.amazons & ~close).bit_count()
    space = alien_space(kernel)
    x = (CAPTURE_WEIGHT * (kernel.captured + threat - 6) + HOLE_WEIGHT * (hole - 16) + 0.05 * far
         + SPACE_WEIGHT * (space - 40) + LOOSE_WEIGHT * loose(cells, tables))
    return 1.0 / (1.0 + math.exp(-x))


_WITHIN: dict[int, tuple[int, ...]] = {}


def within_three(tables: t.Tables) -> tuple[int, ...]:
    """For every node, the mask of the nodes at most three steps from it."""
    table = _WITHIN.get(id(tables))
    if table is None:
        table = _WITHIN[id(tables)] = tuple(sum(1 << c for c, d in enumerate(row) if d <= 3)
                                            for row in tables.distance)
    return table


def rollout(kernel: AliensAmazonsKernel, rng: Draws | random.Random, plies: int,
            trace: list[int] | None = None) -> float:
    """The Aliens' value after up to `plies` plies of `policy` play from `kernel`, by `evaluate`; the kernel is
    left as found (each action played appended to `trace` when given)."""
    played = 0
    while played < plies and kernel.result == ONGOING:
        actions = kernel.legal_actions()
        if not actions:
            break
        action = policy(kernel, actions, rng, GREED)
        kernel.apply(action)
        if trace is not None:
            trace.append(action)
        played += 1
    value = evaluate(kernel)
    for _ in range(played):
        kernel.undo()
    return value
