"""The Move-level `State` every layer above games/ plays through, as a thin front over a game's kernel.

The kernel (games/kernel.py) holds the position and decides legality and the end; this front adds what the tool
needs around it: Move values and their notation, the history, the pie rule (a swap exchanges owners, never the
stones) and the outcome with its reason in words. A game subclasses `KernelState`, says how to make its kernel,
and may word its refusals and its endings.
"""

from __future__ import annotations

import abc
from typing import Any, ClassVar

from ytourney.boards.board import Board
from ytourney.errors import GameOverError, IllegalMoveError, SwapNotAllowedError
from ytourney.games.api import PASS, SWAP, Color, Game, Move, MoveKind, Outcome, Termination, move_fault
from ytourney.games.kernel import DRAW, NODE_LIMIT, ONGOING, PASS_ACTION, Kernel, decode_path, encode_path
from ytourney.games.pie import PieSeats, swap_allowed


def action_move(action: int, jumps: bool = False) -> Move:
    """The Move of an action; a two-node path is a step unless the game's moves are `jumps`."""
    if action == PASS_ACTION:
        return PASS
    path, capture = decode_path(action)
    if len(path) == 1 and capture is None:
        return Move.place(path[0])
    if len(path) == 2 and not jumps:
        return Move.step(path[0], path[1], capture)
    return Move.jump(path, capture)


def move_action(move: Move) -> int | None:
    """The action of a Move (None for the pie answer, or a node that no board here has)."""
    if move.kind is MoveKind.PASS:
        return PASS_ACTION
    if move.kind is MoveKind.SWAP or not move.path:
        return None
    nodes = (*move.path, move.capture) if move.capture is not None else move.path
    for node in nodes:
        if type(node) is not int or not 0 <= node < NODE_LIMIT:
            return None
    return encode_path(move.path, move.capture)


TABLE_LIMIT = 1 << 18
"""Moves a table keeps before it starts afresh: the jump chains of some games are too many to keep every one met."""


class MoveTable(dict[int, Move]):
    """Actions to their Move values, each made once (a game's moves are few and reused in every game)."""

    def __init__(self, jumps: bool) -> None:
        super().__init__()
        self.jumps = jumps

        self.ids: dict[int, int] = {}
        """The action of each Move this table made, by the Move's identity: the one-lookup way back."""

    def __missing__(self, action: int) -> Move:
        move = self.make(action)
        if len(self) >= TABLE_LIMIT:
            self.clear()
            self.ids.clear()
        self[action] = move
        self.ids[id(move)] = action
        return move

    def make(self, action: int) -> Move:
        """The Move of an action not seen before."""
        return action_move(action, self.jumps)


_TABLES: dict[bool, MoveTable] = {False: MoveTable(False), True: MoveTable(True)}


