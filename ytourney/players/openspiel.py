"""OpenSpiel bots as players: the spec `openspiel:mcts` and `OpenSpielBot`, the adapter a plugin subclasses to seat
any bot built on OpenSpiel's API (a trained AlphaZero checkpoint loaded through OpenSpiel's own loader, say).

A game says which OpenSpiel game is its own (`Game.openspiel_name`, with `Game.openspiel_misfit` for rules OpenSpiel
lacks); nothing here names a game. Boards: tri:N is OpenSpiel's `board_size` N. The translation is checked when a
game starts, not assumed: every action of OpenSpiel's empty board must name (`action_to_string`) a cell of ours, one
action a cell. OpenSpiel's game has no pie rule: the adapter answers it (`pie_policy`), and a swap is left out of the
moves replayed into OpenSpiel (the stones keep their colours and the players exchange theirs, so the side to move is
the same in both). OpenSpiel itself is the optional extra `pip install -e ".[openspiel]"`, imported only when an
OpenSpiel bot is built.
"""

from __future__ import annotations

import enum
import functools
import random
from dataclasses import dataclass
from typing import Any, ClassVar

from ytourney.boards.board import Board, BoardKind
from ytourney.errors import BotSpecError, IllegalAnswerError, PlayerFault, YTourneyError
from ytourney.games.api import Color, Game, Move, MoveKind, State
from ytourney.games.bot import BaseBot, BotOption, Limit

INSTALL_HINT = "pip install -e '.[openspiel]' (or pip install open_spiel)"


class PieAnswer(enum.Enum):
    """How an OpenSpiel bot answers the pie, which OpenSpiel's games do not have."""

    SEARCH = "search"
    """Take the first stone when the bot's own search values the position below even for the side to move."""
    CENTER = "center"
    """Take a first stone at least a third of the board's depth away from every side (the game's dialect decides)."""
    NEVER = "never"
    ALWAYS = "always"


def import_pyspiel() -> Any:
    """The `pyspiel` module, or one clear line saying how to install it."""
    try:
        import pyspiel
    except ImportError:
        raise BotSpecError(f"OpenSpiel bots need OpenSpiel, which is not installed: {INSTALL_HINT}") from None
    return pyspiel


def check_game(game: Game, what: str) -> str:
    """The OpenSpiel name of `game`, or a BotSpecError saying that `what` cannot play it."""
    name = game.openspiel_name
    if not name:
        raise BotSpecError(f"{what} plays only games OpenSpiel has as ours; {game.name!r} is not one of them")
    return name


@dataclass(frozen=True)
class SpielBoard:
    """OpenSpiel's game on one of our boards: its `pyspiel.Game` and the action of every node, both ways."""

    game: Any
    actions: tuple[int, ...]
    """The OpenSpiel action of each of our nodes."""
    nodes: dict[int, int]
    """Our node of each OpenSpiel action."""


@functools.lru_cache(maxsize=16)
def spiel_board(game: Game, board: Board) -> SpielBoard:
    """OpenSpiel's game of `game` on `board`, its actions checked against our cell names; BotSpecError when OpenSpiel
    has no such board or names its cells otherwise."""
    name = check_game(game, "an OpenSpiel bot")
    if board.kind is not BoardKind.TRI:
        raise BotSpecError(f"OpenSpiel's {name!r} is played on tri boards (board_size N for tri:N); board "
                           f"{board.spec!r} is not one")
    pyspiel = import_pyspiel()
    try:
        spiel = pyspiel.load_game(name, {"board_size": board.size})
    except pyspiel.SpielError as err:
        raise BotSpecError(f"OpenSpiel cannot play {name!r} on {board.spec}: {str(err).strip()[:200]}") from None
    start = spiel.new_initial_state()
    nodes: dict[int, int] = {}
    for action in start.legal_actions():
        node = board.index_of(start.action_to_string(action))
        if node is None or node in nodes.values():
            raise BotSpecError(f"OpenSpiel's {name!r} on {board.spec} names action {action} "
                               f"{start.action_to_string(action)!r}, which is no cell of ours: its cells are not ours")
        nodes[action] = node
    if len(nodes) != board.num_cells:
        raise BotSpecError(f"OpenSpiel's {name!r} on {board.spec} has {len(nodes)} cells, ours {board.num_cells}")
    actions = [0] * board.num_cells
    for action, node in nodes.items():
        actions[node] = action
    return SpielBoard(spiel, tuple(actions), nodes)


