"""A tiny test-only game for publish: one stone each placed on tri:N, then steps to a neighbouring empty node;
a draw by move limit after `max_plies` actions. Registered by the tests as 'toyslide'."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ytourney.boards.board import Board, parse_board
from ytourney.errors import GameSpecError, IllegalMoveError, NotationError
from ytourney.games.api import (
    EMPTY,
    Color,
    Game,
    Move,
    MoveKind,
    Outcome,
    RuleOption,
    State,
    Termination,
)
from ytourney.games.views import GameViews

NAME = "toyslide"


@dataclass(frozen=True)
class ToyRules:
    """The toy's one option."""

    max_plies: int = 6

    def to_dict(self) -> dict[str, Any]:
        return {"max_plies": self.max_plies}


class ToyState:
    """A position of the toy game."""

    def __init__(self, game: ToyGame, board: Board, rules: ToyRules, handicap: int = 0) -> None:
        self.game, self.board, self.rules, self.handicap = game, board, rules, handicap
        self._cells = [EMPTY] * board.num_cells
        self._history: list[Move] = []
        self._outcome: Outcome | None = None

    @property
    def to_move(self) -> Color:
        return Color.BLACK if len(self._history) % 2 == 0 else Color.WHITE

    @property
    def swapped(self) -> bool:
        return False

    @property
    def history(self) -> tuple[Move, ...]:
        return tuple(self._history)

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def cells(self) -> list[int]:
        return list(self._cells)

    def seat_to_move(self) -> int:
        return len(self._history) % 2

    def color_of_seat(self, seat: int) -> Color:
        return Color.BLACK if seat == 0 else Color.WHITE

    def can_swap(self) -> bool:
        return False

    def legal_moves(self) -> list[Move]:
        if self.is_over:
            return []
        mine = [c for c, v in enumerate(self._cells) if v == self.to_move]
        if len(self._history) < 2:
            return [Move.place(c) for c, v in enumerate(self._cells) if v == EMPTY]
        return [Move.step(c, n) for c in mine for n in self.board.neighbors[c] if self._cells[n] == EMPTY]

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves()

    def play(self, move: Move) -> None:
        if not self.is_legal(move):
            raise IllegalMoveError(f"{move!r} is not legal here")
        if move.kind is MoveKind.STEP:
            self._cells[move.source] = EMPTY
        self._cells[move.target] = self.to_move
        self._history.append(move)
        if len(self._history) >= self.rules.max_plies:
            self._outcome = Outcome(None, Termination.MOVE_LIMIT)

    def copy(self) -> ToyState:
        other = ToyState(self.game, self.board, self.rules, self.handicap)
        other._cells, other._history, other._outcome = list(self._cells), list(self._history), self._outcome
        return other


class ToyViews(GameViews):
    """The toy's stones in one line."""

    def board_text(self, state: State, last: Move | None = None) -> str:
        return " ".join(".XO"[v] for v in state.cells)



class ToyGame(Game):
    """Place one stone each, then step."""

    name = NAME
    title = "Toyslide"
    boards_help = "tri:N"
    default_board = "tri:3"
    notation_example = "a1 b1 a1-a2"
    has_pie = False
    has_draws = True
    rule_options: Mapping[str, RuleOption] = {"max_plies": RuleOption(int, 6, "actions before the draw", 1, 99)}
    views = ToyViews()

    def parse_board(self, spec: str) -> Board:
        board = parse_board(spec)
        if board.kind.value != "tri":
            raise GameSpecError(f"board {spec!r} is not a board of toyslide; expected tri:N")
        return board

    def parse_rules(self, data: Mapping[str, Any] | None) -> ToyRules:
        return ToyRules(**dict(data or {}))

    def new_state(self, board: Board, rules: Any, handicap: int = 0) -> ToyState:
        return ToyState(self, board, rules, handicap)

    def parse_move(self, board: Board, text: str) -> Move:
        nodes = []
        for name in text.strip().split("-"):
            index = board.index_of(name)
            if index is None:
                raise NotationError(f"unknown node {name!r} in {text!r}")
            nodes.append(index)
        return Move.place(nodes[0]) if len(nodes) == 1 else Move.step(nodes[0], nodes[1])

    def format_move(self, board: Board, move: Move) -> str:
        return "-".join(board.names[node] for node in move.path)



GAME = ToyGame()
