"""Leap Over on the game API: the kadon board, its rules, the jump-chain notation and its views."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from ytourney.boards.board import Board
from ytourney.boards.text import board_text
from ytourney.errors import NotationError
from ytourney.games.leap_over import progress
from ytourney.games.api import (
    PASS,
    PASS_TOKEN,
    SWAP,
    SWAP_TOKEN,
    Game,
    Move,
    RuleOption,
    State,
    Termination,
)
from ytourney.games.knowledge import Knowledge
from ytourney.games.leap_over.knowledge import knowledge
from ytourney.games.leap_over.rules import DEFAULT_MAX_PLIES, GOALS, Rules
from ytourney.games.leap_over.state import BLOCKED, FILLED, LeapOverState
from ytourney.games.stones import format_path_move, kadon_board
from ytourney.games.views import GameViews

_CHAIN = re.compile(r"[a-z]+[0-9]+(?:-[a-z]+[0-9]+)+")


class LeapOverViews(GameViews):
    """How Leap Over shows itself: the filled start triangle in gold, the race's result."""

    def board_text(self, state: State, last: Move | None = None) -> str:
        """The rows of stones, the last move's start and landing in lower case."""
        return board_text(state.board, state.cells, last.path if last is not None and last.path else ())

    def highlight(self, state: State) -> frozenset[int]:
        """The filled triangle of the winner."""
        outcome = state.outcome
        if outcome is None or outcome.termination is not FILLED or outcome.winner is None:
            return frozenset()
        return frozenset(state.geo.targets[outcome.winner])  # type: ignore[attr-defined]

    highlight_text = "the filled start triangle is ringed in gold"

    def win_text(self, termination: Termination, rules: Any) -> str:
        """'by filling the other side's start triangle'."""
        if termination is FILLED:
            return "by filling the other side's start triangle"
        return f"by {termination.value}"

    def result_text(self, winner: str | None, loser: str | None, outcome: Any) -> str:
        """A draw when neither side can leap says so."""
        if winner is None and outcome.termination is BLOCKED:
            return "draw: neither side can leap"
        return super().result_text(winner, loser, outcome)


class LeapOverGame(Game):
    """Leap Over: every move a leap chain over stones of either colour; fill the other side's start triangle."""

    no_progress_plies = 200
    progress_text = progress.PROGRESS_TEXT

    def progress_marks(self, state: State) -> tuple[int, ...]:
        """This game's measure of progress (its progress module)."""
        return progress.progress_marks(state)

    views = LeapOverViews()

    name = "leap-over"
    title = "Leap Over"
    boards_help = "kadon"
    default_board = "kadon"
    notation_example = "C5-E5 C6-A4-A6 pass"
    has_draws = True
    has_passes = True
    rule_options: ClassVar[Mapping[str, RuleOption]] = {
        "pie": RuleOption(bool, False, "after Black's first move White may take Black's side"),
        "max_plies": RuleOption(int, DEFAULT_MAX_PLIES, "plies after which the game is a move-limit draw",
                                1, 1_000_000),
        "goal": RuleOption(str, "all", "all: every own stone in the other's start triangle; filled: that "
                           "triangle full with at least one own stone in it", choices=GOALS),
    }
    rules_class = Rules
    own_bots: ClassVar[Mapping[str, str]] = {
        "heuristic": "ytourney.games.leap_over.bots:HeuristicBot",
    }
    ladder: ClassVar[tuple[str, ...]] = ("random", "heuristic", "mcts")
    bot_notes: ClassVar[Mapping[str, str]] = {
        "random": "the floor; random against random never ends: 150 of 150 games reached the 1000-ply limit",
        "heuristic": ("26-0-14 against random (82%, 0.2 s a move, 40 games, seats alternating); games last 441 plies, "
                      "the draws by the no-progress rule"),
        "mcts": ("32-0-8 and 26-1-13 against heuristic in two runs (90% and 81%; 0.2 s a move, 40 games, seats "
                 "alternating): the draws are jams of stragglers the endgame planner cannot bring in; games last 117 "
                 "and 139 plies"),
    }

    def parse_board(self, spec: str) -> Board:
        """Only the 93-node kadon board."""
        return kadon_board(spec, self.name)

    def new_state(self, board: Board, rules: Any, handicap: int = 0) -> LeapOverState:
        """The start position: each side's 10 stones on its side triangle."""
        return LeapOverState(self, board, rules, 0)

    def knowledge(self, board: Board, rules: Any) -> Knowledge:
        """One chain per stone and landing searched, leaves scored by the race evaluation."""
        return knowledge(board)

    def parse_move(self, board: Board, text: str) -> Move:
        """A jump chain `FROM-TO-...` (every landing), `pass` or `swap` (any case)."""
        if not isinstance(text, str):
            raise NotationError(f"move {text!r} is not text; expected a jump chain like A5-C5-E5")
        token = text.strip().lower()
        if token == SWAP_TOKEN:
            return SWAP
        if token == PASS_TOKEN:
            return PASS
        if _CHAIN.fullmatch(token) is None:
            raise NotationError(f"unreadable leap-over move {text!r}; expected a jump chain listing every landing "
                                "like A5-C5-E5, pass or swap")
        path = []
        for name in token.split("-"):
            node = board.index_of(name)
            if node is None:
                raise NotationError(f"unknown node {name.upper()!r} in {text!r}; expected a kadon node like E5")
            path.append(node)
        return Move.jump(path)

    def format_move(self, board: Board, move: Move) -> str:
        """Every landing joined by '-'; `pass`; `swap`."""
        return format_path_move(board, move)


GAME = LeapOverGame()
