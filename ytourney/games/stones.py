"""A base for the states of stone games on a board graph: turns, history, the pie rule, the move limit and the
rule that a player with no legal move loses, written once so a game states only its own moves and endings.

A game subclasses `StoneState` and writes `generate_moves` (the legal moves of the side to move, no pie answer),
`apply` (put a legal move on the board) and `judge` (the outcome the move just played decides, if any); it may
override `start` (the start position), `no_moves_outcome` and `copy_extra`.
"""

from __future__ import annotations

import abc
import functools
import math
import re
from collections.abc import Mapping
from typing import Any

from ytourney.boards.board import Board, parse_board
from ytourney.errors import GameOverError, GameSpecError, IllegalMoveError, NotationError, SwapNotAllowedError
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
    Termination,
)
from ytourney.games.pie import PieSeats, swap_allowed


class StoneState(PieSeats, abc.ABC):
    """One position of a stone game: node contents, the side to move, the history and the outcome."""

    game: Game

    def __init__(self, game: Game, board: Board, rules: Any, handicap: int = 0) -> None:
        self.game = game
        self.board = board
        self.rules = rules
        self.handicap = handicap
        self.first_color = game.first_color
        self.cells: list[int] = [EMPTY] * board.num_cells
        self._history: list[Move] = []
        self._swapped = False
        self._to_move = game.first_color
        self._outcome: Outcome | None = None
        self._legal: list[Move] | None = None
        self.start()

    # --- what a game writes ---------------------------------------------------------------------------

    def start(self) -> None:
        """Set up the start position (an empty board unless the game places stones)."""

    @abc.abstractmethod
    def generate_moves(self) -> list[Move]:
        """The legal moves of the side to move (the pie answer is added by this base)."""

    @abc.abstractmethod
    def apply(self, move: Move) -> None:
        """Put a legal move on the board (the base has checked it is legal)."""

    def judge(self, move: Move) -> Outcome | None:
        """The outcome `move`, just played by the other side of `to_move`, decides; None while the game goes on."""
        return None

    def no_moves_outcome(self) -> Outcome:
        """The end when the side to move has no legal move: it loses (DESIGN: unless its game says otherwise)."""
        return Outcome(self._to_move.other, Termination.NO_MOVES, None, f"{self._to_move} has no legal move")

    def refusal(self, move: Move) -> str:
        """Why an illegal `move` is refused, one line naming it (a game may say more than this default)."""
        return f"{self._name(move)} is not a legal move for {self._to_move} here"

    def copy_extra(self, new: StoneState) -> None:
        """Copy what a subclass keeps beyond the cells, the history and the turn (mutable containers by value)."""

    # --- the State API ---------------------------------------------------------------------------------

    @property
    def to_move(self) -> Color:
        """Colour of the side whose move is next."""
        return self._to_move

    @property
    def swapped(self) -> bool:
        """True once the pie rule exchanged the players' colours."""
        return self._swapped

    @property
    def history(self) -> tuple[Move, ...]:
        """Every action so far in order."""
        return tuple(self._history)

    @property
    def outcome(self) -> Outcome | None:
        """The game's end, or None while it goes on."""
        return self._outcome

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self._outcome is not None

    @property
    def winner(self) -> Color | None:
        """The winning colour once decided (None while playing and for a draw)."""
        return None if self._outcome is None else self._outcome.winner

    def can_swap(self) -> bool:
        """True when the next action may be the pie answer."""
        return swap_allowed(self.pie_active, len(self._history), self._outcome is not None)

    def legal_moves(self) -> list[Move]:
        """Every legal action, the pie answer last when offered; empty once over."""
        if self._outcome is not None:
            return []
        if self._legal is None:
            self._legal = self.generate_moves()
        moves = list(self._legal)
        if self.can_swap():
            moves.append(SWAP)
        return moves

    def is_legal(self, move: Move) -> bool:
        """True when `play(move)` would succeed."""
        if self._outcome is not None or not isinstance(move, Move):
            return False
        if move.is_swap:
            return self.can_swap()
        if self._legal is None:
            self._legal = self.generate_moves()
        return move in self._legal

    def play(self, move: Move) -> Outcome | None:
        """Apply one action, raising a specific IllegalMoveError when the rules do not allow it; returns the outcome
        when this move ends the game."""
        if self._outcome is not None:
            raise GameOverError(f"move {self._name(move)} after the game ended ({self._outcome.termination.value})")
        if isinstance(move, Move) and move.is_swap:
            if not self.can_swap():
                raise SwapNotAllowedError(self.swap_refusal(len(self._history)))
            self._swapped = True
            self._history.append(move)
            return None
        if not self.is_legal(move):
            raise IllegalMoveError(self.refusal(move))
        self.apply(move)
        self._history.append(move)
        self._legal = None
        self._to_move = self._to_move.other
        outcome = self.judge(move)
        if outcome is None:
            limit = getattr(self.rules, "max_plies", None)
            if limit is not None and len(self._history) >= limit:
                outcome = Outcome(None, Termination.MOVE_LIMIT, None, f"the move limit of {limit} plies was reached")
            elif not self.has_moves():
                outcome = self.no_moves_outcome()
        self._outcome = outcome
        return outcome

    def has_moves(self) -> bool:
        """True when the side to move has a legal move (a game that always has one, a pass, may say so cheaply)."""
        return bool(self.generate_moves_cached())

    def generate_moves_cached(self) -> list[Move]:
        """The side to move's legal moves, computed once per position."""
        if self._legal is None:
            self._legal = self.generate_moves()
        return self._legal

    def copy(self) -> StoneState:
        """An independent copy."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.cells = self.cells.copy()
        new._history = self._history.copy()
        self.copy_extra(new)
        return new

    def __copy__(self) -> StoneState:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> StoneState:
        return self.copy()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # pickled as its game, board, rules and moves: small, and independent of the subclass's internals
        return (_replay, (self.game.name, self.board.spec, self.game.rules_dict(self.rules), self.handicap,
                          tuple(self._history)))

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self.board.spec!r}, moves={len(self._history)}, to_move={self._to_move}, "
                f"outcome={self._outcome})")

    def _name(self, move: object) -> str:
        try:
            return repr(self.game.format_move(self.board, move))  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - any unformattable answer is shown as it came
            return repr(move)


def _replay(game_name: str, spec: str, rules: dict[str, Any], handicap: int, moves: tuple[Move, ...]) -> StoneState:
    """Rebuild a pickled state by replaying its moves."""
    from ytourney.games.registry import get_game  # noqa: PLC0415 - the registry loads games, games use this base

    game = get_game(game_name)
    state = game.new_state(game.parse_board(spec), game.parse_rules(rules), handicap)
    for move in moves:
        state.play(move)
    return state  # type: ignore[return-value]


@functools.lru_cache(maxsize=16)
def slide_table(board: Board) -> tuple[tuple[tuple[tuple[int, ...], int], ...], ...]:
    """For each node, its rays (`Board.rays`) as (ray, shared): a ray past a fork shares its first `shared` nodes
    with an earlier ray, so a walk lists them once."""
    table = []
    for rays in board.rays:
        entry = []
        for i, ray in enumerate(rays):
            shared = max((_common_prefix(ray, other) for other in rays[:i]), default=0)
            entry.append((ray, shared))
        table.append(tuple(entry))
    return tuple(table)


def _common_prefix(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def slide_targets(rays: tuple[tuple[tuple[int, ...], int], ...], cells: list[int], limit: int | None = None) -> list[int]:
    """The empty nodes a stone reaches sliding along its rays (`slide_table(board)[source]`) through empty nodes,
    at most `limit` steps, each node once (by whichever line is open)."""
    found: list[int] = []
    for ray, shared in rays:
        walk = ray if limit is None else ray[:limit]
        if shared:
            if any(cells[node] for node in walk[:shared]):
                continue
            walk = walk[shared:]
        for node in walk:
            if cells[node]:
                break
            found.append(node)
    return list(dict.fromkeys(found))  # two lines from one node may cross again further on


# --- notation shared by the stone games: E5, E5-E7, F8-H6-H4-F2, F8-F6xG6, pass, swap ------------------------

_PATH_MOVE = re.compile(r"([a-z]+[0-9]+(?:-[a-z]+[0-9]+)*?)(?:x([a-z]+[0-9]+))?")


def parse_path_move(board: Board, text: str, *, jumps: bool = False) -> Move:
    """A move in DESIGN's notation: a node places, `FROM-TO` steps (a jump when `jumps`), more landings jump."""
    token = text.strip().lower() if isinstance(text, str) else ""
    if token == SWAP_TOKEN:
        return SWAP
    if token == PASS_TOKEN:
        return PASS
    node = board.index_of(token)
    if node is not None:
        return Move.place(node)
    match = _PATH_MOVE.fullmatch(token)
    if match is None:
        raise NotationError(f"unreadable move {text!r}; expected a node (E5), FROM-TO (E5-E7), a jump chain "
                            f"(F8-H6-H4-F2), a capture (F8-F6xG6), pass or swap")
    nodes = []
    for name in match.group(1).split("-"):
        node = board.index_of(name)
        if node is None:
            raise NotationError(f"unknown node {name.upper()!r} in move {text!r} on {board.spec}")
        nodes.append(node)
    capture = None
    if match.group(2):
        capture = board.index_of(match.group(2))
        if capture is None:
            raise NotationError(f"unknown capture node {match.group(2).upper()!r} in move {text!r} on {board.spec}")
        if len(nodes) < 2:
            raise NotationError(f"move {text!r} names a capture but no move (expected FROM-TOxNODE)")
    if len(nodes) == 1:
        return Move.place(nodes[0])
    if len(nodes) == 2 and not jumps:
        return Move.step(nodes[0], nodes[1], capture)
    return Move.jump(nodes, capture)


