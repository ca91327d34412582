"""Aliens and Amazons' own bots: a greedy `heuristic` and an `mcts` whose playouts follow that heuristic's cheap
policy for a few plies and then score the position (captures against the Aliens' room to move).

Random playouts say little here: random Amazons feed the Aliens whole chains, random Aliens wander, and a game
runs hundreds of plies. The policy: Aliens take the longest capture most of the time; Amazons place or step
next to an Alien where no Alien can jump the stone at once, else anywhere safe.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, ClassVar

from ytourney.games.aliens_amazons import tables as t
from ytourney.games.aliens_amazons.state import AliensAmazonsState, to_move
from ytourney.games.api import Move, State
from ytourney.games.bot import BaseBot, BotOption, Limit

Path = tuple[int, ...]


class Sim:
    """A bare position for search: node contents, counters and the side to move (1 Amazons, 2 Aliens)."""

    __slots__ = ("amazons_placed", "aliens_placed", "captured", "cells", "plies", "tables", "threshold", "to_move",
                 "winner", "limit")

    def __init__(self, state: AliensAmazonsState) -> None:
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
    still have to fill to immobilize the Aliens, and how many Amazons stand far from every Alien."""
    if sim.winner:
        return 0.5 if sim.winner < 0 else float(sim.winner == t.ALIEN)
    cells, tables = sim.cells, sim.tables
    threat = alien_room(cells, tables)[1] if sim.to_move == t.ALIEN else 0
    aliens = [a for a, stone in enumerate(cells) if stone == t.ALIEN]
    hole = t.gap(cells, tables) + 8 * (t.ALIENS - len(aliens))
    far = 0
    if aliens:
        distance = tables.distance
        far = sum(1 for c, stone in enumerate(cells) if stone == t.AMAZON and min(distance[c][a] for a in aliens) > 3)
    x = 0.3 * (sim.captured + threat - 8) + 0.35 * (min(hole, 24) - 4) + 0.05 * far
    return 1.0 / (1.0 + math.exp(-x))


class HeuristicBot(BaseBot):
    """One ply deep: Aliens capture the most (then keep the most room), Amazons leave no capture and the least
    room."""

    name = "heuristic"
    OPTIONS: ClassVar[dict[str, BotOption]] = {}

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._rng = random.Random(seed)

    def move(self, state: State, limit: Limit) -> Move:
        """The best move by a one-ply look."""
        assert isinstance(state, AliensAmazonsState)
        sim = Sim(state)
        moves = sim.moves()
        best, chosen = -math.inf, moves[0]
        for path in moves:
            trial = sim.copy()
            trial.play(path)
            value = evaluate(trial) + self._rng.random() * 1e-6
            value = value if sim.to_move == t.ALIEN else -value
            if value > best:
                best, chosen = value, path
        return to_move(chosen, sim.tables.neighbors)


class _Node:
    __slots__ = ("children", "move", "untried", "value", "visits")

    def __init__(self, move: Path | None, untried: list[Path]) -> None:
        self.move = move
        self.untried = untried
        self.children: list[_Node] = []
        self.visits = 0
        self.value = 0.0  # summed result for the side that played `move`


class AliensAmazonsMcts(BaseBot):
    """UCT whose playouts follow `policy` for `depth` plies and then score the position with `evaluate`."""

    name = "mcts"
    OPTIONS: ClassVar[dict[str, BotOption]] = {
        "playouts": BotOption(int, 1000, "playouts per move (when no time budget is given)", 1, 10_000_000),
        "c": BotOption(float, 0.7, "UCT exploration constant", 0, 100),
        "depth": BotOption(int, 8, "plies of policy play before a playout is scored", 0, 10_000),
        "greed": BotOption(float, 0.8, "how often the playout policy plays its heuristic move, not a random one",
                           0, 1),
    }

    def __init__(self, seed: int | None = None, playouts: int = 1000, c: float = 0.7, depth: int = 8,
                 greed: float = 0.8, **_: Any) -> None:
        super().__init__(seed)
        self.playouts = playouts
        self.exploration = c
        self.depth = depth
        self.greed = greed
        self._rng = random.Random(seed)

    def move(self, state: State, limit: Limit) -> Move:
        """The most visited move of the search."""
        assert isinstance(state, AliensAmazonsState)
        root_sim = Sim(state)
        moves = root_sim.moves()
        if len(moves) == 1:
            return to_move(moves[0], root_sim.tables.neighbors)
        root = _Node(None, moves.copy())
        self._rng.shuffle(root.untried)
        budget = limit.playouts or self.playouts
        deadline = None if limit.seconds is None or limit.playouts else time.perf_counter() + limit.seconds * 0.8
        for done in range(budget if deadline is None else 10**9):
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(root, root_sim.copy())
        best = max(root.children, key=lambda c: (c.visits, c.value))
        return to_move(best.move, root_sim.tables.neighbors)  # type: ignore[arg-type]

    def _iterate(self, root: _Node, sim: Sim) -> None:
        node, path, movers = root, [root], []
        log = math.log
        while not node.untried and node.children:
            parent_log = log(node.visits)
            c = self.exploration
            node = max(node.children,
                       key=lambda ch: ch.value / ch.visits + c * math.sqrt(parent_log / ch.visits))
            movers.append(sim.to_move)
            sim.play(node.move)  # type: ignore[arg-type]
            path.append(node)
        following: list[Path] = []
        if node.untried and not sim.winner:
            move = node.untried.pop()
            movers.append(sim.to_move)
            following = sim.play(move)
            child = _Node(move, following.copy() if not sim.winner else [])
            self._rng.shuffle(child.untried)
            node.children.append(child)
            path.append(child)
        elif not sim.winner:
            following = sim.moves()
        rng, greed = self._rng, self.greed
        for _ in range(self.depth):
            if sim.winner or not following:
                break
            following = sim.play(policy(sim, following, rng, greed))
        aliens = evaluate(sim)
        root.visits += 1
        for visited, mover in zip(path[1:], movers):
            visited.visits += 1
            visited.value += aliens if mover == t.ALIEN else 1.0 - aliens
