"""Leap Over positions: every move a chain of jumps over stones of either colour along the board's lines."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar

from ytourney.boards.board import Board
from ytourney.games.api import EMPTY, Color, Move, MoveKind, Termination
from ytourney.games.front import KernelState, MoveTable, action_move
from ytourney.games.kernel import (
    DRAW,
    NODE_BITS,
    NODE_LIMIT,
    PASS_ACTION,
    Kernel,
)
from ytourney.games.leap_over.ckernel import move_cache, new_kernel
from ytourney.games.leap_over.kernel import (
    BLOCKED,
    FILLED,
    FIRST_FIELD,
    LeapOverKernel,
    _leapcore,
    pure_python,
    tables,
)

__all__ = ["BLOCKED", "FILLED", "Geometry", "LeapOverState", "geometry"]


@dataclass(frozen=True)
class Geometry:
    """Per-board tables the explanations and views read: the jumps, the start triangles and their targets."""

    over: dict[tuple[int, int], tuple[int, ...]]
    """over[(p, q)]: the nodes a jump from p to q passes over."""
    homes: dict[Color, tuple[int, ...]]
    """The start triangle of each colour: Black's apex A5, White's apex M5."""
    targets: dict[Color, tuple[int, ...]]
    """The triangle each colour must fill: the other colour's start."""
    edge: tuple[bool, ...]


@functools.cache
def geometry(board: Board) -> Geometry:
    """The tables of `board`."""
    t = tables(board)
    homes = {Color.BLACK: t.home_nodes[1], Color.WHITE: t.home_nodes[2]}
    return Geometry(
        over={key: (value,) for key, value in t.over.items()},
        homes=homes,
        targets={Color.BLACK: homes[Color.WHITE], Color.WHITE: homes[Color.BLACK]},
        edge=tuple(side != 0 for side in board.sides),
    )


_SET = object.__setattr__


class ChainTable(MoveTable):
    """Actions to Moves for Leap Over on one board: a chain decoded straight into its Move."""

    def __init__(self, board: Board) -> None:
        super().__init__(True)
        self.cache = move_cache(board)
        """The C core's Moves of the chains (the very objects its `legal_moves` lists), or None without it."""

    def make(self, action: int) -> Move:
        """A chain decoded straight into its Move: the C core's own Move when it keeps one (so the front's Moves
        are the very ones its lists hold), else from its prefix's Move when that one is known."""
        if self.cache is not None:
            move = self.cache.move_of(action)  # type: ignore[attr-defined]
            if move is not None:
                return move  # type: ignore[no-any-return]
        path = None
        if action >= NODE_LIMIT and action & 1 and not action >> 1 & (NODE_LIMIT - 1) and action != PASS_ACTION:
            # a chain's actions are listed after its prefix's: its path is the prefix's Move's and one landing
            top = (action.bit_length() - FIRST_FIELD - 1) // NODE_BITS * NODE_BITS + FIRST_FIELD
            last = action >> top
            prefix = self.get(action ^ (last << top)) if top > FIRST_FIELD else None
            if (prefix is not None and prefix.kind is MoveKind.JUMP and prefix.capture is None
                    and len(prefix.path) * NODE_BITS + FIRST_FIELD == top):
                path = (*prefix.path, last - 1)
            else:
                path = _path_of(action)
        if path is None:
            move = action_move(action, True)
        else:
            move = object.__new__(Move)  # a frozen dataclass: its fields set as its own __init__ would
            _SET(move, "kind", MoveKind.JUMP)
            _SET(move, "path", path)
            _SET(move, "capture", None)
        return move


def _python_path_of(action: int) -> tuple[int, ...] | None:
    """The nodes of a packed chain (its capture field empty), or None when a field inside it is empty."""
    path = []
    packed = action >> FIRST_FIELD
    while packed:
        field = packed & (NODE_LIMIT - 1)
        if not field:
            return None
        path.append(field - 1)
        packed >>= NODE_BITS
    return tuple(path)


