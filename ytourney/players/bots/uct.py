"""The generic `mcts` bot: UCT over the game API for every game, with the game's knowledge plugged in.

It needs nothing but `legal_moves`, `play`, `copy` and `outcome`: with no more, a leaf is scored by random moves to
the end (stopped at the game's `max_plies` or at `playout_plies`, an unfinished playout a draw). A state may offer
the optional search hooks of the `State` protocol (games/api.py): `rollout(rng, plies)` scores a leaf instead of the
random playout, `can_win_now()` makes a position a decided leaf, `search_moves()` narrows the moves a node expands,
`urgent_moves()` narrows the root to the moves that must be played (a win in one, a block). `Game.search_defaults`
gives a game's own defaults for the options a spec leaves out. Games with a tuned search of their own (Y) register
it under the same name.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, ClassVar

from ytourney.games.api import SWAP, Color, Move, State
from ytourney.games.bot import BaseBot, BotOption, Limit
from ytourney.players.bots.random_bot import playable_moves


class _Node:
    """One tree node: the move that led here, the seat that played it (seats, not colours: a swap exchanges
    colours), its statistics, Black's value when the position is decided (an outcome or a win in one), and the
    moves not yet expanded (None until the node is first passed through: most leaves never are)."""

    __slots__ = ("children", "decided", "move", "seat", "untried", "visits", "wins")

    def __init__(self, move: Move | None, seat: int | None, untried: list[Move] | None,
                 decided: float | None = None) -> None:
        self.move = move
        self.seat = seat
        self.untried = untried
        self.decided = decided
        self.children: list[_Node] = []
        self.visits = 0
        self.wins = 0.0

    def best_child(self, exploration: float) -> _Node:
        scale = exploration * math.sqrt(math.log(self.visits))
        sqrt = math.sqrt
        best, best_value = self.children[0], -math.inf
        for child in self.children:
            visits = child.visits
            value = child.wins / visits + scale / sqrt(visits)
            if value > best_value:
                best, best_value = child, value
        return best


def search_moves(state: Any) -> list[Move]:
    """The moves a search expands: the state's `search_moves()` when it has one, else the playable moves."""
    narrow = getattr(state, "search_moves", None)
    return list(narrow()) if narrow is not None else playable_moves(state)


def decided_value(state: Any) -> float | None:
    """Black's value of a position that needs no search: 1/0/0.5 for an outcome, a win for the side to move when
    its `can_win_now()` says so; None otherwise."""
    outcome = state.outcome
    if outcome is not None:
        return 0.5 if outcome.winner is None else float(outcome.winner is Color.BLACK)
    can_win_now = getattr(state, "can_win_now", None)
    if can_win_now is not None and can_win_now():
        return float(state.to_move is Color.BLACK)
    return None


class UctBot(BaseBot):
    """UCT for any game, leaves scored by the game's rollout or random playouts; reproducible for a seed."""

    name = "mcts"
    OPTIONS: ClassVar[dict[str, BotOption]] = {
        "playouts": BotOption(int, 1000, "playouts per move (when no time budget is given)", 1, 10_000_000),
        "c": BotOption(float, 1.0, "UCT exploration constant (unless given: the game's search_defaults, else 1.0)",
                       0, 100),
        "playout_plies": BotOption(int, 400, "plies a playout runs before it is scored (unless given: the game's "
                                   "search_defaults, else 400)", 0, 100_000),
    }

    def __init__(self, seed: int | None = None, playouts: int = 1000, c: float | None = None,
                 playout_plies: int | None = None) -> None:
        super().__init__(seed)
        self.playouts = playouts
        self._given = {"c": c, "playout_plies": playout_plies}
        self.exploration = 1.0 if c is None else c
        self.playout_plies = 400 if playout_plies is None else playout_plies
        self._rng = random.Random(seed)

    def reset(self, seed: int | None) -> None:
        """Start afresh exactly as a new bot with this seed would."""
        self.seed = seed
        self._rng.seed(seed)

    def move(self, state: State, limit: Limit) -> Move:
        """An urgent move or a win in one when there is one, else the most visited move of a search."""
        self._settle(state)
        moves = self._root_moves(state)
        if len(moves) == 1:
            return moves[0]
        if decided_value(state) is not None:  # the side to move can win at once: find the move
            for move in moves:
                trial = state.copy()
                trial.play(move)
                if trial.outcome is not None and trial.outcome.winner is state.to_move:
                    return move
        return self._search(state, moves, limit)

    def swap(self, state: State, limit: Limit) -> bool:
        """Swap when the search prefers taking the first move to any reply."""
        self._settle(state)
        return self._search(state, [*search_moves(state), SWAP], limit).is_swap

    def _settle(self, state: State) -> None:
        """Options the spec left out take the game's `search_defaults`, then the class defaults."""
        defaults = getattr(state.game, "search_defaults", {}) or {}
        c, plies = self._given["c"], self._given["playout_plies"]
        self.exploration = float(c if c is not None else defaults.get("c", 1.0))
        self.playout_plies = int(plies if plies is not None else defaults.get("playout_plies", 400))

    def _root_moves(self, state: State) -> list[Move]:
        urgent = getattr(state, "urgent_moves", None)
        moves = list(urgent()) if urgent is not None else []
        return moves or search_moves(state)

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

    def _iterate(self, root: _Node, state: Any) -> None:
        node, path = root, [root]
        while node.decided is None:
            if node.untried is None:
                node.untried = search_moves(state)
            if node.untried or not node.children:
                break
            node = node.best_child(self.exploration)
            state.play(node.move)
            path.append(node)
        if node.decided is None and node.untried:
            untried = node.untried
            pick = self._rng.randrange(len(untried))
            untried[pick], untried[-1] = untried[-1], untried[pick]
            move = untried.pop()
            seat = state.seat_to_move()
            state.play(move)
            decided = decided_value(state)
            node = _Node(move, seat, None, decided)
            path[-1].children.append(node)
            path.append(node)
        black = node.decided if node.decided is not None else self._leaf_value(state)
        black_seat = 0 if state.color_of_seat(0) is Color.BLACK else 1
        for visited in path:
            visited.visits += 1
            if visited.seat is not None:
                visited.wins += black if visited.seat == black_seat else 1.0 - black

    def _leaf_value(self, state: Any) -> float:
        """Black's value of an undecided leaf: the state's own rollout, else a random playout."""
        if state.outcome is None:
            rollout = getattr(state, "rollout", None)
            if rollout is not None:
                return float(rollout(self._rng, self.playout_plies))
        choice = self._rng.choice
        for _ in range(self.playout_plies):
            if state.outcome is not None:
                break
            state.play(choice(playable_moves(state)))
        outcome = state.outcome
        if outcome is None or outcome.winner is None:
            return 0.5
        return float(outcome.winner is Color.BLACK)
