"""The one Game/State API every layer above games/ uses: colours, moves, terminations, outcomes, games, states.

Modelled on OpenSpiel's Game/State split and python-chess's value types: a `Game` knows its boards, rules,
notation and views; a `State` is one position with its history, legal moves and outcome. Above `ytourney.games`
code reaches a concrete game only through `ytourney.games.registry`.
"""

from __future__ import annotations

import abc
import enum
import numbers
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from ytourney.boards.board import Board
from ytourney.choices import parse_choice
from ytourney.errors import IllegalMoveError, NotationError
from ytourney.games.dialect import GENERIC_DIALECT, EngineDialect
from ytourney.games.kernel import Kernel
from ytourney.games.knowledge import Knowledge
from ytourney.games.rules import RuleOption, read_rules, rule_value_text  # noqa: F401 - RuleOption re-exported
from ytourney.games.termination import TOOL_TERMINATIONS, Termination  # noqa: F401 - re-exported: the api names every ending

EMPTY = 0

_COLOR_NAMES = {"b": "black", "w": "white"}


class Color(enum.IntEnum):
    """The two sides of every two-player game here; which one moves first is the game's (`Game.first_color`)."""

    BLACK = 1
    WHITE = 2

    @property
    def other(self) -> Color:
        """The opposing colour."""
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @classmethod
    def parse(cls, text: str) -> Color:
        """Colour from 'black'/'b'/'white'/'w' in any case."""
        return parse_choice(cls, text, "colour", aliases=_COLOR_NAMES)

    def __str__(self) -> str:
        return self.name.lower()


class MoveKind(enum.Enum):
    """What a move does: place a stone, move one along a line (step or slide), leap (a jump chain), pass, swap."""

    PLACE = "place"
    STEP = "step"
    JUMP = "jump"
    PASS = "pass"
    SWAP = "swap"


@dataclass(frozen=True, slots=True)
class Move:
    """One action: `path` holds the nodes (the placed node; from and to; every landing of a jump chain) and
    `capture` a node the mover chooses to capture (Singularity's `F8-F6xG6`)."""

    kind: MoveKind
    path: tuple[int, ...] = ()
    capture: int | None = None

    @classmethod
    def place(cls, node: int) -> Move:
        """A stone placed on `node`."""
        return cls(MoveKind.PLACE, (node,))

    @classmethod
    def step(cls, source: int, target: int, capture: int | None = None) -> Move:
        """A stone moved from `source` to `target` along one line."""
        return cls(MoveKind.STEP, (source, target), capture)

    @classmethod
    def jump(cls, path: Sequence[int], capture: int | None = None) -> Move:
        """A stone leaping from path[0] through every landing in order."""
        return cls(MoveKind.JUMP, tuple(path), capture)

    @property
    def cell(self) -> int:
        """The node a placement fills (the landing of any other move with a path)."""
        return self.path[-1]

    @property
    def source(self) -> int:
        """The node a moving stone leaves (the placed node for a placement)."""
        return self.path[0]

    @property
    def target(self) -> int:
        """The node a moving stone ends on."""
        return self.path[-1]

    @property
    def is_swap(self) -> bool:
        """True for the pie answer."""
        return self.kind is MoveKind.SWAP

    @property
    def is_pass(self) -> bool:
        """True for a pass."""
        return self.kind is MoveKind.PASS


SWAP = Move(MoveKind.SWAP)
PASS = Move(MoveKind.PASS)
SWAP_TOKEN = "swap"
PASS_TOKEN = "pass"

_PATH_LENGTHS = {MoveKind.PLACE: (1, 1, "one node"), MoveKind.STEP: (2, 2, "two nodes, FROM and TO"),
                 MoveKind.JUMP: (2, None, "two nodes or more, FROM and every landing")}
"""The nodes each kind of move names: (fewest, most or None, in words)."""


def _shown(value: object) -> str:
    """A value of a foreign Move for a message: the repr of a plain value, else only its type (a repr may lie)."""
    if type(value) in (int, bool, float, type(None)):
        return repr(value)
    if type(value) is str:
        return repr(value if len(value) <= 40 else value[:40] + "...")
    return f"an object of type {type(value).__name__}"


