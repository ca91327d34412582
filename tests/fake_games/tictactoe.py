"""Tic-tac-toe on tri:3, a test-only placement game: the proof that a game is one module plus one registry line.

Six cells; three in a row along a side wins; a full board without one is a draw. It names nothing of the tool
above `ytourney.games`: the registry line is `register("tictactoe", "tictactoe:GAME")`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ytourney.boards.board import Board, parse_board
from ytourney.boards.text import board_text
from ytourney.errors import GameSpecError, NotationError
from ytourney.games.api import (
    EMPTY,
    SWAP,
    SWAP_TOKEN,
    Color,
    Game,
    Move,
    MoveKind,
    RuleOption,
    State,
    Termination,
)
from ytourney.games.front import KernelState
from ytourney.games.kernel import DRAW, ONGOING
from ytourney.games.views import GameViews

LINE = Termination.define("line")
FULL = Termination.define("full")


@dataclass(frozen=True)
class TicTacToeRules:
    """The pie rule and an optional move limit."""

    pie: bool = False
    max_plies: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"pie": self.pie, "max_plies": self.max_plies}


class TicTacToeKernel:
    """The position: cells, the side to move, the end; undone from a stack of the cells each action filled."""

    def __init__(self, board: Board, max_plies: int | None) -> None:
        self.cells = [EMPTY] * board.num_cells
        self.lines = [tuple(board.cells_on_side(side)) for side in (1, 2, 4)]
        self.max_plies = max_plies
        self.to_move = int(Color.BLACK)
        self.plies = 0
        self.result = ONGOING
        self.termination: Termination | None = None
        self.score = None
        self._done: list[int] = []

    def legal_actions(self) -> list[int]:
        return [] if self.result != ONGOING else [c for c, stone in enumerate(self.cells) if stone == EMPTY]

    def is_legal(self, action: int) -> bool:
        return (self.result == ONGOING and type(action) is int and 0 <= action < len(self.cells)
                and self.cells[action] == EMPTY)

    def apply(self, action: int) -> None:
        mover = self.to_move
        self.cells[action] = mover
        self._done.append(action)
        self.plies += 1
        self.to_move = 3 - mover
        if any(action in line and all(self.cells[c] == mover for c in line) for line in self.lines):
            self.result, self.termination = mover, LINE
        elif EMPTY not in self.cells:
            self.result, self.termination = DRAW, FULL
        elif self.max_plies is not None and self.plies >= self.max_plies:
            self.result, self.termination = DRAW, Termination.MOVE_LIMIT

    def count_swap(self) -> None:
        self._done.append(-1)
        self.plies += 1

    def undo(self) -> None:
        action = self._done.pop()
        self.plies -= 1
        self.result, self.termination = ONGOING, None
        if action >= 0:
            self.cells[action] = EMPTY
            self.to_move = 3 - self.to_move

    def key(self) -> int:
        return hash((tuple(self.cells), self.to_move))

    def clone(self) -> TicTacToeKernel:
        new = copy.copy(self)
        new.cells = self.cells.copy()
        new._done = self._done.copy()
        return new


class TicTacToeState(KernelState):
    """Place a stone on an empty cell; three in a row along a side wins."""

    def new_kernel(self) -> TicTacToeKernel:
        return TicTacToeKernel(self.board, self.rules.max_plies)

    def end_reason(self) -> str:
        return "the board is full" if self.kernel.termination is FULL else super().end_reason()


class TicTacToeViews(GameViews):
    """How TicTacToe shows itself."""

    def board_text(self, state: State, last: Move | None = None) -> str:
        return board_text(state.board, state.cells, last.path if last is not None else ())


class TicTacToe(Game):
    """The game object the registry hands out."""

    views = TicTacToeViews()

    name = "tictactoe"
    title = "Tic-tac-toe on tri:3"
    boards_help = "tri:3"
    default_board = "tri:3"
    notation_example = "a1"
    has_draws = True
    rule_options: ClassVar[Mapping[str, RuleOption]] = {
        "pie": RuleOption(bool, False, "the second player may take the first stone"),
        "max_plies": RuleOption(int, None, "a move limit", 1, 100),
    }

    def parse_board(self, spec: str) -> Board:
        if spec.strip().lower() != "tri:3":
            raise GameSpecError(f"board {spec!r} is not a board of tictactoe; expected tri:3")
        return parse_board("tri:3")

    def parse_rules(self, data: Mapping[str, Any] | None) -> TicTacToeRules:
        return TicTacToeRules(**dict(data or {}))

    def new_state(self, board: Board, rules: Any, handicap: int = 0) -> State:
        return TicTacToeState(self, board, rules, handicap)

    def parse_move(self, board: Board, text: str) -> Move:
        if text.strip().lower() == SWAP_TOKEN:
            return SWAP
        cell = board.index_of(text.strip())
        if cell is None:
            raise NotationError(f"unknown cell {text!r} on {board.spec}")
        return Move.place(cell)

    def format_move(self, board: Board, move: Move) -> str:
        return SWAP_TOKEN if move.kind is MoveKind.SWAP else board.names[move.cell]


GAME = TicTacToe()
