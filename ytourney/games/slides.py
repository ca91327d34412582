"""A base for the slide games on the kadon board (Quinta, Sexta): each side starts with stones on named nodes and
every move slides one own stone any distance along a line through empty nodes; a game states its start and its win.

`SlideKernel` is the position on bit masks (moves, apply/undo, the end); `SlideKnowledge` the search knowledge both
games share (a cheap random-slide rollout, a win in one, the one block); `SlideState` the Move-level front with the
refusals; `SlideGame` the kadon-only board, the rules reader, the FROM-TO notation and the views. The optional C
core (slide_core.py) plays the same kernel and knowledge: the state and the knowledge use it when it is loaded.
"""

from __future__ import annotations

import abc
import functools
import random
import sys
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from ytourney.boards.board import Board
from ytourney.games.api import (
    EMPTY,
    Color,
    Game,
    Move,
    MoveKind,
    State,
    Termination,
)
from ytourney.games.bitboard import bits, mask_of
from ytourney.games.front import KernelState
from ytourney.games.kernel import DRAW, ONGOING
from ytourney.games.knowledge import LCG_INC, LCG_MUL, MASK64, Knowledge, SearchDefaults, result_value
from ytourney.games.slide_core import CoreKernel, core_tables_with_moves, kernel_tables
from ytourney.games.slide_tables import core, core_tables, slide_tables, slide_target
from ytourney.games.stones import format_path_move, kadon_board, parse_path_move
from ytourney.games.views import GameViews

SWAP_MARK = -1
"""The undo stack's entry for the pie answer's ply."""
_core_actions = None if core is None else core.actions
BLACK = 1