def _whole(node: object) -> object:
    """A node given as another integer type (numpy's int64, from argmax or a board array) as an int, read once; any
    other value as it is, for `move_fault` to name (a bool is no node)."""
    try:
        if type(node) is int or isinstance(node, bool) or not isinstance(node, numbers.Integral):
            return node
        value = operator.index(node)
    except Exception:  # noqa: BLE001 - a foreign value whose checks fail stays as it is, and is refused
        return node
    return value if type(value) is int else node


def move_fault(board: Board, move: object) -> str | None:
    """Why `move` cannot be a move on `board` in any game, in words: not a Move, a kind that is none, nodes that are
    not whole numbers of the board (a negative index, a bool, a float), a path too short or too long for its kind;
    None for a well-formed move. Every Move from player code is checked here before anything reads its nodes."""
    if not isinstance(move, Move):
        return f"answered {_shown(move)}, which is not a move (a Move or its notation)"
    kind, path, capture = move.kind, move.path, move.capture
    if type(kind) is not MoveKind:
        return f"a move of kind {_shown(kind)}, which is no kind of move (expected a MoveKind)"
    if type(path) is not tuple:
        return f"a {kind.value} move must list its nodes in a tuple; got {_shown(path)}"
    if kind in (MoveKind.PASS, MoveKind.SWAP):
        if path or capture is not None:
            return f"a {kind.value} names no node; got the path {path!r}" if path else \
                f"a {kind.value} names no node; got the capture {_shown(capture)}"
        return None
    fewest, most, words = _PATH_LENGTHS[kind]
    if len(path) < fewest or (most is not None and len(path) > most):
        return f"a {kind.value} move names {words}; got {len(path)}"
    if kind is MoveKind.PLACE and capture is not None:
        return f"a place move captures nothing; got the capture {_shown(capture)}"
    size = board.num_cells
    for node in (*path, capture) if capture is not None else path:
        if type(node) is not int or not 0 <= node < size:
            return (f"a {kind.value} move names {_shown(node)}, which is no node of {board.spec}: nodes are whole "
                    f"numbers 0..{size - 1}")
    return None


