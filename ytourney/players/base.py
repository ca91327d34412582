"""The bot protocol every player implements, and a small base class for built-in and plugin bots."""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ytourney.boards.board import Board
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import GameState


@dataclass(frozen=True)
class Limit:
    """What a bot may spend on one decision: a soft time budget and, for built-ins, a playout budget."""

    seconds: float | None = None
    playouts: int | None = None
    remaining: float | None = None
    increment: float = 0.0


@runtime_checkable
class Bot(Protocol):
    """A Y player: told of each new game, asked for moves and for the pie decision, closed at the end."""

    name: str

    def new_game(self, board: Board, rules: Rules, color: Color) -> None:
        """Start a game on `board` seated as `color` (the colour may change later through a swap)."""

    def move(self, state: GameState, limit: Limit) -> int:
        """Return a cell index for `state.to_move`; called k times in a row on a handicap turn."""

    def swap(self, state: GameState, limit: Limit) -> bool:
        """Return True to take the opponent's first stone with the pie rule."""

    def close(self) -> None:
        """Release whatever the bot holds (processes, files)."""


PROTOCOL_METHODS = ("new_game", "move", "swap", "close")


class BaseBot(abc.ABC):
    """Convenience base: remembers the game's board, rules and colour; never swaps; closes nothing."""

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.board: Board | None = None
        self.rules = Rules()
        self.color = Color.BLACK

    def new_game(self, board: Board, rules: Rules, color: Color) -> None:
        """Remember the game's settings."""
        self.board = board
        self.rules = rules
        self.color = color

    @abc.abstractmethod
    def move(self, state: GameState, limit: Limit) -> int:
        """Subclasses choose a cell."""

    def swap(self, state: GameState, limit: Limit) -> bool:
        """Never swap by default."""
        return False

    def close(self) -> None:
        """Nothing to release by default."""