class SlideKernel(abc.ABC):
    """A slide-game position on bit masks: `masks[c]` holds colour c's stones, `cells` the same per node."""

    win_termination: ClassVar[Termination]

    def __init__(self, board: Board, rules: Any, black: int, white: int, to_move: int = Color.BLACK) -> None:
        tables = slide_tables(board)
        self.board = board
        self.rules = rules
        self.masks = [0, black, white]
        self.cells = [EMPTY] * board.num_cells
        for colour, mask in ((Color.BLACK, black), (Color.WHITE, white)):
            for node in bits(mask):
                self.cells[node] = int(colour)
        self.to_move = int(to_move)
        self.plies = 0
        self.result = ONGOING
        self.termination: Termination | None = None
        self.score: tuple[float, float] | None = None
        limit = getattr(rules, "max_plies", None)
        self.limit = sys.maxsize if limit is None else limit
        self._stack: list[int] = []
        self._groups = tables.groups
        self._tails = tables.tails
        self._core = core_tables(board)
        self._pairs = tables.pairs
        self._neighbours = tables.neighbours
        self._full = tables.full
        self.setup()

    def setup(self) -> None:
        """The game's own tables (none by default)."""

    @abc.abstractmethod
    def won(self, own: int, target: int) -> bool:
        """True when the stones `own` of the side that just slid a stone onto `target` win."""

    @abc.abstractmethod
    def winning_stones(self) -> tuple[int, ...]:
        """The stones of the win that ended the game (its last slide's), in the order the reason names them."""

    @classmethod
    @abc.abstractmethod
    def core_spec(cls, board: Board, rules: Any) -> tuple[int, tuple[tuple[int, ...], ...], bool]:
        """What the C core needs of this game under `rules`: its code (0 Quinta, 1 Sexta), Quinta's runs of five
        and Sexta's ring rule."""

    # --- the Kernel protocol ---------------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """Every slide of the side to move: by source node ascending, each target once (in C when built)."""
        if self.result != ONGOING:
            return []
        masks = self.masks
        if self._core is not None:
            return _core_actions(self._core, masks[self.to_move], masks[1] | masks[2])
        return self.python_actions()

    def python_actions(self) -> list[int]:
        """`legal_actions` in pure Python (the C core lists the same, in the same order)."""
        masks = self.masks
        occupied = masks[1] | masks[2]
        mine = masks[self.to_move]
        groups = self._groups
        tails = self._tails
        found: list[int] = []
        while mine:
            low = mine & -mine
            mine ^= low
            source = low.bit_length() - 1
            for mask, memo in groups[source]:
                found += memo[occupied & mask]
            for opens, far, tail in tails[source]:
                flags = 0
                for flag, near in opens:
                    if not occupied & near:
                        flags |= flag
                if flags:
                    found += tail[(occupied & far) | flags]
        return found

    def source_actions(self, source: int) -> tuple[int, ...]:
        """The slides of the stone on `source` (whoever's it is)."""
        occupied = self.masks[1] | self.masks[2]
        found: tuple[int, ...] = ()
        for mask, memo in self._groups[source]:
            found += memo[occupied & mask]
        for opens, far, tail in self._tails[source]:
            flags = 0
            for flag, near in opens:
                if not occupied & near:
                    flags |= flag
            if flags:
                found += tail[(occupied & far) | flags]
        return found

    def is_legal(self, action: int) -> bool:
        """True for a slide of an own stone along a line through empty nodes (any int may be asked)."""
        if self.result != ONGOING or type(action) is not int:
            return False
        pair = self._pairs.get(action)
        if pair is None or self.cells[pair[0]] != self.to_move or self.cells[pair[1]] != EMPTY:
            return False
        occupied = self.masks[1] | self.masks[2]
        for between in pair[2]:
            if not between & occupied:
                return True
        return False

    def apply(self, action: int) -> None:
        """Slide the stone, then the end: the game's win, the move limit, the opponent without a slide."""
        target = (action >> 19) - 1
        source = ((action >> 10) & 511) - 1
        mover = self.to_move
        cells = self.cells
        cells[source] = EMPTY
        cells[target] = mover
        masks = self.masks
        own = masks[mover] ^ ((1 << source) | (1 << target))
        masks[mover] = own
        self._stack.append(action)
        self.plies += 1
        other = 3 - mover
        self.to_move = other
        if self.won(own, target):
            self.result = mover
            self.termination = self.win_termination
        elif self.plies >= self.limit:
            self.result = DRAW
            self.termination = Termination.MOVE_LIMIT
        else:
            # a stone with an empty neighbour can slide there: a line runs through every neighbour
            empty = self._full ^ (own | masks[other])
            neighbours = self._neighbours
            theirs = masks[other]
            while theirs:
                low = theirs & -theirs
                if neighbours[low.bit_length() - 1] & empty:
                    return
                theirs ^= low
            self.result = mover
            self.termination = Termination.NO_MOVES

    def undo(self) -> None:
        """Take back the last slide or the pie answer's ply."""
        action = self._stack.pop()
        self.plies -= 1
        if action == SWAP_MARK:
            return
        target = (action >> 19) - 1
        source = ((action >> 10) & 511) - 1
        mover = 3 - self.to_move
        self.to_move = mover
        self.cells[target] = EMPTY
        self.cells[source] = mover
        self.masks[mover] ^= (1 << source) | (1 << target)
        self.result = ONGOING
        self.termination = None

    def count_swap(self) -> None:
        """Count the pie answer's ply."""
        self._stack.append(SWAP_MARK)
        self.plies += 1

    def key(self) -> int:
        """The stones of each side and the side to move."""
        return hash((self.masks[1], self.masks[2], self.to_move))

    def clone(self) -> SlideKernel:
        """A copy of the data."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.cells = self.cells.copy()
        new.masks = self.masks.copy()
        new._stack = self._stack.copy()
        return new

    def last_target(self) -> int | None:
        """The node the last slide ended on (None before any)."""
        for action in reversed(self._stack):
            if action != SWAP_MARK:
                return slide_target(action)
        return None


class SlideKnowledge(Knowledge):
    """What both slide games tell a search: short rollouts of random slides (a random stone, then a random target)
    scored by the game's `evaluate`, a win in one, and the moves that stop the opponent's win in one."""

    defaults = SearchDefaults(exploration=0.7, playout_plies=0, breadth=8)
    """A selective search: each node searches the 8 slides the evaluation ranks best one ply deep (a win first, a
    slide that lets the opponent win in one last), and scores its leaves by the evaluation at once (random slides
    only blur it: against the one-ply `heuristic`, 16-slide playouts over every slide won 2 of 10 Quinta games and
    2 of 10 Sexta games at 0.2 s a move, this 39 of 40 and 38 of 40)."""
    core_params: ClassVar[tuple[float, ...]]
    """The game's evaluation constants, handed to the C core so it evaluates as `position_value` does."""

    def __init__(self, board: Board, rules: Any) -> None:
        self.board = board
        self.rules = rules
        self.tables = slide_tables(board)
        self.setup()

    def setup(self) -> None:
        """The game's own tables (none by default)."""

    def win_for(self, kernel: SlideKernel, colour: int) -> int | None:
        """A slide of `colour` that wins at once, or None (this base: never known)."""
        return None

    def position_value(self, kernel: SlideKernel) -> float:
        """Black's prospects in [0, 1] on a pure-Python kernel (this base: a coin)."""
        return 0.5

    def evaluate(self, kernel: SlideKernel) -> float:  # type: ignore[override]
        """Black's prospects in [0, 1] (`position_value`, in the core on a C kernel)."""
        if not isinstance(kernel, SlideKernel):  # the C core's
            return kernel.evaluate()  # type: ignore[no-any-return]
        return self.position_value(kernel)

    def search_actions(self, kernel: SlideKernel) -> list[int]:  # type: ignore[override]
        """The base's selective choice (the `breadth` best by `one_ply_values`, ties in listing order), on a C kernel
        in one call of its core."""
        if isinstance(kernel, SlideKernel):
            return super().search_actions(kernel)
        return kernel.search_actions(self.defaults.breadth)  # type: ignore[no-any-return]

    def one_ply_values(self, kernel: SlideKernel, actions: Sequence[int]) -> list[float]:  # type: ignore[override]
        """The base's values (a win 1, a draw 0.5, a win in one left to the opponent 0, else the evaluation), on a C
        kernel in one call of its core: most of a selective search's time is spent here."""
        if isinstance(kernel, SlideKernel):
            return super().one_ply_values(kernel, actions)
        return kernel.one_ply_values(actions)  # type: ignore[no-any-return]

    def winning_action(self, kernel: SlideKernel) -> int | None:  # type: ignore[override]
        """A slide that wins at once for the side to move."""
        if not isinstance(kernel, SlideKernel):  # the C core's
            return kernel.winning_action()  # type: ignore[no-any-return]
        return None if kernel.result != ONGOING else self.win_for(kernel, kernel.to_move)

    def urgent_actions(self, kernel: SlideKernel) -> list[int]:  # type: ignore[override]
        """The win in one; else, when the opponent threatens one, the slides after which it has none (empty when
        none does, or all do)."""
        if not isinstance(kernel, SlideKernel):  # the C core's
            return kernel.urgent_actions()  # type: ignore[no-any-return]
        if kernel.result != ONGOING:
            return []
        win = self.win_for(kernel, kernel.to_move)
        if win is not None:
            return [win]
        other = 3 - kernel.to_move
        if self.win_for(kernel, other) is None:
            return []
        actions = kernel.legal_actions()
        blocks = []
        for action in actions:
            kernel.apply(action)
            if kernel.result != ONGOING or self.win_for(kernel, other) is None:
                blocks.append(action)
            kernel.undo()
        return blocks if len(blocks) < len(actions) else []

    def playout_action(self, kernel: SlideKernel, rng: random.Random) -> int | None:  # type: ignore[override]
        """A random stone of the side to move (a stuck one dropped from the draw), then a random slide of it (one
        seed drawn)."""
        if kernel.result != ONGOING:
            return None
        seed = rng.getrandbits(64)
        if not isinstance(kernel, SlideKernel):  # the C core's
            return kernel.playout_action(seed)  # type: ignore[no-any-return]
        return random_slide(kernel, bits(kernel.masks[kernel.to_move]), seed)[0]

    def rollout(self, kernel: SlideKernel, rng: random.Random, plies: int,  # type: ignore[override]
                trace: list[int] | None = None) -> float:
        """Up to `plies` playout slides from one seed (`random_slide`, the core's draws), then `evaluate`: 1 or 0
        on a win (a side with no slide loses), 0.5 at the move limit; the kernel is left as found. When `trace` is
        given, each slide played is appended to it."""
        if kernel.result != ONGOING:
            return result_value(kernel.result)
        seed = rng.getrandbits(64)
        if not isinstance(kernel, SlideKernel):  # the C core's
            return kernel.rollout(seed, plies, trace)  # type: ignore[no-any-return]
        played = 0
        value = None
        masks = kernel.masks
        own = {Color.BLACK.value: bits(masks[1]), Color.WHITE.value: bits(masks[2])}
        apply = kernel.apply
        while kernel.result == ONGOING and played < plies:
            mover = kernel.to_move
            stones = own[mover]
            action, seed = random_slide(kernel, stones, seed)
            if action is None:  # only in a set-up position: the game ends this way after a move
                value = 0.0 if mover == BLACK else 1.0
                break
            stones[stones.index(((action >> 10) & 511) - 1)] = (action >> 19) - 1
            apply(action)
            if trace is not None:
                trace.append(action)
            played += 1
        if value is None:
            value = result_value(kernel.result) if kernel.result != ONGOING else self.position_value(kernel)
        for _ in range(played):
            kernel.undo()
        return value


