"""Quinta on the game API: its board, rules, notation and views."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ytourney.boards.board import Board, parse_board
from ytourney.boards.text import board_text
from ytourney.errors import GameSpecError
from ytourney.games.api import Game, Move, RuleOption, State, Termination
from ytourney.games.quinta.state import CORNERS, QuintaRules, QuintaState
from ytourney.games.stones import format_path_move, parse_path_move


class QuintaGame(Game):
    """Quinta: slide a stone any distance along a line; five of one colour adjacent along one line wins."""

    name = "quinta"
    title = "Quinta"
    boards_help = "kadon"
    default_board = "kadon"
    notation_example = "A5-E5 (a slide along a line)"
    has_draws = True
    rule_options: ClassVar[Mapping[str, RuleOption]] = {
        "pie": RuleOption(bool, False, "the second player may take the first move (not in the rulebook)"),
        "corners": RuleOption(str, "black", "whose pairs stand on the corners and side middles at the start",
                              choices=CORNERS),
        "max_plies": RuleOption(int, 1000, "plies after which the game is a move-limit draw", 20, 1_000_000),
    }
    search_defaults: ClassVar[Mapping[str, Any]] = {"c": 0.7, "playout_plies": 16}
    """The generic mcts scores leaves by the state's short rollout and its heuristic."""
    highlight_text = "the winning five are ringed in gold"

    def parse_board(self, spec: str) -> Board:
        """Only the 93-node kadon board."""
        if not isinstance(spec, str) or spec.strip().lower() != "kadon":
            raise GameSpecError(f"board {spec!r} is not a board of quinta; expected kadon")
        return parse_board("kadon")

    def parse_rules(self, data: Mapping[str, Any] | None) -> QuintaRules:
        """Rules from {pie, corners, max_plies}; missing keys take the defaults."""
        data = dict(data or {})
        unknown = sorted(set(data) - set(self.rule_options))
        if unknown:
            raise GameSpecError(f"unknown quinta rule {unknown[0]!r}; expected one of {', '.join(self.rule_options)}")
        if data.get("corners", "black") not in CORNERS:
            raise GameSpecError(f"quinta rule corners={data['corners']!r}; expected black or white")
        return QuintaRules(**data)

    def new_state(self, board: Board, rules: Any, handicap: int = 0) -> QuintaState:
        """The start: twelve stones each in pairs round the perimeter."""
        return QuintaState(self, board, rules, handicap)

    def parse_move(self, board: Board, text: str) -> Move:
        """FROM-TO, or swap."""
        return parse_path_move(board, text)

    def format_move(self, board: Board, move: Move) -> str:
        """A5-E5 or swap."""
        return format_path_move(board, move)

    def board_text(self, state: State, last: Move | None = None) -> str:
        """The kadon rows of stones, the last move's stone in lower case."""
        return board_text(state.board, state.cells, last.path if last is not None else ())

    def highlight(self, state: State) -> frozenset[int]:
        """The winning five."""
        return frozenset(getattr(state, "winning_line", ()))

    def win_text(self, termination: Termination, rules: Any) -> str:
        """'by five in a line'."""
        return "by five in a line" if termination.value == "line" else f"by {termination.value}"


GAME = QuintaGame()
QuintaState.game = GAME
