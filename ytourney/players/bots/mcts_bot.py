"""The generic `mcts` bot: the one search library (ytourney/search/) over any game's kernel, with the game's knowledge.

A game hands in its knowledge through `Game.knowledge` (games/knowledge.py): the actions worth searching, urgent
actions, a win in one, priors, a playout or an evaluation, and its defaults for the options a spec leaves out.
Games with a tuned search of their own (Y) register it under the same name.
"""

from __future__ import annotations

import random
import time
from typing import Any, ClassVar

from ytourney.games.api import Move, State
from ytourney.games.kernel import Kernel
from ytourney.games.bot import BaseBot, BotOption, Evaluation, Limit, search_evaluation
from ytourney.games.pie import swap_follows
from ytourney.players.bots.random_bot import playable_moves
from ytourney.search.clock import Budget
from ytourney.search.mcts import Search, SearchResult
from ytourney.search.tree import PROVEN_LOSS, PROVEN_WIN
from ytourney.search.settings import SearchSettings

DEFAULT_PLAYOUTS = 1000
PIE_OPENINGS = 4
"""Openings searched under the pie (the nearest even two plies deep), each for its share of the move's budget."""


class MctsBot(BaseBot):
    """UCT for any game on its kernel, leaves scored by the game's playout or evaluation; reproducible for a seed."""

    name = "mcts"
    OPTIONS: ClassVar[dict[str, BotOption]] = {
        "playouts": BotOption(int, DEFAULT_PLAYOUTS, "simulations per move (unbounded when only seconds is given)",
                              1, 10_000_000),
        "seconds": BotOption(float, 0.0, "seconds a move of its own, the whole of it used (0: by playouts; a "
                             "tournament's time limit binds as well)", 0, 3600),
        "c": BotOption(float, 1.0, "UCT exploration constant (unless given: the game's default, else 1.0)", 0, 100),
        "playout_plies": BotOption(int, 400, "plies a playout runs before the game's evaluation scores it (unless "
                                   "given: the game's default, else 400)", 0, 100_000),
        "rave": BotOption(float, 0.0, "RAVE equivalence visits (0: off; unless given: the game's default)", 0, 1e6),
        "max_nodes": BotOption(int, 1_000_000, "tree node budget; past it leaves are scored without being kept",
                               1_000, 100_000_000),
        "reuse": BotOption(bool, True, "keep the subtree of the moves played since the last search"),
    }

    def __init__(self, seed: int | None = None, playouts: int | None = None, seconds: float = 0.0,
                 c: float | None = None, playout_plies: int | None = None, rave: float | None = None,
                 max_nodes: int = 1_000_000, reuse: bool = True) -> None:
        super().__init__(seed)
        self.playouts: float = playouts if playouts is not None else float("inf") if seconds else DEFAULT_PLAYOUTS
        self.seconds = seconds or None
        self._given: dict[str, Any] = {"exploration": c, "playout_plies": playout_plies, "rave": rave,
                                       "max_nodes": max_nodes, "reuse": reuse}
        self._rng = random.Random(seed)
        self._search: Search | None = None
        self._searched: tuple[Move, ...] | None = None
        self.last_search: SearchResult | None = None
        self._evaluation: Evaluation | None = None

    @property
    def settings(self) -> SearchSettings | None:
        """The search's settings once a game has started (the spec's options over the game's defaults)."""
        return None if self._search is None else self._search.settings

    def reset(self, seed: int | None) -> None:
        """Start afresh exactly as a new bot with this seed would."""
        self.seed = seed
        self._rng.seed(seed)
        self._forget()

    def new_game(self, board: Any, rules: Any, color: Any) -> None:
        """A new game: the tree of the last one is dropped."""
        super().new_game(board, rules, color)
        self._forget()

    def move(self, state: State, limit: Limit) -> Move:
        """A win in one or the one urgent move when there is one, else the most visited move of a search."""
        started = time.perf_counter()
        self._evaluation = None
        search = self._search_for(state)
        kernel = state.search_kernel()
        knowledge = search.knowledge
        urgent = knowledge.urgent_actions(kernel)
        if len(urgent) == 1:
            return state.move_of(urgent[0])
        winning = knowledge.winning_action(kernel)
        if winning is not None:
            return state.move_of(winning)
        if swap_follows(state):
            return state.move_of(self._pie_opening(search, kernel, self._budget(limit, started)))
        if not urgent:
            candidates = knowledge.search_actions(kernel)
            if len(candidates) == 1:
                return state.move_of(candidates[0])
            if not candidates:
                return self._rng.choice(playable_moves(state))
        self._follow(state)
        result = search.run(kernel, self._budget(limit, started), urgent or None)
        self.last_search = result
        self._searched = state.history
        proof = result.proof
        self._evaluation = search_evaluation(result.value, True if proof == PROVEN_WIN else
                                             False if proof == PROVEN_LOSS else None)
        if result.action is None:
            return self._rng.choice(playable_moves(state))
        return state.move_of(result.action)

    def evaluation(self) -> Evaluation | None:
        """The root value of the search behind the last move, and its proof (None when that move was not searched)."""
        return self._evaluation

    def swap(self, state: State, limit: Limit) -> bool:
        """Swap when the side to move's best reply is worth less than half (a proved loss: always, a proved win:
        never): the first move is then the better seat."""
        started = time.perf_counter()
        search = self._search_for(state)
        self._follow(state)
        result = search.run(state.search_kernel(), self._budget(limit, started))
        self.last_search = result
        self._searched = state.history
        return proved_value(result) < 0.5

    def _pie_opening(self, search: Search, kernel: Kernel, budget: Budget) -> int:
        """The opening whose searched value, the opponent to move, lies nearest even: whichever side the opponent
        then takes with the pie, it takes no better than half (the candidates: `Knowledge.even_openings`)."""
        openings = search.knowledge.even_openings(kernel, PIE_OPENINGS)
        started = time.perf_counter()
        best, nearest = openings[0], float("inf")
        for index, action in enumerate(openings, start=1):
            deadline = None if budget.deadline is None else started + (budget.deadline - started) * index / len(openings)
            kernel.apply(action)
            search.forget()
            result = search.run(kernel, Budget(max(1.0, budget.simulations / len(openings)), deadline))
            kernel.undo()
            reply = proved_value(result)
            if abs(reply - 0.5) < nearest:
                best, nearest = action, abs(reply - 0.5)
        search.forget()
        return best

    def _budget(self, limit: Limit, started: float) -> Budget:
        return Budget.of(limit, started, self.playouts, self.seconds)

    def _search_for(self, state: State) -> Search:
        """This game's search, made on the first move of a game with the game's knowledge and defaults."""
        if self._search is None:
            knowledge = state.game.knowledge(state.board, state.rules).for_search()
            settings = SearchSettings.from_defaults(knowledge.defaults, **self._given)
            self._search = Search(knowledge, settings, self._rng)
        return self._search

    def _follow(self, state: State) -> None:
        """Move the kept tree down the moves played since the last search, or drop it when they do not continue it."""
        search = self._search
        if search is None:
            return
        history, searched = state.history, self._searched
        if searched is None or history[:len(searched)] != searched:
            search.forget()
            return
        actions = []
        for move in history[len(searched):]:
            if move.is_swap:
                continue  # the position is unchanged: only who owns the stones is
            action = state.action_of(move)
            if action is None:
                search.forget()
                return
            actions.append(action)
        search.advance(actions)

    def _forget(self) -> None:
        self._evaluation = None
        self._search = None
        self._searched = None


def proved_value(result: SearchResult) -> float:
    """A search's value to the side to move: 1 or 0 once proved won or lost, else its best action's mean."""
    return 1.0 if result.proof == PROVEN_WIN else 0.0 if result.proof == PROVEN_LOSS else result.value
