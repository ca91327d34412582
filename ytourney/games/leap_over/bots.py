"""Leap Over's own `mcts`: UCT whose leaves are scored by a cheap evaluation instead of random playouts.

Random play never finishes a game of Leap Over (it wanders until the move limit), so the generic bot's random
playouts say nothing. Here each new leaf is scored at once by how far each side's stones still are from the far
apex of the triangle they must fill, squashed into a win probability; chains that reach the same node from the
same stone lead to the same position, so the tree keeps one of them.
"""

from __future__ import annotations

import functools
import math
import random
import time
from typing import ClassVar

from ytourney.boards.board import Board
from ytourney.boards.regions import region
from ytourney.games.api import Color, Move, State
from ytourney.games.bot import BaseBot, BotOption, Limit

TEMPERATURE = 4.0
HOME_PENALTY = 1.0
OUTSIDE = 4
STRANDED_WEIGHT = 3.0
LAST_WEIGHT = 2.0


@functools.cache
def distances(board: Board) -> dict[Color, tuple[int, ...]]:
    """For each colour, what every node still costs a stone of it: inside its goal the distance to the goal's far
    apex (0 to 3, so stones pack from the back), outside it OUTSIDE plus the distance to the goal."""
    goals = {Color.BLACK: region(board, "side-triangle-3"), Color.WHITE: region(board, "side-triangle-2")}
    table = {}
    for colour, goal in goals.items():
        apex = _bfs(board, goal[:1])
        outside = _bfs(board, goal)
        table[colour] = tuple(apex[node] if node in goal else OUTSIDE + outside[node] for node in range(board.num_cells))
    return table


@functools.cache
def pair_distances(board: Board) -> tuple[tuple[int, ...], ...]:
    """Graph distance between every two nodes."""
    return tuple(tuple(_bfs(board, (node,))) for node in range(board.num_cells))


def _bfs(board: Board, sources: tuple[int, ...]) -> list[int]:
    """Graph distance of every node to the nearest of `sources`."""
    dist = [-1] * board.num_cells
    todo = list(sources)
    for node in todo:
        dist[node] = 0
    for node in todo:
        for nb in board.neighbors[node]:
            if dist[nb] < 0:
                dist[nb] = dist[node] + 1
                todo.append(nb)
    return dist


@functools.cache
def homes(board: Board) -> dict[Color, frozenset[int]]:
    """Each colour's start triangle."""
    return {Color.BLACK: frozenset(region(board, "side-triangle-2")),
            Color.WHITE: frozenset(region(board, "side-triangle-3"))}


def evaluate(state: State, colour: Color) -> float:
    """The chance `colour` wins, guessed from how far each side still has to go: the sum of its stones'
    distances, its last stone's distance (the race ends when the last one arrives), stones outside the goal with no
    stone next to them (they cannot leap until one comes by: the farther the nearest stone, the worse) and stones still at home."""
    outcome = state.outcome
    if outcome is not None:
        return 0.5 if outcome.winner is None else float(outcome.winner is colour)
    board = state.board
    cells = state.cells
    dist = distances(board)
    home = homes(board)
    far = pair_distances(board)
    stones = [node for node, stone in enumerate(cells) if stone]
    left = [0.0, 0.0, 0.0]
    last = [0, 0, 0]
    for node, stone in enumerate(cells):
        if not stone:
            continue
        d = dist[stone][node]  # type: ignore[index]
        left[stone] += d + HOME_PENALTY * (node in home[stone])  # type: ignore[index]
        if node not in home[3 - stone]:  # type: ignore[index]
            last[stone] = max(last[stone], d)
            if not any(cells[nb] for nb in board.neighbors[node]):
                apart = min(far[node][other] for other in stones if other != node)
                left[stone] += STRANDED_WEIGHT * (apart - 1)
    for side in (1, 2):
        left[side] += LAST_WEIGHT * last[side]
    margin = left[colour.other] - left[colour]
    return 1.0 / (1.0 + math.exp(-margin / TEMPERATURE))


def distinct(moves: list[Move]) -> list[Move]:
    """One chain per (stone, landing): chains ending on the same node give the same position."""
    seen: dict[tuple[int, int], Move] = {}
    for move in moves:
        if move.is_swap:
            continue
        key = (move.path[0], move.path[-1]) if move.path else (-1, -1)
        seen.setdefault(key, move)
    return list(seen.values())


class _Node:
    """A tree node: the position after `move`, played by `colour`, and its statistics."""

    __slots__ = ("children", "colour", "move", "state", "untried", "visits", "wins")

    def __init__(self, state: State, move: Move | None, colour: Color | None) -> None:
        self.state = state
        self.move = move
        self.colour = colour
        self.untried: list[Move] | None = None
        self.children: list[_Node] = []
        self.visits = 0
        self.wins = 0.0


class EvalMcts(BaseBot):
    """UCT over the game API with evaluated leaves; reproducible for a seed."""

    name = "mcts"
    OPTIONS: ClassVar[dict[str, BotOption]] = {
        "playouts": BotOption(int, 1000, "tree iterations per move (when no time budget is given)", 1, 10_000_000),
        "c": BotOption(float, 0.5, "UCT exploration constant", 0, 100),
    }
    evaluate = staticmethod(evaluate)

    def __init__(self, seed: int | None = None, playouts: int = 1000, c: float = 0.5) -> None:
        super().__init__(seed)
        self.playouts = playouts
        self.exploration = c
        self._rng = random.Random(seed)

    def move(self, state: State, limit: Limit) -> Move:
        """The most visited move of a search from `state`."""
        moves = distinct(state.legal_moves())
        if len(moves) == 1:
            return moves[0]
        root = _Node(state.copy(), None, None)
        root.untried = moves
        self._rng.shuffle(root.untried)
        budget = limit.playouts or self.playouts
        deadline = None if limit.seconds is None or limit.playouts else time.perf_counter() + limit.seconds * 0.8
        for done in range(budget):
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(root)
        best = max(root.children, key=lambda child: (child.visits, child.wins))
        return best.move  # type: ignore[return-value]

    def _iterate(self, root: _Node) -> None:
        node, path = root, [root]
        while True:
            if node.state.outcome is not None:
                break
            if node.untried is None:
                node.untried = distinct(node.state.legal_moves())
                self._rng.shuffle(node.untried)
            if node.untried:
                move = node.untried.pop()
                colour = node.state.to_move
                child_state = node.state.copy()
                child_state.play(move)
                child = _Node(child_state, move, colour)
                node.children.append(child)
                path.append(child)
                node = child
                break
            log_n = math.log(node.visits)
            c = self.exploration
            node = max(node.children, key=lambda ch: ch.wins / ch.visits + c * math.sqrt(log_n / ch.visits))
            path.append(node)
        value_of = {Color.BLACK: self.evaluate(node.state, Color.BLACK)}
        value_of[Color.WHITE] = 1.0 - value_of[Color.BLACK]
        for visited in path:
            visited.visits += 1
            if visited.colour is not None:
                visited.wins += value_of[visited.colour]