def format_path_move(board: Board, move: Move) -> str:
    """The notation of any stone-game move (node names as the board prints them)."""
    if move.kind is MoveKind.SWAP:
        return SWAP_TOKEN
    if move.kind is MoveKind.PASS:
        return PASS_TOKEN
    text = "-".join(board.names[node] for node in move.path)
    return text if move.capture is None else f"{text}x{board.names[move.capture]}"


# --- the kadon board and rules values read from their JSON form --------------------------------------------------------------------


def kadon_board(spec: object, game: str) -> Board:
    """The 93-node kadon board, the only board of the Kadon games; any other spec is refused naming it."""
    if not isinstance(spec, str) or spec.strip().lower() != "kadon":
        raise GameSpecError(f"board {spec!r} is not a board of {game}; expected kadon")
    return parse_board("kadon")


def read_rules(cls: Any, data: Mapping[str, Any] | None, game: str, choices: Mapping[str, tuple[str, ...]]) -> Any:
    """A frozen dataclass of rules (with `max_plies`) from its JSON form: missing keys take the defaults; unknown
    keys, a value outside its `choices` and a move limit that is not a whole number >= 1 are errors naming them."""
    data = dict(data or {})
    fields = list(cls.__dataclass_fields__)
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise GameSpecError(f"unknown {game} rule {unknown[0]!r}; expected {', '.join(fields)}")
    rules = cls(**data)
    for key, allowed in choices.items():
        if getattr(rules, key) not in allowed:
            raise GameSpecError(f"rule {key}={getattr(rules, key)!r}; expected one of {', '.join(allowed)}")
    limit = rules.max_plies
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise GameSpecError(f"rule max_plies={limit!r}; expected a whole number of plies >= 1")
    return rules


