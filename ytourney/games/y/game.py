"""Y on the game API: its boards, rules, notation, views and own bots."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ytourney.boards.board import (
    ALL_SIDES,
    MAX_TRI_SIZE,
    MIN_TRI_SIZE,
    Board,
    parse_board,
)
from ytourney.boards.text import board_text
from ytourney.errors import GameSpecError, NotationError
from ytourney.games.api import (
    EMPTY,
    SWAP,
    SWAP_TOKEN,
    Game,
    HandicapAxis,
    Move,
    MoveKind,
    RuleOption,
    State,
    Termination,
)
from ytourney.games.dialect import EngineDialect
from ytourney.games.legacy import legacy_cell
from ytourney.games.knowledge import Knowledge
from ytourney.games.views import GameViews
from ytourney.games.y.knowledge import KNOWLEDGE
from ytourney.games.y import notation
from ytourney.games.y.dialect import DIALECT
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import GameState, PyGameState, placements

Y_BOARDS = f"'tri:N' with {MIN_TRI_SIZE} <= N <= {MAX_TRI_SIZE} (e.g. 'tri:11') or 'kadon'"


class YViews(GameViews):
    """How Y shows itself: the triangle or kadon rows, the winning Y in gold."""

    def board_text(self, state: State, last: Move | None = None) -> str:
        """The triangle (or the kadon rows) of stones, the last stone in lower case."""
        return board_text(state.board, state.cells, last.path if last is not None else ())

    def highlight(self, state: State) -> frozenset[int]:
        """The completed Y: the group touching all three sides."""
        board = state.board
        stones = state.cells  # one read: on the C core every read builds a new list
        for cell in range(board.num_cells):
            if stones[cell] != EMPTY and state.group_sides(cell) == ALL_SIDES:
                colour = stones[cell]
                group, stack = {cell}, [cell]
                while stack:
                    for nb in board.neighbors[stack.pop()]:
                        if nb not in group and stones[nb] == colour:
                            group.add(nb)
                            stack.append(nb)
                return frozenset(group)
        return frozenset()

    highlight_text = "the winning Y is ringed and joined in gold"

    def win_text(self, termination: Termination, rules: Any) -> str:
        """'by completing a Y' (under misère: the opponent completed one), else 'by <termination>'."""
        if termination.value != "connection":
            return f"by {termination.value}"
        return "(misère: the opponent completed a Y)" if rules.misere else "by completing a Y"


class YGame(Game):
    """The connection game Y: place a stone a turn; the first group touching all three sides wins."""

    no_progress_plies = 0  # every ply but a swap or a pass places a stone: no game stalls, the draw rule is off
    views = YViews()

    name = "y"
    title = "Y"
    boards_help = Y_BOARDS
    default_board = "tri:11"
    notation_example = "e5 swap c3 (tri); E5 (kadon)"
    handicap_axis = HandicapAxis("level 1: the weaker player moves first without the pie; level k >= 2: k stones "
                                 "on the first turn", first_turn_stones=True)
    sgf_name = "y"
    openspiel_name = "y"
    rule_options: ClassVar[Mapping[str, RuleOption]] = {
        "pie": RuleOption(bool, True, "the second player may take the first stone (even games only)"),
        "misere": RuleOption(bool, False, "completing a Y loses"),
    }
    rules_class = Rules
    own_bots: ClassVar[Mapping[str, str]] = {
        "heuristic": "ytourney.games.y.bots.heuristic:HeuristicBot",
        "mcts": "ytourney.games.y.bots.mcts:MctsBot",
        "mcts-pro": "ytourney.games.y.bots.mcts_pro:MctsProBot",
    }
    ladder: ClassVar[tuple[str, ...]] = ("random", "heuristic", "mcts", "mcts-pro")

    def parse_board(self, spec: str) -> Board:
        """Any tri:N board or kadon."""
        board = parse_board(spec)
        if board.kind.value not in ("tri", "kadon"):
            raise GameSpecError(f"board {spec!r} is not a board of Y; expected {Y_BOARDS}")
        return board

    def parse_rules(self, data: Mapping[str, Any] | None) -> Rules:
        """Y's rules from {pie, misere}, checked as every game's are, as one of the four interned values."""
        return super().parse_rules(data).interned()

    def rules_text(self, rules: Any) -> str:
        """'pie on, misère off'."""
        return f"pie {'on' if rules.pie else 'off'}, misère {'on' if rules.misere else 'off'}"

    def rules_label(self, rules: Any) -> str:
        """'misère' for misère leagues, '' otherwise."""
        return "misère" if rules.misere else ""

    def knowledge(self, board: Board, rules: Any) -> Knowledge:
        """Random playouts on one copy of the state, for the generic search (Y's own bots search on their own)."""
        return KNOWLEDGE

    def new_state(self, board: Board, rules: Any, handicap: int = 0) -> GameState:
        """The empty board; handicap level k >= 2 gives Black k stones on its first turn."""
        return GameState(board, rules, handicap)

    def parse_move(self, board: Board, text: str) -> Move:
        """A cell name or 'swap'."""
        cell = notation.parse_move(board, text)
        return SWAP if cell == notation.SWAP else placements(board)[cell]

    def format_move(self, board: Board, move: Move) -> str:
        """The cell's name, or 'swap'."""
        if move.kind is MoveKind.SWAP:
            return SWAP_TOKEN
        if move.kind is not MoveKind.PLACE or len(move.path) != 1 or move.capture is not None:
            raise NotationError(f"{move.kind.value} moves are not part of Y: a move places one stone, or swaps")
        return notation.cell_name(board, move.cell)

    def coerce_move(self, board: Board, answer: object) -> Move:
        """A Move (its nodes checked), its notation, or a cell index (the bot protocol of plugins written before the
        game API)."""
        cell = legacy_cell(board, answer)
        return super().coerce_move(board, answer) if cell is None else placements(board)[cell]

    def openspiel_misfit(self, rules: Any) -> str:
        """OpenSpiel's y is normal Y: it has no misère rule."""
        return "it has no misère rule (rules.misere)" if rules.misere else ""

    def engine_dialect(self) -> EngineDialect:
        """Y's engine families: their time commands (`y_param max_time S`, morat's `time -m S`), both ways."""
        return DIALECT


GAME = YGame()
for _state_class in {GameState, PyGameState}:
    _state_class.game = GAME