class KernelState(PieSeats, abc.ABC):
    """One position of a game for the tool: its kernel, the history, the pie rule and the outcome."""

    game: Game
    jumps: ClassVar[bool] = False
    """True when a two-node path is a jump (Leap Over), not a step, in this game's notation."""

    def __init__(self, game: Game, board: Board, rules: Any, handicap: int = 0) -> None:
        self.game = game
        self.board = board
        self.rules = rules
        self.handicap = handicap
        self.first_color = game.first_color
        self.kernel = self.new_kernel()
        self._history: list[Move] = []
        self._swapped = False
        self._outcome: Outcome | None = None
        self._moves = self.move_table()

    # --- what a game writes ---------------------------------------------------------------------------

    def move_table(self) -> MoveTable:
        """Actions to Moves for this game (a game whose two-node paths are steps or jumps by adjacency overrides it)."""
        return _TABLES[self.jumps]

    @abc.abstractmethod
    def new_kernel(self) -> Kernel:
        """The kernel of the start position for this state's board and rules."""

    def refusal(self, move: object) -> str:
        """Why an illegal `move` is refused, one line naming it (a game may say more than this default)."""
        return f"{self._name(move)} is not a legal move for {self.to_move} here"

    def malformed(self, move: object) -> str | None:
        """Why `move` cannot be a move on this board at all, in words (`games.api.move_fault`: a node that is no int
        of the board, a path too short or too long for its kind), before the game's own refusal is asked; None for a
        well-formed move."""
        return move_fault(self.board, move)

    def end_reason(self) -> str:
        """The end in words, once the kernel has decided it (a game words its own endings)."""
        termination = self.kernel.termination
        if termination is Termination.MOVE_LIMIT:
            return f"the move limit of {self.kernel.plies} plies was reached"
        if termination is Termination.NO_MOVES:
            return f"{self.to_move} has no legal move"
        winner = self.kernel.result
        return f"{Color(winner)} won by {termination}" if winner > DRAW else f"a draw by {termination}"

    # --- the State API ---------------------------------------------------------------------------------

    @property
    def cells(self) -> list[int]:
        """Contents of every node: EMPTY or a Color value (the kernel's own list: read, never write)."""
        return self.kernel.cells

    @property
    def to_move(self) -> Color:
        """Colour of the side whose move is next."""
        return Color(self.kernel.to_move)

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

    def listed_moves(self) -> list[Move] | None:
        """The legal Moves as a kernel that lists them itself hands them out (a C core holding this game's Move
        objects), or None to list them through the actions."""
        return None

    def played_directly(self, move: object) -> bool:
        """Apply `move` in one call where the kernel can (a C core's own Move of its last list) and say so; False
        leaves the move to the front's checked path."""
        return False

    def legal_moves(self) -> list[Move]:
        """Every legal action, the pie answer last when offered; empty once over."""
        if self._outcome is not None:
            return []
        moves = self.listed_moves()
        if moves is None:
            moves = list(map(self._moves.__getitem__, self.kernel.legal_actions()))
        if len(self._history) == 1 and self.can_swap():
            moves.append(SWAP)
        return moves

    def action_of(self, move: object) -> int | None:
        """The kernel action of a Move of this game (None for the pie answer or anything no action can be)."""
        table = self._moves
        action = table.ids.get(id(move))
        if action is not None and table[action] is move:
            return action  # a Move of this game's own lists, as every built-in bot answers
        if not isinstance(move, Move):
            return None
        action = move_action(move)
        if action is None or self._moves[action] != move:
            return None
        return action

    def search_kernel(self) -> Kernel:
        """An independent kernel of this position for a search."""
        return self.kernel.clone()

    def move_of(self, action: int) -> Move:
        """The Move of a kernel action."""
        return self._moves[action]

    def is_legal(self, move: Move) -> bool:
        """True when `play(move)` would succeed."""
        if self._outcome is not None or not isinstance(move, Move):
            return False
        if move.is_swap:
            return self.can_swap()
        action = self.action_of(move)
        return action is not None and self.kernel.is_legal(action)

    def play(self, move: Move) -> Outcome | None:
        """Apply one action, raising a specific IllegalMoveError when the rules do not allow it; returns the outcome
        when this move ends the game."""
        if self._outcome is not None:
            raise GameOverError(f"move {self._name(move)} after the game ended ({self._outcome.termination.value})")
        if self.played_directly(move):
            return self.played(move)  # type: ignore[arg-type]
        if isinstance(move, Move) and move.is_swap:
            if not self.can_swap():
                raise SwapNotAllowedError(self.swap_refusal(len(self._history)))
            self._swapped = True
            self._history.append(move)
            self.kernel.count_swap()
            return None
        action = self.action_of(move)
        if action is None or not self.kernel.is_legal(action):
            raise IllegalMoveError(self.malformed(move) or self.refusal(move))
        self.kernel.apply(action)
        return self.played(move)  # type: ignore[arg-type]

    def played(self, move: Move) -> Outcome | None:
        """Enter a move the kernel has just applied: the history, and the outcome when it ended the game."""
        self._history.append(move)
        kernel = self.kernel
        if kernel.result != ONGOING:
            winner = None if kernel.result == DRAW else Color(kernel.result)
            self._outcome = Outcome(winner, kernel.termination, kernel.score,  # type: ignore[arg-type]
                                    self.end_reason())
        return self._outcome

    def copy(self) -> KernelState:
        """An independent copy (the kernel cloned, not replayed)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.kernel = self.kernel.clone()
        new._history = self._history.copy()
        return new

    def __copy__(self) -> KernelState:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> KernelState:
        return self.copy()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # pickled as its game, board, rules and moves: small, and independent of the kernel's internals
        return (_replay, (self.game, self.board.spec, self.game.rules_dict(self.rules), self.handicap,
                          tuple(self._history)))

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self.board.spec!r}, moves={len(self._history)}, to_move={self.to_move}, "
                f"outcome={self._outcome})")

    def _name(self, move: object) -> str:
        try:
            return repr(self.game.format_move(self.board, move) or move.kind.value)  # type: ignore[arg-type,union-attr]
        except Exception:  # noqa: BLE001 - any unformattable answer is shown as it came
            return repr(move)


def _replay(game: Game, spec: str, rules: dict[str, Any], handicap: int, moves: tuple[Move, ...]) -> KernelState:
    """Rebuild a pickled state by replaying its moves (the game itself pickles by its name)."""
    state = game.new_state(game.parse_board(spec), game.parse_rules(rules), handicap)
    for move in moves:
        state.play(move)
    return state  # type: ignore[return-value]