def _c_path_of(action: int) -> tuple[int, ...] | None:
    return _leapcore.path_of(action.to_bytes((action.bit_length() + 7) // 8, "little"), NODE_LIMIT - 1)


_path_of = _python_path_of if _leapcore is None or pure_python() else _c_path_of


@functools.lru_cache(maxsize=4)
def chain_table(board: Board) -> ChainTable:
    """The chain table every Leap Over position on `board` shares."""
    return ChainTable(board)


class LeapOverState(KernelState):
    """A Leap Over position: 10 stones a side on their start triangles; leap, or pass when no leap exists."""

    jumps: ClassVar[bool] = True
    kernel: Kernel
    """The C core's kernel when built and allowed, else the pure-Python `LeapOverKernel` (ckernel.py)."""

    def move_table(self) -> MoveTable:
        """The chain table every Leap Over position on this board shares."""
        return chain_table(self.board)

    def new_kernel(self) -> Kernel:
        """Black on the A5 side triangle, White on the M5 one, Black to move."""
        return new_kernel(self.board, self.rules.goal, self.rules.max_plies)

    def listed_moves(self) -> list[Move] | None:
        """On the C core, the legal Moves straight from it (found in the chain table's cache, one walk a chain)."""
        kernel = self.kernel
        return None if type(kernel) is LeapOverKernel else kernel.legal_moves(self._moves.cache)  # type: ignore[attr-defined]

    def played_directly(self, move: object) -> bool:
        """On the C core, a Move of its last list applied in one call."""
        kernel = self.kernel
        return type(kernel) is not LeapOverKernel and kernel.play_move(move)  # type: ignore[attr-defined]

    @property
    def geo(self) -> Geometry:
        """The board's jump tables and triangles."""
        return geometry(self.board)

    def set_position(self, black: list[int], white: list[int], to_move: Color = Color.BLACK) -> None:
        """Replace the stones (a hand-made position for tests and analysis); the history stays as it was."""
        self.kernel.setup(black, white, int(to_move))  # type: ignore[attr-defined]
        self._outcome = None

    # --- endings --------------------------------------------------------------------------------------------

    def end_reason(self) -> str:
        """Who filled which triangle, or that neither side can leap, or the move limit."""
        termination = self.kernel.termination
        if termination is FILLED:
            colour = Color(self.kernel.result)
            return f"{colour} filled the {self.other_home_name(colour)} triangle"
        if termination is BLOCKED and self.kernel.result == DRAW:
            return "neither side can leap"
        if termination is Termination.MOVE_LIMIT:
            return f"the move limit of {self.rules.max_plies} plies was reached"
        return super().end_reason()

    def other_home_name(self, colour: Color) -> str:
        """The apex name of the triangle `colour` must fill."""
        return self.board.names[self.geo.targets[colour][0]]

    # --- explanations -------------------------------------------------------------------------------------

    def refusal(self, move: object) -> str:
        """One line naming the move and why the rules refuse it (the front's `play` raises it)."""
        if not isinstance(move, Move):
            return super().refusal(move)
        names = self.board.names
        text = self._name(move).strip("'")
        me = self.to_move
        if move.is_pass:
            example = self.game.format_move(self.board, self.move_of(self.kernel.legal_actions()[0]))
            return f"pass: {me} can leap (e.g. {example}); a player passes only when no leap is possible"
        if move.kind is not MoveKind.JUMP or len(move.path) < 2:
            return f"{text}: every leap-over move is a jump chain FROM-TO-... (like A5-C5-E5), or pass"
        source = move.path[0]
        if self.cells[source] != me:
            return f"{text}: {names[source]} holds no {me} stone"
        cells = list(self.cells)
        cells[source] = EMPTY
        seen = {source}
        for p, q in zip(move.path, move.path[1:]):
            hop = f"{names[p]}-{names[q]}"
            if q in seen:
                where = "its start" if q == source else names[q]
                return f"{text}: the chain returns to {where}; a chain lands on each node at most once"
            seen.add(q)
            between = self.geo.over.get((p, q))
            if between is None:
                edge = self._edge_between(p, q)
                if edge is not None:
                    return (f"{text}: {hop} would jump over the edge node {names[edge]}; "
                            "only a stone on the edge jumps over an edge stone")
                return f"{text}: {hop} is not a jump along a line"
            if not any(cells[b] for b in between):
                return f"{text}: {hop} jumps over {' or '.join(names[b] for b in between)}, which is empty"
            if cells[q]:
                return f"{text}: {names[q]} is occupied"
        return f"{text}: not a legal leap for {me} here"

    def _edge_between(self, p: int, q: int) -> int | None:
        """An edge node next to both p and q (p off that edge, p and q apart): the jump the edge rule forbids."""
        if q in self.board.neighbors[p] or self.geo.edge[p]:
            return None
        common = set(self.board.neighbors[p]) & set(self.board.neighbors[q])
        return next((b for b in sorted(common) if self.geo.edge[b]), None)
