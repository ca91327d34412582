"""The bot protocol every player implements, its time limit and options, and a small base class for bots."""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ytourney.boards.board import Board
from ytourney.games.api import Color, Move, State


@dataclass(frozen=True)
class Limit:
    """What a bot may spend on one decision: a soft time budget and, for built-ins, a playout budget."""

    seconds: float | None = None
    playouts: int | None = None
    remaining: float | None = None
    increment: float = 0.0


@dataclass(frozen=True)
class BotOption:
    """One option of a built-in bot: its type, default, a line of help and, for numbers, the range it must lie in."""

    type: type
    default: Any
    help: str = ""
    low: float | None = None
    high: float | None = None
    pie_only: bool = False
    """True for an option that matters only when the pie is offered (how a bot answers or avoids the swap)."""


QUICK_SECONDS = BotOption(
    float, 0.0, "seconds a move at most; this bot answers at once, well inside any budget (0: no limit of its own)",
    0, 3600)
"""The `seconds` option of a bot that never searches: every built-in bot takes a time budget, and a quick one keeps
well inside it, so ladders and configs can give every rung the same `seconds=`."""


@dataclass(frozen=True)
class Evaluation:
    """A bot's view of the game after its last move: its chance of winning (0 to 1, from its own side) and whether
    its search proved that value (a proved 0 is a proved loss). Adjudication reads it (`Bot.evaluation`)."""

    value: float
    proved: bool = False


def search_evaluation(value: float, won: bool | None = None) -> Evaluation:
    """The Evaluation of a search's root: `value` to the searching side, `won` True or False when the search proved
    the win or the loss, None when it proved nothing."""
    if won is not None:
        return Evaluation(1.0 if won else 0.0, True)
    return Evaluation(min(1.0, max(0.0, float(value))))


@runtime_checkable
class Bot(Protocol):
    """A player: told of each new game, asked for moves and for the pie decision, closed at the end."""

    name: str

    def new_game(self, board: Board, rules: Any, color: Color) -> None:
        """Start a game on `board` seated as `color` (the colour may change later through a swap)."""

    def move(self, state: State, limit: Limit) -> Move | str | int:
        """Return a move for `state.to_move`: a Move, its notation, or a node index in placement games."""

    def swap(self, state: State, limit: Limit) -> bool:
        """Return True to take the opponent's first move with the pie rule."""

    def close(self) -> None:
        """Release whatever the bot holds (processes, files)."""


PROTOCOL_METHODS = ("new_game", "move", "swap", "close")
EVALUATION_METHOD = "evaluation"
"""The optional method `evaluation() -> Evaluation | None` of a bot that searches: its view after its last move
(None when that move was not searched). Bots without it, GTP engines among them, report nothing."""


class BaseBot(abc.ABC):
    """Convenience base: remembers the game's board, rules and colour; never swaps; closes nothing."""

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.board: Board | None = None
        self.rules: Any = None
        self.color = Color.BLACK

    def new_game(self, board: Board, rules: Any, color: Color) -> None:
        """Remember the game's settings."""
        self.board = board
        self.rules = rules
        self.color = color

    @abc.abstractmethod
    def move(self, state: State, limit: Limit) -> Move | str | int:
        """Subclasses choose a move."""

    def swap(self, state: State, limit: Limit) -> bool:
        """Never swap by default."""
        return False

    def close(self) -> None:
        """Nothing to release by default."""
