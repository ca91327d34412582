"""Tetra (Richard May) on the game API: its board, rules, notation and views."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ytourney.boards.board import Board
from ytourney.boards.text import board_text
from ytourney.games.tetra import progress
from ytourney.games.api import Game, Move, RuleOption, State, Termination
from ytourney.games.knowledge import Knowledge
from ytourney.games.stones import format_path_move, kadon_board, parse_path_move
from ytourney.games.tetra.state import KNOWLEDGE, STONES, TetraRules, TetraState
from ytourney.games.views import GameViews


class TetraViews(GameViews):
    """How Tetra shows itself: the stones in hand beside the board, the winning figure in gold."""

    highlight_text = "the winning figure is ringed in gold"

    def board_text(self, state: State, last: Move | None = None) -> str:
        """The kadon rows of stones, the last move's stones in lower case, and the stones still in hand."""
        hand = state.in_hand  # type: ignore[attr-defined]
        text = board_text(state.board, state.cells, last.path if last is not None else ())
        if hand[1] or hand[2]:
            text += f"\nin hand: black {hand[1]}, white {hand[2]} (of {STONES})"
        return text

    def highlight(self, state: State) -> frozenset[int]:
        """The winning figure's four nodes."""
        return frozenset(getattr(state, "winning_figure", ()))

    def win_text(self, termination: Termination, rules: Any) -> str:
        """'by forming a figure of four'."""
        return "by forming a figure of four" if termination.value == "figure" else f"by {termination.value}"


class TetraGame(Game):
    """Tetra: place ten stones each, then move one 1 or 2 nodes along a line; four in a figure wins."""

    no_progress_plies = 80
    progress_text = progress.PROGRESS_TEXT

    def progress_marks(self, state: State) -> tuple[int, ...]:
        """This game's measure of progress (its progress module)."""
        return progress.progress_marks(state)

    views = TetraViews()

    name = "tetra"
    title = "Tetra"
    boards_help = "kadon"
    default_board = "kadon"
    notation_example = "E5 (a placement), E5-E7 (a move of 1 or 2 nodes along a line)"
    has_pie = True
    has_draws = True
    own_bots: ClassVar[Mapping[str, str]] = {"heuristic": "ytourney.games.tetra.bots:HeuristicBot"}
    ladder: ClassVar[tuple[str, ...]] = ("random", "heuristic", "mcts")
    ladder_rules: ClassVar[Mapping[str, object]] = {"pie": True}
    """Without the pie the first player wins by force in seven plies, and both searching rungs find it."""
    bot_notes: ClassVar[Mapping[str, str]] = {
        "heuristic": "won 40/40 against random at 0.2 s a move with the pie; games last about 8 plies",
        "mcts": ("won 40/40 against heuristic at 0.2 s a move with the pie: it proves the openings first-player wins "
                 "and swaps them (without the pie the first player wins by force in 7 plies and it scores 20/40, "
                 "docs/games/tetra.md); games last about 8 plies"),
    }
    rule_options: ClassVar[Mapping[str, RuleOption]] = {
        "pie": RuleOption(bool, False, "the second player may take the first stone (not in the rulebook)"),
        "bridge_lines": RuleOption(bool, True, "four stones on a line of bridges also win (the figures' third kind)"),
        "max_plies": RuleOption(int, 1000, "plies after which the game is a move-limit draw", 20, 1_000_000),
    }
    rules_class = TetraRules

    def parse_board(self, spec: str) -> Board:
        """Only the 93-node kadon board."""
        return kadon_board(spec, self.name)

    def new_state(self, board: Board, rules: Any, handicap: int = 0) -> TetraState:
        """The empty board, ten stones in each hand."""
        return TetraState(self, board, rules, handicap)

    def knowledge(self, board: Board, rules: Any) -> Knowledge:
        """Wins in one and two wins in one, the figure evaluation (the tables come with each kernel)."""
        return KNOWLEDGE

    def parse_move(self, board: Board, text: str) -> Move:
        """A node (placement), FROM-TO (a move), or swap."""
        return parse_path_move(board, text)

    def format_move(self, board: Board, move: Move) -> str:
        """E5, E5-E7 or swap."""
        return format_path_move(board, move)


GAME = TetraGame()
TetraState.game = GAME
