"""Tetra's positions for the tool: the Move-level front over `TetraKernel`, its refusals and endings."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ytourney.boards.board import Board
from ytourney.games.api import EMPTY, Color, Game, Move, MoveKind
from ytourney.games.bitboard import bits
from ytourney.games.front import KernelState
from ytourney.games.kernel import Kernel
from ytourney.games.tetra.ckernel import (
    core,
    core_tables_with_moves,
    new_kernel,
    setup_kernel,
)
from ytourney.games.tetra.kernel import FIGURE, STONES, TetraKernel, step_table
from ytourney.games.tetra.knowledge import TetraKnowledge

__all__ = ["FIGURE", "KNOWLEDGE", "STONES", "TetraRules", "TetraState"]

KNOWLEDGE = TetraKnowledge()
"""Tetra's search knowledge (it reads its tables from the kernel, so one serves every board and rules set)."""


@dataclass(frozen=True)
class TetraRules:
    """Tetra's rule options (see docs/games/tetra.md)."""

    pie: bool = False
    bridge_lines: bool = True
    max_plies: int | None = 1000

    def to_dict(self) -> dict[str, Any]:
        """JSON form kept in records."""
        return {"pie": self.pie, "bridge_lines": self.bridge_lines, "max_plies": self.max_plies}


class TetraState(KernelState):
    """A Tetra position: the stones, each side's stones in hand, and whose turn it is."""

    kernel: Kernel
    """The C core's kernel when built and allowed, else the pure-Python `TetraKernel` (ckernel.py)."""

    def new_kernel(self) -> Kernel:
        """Empty board, ten stones in each hand (the C tables learn this state's Moves, for `legal_moves`)."""
        if core is not None:
            core_tables_with_moves(self.board, self.rules.bridge_lines, self.move_table())
        return new_kernel(self.board, self.rules.bridge_lines, self.rules.max_plies)

    def listed_moves(self) -> list[Move] | None:
        """On the C core, the legal Moves straight from it (the state's own Move objects)."""
        return None if type(self.kernel) is TetraKernel else self.kernel.legal_moves()  # type: ignore[attr-defined]

    def played_directly(self, move: object) -> bool:
        """On the C core, a Move of its own lists applied in one call."""
        return type(self.kernel) is not TetraKernel and self.kernel.play_move(move)  # type: ignore[attr-defined]

    @classmethod
    def position(cls, game: Game, board: Board, rules: TetraRules, black: Iterable[int] = (),
                 white: Iterable[int] = (), in_hand: tuple[int, int] = (0, 0),
                 to_move: Color = Color.BLACK) -> TetraState:
        """A state set up with these stones, stones in hand (Black's, White's) and side to move, no history; the
        position is not judged (give one that is still going)."""
        state = cls(game, board, rules)
        state.kernel = setup_kernel(board, rules.bridge_lines, rules.max_plies, black, white, in_hand, int(to_move))
        return state

    @property
    def in_hand(self) -> list[int]:
        """Stones in hand: [0, Black's, White's] (a copy)."""
        return list(self.kernel.hand)  # type: ignore[attr-defined]

    @property
    def placing(self) -> bool:
        """True while the side to move still has stones in hand."""
        return self.kernel.hand[self.kernel.to_move] > 0  # type: ignore[attr-defined, no-any-return]

    @property
    def winning_figure(self) -> tuple[int, ...]:
        """The four nodes of the figure that won, or () while none has."""
        return tuple(bits(self.kernel.win))  # type: ignore[attr-defined]

    def end_reason(self) -> str:
        """A figure names its four nodes; the other endings as the front words them."""
        if self.kernel.termination is FIGURE:
            names = " ".join(self.board.names[n] for n in self.winning_figure)
            return f"{Color(self.kernel.result)} formed a figure: {names}"
        return super().end_reason()

    def refusal(self, move: object) -> str:
        """Why `move` is illegal, in one line naming it."""
        name = self._name(move).strip("'")
        if not isinstance(move, Move):
            return super().refusal(move)
        names, size = self.board.names, self.board.num_cells
        off = [node for node in move.path if type(node) is not int or not 0 <= node < size]
        if off:
            return f"{name}: no node {off[0]!r} on {self.board.spec}"
        cells = self.kernel.cells
        if move.kind is MoveKind.PLACE:
            if not self.placing:
                return f"{name}: {self.to_move} has no stones left in hand; move a stone (FROM-TO)"
            return f"{name}: node {names[move.target]} is occupied"
        if move.kind is MoveKind.STEP and move.capture is None:
            source, target = move.path
            if self.placing:
                return f"{name}: {self.to_move} must place its stones in hand first"
            if cells[source] != self.to_move:
                return f"{name}: no {self.to_move} stone on {names[source]}"
            if cells[target] != EMPTY:
                return f"{name}: node {names[target]} is occupied"
            if all(t != target for t, _ in step_table(self.board)[source]):
                return f"{name}: not on a line from {names[source]} within 2 nodes"
            return f"{name}: the way from {names[source]} to {names[target]} is blocked"
        if move.kind is MoveKind.STEP:
            return f"{name}: tetra moves capture nothing by choice; write the move alone (E5-E7)"
        return f"{name}: tetra moves are placements (E5) and moves of 1 or 2 nodes (E5-E7), no {move.kind.value}"
