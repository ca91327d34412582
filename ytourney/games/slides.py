"""A base for the slide games on the kadon board (Quinta, Sexta): each side starts with stones on named nodes and
every move slides one own stone any distance along a line through empty nodes; a game states its start, its win
and its rollout's win test and score.

`SlideState` writes the moves, their legality, the refusals and the cheap random playout the generic `mcts` scores
leaves by; `SlideGame` writes the kadon-only board, the rules reader, the FROM-TO notation and the views.
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Mapping
from typing import Any, ClassVar

from ytourney.boards.board import Board
from ytourney.boards.text import board_text
from ytourney.errors import GameSpecError
from ytourney.games.api import EMPTY, Color, Game, Move, MoveKind, State, Termination
from ytourney.games.stones import (
    StoneState,
    format_path_move,
    kadon_board,
    parse_path_move,
    slide_table,
    slide_targets,
)


@functools.lru_cache(maxsize=8)
def step_moves(board: Board) -> tuple[dict[int, Move], ...]:
    """The slide moves by source and target, made once per board."""
    return tuple({t: Move.step(s, t) for ray in board.rays[s] for t in ray} for s in range(board.num_cells))


class SlideState(StoneState):
    """A slide-game position: the stones and whose turn it is."""

    example: ClassVar[str] = "E5-E7"
    """A slide in the game's notation, for refusals."""

    @abc.abstractmethod
    def start_sets(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The node names of Black's and White's start stones under `self.rules`."""

    def setup(self) -> None:
        """Per-game tables and fields, set after the stones (none by default)."""

    @abc.abstractmethod
    def rollout_won(self, cells: list[int], mover: int, target: int) -> bool:
        """True when `mover`, having just slid a stone to `target`, wins on `cells` (in a rollout)."""

    def rollout_score(self, cells: list[int], own: dict[int, list[int]], mover: int) -> float:
        """Black's prospects in [0, 1] on `cells` (stones by colour in `own`) when a rollout stops unfinished."""
        return 0.5

    def start(self) -> None:
        """The game's start stones, then its tables."""
        board = self.board
        for names, colour in zip(self.start_sets(), (Color.BLACK, Color.WHITE), strict=True):
            for name in names:
                self.cells[board.index_of(name)] = colour  # type: ignore[index]
        self._rays = slide_table(board)
        self._moves = step_moves(board)
        self.setup()

    def generate_moves(self) -> list[Move]:
        """Every slide of an own stone any distance along a line through empty nodes."""
        cells, mover, rays, table = self.cells, self.to_move, self._rays, self._moves
        moves: list[Move] = []
        for source, stone in enumerate(cells):
            if stone == mover:
                by_target = table[source]
                moves.extend(by_target[t] for t in slide_targets(rays[source], cells))
        return moves

    def is_legal(self, move: Move) -> bool:
        """Checked on the board (the stone, then its slides), not by a search of the move list."""
        if self._outcome is not None or not isinstance(move, Move) or move.kind is not MoveKind.STEP:
            return super().is_legal(move)
        if move.capture is not None or len(move.path) != 2 or not all(0 <= n < len(self.cells) for n in move.path):
            return False
        source, target = move.path
        return self.cells[source] == self.to_move and target in slide_targets(self._rays[source], self.cells)

    def apply(self, move: Move) -> None:
        """Slide the stone."""
        self.cells[move.source] = EMPTY
        self.cells[move.target] = self.to_move

    def refusal(self, move: Move) -> str:
        """Why `move` is illegal, in one line naming it."""
        name = self._name(move).strip("'")
        names = self.board.names
        if move.kind is not MoveKind.STEP or move.capture is not None:
            return (f"{name}: {self.game.name} moves slide a stone along a line (FROM-TO, e.g. {self.example}), "
                    f"no {move.kind.value}")
        source, target = move.path
        if self.cells[source] != self.to_move:
            return f"{name}: no {self.to_move} stone on {names[source]}"
        if self.cells[target] != EMPTY:
            return f"{name}: node {names[target]} is occupied"
        if target not in self._moves[source]:
            return f"{name}: not on a line from {names[source]}"
        return f"{name}: the line from {names[source]} to {names[target]} is blocked"

    # --- search hooks for the generic mcts (players/bots/uct.py) ----------------------------------------

    def rollout(self, rng: Any, plies: int) -> float:
        """Up to `plies` random slides on scratch stones; Black's share: 1 or 0 on a win, else `rollout_score`
        (a side with no slide loses)."""
        cells = self.cells.copy()
        mover = int(self.to_move)
        rays = self._rays
        own = {Color.BLACK.value: [n for n, c in enumerate(cells) if c == Color.BLACK],
               Color.WHITE.value: [n for n, c in enumerate(cells) if c == Color.WHITE]}
        for _ in range(plies):
            stones = own[mover]
            i = rng.randrange(len(stones))
            targets = slide_targets(rays[stones[i]], cells)
            if not targets:
                movable = [j for j, n in enumerate(stones) if slide_targets(rays[n], cells)]
                if not movable:
                    return 0.0 if mover == Color.BLACK else 1.0
                i = rng.choice(movable)
                targets = slide_targets(rays[stones[i]], cells)
            source = stones[i]
            target = rng.choice(targets)
            stones[i] = target
            cells[source] = EMPTY
            cells[target] = mover
            if self.rollout_won(cells, mover, target):
                return 1.0 if mover == Color.BLACK else 0.0
            mover = 3 - mover
        return self.rollout_score(cells, own, mover)


class SlideGame(Game):
    """A slide game on the kadon board: its rules reader, notation and views (a game names its rules, its win)."""

    boards_help = "kadon"
    default_board = "kadon"
    has_draws = True
    search_defaults: ClassVar[Mapping[str, Any]] = {"c": 0.7, "playout_plies": 16}
    """The generic mcts scores leaves by the state's short rollout and its heuristic."""
    rules_class: ClassVar[type]
    state_class: ClassVar[type[SlideState]]
    win_termination: ClassVar[str]
    """The `Termination` value of the game's own win."""
    win_phrase: ClassVar[str]
    """How a win reads: 'by five in a line'."""
    highlight_field: ClassVar[str]
    """The state's field holding the winning stones."""

    def parse_board(self, spec: str) -> Board:
        """Only the 93-node kadon board."""
        return kadon_board(spec, self.name)

    def parse_rules(self, data: Mapping[str, Any] | None) -> Any:
        """Rules from the rule options; missing keys take the defaults, a choice must be one of its values."""
        data = dict(data or {})
        unknown = sorted(set(data) - set(self.rule_options))
        if unknown:
            raise GameSpecError(f"unknown {self.name} rule {unknown[0]!r}; "
                                f"expected one of {', '.join(self.rule_options)}")
        for key, option in self.rule_options.items():
            if option.choices and key in data and data[key] not in option.choices:
                raise GameSpecError(f"{self.name} rule {key}={data[key]!r}; expected {' or '.join(option.choices)}")
        return self.rules_class(**data)

    def new_state(self, board: Board, rules: Any, handicap: int = 0) -> SlideState:
        """The start position."""
        return self.state_class(self, board, rules, handicap)

    def parse_move(self, board: Board, text: str) -> Move:
        """FROM-TO, or swap."""
        return parse_path_move(board, text)

    def format_move(self, board: Board, move: Move) -> str:
        """FROM-TO or swap."""
        return format_path_move(board, move)

    def board_text(self, state: State, last: Move | None = None) -> str:
        """The kadon rows of stones, the last move's stone in lower case."""
        return board_text(state.board, state.cells, last.path if last is not None else ())

    def highlight(self, state: State) -> frozenset[int]:
        """The winning stones."""
        return frozenset(getattr(state, self.highlight_field, ()))

    def win_text(self, termination: Termination, rules: Any) -> str:
        """The game's win phrase, else 'by <termination>'."""
        return self.win_phrase if termination.value == self.win_termination else f"by {termination.value}"