class OpenSpielBot(BaseBot):
    """A player backed by a bot built on OpenSpiel's API, for a game OpenSpiel has as ours (Y on tri boards).

    Subclass it in a plugin file and define `make_bot(game, player, seed)`, returning a `pyspiel.Bot` (or any object
    with `step(state) -> action`) playing OpenSpiel's `player` (0 the first mover) in the `pyspiel.Game` given; seat
    it like any plugin (`bots/openspiel_bot.py:Class`). `make_bot` is called once per game and player (a swap changes
    the player mid-game), with a seed drawn from the bot's seed. Override `choose` to decide from the OpenSpiel state
    and the time `Limit` yourself. The pie, which OpenSpiel's games lack, is answered by
    `pie_policy` (a PieAnswer; `search` only where `choose_swap` is overridden).
    """

    name = "openspiel"
    pie_policy: ClassVar[PieAnswer] = PieAnswer.CENTER

    def __init__(self, seed: int | None = None, game: Game | None = None) -> None:
        super().__init__(seed)
        self.game = game
        self._rng = random.Random(seed)
        self._spiel: SpielBoard | None = None
        self._bots: dict[int, Any] = {}

    # --- what a subclass writes -----------------------------------------------------------------------------

    def make_bot(self, game: Any, player: int, seed: int) -> Any:
        """The OpenSpiel bot playing `player` in `game` (a `pyspiel.Game`), seeded with `seed`; a subclass defines it
        (or `choose`), which `new_game` checks before the first move."""
        raise BotSpecError(self._unfinished())

    def choose(self, state: Any, limit: Limit) -> int:
        """The OpenSpiel action to play in `state` (a `pyspiel.State`) within `limit`: the bot's step."""
        player = state.current_player()
        if player not in self._bots:
            self._bots[player] = self.make_bot(self.spiel.game, player, self._rng.randrange(2**31))
        return int(self._bots[player].step(state))

    def choose_swap(self, state: Any, limit: Limit) -> bool:
        """Whether to take the first stone, for `pie_policy` search: the bot's own judgement of `state`; a subclass
        with `pie_policy` search defines it, which `new_game` checks before the first move."""
        raise BotSpecError(self._unfinished())

    def _unfinished(self) -> str | None:
        """What this class leaves undefined that it needs: make_bot or choose, and choose_swap for the search pie."""
        cls = type(self)
        if cls.make_bot is OpenSpielBot.make_bot and cls.choose is OpenSpielBot.choose:
            return (f"OpenSpiel bot class {cls.__name__!r} must define make_bot(game, player, seed) or "
                    "choose(state, limit)")
        if self.pie_policy is PieAnswer.SEARCH and cls.choose_swap is OpenSpielBot.choose_swap:
            return (f"OpenSpiel bot class {cls.__name__!r} has pie_policy 'search' but no choose_swap(state, limit); "
                    "define it or choose another pie_policy")
        return None

    # --- the bot protocol ---------------------------------------------------------------------------------

    @property
    def spiel(self) -> SpielBoard:
        """OpenSpiel's game on this game's board (set by `new_game`)."""
        if self._spiel is None:
            raise BotSpecError(f"{self.name!r} was asked to play before new_game")
        return self._spiel

    def new_game(self, board: Board, rules: Any, color: Color) -> None:
        """Check that OpenSpiel plays this game on `board` under `rules`, and start afresh."""
        super().new_game(board, rules, color)
        unfinished = self._unfinished()
        if unfinished:
            raise BotSpecError(unfinished)
        if self.game is None:
            raise BotSpecError(f"{self.name!r} was built without the game it plays")
        name = check_game(self.game, repr(self.name))
        misfit = self.game.openspiel_misfit(rules)
        if misfit:
            raise BotSpecError(f"OpenSpiel's {name!r} cannot play these rules: {misfit}")
        self._spiel = spiel_board(self.game, board)
        self._bots = {}

    def move(self, state: State, limit: Limit) -> Move:
        """Our state replayed into OpenSpiel, its bot's action as our Move."""
        spiel_state = self.spiel_state(state)
        action = self.choose(spiel_state, limit)
        node = self.spiel.nodes.get(action)
        if node is None:
            raise IllegalAnswerError(f"OpenSpiel's bot answered action {action!r}, which is no cell of "
                                     f"{state.board.spec}")
        return next((move for move in state.legal_moves() if move.path == (node,)), Move.place(node))

    def swap(self, state: State, limit: Limit) -> bool:
        """The pie answer of `pie_policy`."""
        policy = self.pie_policy
        if policy is PieAnswer.SEARCH:
            return self.choose_swap(self.spiel_state(state), limit)
        if policy in (PieAnswer.NEVER, PieAnswer.ALWAYS):
            return policy is PieAnswer.ALWAYS
        first = next((move for move in state.history if move.path), None)
        return first is not None and state.game.engine_dialect().takes_first_stone(state.board, first.target)

    def spiel_state(self, state: State) -> Any:
        """`state` as OpenSpiel's state: its stones in order, the swap left out (OpenSpiel has none)."""
        if state.handicap:  # known only once a game is under way: the seat's loss, in words
            raise PlayerFault(f"OpenSpiel's {self.game.openspiel_name if self.game else ''!r} has no handicap "
                               "stones; seat OpenSpiel bots in even games")
        spiel = self.spiel
        spiel_state = spiel.game.new_initial_state()
        for move in state.history:
            if move.is_swap:
                continue
            if move.kind is not MoveKind.PLACE:
                raise BotSpecError(f"OpenSpiel's game has no {move.kind.value} move")
            spiel_state.apply_action(spiel.actions[move.cell])
        seat_colors = (state.game.first_color, state.game.first_color.other)
        if spiel_state.current_player() not in (0, 1) or seat_colors[spiel_state.current_player()] is not \
                state.to_move:
            raise YTourneyError(f"OpenSpiel's state has player {spiel_state.current_player()} to move where "
                                f"{state.to_move} is")
        return spiel_state


