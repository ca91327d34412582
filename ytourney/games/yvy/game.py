"""YvY on the game API: the hex:N board with its sprouts, notation, views and own bots."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ytourney.boards.board import (
    MAX_HEX_SIZE,
    MIN_HEX_SIZE,
    Board,
    BoardKind,
    parse_board,
)
from ytourney.errors import BoardSpecError, GameSpecError, NotationError
from ytourney.numerals import foreign_digit
from ytourney.games.api import (
    EMPTY,
    PASS,
    PASS_TOKEN,
    SWAP,
    SWAP_TOKEN,
    Color,
    Game,
    Move,
    MoveKind,
    Outcome,
    RuleOption,
    State,
    Termination,
    score_text,
)
from ytourney.games.knowledge import Knowledge
from ytourney.games.views import GameViews
from ytourney.games.yvy.knowledge import YvyKnowledge
from ytourney.games.yvy.state import DEFAULT_MAX_PLIES, LOOP, SCORE, YvyRules, YvyState

YVY_BOARDS = f"'hex:N' with {MIN_HEX_SIZE} <= N <= {MAX_HEX_SIZE} (e.g. 'hex:7')"
SPROUT_FILL = "#8cc66a"
"""The green of an empty sprout cell in diagrams."""


class YvyViews(GameViews):
    """How YvY shows itself: the hexagon with its sprouts, the winning loop, the count."""

    def board_text(self, state: State, last: Move | None = None) -> str:
        """The hexagon row by row (top row first), X Black, O White, * an empty sprout, the last stone lower case."""
        board = state.board
        cells = state.cells
        mark = {last.cell} if last is not None and last.kind is MoveKind.PLACE else set()
        rows: dict[int, list[int]] = {}
        for cell, (_, y) in enumerate(board.coords):
            rows.setdefault(y, []).append(cell)
        size = board.size
        lines = []
        for y in sorted(rows, reverse=True):
            row = sorted(rows[y], key=lambda c: board.coords[c][0])
            width = 4 * size + 1  # 2x - y runs from -N to 3N
            line = [" "] * width
            for cell in row:
                x = board.coords[cell][0]
                char = "XO"[cells[cell] - 1] if cells[cell] != EMPTY else "*" if cell in board.sprouts else "."
                line[2 * x - y + size] = char.lower() if cell in mark else char
            first, end = board.names[row[0]], board.names[row[-1]]
            lines.append(f"{y + 1:>2} {''.join(line).rstrip():<{width}}  {first}-{end}")
        return "\n".join(lines)

    def highlight(self, state: State) -> frozenset[int]:
        """The loop that won: the stones of the winning group round the cells it surrounds."""
        loop_stones = getattr(state, "loop_stones", None)
        return loop_stones() if loop_stones is not None else frozenset()

    highlight_text = "the winning loop is ringed and joined in gold"

    def marked_cells(self, board: Board) -> Mapping[int, str]:
        """The sprouts, in green."""
        return dict.fromkeys(sorted(board.sprouts), SPROUT_FILL)

    def win_text(self, termination: Termination, rules: Any) -> str:
        """'by closing a loop' or 'on score (sprouts - 2 x groups, Black-White)'."""
        if termination is LOOP:
            return "by closing a loop"
        if termination is SCORE:
            return "on score (sprouts - 2 x groups, black-white)"
        return f"by {termination.value}"

    def result_text(self, winner: str | None, loser: str | None, outcome: Outcome) -> str:
        """'A beat B by closing a loop', 'A beat B on score 10 to 9', 'draw on score 9 to 9 (black, white)'."""
        if outcome.termination is not SCORE or outcome.score is None:
            if winner is not None and outcome.termination is LOOP:
                return f"{winner} beat {loser} by closing a loop"
            return super().result_text(winner, loser, outcome)
        black, white = outcome.score
        if winner is None:
            return f"draw on score {score_text((black, white))} (black, white; sprouts - 2 x groups)"
        high, low = (black, white) if outcome.winner is Color.BLACK else (white, black)
        return f"{winner} beat {loser} on score {score_text((high, low))} (sprouts - 2 x groups)"


class YvyGame(Game):
    """YvY: place or pass; a loop wins at once; after two passes, sprouts minus twice the groups."""

    no_progress_plies = 0  # every ply but a swap or a pass places a stone: no game stalls, the draw rule is off
    views = YvyViews()

    name = "yvy"
    title = "YvY"
    first_color = Color.WHITE
    boards_help = YVY_BOARDS
    default_board = "hex:7"
    notation_example = "h8 swap g7 pass"
    has_draws = True
    has_passes = True
    rule_options: ClassVar[Mapping[str, RuleOption]] = {
        "pie": RuleOption(bool, True, "Black may answer White's first stone with swap"),
        "max_plies": RuleOption(int, DEFAULT_MAX_PLIES, "move limit (a draw); no game can reach the default", 2,
                                100_000),
    }
    rules_class = YvyRules
    own_bots: ClassVar[Mapping[str, str]] = {
        "random": "ytourney.games.yvy.bots:YvyRandomBot",
        "heuristic": "ytourney.games.yvy.bots:YvyHeuristicBot",
    }
    ladder: ClassVar[tuple[str, ...]] = ("random", "heuristic", "mcts")
    bot_notes: ClassVar[Mapping[str, str]] = {
        "random": "the floor; random against random on hex:7 lasts 116 plies on average (loops end 98%)",
        "heuristic": "40-0 against random (hex:7, 0.2 s a move, 40 games, seats alternating), 18 plies a game",
        "mcts": "40-0 against heuristic (hex:7, 0.2 s a move, 40 games, seats alternating), 83 plies a game",
    }

    def parse_board(self, spec: str) -> Board:
        """Any hex:N board."""
        try:
            board = parse_board(spec)
        except BoardSpecError:  # its message lists every board of every game; name YvY's only
            if isinstance(spec, str) and foreign_digit(spec) is not None:
                raise  # 'hex:１１': the digit is the fault, as the board reader says
            board = None
        if board is None or board.kind is not BoardKind.HEX:
            raise BoardSpecError(f"board {spec!r} is not a board of YvY; expected {YVY_BOARDS}")
        return board

    def new_state(self, board: Board, rules: Any, handicap: int = 0) -> YvyState:
        """The empty board, White to move."""
        if handicap:
            raise GameSpecError(f"yvy has no handicap games (asked for level {handicap})")
        return YvyState(self, board, rules, 0)

    def knowledge(self, board: Board, rules: Any) -> Knowledge:
        """Loops in one, the count's pass, and fill-the-board playouts (games/yvy/knowledge.py)."""
        return YvyKnowledge()

    def parse_move(self, board: Board, text: str) -> Move:
        """A cell name (any case), 'pass' or 'swap'."""
        token = text.strip().lower() if isinstance(text, str) else ""
        if token == PASS_TOKEN:
            return PASS
        if token == SWAP_TOKEN:
            return SWAP
        cell = board.index_of(token) if token else None
        if cell is None:
            raise NotationError(f"unknown move {text!r} on {board.spec}; expected a cell such as "
                                f"{board.names[len(board.names) // 2]!r}, 'pass' or 'swap'")
        return Move(MoveKind.PLACE, (cell,))

    def format_move(self, board: Board, move: Move) -> str:
        """The cell's name in lower case, 'pass' or 'swap'."""
        if move.kind is MoveKind.SWAP:
            return SWAP_TOKEN
        if move.kind is MoveKind.PASS:
            return PASS_TOKEN
        if move.kind is not MoveKind.PLACE or len(move.path) != 1:
            raise NotationError(f"{move!r} is not a yvy move; expected a placement, a pass or a swap")
        return board.names[move.cell]


GAME = YvyGame()