def random_slide(kernel: SlideKernel, stones: list[int], seed: int) -> tuple[int | None, int]:
    """The playout's slide among `stones` (untouched) from the generator's state `seed`, as the C core draws it: a
    uniform stone, a stuck one swapped out of the draw for the last until one can move, then a uniform slide of it
    in `source_actions` order; with the generator's state after the draws (None when no stone can move)."""
    candidates = stones
    left = len(stones)
    while left:
        seed = (seed * LCG_MUL + LCG_INC) & MASK64
        i = (seed >> 32) % left
        actions = kernel.source_actions(candidates[i])
        if actions:
            seed = (seed * LCG_MUL + LCG_INC) & MASK64
            return actions[(seed >> 32) % len(actions)], seed
        if candidates is stones:
            candidates = stones.copy()
        left -= 1
        candidates[i] = candidates[left]
    return None, seed


class SlideState(KernelState):
    """A slide-game position for the tool: the kernel, the refusals, the endings in words."""

    example: ClassVar[str] = "E5-E7"
    """A slide in the game's notation, for refusals."""
    kernel_class: ClassVar[type[SlideKernel]]
    kernel: SlideKernel

    @abc.abstractmethod
    def start_sets(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The node names of Black's and White's start stones under `self.rules`."""

    @abc.abstractmethod
    def win_reason(self, winner: Color, stones: tuple[int, ...]) -> str:
        """The game's win in words, naming the winning stones."""

    def new_kernel(self) -> SlideKernel:
        """The start stones (on the C kernel when the core is loaded)."""
        black, white = ({self.board.index_of(name) for name in names} for names in self.start_sets())
        return self.make_kernel(mask_of(black), mask_of(white), self.game.first_color)

    def make_kernel(self, black: int, white: int, to_move: int) -> SlideKernel:
        """A kernel of these stone masks, not judged: the C one when the core is loaded (its tables learn this
        state's Moves, for `legal_moves`), else the game's pure-Python kernel."""
        if CoreKernel is None:
            return self.kernel_class(self.board, self.rules, black, white, to_move)
        knowledge = self.game.knowledge_class  # type: ignore[attr-defined]
        tables = kernel_tables(self.board, self.kernel_class, self.kernel_class.core_spec(self.board, self.rules),
                             knowledge.core_params)
        core_tables_with_moves(tables, self.move_table())
        return CoreKernel(tables, self.rules.max_plies, black, white, int(to_move))  # type: ignore[no-any-return]

    def set_position(self, black: Iterable[int], white: Iterable[int], to_move: Color = Color.BLACK) -> None:
        """Replace the position by only these stones and this side to move, the game going on with no history
        (for tests and analysis)."""
        self.kernel = self.make_kernel(mask_of(black), mask_of(white), to_move)
        self._history = []
        self._outcome = None

    def listed_moves(self) -> list[Move] | None:
        """On the C core, the legal Moves straight from it (the state's own Move objects)."""
        kernel = self.kernel
        return kernel.legal_moves() if type(kernel) is CoreKernel else None  # type: ignore[attr-defined]

    def played_directly(self, move: object) -> bool:
        """On the C core, a Move of its own lists applied in one call."""
        kernel = self.kernel
        return type(kernel) is CoreKernel and kernel.play_move(move)  # type: ignore[attr-defined]

    @property
    def winning_stones(self) -> tuple[int, ...]:
        """The stones of the game's own win once it is over by it, else ()."""
        if self.kernel.termination is not self.kernel.win_termination:
            return ()
        return self.kernel.winning_stones()

    def end_reason(self) -> str:
        """The game's win naming its stones, or the tool's endings as the slide games have always worded them."""
        kernel = self.kernel
        if kernel.termination is Termination.MOVE_LIMIT:
            return f"the move limit of {kernel.limit} plies was reached"
        if kernel.termination is Termination.NO_MOVES:
            return f"{self.to_move} has no legal move"
        return self.win_reason(Color(kernel.result), kernel.winning_stones())

    def refusal(self, move: object) -> str:
        """Why `move` is illegal, in one line naming it."""
        size = self.board.num_cells
        if not isinstance(move, Move) or not all(type(n) is int and 0 <= n < size for n in move.path):
            return super().refusal(move)
        name = self._name(move).strip("'")
        names = self.board.names
        if move.kind is MoveKind.STEP and move.capture is not None:
            return (f"{name}: {self.game.name} moves capture nothing by choice; write the slide alone "
                    f"(FROM-TO, e.g. {self.example})")
        if move.kind is not MoveKind.STEP or len(move.path) != 2:
            return (f"{name}: {self.game.name} moves slide a stone along a line (FROM-TO, e.g. {self.example}), "
                    f"no {move.kind.value}")
        source, target = move.path
        if self.cells[source] != self.to_move:
            return f"{name}: no {self.to_move} stone on {names[source]}"
        if self.cells[target] != EMPTY:
            return f"{name}: node {names[target]} is occupied"
        if target not in slide_tables(self.board).lines[source]:
            return f"{name}: not on a line from {names[source]}"
        return f"{name}: the line from {names[source]} to {names[target]} is blocked"


class SlideViews(GameViews):
    """How a slide game shows itself: the kadon rows, the winning stones in gold, its win phrase."""

    win_termination: ClassVar[str]
    """The name of the game's winning termination."""
    win_phrase: ClassVar[str]
    """How a result sentence says the game was won that way."""

    def highlight(self, state: State) -> frozenset[int]:
        """The winning stones."""
        return frozenset(getattr(state, "winning_stones", ()))

    def win_text(self, termination: Termination, rules: Any) -> str:
        """The game's win phrase, else 'by <termination>'."""
        return self.win_phrase if termination.value == self.win_termination else f"by {termination.value}"


class SlideGame(Game):
    """A slide game on the kadon board: its rules reader, notation and views (a game names its rules, its win)."""

    boards_help = "kadon"
    default_board = "kadon"
    has_draws = True
    rules_class: ClassVar[type]
    state_class: ClassVar[type[SlideState]]
    knowledge_class: ClassVar[type[SlideKnowledge]]

    def parse_board(self, spec: str) -> Board:
        """Only the 93-node kadon board."""
        return kadon_board(spec, self.name)

    def new_state(self, board: Board, rules: Any, handicap: int = 0) -> SlideState:
        """The start position."""
        return self.state_class(self, board, rules, handicap)

    def knowledge(self, board: Board, rules: Any) -> SlideKnowledge:
        """The game's search knowledge (one per board and rules)."""
        return _knowledge(self.knowledge_class, board, rules)

    def parse_move(self, board: Board, text: str) -> Move:
        """FROM-TO, or swap."""
        return parse_path_move(board, text)

    def format_move(self, board: Board, move: Move) -> str:
        """FROM-TO or swap."""
        return format_path_move(board, move)


@functools.lru_cache(maxsize=32)
def _knowledge(cls: type[SlideKnowledge], board: Board, rules: Any) -> SlideKnowledge:
    return cls(board, rules)  # type: ignore[call-arg]
