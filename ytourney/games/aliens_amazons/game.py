"""Aliens and Amazons (Richard May, the Kadon "Game of Y" book) on the game API: rules, notation and views."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ytourney.boards.board import Board
from ytourney.boards.text import board_text
from ytourney.errors import GameSpecError, NotationError
from ytourney.games.aliens_amazons import progress
from ytourney.games.aliens_amazons import tables as t
from ytourney.games.aliens_amazons.kernel import AMAZONS_MOST
from ytourney.games.aliens_amazons.knowledge import KNOWLEDGE
from ytourney.games.aliens_amazons.state import AMAZONS_COLOR, HANDICAP_AMAZONS, AliensAmazonsState, side_name
from ytourney.games.api import (
    PASS,
    PASS_TOKEN,
    SWAP,
    SWAP_TOKEN,
    Color,
    Game,
    HandicapAxis,
    Move,
    Outcome,
    RuleOption,
    State,
    Termination,
)
from ytourney.games.knowledge import Knowledge
from ytourney.games.stones import format_path_move, kadon_board
from ytourney.games.views import GameViews

DEFAULT_MAX_PLIES = 1000
"""The move limit. Random play never reaches it (0 of 1,000 games: the Aliens capture first, in at most 549 plies),
but bots that keep the Amazons safe without ever closing the net do: the Amazons then hold out to the limit, a
draw (docs/games/aliens-amazons.md, "Ending and the move limit")."""
THRESHOLD = t.tables_for("kadon").threshold
"""The fewest Amazons that can immobilize three Aliens on kadon (the game's only board), computed: 10."""


@dataclass(frozen=True)
class Rules:
    """The pie rule (off: the game is asymmetric, seats alternate instead), the move limit, the Aliens' threshold
    (by default the number computed for the board) and the Amazons' number (30 by the book; more balance the game)."""

    pie: bool = False
    max_plies: int | None = DEFAULT_MAX_PLIES
    threshold: int = THRESHOLD
    amazons: int = t.AMAZONS

    def to_dict(self) -> dict[str, Any]:
        """JSON form used in records."""
        return {"pie": self.pie, "max_plies": self.max_plies, "threshold": self.threshold, "amazons": self.amazons}


class AliensAmazonsViews(GameViews):
    """How Aliens and Amazons shows itself: the counts by the board, the immobilized Aliens, the winning side."""

    side_names: ClassVar[Mapping[Color, str]] = {color: side_name(color) for color in (Color.WHITE, Color.BLACK)}

    def board_text(self, state: State, last: Move | None = None) -> str:
        """The kadon rows (X Amazons, O Aliens, the last move's nodes in lower case) and the counts."""
        drawing = board_text(state.board, state.cells, last.path if last is not None else ())
        extra = ""
        if isinstance(state, AliensAmazonsState):
            extra = (f"\nAmazons (X): {state.amazons_in_hand} in hand, {state.captured} captured, "
                     f"Aliens win below {state.threshold} left")
        return drawing + extra

    def highlight(self, state: State) -> frozenset[int]:
        """The Aliens, once immobilized."""
        outcome = state.outcome
        if outcome is not None and outcome.termination.value == "immobilized":
            return frozenset(c for c, stone in enumerate(state.cells) if stone == t.ALIEN)
        return frozenset()

    highlight_text = "the immobilized Aliens are ringed in gold"

    def result_text(self, winner: str | None, loser: str | None, outcome: Outcome) -> str:
        """The result sentence, naming the side that won."""
        text = super().result_text(winner, loser, outcome)
        if outcome.winner is not None:
            text += f" as the {side_name(outcome.winner)}"
        return text

    def win_text(self, termination: Termination, rules: Any) -> str:
        """'by immobilizing the Aliens' / 'by captures (too few Amazons left to immobilize)'."""
        if termination.value == "immobilized":
            return "by immobilizing the Aliens"
        if termination.value == "captures":
            return "by captures (too few Amazons left to immobilize the Aliens)"
        return f"by {termination.value}"


class AliensAmazons(Game):
    """Three Aliens jump and capture; thirty Amazons try to hem them in."""

    no_progress_plies = 200
    progress_text = progress.PROGRESS_TEXT

    def progress_marks(self, state: State) -> tuple[int, ...]:
        """This game's measure of progress (its progress module)."""
        return progress.progress_marks(state)

    views = AliensAmazonsViews()

    name = "aliens-amazons"
    title = "Aliens and Amazons"
    first_color = Color.WHITE
    boards_help = "kadon"
    default_board = "kadon"
    notation_example = "E5 (a placement), E5-E6 (a step), F8-H6-H4 (a jump chain)"
    has_pie = True
    has_draws = True
    handicap_axis = HandicapAxis(f"{HANDICAP_AMAZONS} Amazons a level over the rules' `amazons`, up to "
                                 f"{AMAZONS_MOST}, whoever plays the Amazons", favours=AMAZONS_COLOR, rule="amazons",
                                 per_level=HANDICAP_AMAZONS, unit="Amazons")
    """The Aliens are the favoured side (docs/games/aliens-amazons.md), so every level goes to the Amazons."""
    rule_options: ClassVar[Mapping[str, RuleOption]] = {
        "pie": RuleOption(bool, False, "after the first Alien, the second player may take the Aliens (off: an "
                                       "asymmetric game; play both seats instead)"),
        "max_plies": RuleOption(int, DEFAULT_MAX_PLIES, "plies after which the game is a move-limit draw", 1, 100_000),
        "threshold": RuleOption(int, THRESHOLD, "Aliens win when fewer Amazons than this are left (default: the "
                                "fewest that can immobilize three Aliens, computed for the board)", 1, AMAZONS_MOST),
        "amazons": RuleOption(int, t.AMAZONS, "the Amazons' stones (the book: 30); more are a handicap for the "
                              "Aliens (rules page: what it is worth between bots)", THRESHOLD, AMAZONS_MOST),
    }
    rules_class = Rules
    own_bots: ClassVar[Mapping[str, str]] = {
        "heuristic": "ytourney.games.aliens_amazons.bots:HeuristicBot",
    }
    ladder: ClassVar[tuple[str, ...]] = ("random", "heuristic", "mcts")
    bot_notes: ClassVar[Mapping[str, str]] = {
        "random": "the floor; random against random: the Aliens win 1000 of 1000, 195 plies (median)",
        "heuristic": "as the Aliens 20-0 against random, 316 plies; as the Amazons 20 move-limit draws (0.2 s a move)",
        "mcts": "as the Aliens 13-0-7 against heuristic (82%), as the Amazons 20 move-limit draws (0.2 s a move)",
    }
    measured_side: ClassVar[Color | None] = Color.WHITE
    """The Aliens: as the Amazons no bot wins (docs/games/aliens-amazons.md), so a rung must only not lose there."""

    def parse_board(self, spec: str) -> Board:
        """Only the 93-node kadon board."""
        return kadon_board(spec, self.name)

    def parse_rules(self, data: Mapping[str, Any] | None) -> Any:
        """The rules value; a threshold of None (records written before the computed value was stored) reads as the
        computed one."""
        if isinstance(data, Mapping) and "threshold" in data and data["threshold"] is None:
            data = {key: value for key, value in data.items() if key != "threshold"}
        return super().parse_rules(data)

    def new_state(self, board: Board, rules: Any, handicap: int = 0) -> AliensAmazonsState:
        """The empty board, the Aliens to place first; handicap level k gives the Amazons 5k more stones than the
        rules' `amazons` (a GameSpecError past 60)."""
        if isinstance(handicap, bool) or not isinstance(handicap, int) or handicap < 0:
            raise GameSpecError(f"handicap level must be a whole number >= 0, not {handicap!r}")
        amazons = rules.amazons + HANDICAP_AMAZONS * handicap
        if amazons > AMAZONS_MOST:
            raise GameSpecError(f"handicap level {handicap} gives the Amazons {amazons} stones, above the most "
                                f"({AMAZONS_MOST}) with amazons={rules.amazons}; expected a level of at most "
                                f"{(AMAZONS_MOST - rules.amazons) // HANDICAP_AMAZONS}")
        return AliensAmazonsState(self, board, rules, handicap)

    def knowledge(self, board: Board, rules: Any) -> Knowledge:
        """The Amazons' safe moves, the policy playouts and the evaluation, wins in one (knowledge.py)."""
        return KNOWLEDGE

    def threshold(self, board: Board, rules: Any = None) -> int:
        """The Aliens win when fewer Amazons than this are left."""
        given = getattr(rules, "threshold", None)
        return given or t.tables_for(board.spec).threshold

    # --- notation -----------------------------------------------------------------------------------------

    def parse_move(self, board: Board, text: str) -> Move:
        """`E5` a placement, `E5-E6` a step, `F8-H6-H4` a jump chain (captures implied), `swap`, `pass`."""
        if not isinstance(text, str):
            raise NotationError(f"move {text!r} is not text; expected a node like 'E5' or a path like 'E5-E6'")
        token = text.strip()
        lowered = token.lower()
        if lowered == SWAP_TOKEN:
            return SWAP
        if lowered == PASS_TOKEN:
            return PASS
        if "x" in lowered:
            raise NotationError(f"{token}: captures are implied by the jumps in {self.name}; name only the landings")
        parts = token.split("-")
        path = []
        for part in parts:
            node = board.index_of(part.strip()) if part.strip() else None
            if node is None:
                raise NotationError(f"{token}: unknown node {part!r} on {board.spec}; expected names like E5, "
                                    "joined by '-' for a move")
            path.append(node)
        tables = t.tables_for(board.spec)
        if len(path) == 1:
            return Move.place(path[0])
        if len(path) == 2 and path[1] in tables.neighbors[path[0]]:
            return Move.step(path[0], path[1])
        for a, c in zip(path, path[1:]):
            if (a, c) not in tables.middle:
                raise NotationError(f"{token}: {board.names[c]} is not on a line from {board.names[a]} "
                                    "(neither a step nor a jump)")
        return Move.jump(path)

    def format_move(self, board: Board, move: Move) -> str:
        """The notation of a move (upper-case nodes)."""
        return format_path_move(board, move)

    # --- views --------------------------------------------------------------------------------------------


GAME = AliensAmazons()
AliensAmazonsState.game = GAME