# --- pieces the games' search knowledge shares -------------------------------------------------------------


def bfs_distances(board: Board, sources: tuple[int, ...] | list[int]) -> list[int]:
    """Graph distance of every node to the nearest of `sources` (-1 where none is reachable)."""
    dist = [-1] * board.num_cells
    todo = list(sources)
    for node in todo:
        dist[node] = 0
    for node in todo:
        for nb in board.neighbors[node]:
            if dist[nb] < 0:
                dist[nb] = dist[node] + 1
                todo.append(nb)
    return dist


def squash(margin: float, temperature: float) -> float:
    """A margin in a game's own units turned into a win probability (a logistic curve of width `temperature`)."""
    return 1.0 / (1.0 + math.exp(-margin / temperature))


def outcome_value(outcome: Outcome, colour: Color) -> float:
    """1, 0 or 0.5: what an ended game is worth to `colour`."""
    return 0.5 if outcome.winner is None else float(outcome.winner is colour)


def evaluated_rollout(state: StoneState, rng: Any, plies: int, evaluate: Any) -> float:
    """Black's value after up to `plies` random moves on a copy (none: `state` itself), by `evaluate(state,
    colour)`: the rollout of a game whose random playouts never finish, so a search scores its leaves by
    evaluation."""
    if plies > 0:
        state = state.copy()
        for _ in range(plies):
            if state.outcome is not None:
                break
            state.play(rng.choice(state.generate_moves_cached()))
    return evaluate(state, Color.BLACK)
