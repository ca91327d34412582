"""Singularity's own `mcts`: UCT whose leaves are scored by a cheap evaluation instead of random playouts.

Random play needs hundreds of plies to finish a game of Singularity, so the generic bot's random playouts (capped
at 400 plies) say almost nothing. Here each new leaf is scored at once: fewer own stones (fusions made) and stones
closer to the central triangle are better, squashed into a win probability for the side that moved.
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

STONE_WEIGHT = 3.0
DISTANCE_WEIGHT = 0.35
CENTRAL_BONUS = 0.5
TEMPERATURE = 3.0


@functools.cache
def distances(board: Board) -> tuple[int, ...]:
    """Graph distance of every node to the central triangle (0 inside it)."""
    todo = list(region(board, "central-triangle"))
    dist = [-1] * board.num_cells
    for node in todo:
        dist[node] = 0
    for node in todo:
        for nb in board.neighbors[node]:
            if dist[nb] < 0:
                dist[nb] = dist[node] + 1
                todo.append(nb)
    return tuple(dist)


def evaluate(state: State, colour: Color) -> float:
    """The chance `colour` wins, guessed from stone counts and distances to the central triangle."""
    outcome = state.outcome
    if outcome is not None:
        return 0.5 if outcome.winner is None else float(outcome.winner is colour)
    dist = distances(state.board)
    central = state.geo.central  # type: ignore[attr-defined]
    score = [0.0, 0.0, 0.0]
    for node, stone in enumerate(state.cells):
        if stone:
            score[stone] -= STONE_WEIGHT + DISTANCE_WEIGHT * dist[node] - CENTRAL_BONUS * central[node]
    margin = score[colour] - score[colour.other]
    return 1.0 / (1.0 + math.exp(-margin / TEMPERATURE))


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
        moves = [m for m in state.legal_moves() if not m.is_swap]
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
                node.untried = [m for m in node.state.legal_moves() if not m.is_swap]
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
