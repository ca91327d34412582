"""Aliens and Amazons' search knowledge: a cheap playout policy and an evaluation, for the generic `mcts`'s
rollouts (`AliensAmazonsState.rollout`) and the `heuristic` bot: a few plies of policy play, then the position is
scored (captures against the Aliens' room to move).

Random playouts say little here: random Amazons feed the Aliens whole chains, random Aliens wander, and a game
runs hundreds of plies. The policy: Aliens take the longest capture most of the time; Amazons place or step
next to an Alien where no Alien can jump the stone at once, else anywhere safe.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ytourney.games.aliens_amazons import tables as t

Path = tuple[int, ...]

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


class Sim:
    """A bare position for search: node contents, counters and the side to move (1 Amazons, 2 Aliens)."""

    __slots__ = ("amazons_placed", "aliens_placed", "captured", "cells", "plies", "tables", "threshold", "to_move",
                 "winner", "limit")

    def __init__(self, state: Any) -> None:
        self.tables = state.tables
        self.cells = list(state.cells)
        self.to_move = int(state.to_move)
        self.amazons_placed = state.amazons_placed
        self.aliens_placed = state.aliens_on_board
        self.captured = state.captured
        self.threshold = state.threshold
        self.plies = len(state.history)
        self.limit = getattr(state.rules, "max_plies", None) or 10**9
        self.winner = 0 if state.outcome is None else (int(state.outcome.winner or 0) or -1)

    def copy(self) -> Sim:
        new = object.__new__(Sim)
        for name in Sim.__slots__:
            setattr(new, name, getattr(self, name))
        new.cells = self.cells.copy()
        return new

    def moves(self) -> list[Path]:
        """The side to move's raw moves."""
        if self.to_move == t.ALIEN:
            if self.aliens_placed < t.ALIENS:
                return t.placements(self.cells)
            return t.alien_moves(self.cells, self.tables)
        if self.amazons_placed < t.AMAZONS:
            return t.placements(self.cells)
        return t.amazon_steps(self.cells, self.tables)

    def play(self, path: Path) -> list[Path]:
        """Play a legal path; sets `winner` when the game ends; returns the next side's moves (when asked)."""
        mover = self.to_move
        if len(path) == 1:
            if mover == t.ALIEN:
                self.aliens_placed += 1
            else:
                self.amazons_placed += 1
        self.captured += t.apply_path(self.cells, path, mover, self.tables)
        self.to_move = 3 - mover
        self.plies += 1
        if mover == t.ALIEN and t.AMAZONS - self.captured < self.threshold:
            self.winner = t.ALIEN
            return []
        following = self.moves()
        if not following:
            self.winner = mover
        elif self.plies >= self.limit:
            self.winner = -1
        return following


def captures(path: Path, cells: list[int], tables: t.Tables) -> int:
    """Amazons a raw Alien path would capture (0 for placements and steps)."""
    if len(path) < 2 or (len(path) == 2 and path[1] in tables.neighbors[path[0]]):
        return 0
    return len(t.captured_by(path, cells, tables))


def exposed(cells: list[int], node: int, tables: t.Tables) -> bool:
    """True when an Alien next to `node` could jump a stone there at once (its landing beyond is empty)."""
    for a in tables.neighbors[node]:
        if cells[a] == t.ALIEN:
            for over, land in tables.jumps[a]:
                if over == node and cells[land] == t.EMPTY:
                    return True
    return False


def alien_room(cells: list[int], tables: t.Tables) -> tuple[int, int]:
    """(number of Alien moves, most Amazons one of them captures)."""
    moves = t.alien_moves(cells, tables)
    best = 0
    for path in moves:
        if len(path) > 2 or path[1] not in tables.neighbors[path[0]]:
            best = max(best, len(t.captured_by(path, cells, tables)))
    return len(moves), best


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


def alien_space(cells: list[int], tables: t.Tables) -> int:
    """The empty nodes the Aliens reach by steps: the room the Amazons must take from them."""
    neighbors = tables.neighbors
    todo = [a for a, stone in enumerate(cells) if stone == t.ALIEN]
    seen = set(todo)
    for p in todo:
        for q in neighbors[p]:
            if q not in seen and cells[q] == t.EMPTY:
                seen.add(q)
                todo.append(q)
    return len(seen) - sum(1 for stone in cells if stone == t.ALIEN)


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
    return sum(1 for x in range(len(cells)) if _is_loose(cells, x, over))


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


