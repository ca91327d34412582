"""Tic-tac-toe on tri:3, a test-only placement game: the proof that a game is one module plus one registry line.

Six cells; three in a row along a side wins; a full board without one is a draw. It names nothing of the tool
above `ytourney.games`: the registry line is `register("tictactoe", "tictactoe:GAME")`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ytourney.boards.board import Board, parse_board
from ytourney.boards.text import board_text
from ytourney.errors import GameSpecError, NotationError
from ytourney.games.api import EMPTY, SWAP, SWAP_TOKEN, Game, Move, MoveKind, Outcome, RuleOption, State, Termination
from ytourney.games.stones import StoneState

LINE = Termination.define("line")
FULL = Termination.define("full")


@dataclass(frozen=True)
class TicTacToeRules:
    """The pie rule and an optional move limit."""

    pie: bool = False
    max_plies: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"pie": self.pie, "max_plies": self.max_plies}


class TicTacToeState(StoneState):
    """Place a stone on an empty cell; three in a row along a side wins."""

    def generate_moves(self) -> list[Move]:
        return [Move.place(cell) for cell, stone in enumerate(self.cells) if stone == EMPTY]

    def apply(self, move: Move) -> None:
        self.cells[move.cell] = self.to_move

    def judge(self, move: Move) -> Outcome | None:
        mover = self.cells[move.cell]
        for side in (1, 2, 4):
            line = self.board.cells_on_side(side)
            if move.cell in line and all(self.cells[c] == mover for c in line):
                return Outcome(self.to_move.other, LINE)
        if EMPTY not in self.cells:
            return Outcome(None, FULL, None, "the board is full")
        return None


class TicTacToe(Game):
    """The game object the registry hands out."""

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

    def board_text(self, state: State, last: Move | None = None) -> str:
        return board_text(state.board, state.cells, last.path if last is not None else ())


GAME = TicTacToe()