def score_text(score: tuple[float, float]) -> str:
    """A game's score, Black's first, as '12 to 7': unambiguous when a score is negative ('-5 to -2')."""
    return f"{score[0]:g} to {score[1]:g}"


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winning colour or None for a draw, the termination, a score where the game keeps
    one (Black's, White's), and a reason in words."""

    winner: Color | None
    termination: Termination
    score: tuple[float, float] | None = None
    reason: str = ""


@dataclass(frozen=True)
class HandicapAxis:
    """A game's handicap ladder, declared on its Game class (`handicap_axis`) and applied by its own
    `new_state(handicap=k)`: what level k gives, and to whom."""

    words: str
    """What a level gives, in words, for lists and reports ('5 Amazons a level, up to 60')."""
    favours: Color | None = None
    """The side every level favours, whoever plays it: level 0 is then no even game, and a fair level is the sides'
    (the level at which that side scores half), measured over both seatings. None: a level goes to the weaker player,
    who sits in the first seat."""
    rule: str = ""
    """The rule option each level adds `per_level` to (its range bounds the ladder); '' when a level is no rule's."""
    per_level: int = 1
    """How much of `rule` one level adds."""
    unit: str = ""
    """What `rule` counts, for a fair level in the game's terms ('Amazons')."""
    first_turn_stones: bool = False
    """True when level k >= 2 is k stones the first mover places in its first turn (records group them as a turn)."""

    def base(self, game: Game, rules: Any) -> int | None:
        """The value of `rule` at level 0 under `rules` (None when a level is no rule's)."""
        return int(game.rules_dict(rules)[self.rule]) if self.rule else None

    def top(self, game: Game, rules: Any) -> int | None:
        """The highest level `rules` allow (the rule's range), or None when only the board bounds it."""
        base = self.base(game, rules)
        high = game.rule_options[self.rule].high if self.rule else None
        if base is None or high is None:
            return None
        return max(0, int(high - base) // self.per_level)

    def value(self, game: Game, rules: Any, level: float) -> float:
        """A (fractional) level as the number of the game's terms (37.5 for 37.5 Amazons); the level itself when a
        level is no rule's."""
        base = self.base(game, rules)
        return float(level) if base is None else base + self.per_level * level

    def amount(self, game: Game, rules: Any, level: float, *, unit: bool = True) -> str:
        """A (fractional) level in the game's terms ('37.5 Amazons'); 'level 1.5' when a level is no rule's."""
        number = f"{self.value(game, rules, level):.1f}".rstrip("0").rstrip(".")
        if not self.rule:
            return f"level {number}" if unit else number
        return f"{number} {self.unit}" if unit and self.unit else number


class State(Protocol):
    """One position of a game with its history; every layer above games/ plays through these methods. A search
    works on its kernel instead (`search_kernel`, games/kernel.py), with the game's knowledge (`Game.knowledge`)."""

    game: Game
    board: Board
    rules: Any
    handicap: int

    @property
    def to_move(self) -> Color:
        """Colour of the side whose move is next."""

    @property
    def swapped(self) -> bool:
        """True once the pie rule exchanged the players' colours."""

    @property
    def history(self) -> tuple[Move, ...]:
        """Every action so far in order, swaps and passes included."""

    @property
    def outcome(self) -> Outcome | None:
        """The game's end, or None while it goes on."""

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""

    @property
    def cells(self) -> Sequence[int]:
        """Contents of every node: EMPTY or a Color value."""

    def seat_to_move(self) -> int:
        """Seat (0 the first mover, 1 the other) whose turn it is."""

    def color_of_seat(self, seat: int) -> Color:
        """Colour played now by seat 0 or seat 1."""

    def can_swap(self) -> bool:
        """True when the next action may be the pie answer."""

    def legal_moves(self) -> list[Move]:
        """Every legal action (the pie answer included when offered); empty once over."""

    def is_legal(self, move: Move) -> bool:
        """True when `play(move)` would succeed."""

    def play(self, move: Move) -> Outcome | None:
        """Apply one action, raising a specific IllegalMoveError when the rules do not allow it; the outcome when
        this action ends the game, else None."""

    def copy(self) -> State:
        """An independent copy."""

    def search_kernel(self) -> Kernel:
        """An independent kernel of this position (games/kernel.py), for a search to walk with apply/undo."""

    def action_of(self, move: object) -> int | None:
        """The kernel action of a legal-looking Move of this game; None for the pie answer or anything else."""

    def move_of(self, action: int) -> Move:
        """The Move of a kernel action."""


class Views(Protocol):
    """How a game shows itself (ytourney/games/views.py has the defaults): the terminal board, what a diagram rings
    in gold, cells it colours, result sentences and the names of the sides."""

    highlight_text: str
    """How a diagram's caption names `highlight` (Y: the winning Y)."""
    side_names: Mapping[Color, str]
    """What each colour stands for in a game whose sides differ (e.g. White the Aliens); empty when they do not."""

    def board_text(self, state: State, last: Move | None = None) -> str:
        """The position as text for the terminal."""

    def highlight(self, state: State) -> frozenset[int]:
        """Nodes a diagram draws in gold (a winning group, a loop)."""

    def result_text(self, winner: str | None, loser: str | None, outcome: Outcome) -> str:
        """The result as a sentence, from the players' names."""

    def win_text(self, termination: Termination, rules: Any) -> str:
        """How a game was won, the words after 'wins' in a result sentence ('by connection')."""

    def marked_cells(self, board: Board) -> Mapping[int, str]:
        """Cells a diagram's empty board fills with a colour of their own (YvY's green sprouts)."""


class Game(abc.ABC):
    """A game ytourney can referee, split by concern: this class holds its boards, rules, notation, start and own
    bots; `views` shows it (text, diagrams, result sentences); `knowledge` is what it tells the search."""

    name: ClassVar[str]
    title: ClassVar[str]
    first_color: ClassVar[Color] = Color.BLACK
    boards_help: ClassVar[str]
    default_board: ClassVar[str]
    notation_example: ClassVar[str]
    handicap_axis: ClassVar[HandicapAxis | None] = None
    """The game's handicap ladder (what a level gives and to whom), applied by `new_state`; None: the game has none."""
    has_pie: ClassVar[bool] = True
    has_draws: ClassVar[bool] = False
    has_passes: ClassVar[bool] = False
    """True when a pass can be among the legal moves (players then pass only when nothing else is legal)."""
    rule_options: ClassVar[Mapping[str, RuleOption]] = {}
    own_bots: ClassVar[Mapping[str, str]] = {}
    """Bots of this game only, name -> 'module:Class'; a name here replaces a generic bot of that name."""
    ladder: ClassVar[tuple[str, ...]] = ("random", "mcts")
    """The graded built-in bots as specs, weakest first: each rung is meant to beat the one below (a ladder benchmark
    plays the neighbours against each other)."""
    bot_notes: ClassVar[Mapping[str, str]] = {}
    """Built-in bot name -> its measured strength and typical game length, shown by `ytourney bots`."""
    ladder_rules: ClassVar[Mapping[str, object]] = {}
    """The rules (a `rules:` mapping) the ladder is measured under; empty: the game's defaults. A game decided by who
    moves first can be graded only with the pie on."""
    measured_side: ClassVar[Color | None] = None
    """The colour a ladder measures a rung from when the game is too lopsided to measure both seats (None: both
    seats, balanced)."""
    views: ClassVar[Views]
    """How the game shows itself (a `games.views.GameViews`)."""
    no_progress_plies: ClassVar[int] = 100
    """Plies without progress (`progress_marks`) after which the draw adjudication's default ends a game."""
    progress_text: ClassVar[str] = "a stone placed or captured"
    """What counts as progress in this game, in words (the draw adjudication's reason names it)."""
    sgf_name: ClassVar[str | None] = None
    """The SGF `GM[...]` value when a standard one exists, else ytourney's `ytourney-<name>`."""
    openspiel_name: ClassVar[str | None] = None
    """The name of this game in OpenSpiel (`pyspiel.load_game`) when OpenSpiel's game has its rules and cell names on
    tri boards (`board_size` N for tri:N), so OpenSpiel bots can be seated (players/openspiel.py); None when none."""

    def openspiel_misfit(self, rules: Any) -> str:
        """'' when OpenSpiel's game (`openspiel_name`) plays `rules` (the pie aside: the tool answers it), else what it
        lacks, in words."""
        return ""

    @property
    def has_handicap(self) -> bool:
        """True when the game declares a handicap ladder (`handicap_axis`)."""
        return self.handicap_axis is not None

    def first_turn_stones(self, handicap: int) -> int:
        """Stones the first mover places in its first turn at handicap `handicap`: 1 unless the ladder's levels are
        first-turn stones (Y's k >= 2)."""
        axis = self.handicap_axis
        return max(1, handicap) if axis is not None and axis.first_turn_stones else 1

    @property
    def docs(self) -> str:
        """The game's rules page in the repository."""
        return f"docs/games/{self.name}.md"

    @property
    def sgf_game(self) -> str:
        """The SGF `GM[...]` value of this game."""
        return self.sgf_name or f"ytourney-{self.name}"

    # --- boards and rules ---------------------------------------------------------------------------------

    @abc.abstractmethod
    def parse_board(self, spec: str) -> Board:
        """The board of `spec` when this game is played on it, else a BoardSpecError naming the accepted ones."""

    rules_class: ClassVar[type]
    """The game's frozen rules value: one field per rule option, with `to_dict`."""

    def parse_rules(self, data: Mapping[str, Any] | None) -> Any:
        """The game's rules value from its `rules:` mapping, every key checked against `rule_options`."""
        return read_rules(self.name, self.rule_options, self.rules_class, data)

    def rules_dict(self, rules: Any) -> dict[str, Any]:
        """The JSON form of a rules value, as records and stores keep it."""
        return rules.to_dict()

    def rules_text(self, rules: Any) -> str:
        """The rules in words for summaries: each option with its value."""
        return ", ".join(f"{key} {rule_value_text(value)}" for key, value in self.rules_dict(rules).items())

    def rules_label(self, rules: Any) -> str:
        """What a league heading adds to the board for a rules set ('' for the default rules)."""
        default = self.rules_dict(self.parse_rules(None))
        changed = {k: v for k, v in self.rules_dict(rules).items() if default.get(k) != v and k != "pie"}
        return ", ".join(f"{k}={v}" for k, v in sorted(changed.items()))

    @abc.abstractmethod
    def new_state(self, board: Board, rules: Any, handicap: int = 0) -> State:
        """The start position."""

    def knowledge(self, board: Board, rules: Any) -> Knowledge:
        """What this game tells the search (ytourney/search/) on `board` under `rules`; the base knows nothing."""
        return Knowledge()

    def progress_marks(self, state: State) -> tuple[int, ...]:
        """This game's measure of progress: a ply makes progress when any part of it takes a value it has not had
        before in the game. The base counts each colour's stones on the board (placements, captures)."""
        cells = state.cells
        return (sum(1 for c in cells if c == Color.BLACK), sum(1 for c in cells if c == Color.WHITE))

    def engine_dialect(self) -> EngineDialect:
        """How this game's GTP engines speak beyond standard GTP (games/dialect.py); the base: the boards' facts only."""
        return GENERIC_DIALECT

    # --- notation -----------------------------------------------------------------------------------------

    @abc.abstractmethod
    def parse_move(self, board: Board, text: str) -> Move:
        """A move from its notation (case-insensitive), or a NotationError naming what was expected."""

    @abc.abstractmethod
    def format_move(self, board: Board, move: Move) -> str:
        """The notation of a move."""

    def parse_moves(self, board: Board, moves: str | Sequence[str]) -> list[Move]:
        """Moves from a whitespace/comma separated string or a sequence of tokens."""
        tokens = moves.replace(",", " ").split() if isinstance(moves, str) else list(moves)
        parsed = []
        for number, token in enumerate(tokens, start=1):
            try:
                parsed.append(self.parse_move(board, token))
            except NotationError as err:
                raise NotationError(f"move {number}: {err}") from err
        return parsed

    def coerce_move(self, board: Board, answer: object) -> Move:
        """A bot's answer as a Move: a Move (its nodes as ints, numpy's included, each checked for type and range,
        `move_fault`) or its notation; anything else is an IllegalMoveError saying why in words."""
        if isinstance(answer, str):
            return self.parse_move(board, answer)
        if isinstance(answer, Move) and type(answer.path) is tuple:  # integer nodes of any type as ints, once
            answer = Move(answer.kind, tuple(_whole(node) for node in answer.path), _whole(answer.capture))
        fault = move_fault(board, answer)
        if fault is not None:
            raise IllegalMoveError(fault)
        return answer  # type: ignore[return-value]

    def read_answer(self, board: Board, answer: object) -> Move:
        """A bot's answer as a fresh Move of this game, read back from its notation (`coerce_move`, then the
        notation both ways); an IllegalMoveError in words when it is none, or when the game reads its notation as
        another move (a step where the game has jumps, a jump of one node)."""
        move = self.coerce_move(board, answer)
        if move.kind is MoveKind.SWAP:
            return SWAP
        try:
            text = self.format_move(board, move)
            fresh = self.parse_move(board, text)
        except (NotationError, IllegalMoveError) as err:
            raise IllegalMoveError(f"a {move.kind.value} move is no move of {self.name} ({err})") from None
        if (fresh.kind, fresh.path, fresh.capture) != (move.kind, move.path, move.capture):  # fields checked above
            raise IllegalMoveError(f"a {move.kind.value} move written {text!r} is no move of {self.name}, which reads "
                                   f"{text!r} as a {fresh.kind.value}" +
                                   (" with a capture" if fresh.capture is not None else ""))
        return fresh
