"""The generic `mcts` bot: plain UCT over the game API with random playouts, for every game.

Games with a tuned search of their own (Y) register it under the same name; this one needs nothing but
`legal_moves`, `play`, `copy` and `outcome`. Playouts stop at the game's `max_plies` or at `playout_plies`, and an
unfinished playout scores as a draw.
"""

from __future__ import annotations

import math
import random
import time
from typing import ClassVar

from ytourney.games.api import Move, State
from ytourney.games.bot import BaseBot, BotOption, Limit
from ytourney.players.bots.random_bot import playable_moves


class _Node:
    """One tree node: the move that led here, the seat that played it (seats, not colours: a swap exchanges
    colours), and its statistics."""

    __slots__ = ("children", "move", "seat", "untried", "visits", "wins")

    def __init__(self, move: Move | None, seat: int | None, untried: list[Move]) -> None:
        self.move = move
        self.seat = seat
        self.untried = untried
        self.children: list[_Node] = []
        self.visits = 0
        self.wins = 0.0

    def best_child(self, exploration: float) -> _Node:
        log_n = math.log(self.visits)
        return max(self.children, key=lambda c: c.wins / c.visits + exploration * math.sqrt(log_n / c.visits))


class UctBot(BaseBot):
    """UCT with random playouts, limited by `playouts` or by the move time; reproducible for a seed."""

    name = "mcts"
    OPTIONS: ClassVar[dict[str, BotOption]] = {
        "playouts": BotOption(int, 1000, "playouts per move (when no time budget is given)", 1, 10_000_000),
        "c": BotOption(float, 1.0, "UCT exploration constant", 0, 100),
        "playout_plies": BotOption(int, 400, "plies after which a playout stops and scores as a draw", 1, 100_000),
    }

    def __init__(self, seed: int | None = None, playouts: int = 1000, c: float = 1.0, playout_plies: int = 400) -> None:
        super().__init__(seed)
        self.playouts = playouts
        self.exploration = c
        self.playout_plies = playout_plies
        self._rng = random.Random(seed)

    def move(self, state: State, limit: Limit) -> Move:
        """The most visited move of a search from `state` (the pie answer left to `swap`)."""
        moves = playable_moves(state)
        if len(moves) == 1:
            return moves[0]
        return self._search(state, moves, limit)

    def swap(self, state: State, limit: Limit) -> bool:
        """Swap when the search prefers taking the first move to any reply."""
        moves = state.legal_moves()
        return self._search(state, moves, limit).is_swap

    def _search(self, state: State, moves: list[Move], limit: Limit) -> Move:
        rng = self._rng
        root = _Node(None, None, list(moves))
        rng.shuffle(root.untried)
        budget = limit.playouts or self.playouts
        deadline = None if limit.seconds is None or limit.playouts else time.perf_counter() + limit.seconds * 0.9
        done = 0
        while done < budget or (deadline is not None and done < 1):
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(root, state.copy())
            done += 1
            if deadline is None and done >= budget:
                break
        best = max(root.children, key=lambda c: (c.visits, c.wins))
        return best.move  # type: ignore[return-value]

    def _iterate(self, root: _Node, state: State) -> None:
        node, path = root, [root]
        while not node.untried and node.children:
            node = node.best_child(self.exploration)
            state.play(node.move)
            path.append(node)
        if node.untried and state.outcome is None:
            move = node.untried.pop()
            seat = state.seat_to_move()
            state.play(move)
            children = playable_moves(state) if state.outcome is None else []
            self._rng.shuffle(children)
            child = _Node(move, seat, children)
            node.children.append(child)
            node = child
            path.append(node)
        winner = self._playout(state)
        for visited in path:
            visited.visits += 1
            if visited.seat is not None:
                visited.wins += 0.5 if winner is None else float(winner == visited.seat)

    def _playout(self, state: State) -> int | None:
        """Random moves to the end (or the playout cap, a draw); the winning seat, None for a draw."""
        choice = self._rng.choice
        for _ in range(self.playout_plies):
            if state.outcome is not None:
                break
            state.play(choice(playable_moves(state)))
        outcome = state.outcome
        if outcome is None or outcome.winner is None:
            return None
        return 0 if state.color_of_seat(0) is outcome.winner else 1