class OpenSpielMcts(OpenSpielBot):
    """OpenSpiel's C++ MCTS (`pyspiel.MCTSBot`) with random rollouts: `openspiel:mcts`."""

    name = "openspiel-mcts"
    OPTIONS: ClassVar[dict[str, BotOption]] = {
        "simulations": BotOption(int, 1000, "simulations a move at most (the move's time bounds them too)", 1,
                                 10_000_000),
        "uct_c": BotOption(float, 2.0, "the UCT exploration constant", 0, 100),
        "rollouts": BotOption(int, 1, "random rollouts a leaf", 1, 1000),
        "solve": BotOption(bool, True, "MCTS-Solver: back up proved wins and losses"),
        "pie_policy": BotOption(PieAnswer, PieAnswer.SEARCH, "how it answers the pie: search (take the first "
                                "stone when its search values the position below even), center, never or always",
                                pie_only=True),
        "seed": BotOption(int, 0, "a fixed seed (default: the tournament's seed for the game)", 0, 2**31 - 1),
    }

    def __init__(self, seed: int | None = None, game: Game | None = None, simulations: int = 1000,
                 uct_c: float = 2.0, rollouts: int = 1, solve: bool = True,
                 pie_policy: PieAnswer = PieAnswer.SEARCH) -> None:
        super().__init__(seed, game)
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.solve = solve
        self.pie_policy = PieAnswer(pie_policy)  # type: ignore[misc]

    def _search(self, limit: Limit) -> Any:
        """A fresh MCTSBot for one decision: the move's time (when it has one) bounds its simulations."""
        pyspiel = import_pyspiel()
        seconds = limit.seconds if limit.seconds is not None else -1.0
        evaluator = pyspiel.RandomRolloutEvaluator(self.rollouts, self._rng.randrange(2**31))
        return pyspiel.MCTSBot(self.spiel.game, evaluator, self.uct_c, self.simulations, 1000, self.solve,
                               self._rng.randrange(2**31), False, pyspiel.ChildSelectionPolicy.UCT, seconds)

    def choose(self, state: Any, limit: Limit) -> int:
        """MCTS's most visited action."""
        return int(self._search(limit).step(state))

    def choose_swap(self, state: Any, limit: Limit) -> bool:
        """Swap when the search values the position below even for the side to move (the stone is worth more)."""
        root = self._search(limit).mcts_search(state)
        return root.explore_count > 0 and root.total_reward / root.explore_count < 0