def safe_amazon_moves(cells: list[int], moves: list[Path], tables: t.Tables) -> list[Path]:
    """The Amazon placements and steps after which no Alien can capture at once and the fewest Amazons are
    `loose` (a solid formation: walls two deep or backed by the edge); all of them when every move opens a
    capture."""
    scored = []
    over, near = lines_over(tables), touched(tables)
    for path in moves:
        source, target = (path[0], path[-1]) if len(path) == 2 else (-1, path[0])
        nodes = set(near[target]).union(near[source]) if source >= 0 else near[target]
        before = sum(_is_loose(cells, x, over) for x in nodes)
        if source >= 0:
            cells[source] = t.EMPTY
        cells[target] = t.AMAZON
        if not capture_open(cells, tables):
            scored.append((sum(_is_loose(cells, x, over) for x in nodes) - before, path))
        cells[target] = t.EMPTY
        if source >= 0:
            cells[source] = t.AMAZON
    if not scored:
        return moves
    least = min(score for score, _ in scored)
    return [path for score, path in scored if score <= least + LOOSE_SLACK]


def policy(sim: Sim, moves: list[Path], rng: random.Random, greed: float) -> Path:
    """The playout policy: greedy captures for the Aliens, safe blocking stones for the Amazons."""
    if rng.random() >= greed:
        return rng.choice(moves)
    cells, tables = sim.cells, sim.tables
    if sim.to_move == t.ALIEN:
        if len(moves[0]) == 1:
            return rng.choice(moves)
        best, chosen = 0, []
        for path in moves:
            if len(path) == 2 and path[1] in tables.neighbors[path[0]]:
                continue
            gain = captures(path, cells, tables)
            if gain > best:
                best, chosen = gain, [path]
            elif gain == best and gain:
                chosen.append(path)
        return rng.choice(chosen) if chosen else rng.choice(moves)
    union: set[int] = set()
    for a, stone in enumerate(cells):
        if stone == t.ALIEN:
            union.update(tables.need_nodes[a])
    near: list[Path] = []
    safe: list[Path] = []
    for _ in range(16):
        path = rng.choice(moves)
        target = path[-1]
        source = path[0] if len(path) == 2 else -1
        if source >= 0:
            cells[source] = t.EMPTY
        bad = exposed(cells, target, tables)
        if source >= 0:
            cells[source] = t.AMAZON
        if bad:
            continue
        if target in union and source not in union:
            near.append(path)
            if len(near) >= 2:
                break
        else:
            safe.append(path)
    if near:
        return rng.choice(near)
    return rng.choice(safe) if safe else rng.choice(moves)


def evaluate(sim: Sim) -> float:
    """The Aliens' chance of winning, guessed from captures (and the capture on offer), the gap the Amazons
    still have to fill to immobilize the Aliens (and each Alien's own, the smallest first), how many Amazons stand
    far from every Alien, the Aliens' room to step (`alien_space`) and the loose Amazons; centred so that a
    position where the Amazons hold out scores near the middle of the curve, where the search can tell moves apart."""
    if sim.winner:
        return 0.5 if sim.winner < 0 else float(sim.winner == t.ALIEN)
    cells, tables = sim.cells, sim.tables
    threat = alien_room(cells, tables)[1] if sim.to_move == t.ALIEN else 0
    aliens = [a for a, stone in enumerate(cells) if stone == t.ALIEN]
    hole = min(t.gap(cells, tables) + 8 * (t.ALIENS - len(aliens)), 24)
    if aliens:
        need = tables.need_nodes
        gaps = sorted(sum(1 for c in need[a] if cells[c] == t.EMPTY) for a in aliens)
        hole += TRAP_WEIGHT * sum(w * g for w, g in zip((1.0, 0.5, 0.25), gaps))
    far = 0
    if aliens:
        distance = tables.distance
        far = sum(1 for c, stone in enumerate(cells) if stone == t.AMAZON and min(distance[c][a] for a in aliens) > 3)
    space = alien_space(cells, tables)
    x = (CAPTURE_WEIGHT * (sim.captured + threat - 6) + HOLE_WEIGHT * (hole - 16) + 0.05 * far
         + SPACE_WEIGHT * (space - 40) + LOOSE_WEIGHT * loose(cells, tables))
    return 1.0 / (1.0 + math.exp(-x))


GREED = 0.8
"""How often the playout policy plays its heuristic move, not a random one."""


def rollout(state: Any, rng: random.Random, plies: int) -> float:
    """The Aliens' value after up to `plies` plies of `policy` play from `state`, by `evaluate`."""
    sim = Sim(state)
    following = sim.moves() if not sim.winner else []
    for _ in range(plies):
        if sim.winner or not following:
            break
        following = sim.play(policy(sim, following, rng, GREED))
    return evaluate(sim)
