"""Singularity on the game API: the kadon board, its rules, the FROM-TO[xCAPTURE] notation and its views."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from ytourney.boards.board import Board
from ytourney.boards.text import board_text
from ytourney.errors import NotationError
from ytourney.games.singularity import progress
from ytourney.games.api import (
    SWAP,
    SWAP_TOKEN,
    Game,
    Move,
    MoveKind,
    RuleOption,
    State,
    Termination,
)
from ytourney.games.knowledge import Knowledge
from ytourney.games.singularity.knowledge import knowledge
from ytourney.games.singularity.rules import (
    CORNER_COLOURS,
    DEFAULT_MAX_PLIES,
    FUSION_ZONES,
    Rules,
)
from ytourney.games.singularity.state import SINGULARITY, SingularityState
from ytourney.games.stones import kadon_board
from ytourney.games.views import GameViews

_MOVE = re.compile(r"([a-z]+[0-9]+)-([a-z]+[0-9]+)(?:x([a-z]+[0-9]+))?")


class SingularityViews(GameViews):
    """How Singularity shows itself: the winner's last stone in gold."""

    def board_text(self, state: State, last: Move | None = None) -> str:
        """The rows of stones, the last move's nodes in lower case."""
        return board_text(state.board, state.cells, last.path if last is not None and last.path else ())

    def highlight(self, state: State) -> frozenset[int]:
        """The winner's last stone on its central node."""
        outcome = state.outcome
        if outcome is None or outcome.termination is not SINGULARITY or outcome.winner is None:
            return frozenset()
        cells = state.cells
        return frozenset(c for c in range(state.board.num_cells) if cells[c] == outcome.winner)

    highlight_text = "the winner's last stone is ringed in gold"

    def win_text(self, termination: Termination, rules: Any) -> str:
        """'by singularity (one stone left, on a central node)'."""
        if termination is SINGULARITY:
            return "by singularity (one stone left, on a central node)"
        return f"by {termination.value}"


class SingularityGame(Game):
    """Singularity: slide a stone 1-3 nodes; fuse in the central triangle; be the first down to one central stone."""

    no_progress_plies = 100
    progress_text = progress.PROGRESS_TEXT

    def progress_marks(self, state: State) -> tuple[int, ...]:
        """This game's measure of progress (its progress module)."""
        return progress.progress_marks(state)

    views = SingularityViews()

    name = "singularity"
    title = "Singularity"
    boards_help = "kadon"
    default_board = "kadon"
    notation_example = "K3-I3 F8-F6xG5"
    has_draws = True
    own_bots: ClassVar[Mapping[str, str]] = {"heuristic": "ytourney.games.singularity.bots:HeuristicBot"}
    ladder: ClassVar[tuple[str, ...]] = ("random", "heuristic", "mcts")
    bot_notes: ClassVar[Mapping[str, str]] = {
        "heuristic": "won 40/40 against random at 0.2 s a move; games last about 68 plies",
        "mcts": ("won 33/40 against heuristic at 0.2 s a move (95% interval 68-91%; 39/40 in another run); games "
                 "last about 58 plies"),
    }
    rule_options: ClassVar[Mapping[str, RuleOption]] = {
        "pie": RuleOption(bool, False, "after Black's first move White may take Black's side"),
        "max_plies": RuleOption(int, DEFAULT_MAX_PLIES, "plies after which the game is a move-limit draw",
                                1, 1_000_000),
        "corners": RuleOption(str, "black", "the colour starting on the corners and side middles",
                              choices=CORNER_COLOURS),
        "fusion": RuleOption(str, "both", "where a fusion happens: both stones in the central triangle, only the "
                             "landing stone, or only the resting stone", choices=FUSION_ZONES),
    }
    rules_class = Rules

    def parse_board(self, spec: str) -> Board:
        """Only the 93-node kadon board."""
        return kadon_board(spec, self.name)

    def new_state(self, board: Board, rules: Any, handicap: int = 0) -> SingularityState:
        """The start position: 12 stones a side round the perimeter."""
        return SingularityState(self, board, rules, 0)

    def knowledge(self, board: Board, rules: Any) -> Knowledge:
        """Leaves evaluated at once (stones left, distance to the middle); a finishing slide played at once."""
        return knowledge(board)

    def parse_move(self, board: Board, text: str) -> Move:
        """`FROM-TO`, `FROM-TOxCAPTURE` or `swap` (any case)."""
        if not isinstance(text, str):
            raise NotationError(f"move {text!r} is not text; expected FROM-TO like E5-E7")
        token = text.strip().lower()
        if token == SWAP_TOKEN:
            return SWAP
        match = _MOVE.fullmatch(token)
        if match is None:
            raise NotationError(f"unreadable singularity move {text!r}; expected FROM-TO like E5-E7, "
                                "FROM-TOxCAPTURE like F8-F6xG6, or swap")
        nodes = []
        for name in match.groups():
            if name is None:
                nodes.append(None)
                continue
            node = board.index_of(name)
            if node is None:
                raise NotationError(f"unknown node {name.upper()!r} in {text!r}; expected a kadon node like E5")
            nodes.append(node)
        return Move.step(nodes[0], nodes[1], nodes[2])

    def format_move(self, board: Board, move: Move) -> str:
        """`FROM-TO`, with `xCAPTURE` when the mover named one; `swap`."""
        if move.kind is MoveKind.SWAP:
            return SWAP_TOKEN
        text = "-".join(board.names[n] for n in move.path)
        return text if move.capture is None else f"{text}x{board.names[move.capture]}"


GAME = SingularityGame()
