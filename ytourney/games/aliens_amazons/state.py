"""A position of Aliens and Amazons for the tool: the Move-level front over its kernel (kernel.py), the counters
the views read and the refusals in words."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ytourney.boards.board import Board
from ytourney.errors import GameSpecError
from ytourney.games.aliens_amazons import tables as t
from ytourney.games.aliens_amazons.core import PathMoves, new_kernel, path_moves
from ytourney.games.aliens_amazons.kernel import CAPTURES, IMMOBILIZED, AliensAmazonsKernel
from ytourney.games.api import Color, Game, Move, MoveKind
from ytourney.games.front import KernelState, MoveTable

AMAZONS_COLOR = Color.BLACK
HANDICAP_AMAZONS = 5
"""Extra Amazons a handicap level gives (the game's `handicap_axis`)."""
ALIENS_COLOR = Color.WHITE
__all__ = ["ALIENS_COLOR", "AMAZONS_COLOR", "CAPTURES", "IMMOBILIZED", "AliensAmazonsState", "PathMoves", "path_moves",
           "side_name"]


class AliensAmazonsState(KernelState):
    """Aliens (White, 3 stones, first) and Amazons (Black, 30): both place; the Aliens move once their 3 are on
    the board, the Amazons once all 30 have been placed."""

    first_action = "the first Alien is placed"
    kernel: AliensAmazonsKernel

    def __init__(self, game: Game, board: Board, rules: Any, handicap: int = 0) -> None:
        self.tables = t.tables_for(board.spec)
        self.threshold = rules.threshold or self.tables.threshold
        super().__init__(game, board, rules, handicap)

    def move_table(self) -> MoveTable:
        """This board's table: a two-node path is a step or a jump by adjacency."""
        return path_moves(self.board)

    def listed_moves(self) -> list[Move] | None:
        """On the C core, the legal Moves straight from it (the Move table's own objects, no lookup an action)."""
        kernel = self.kernel
        return None if type(kernel) is AliensAmazonsKernel else kernel.legal_moves()  # type: ignore[attr-defined]

    def new_kernel(self) -> AliensAmazonsKernel:
        """The empty board, the Aliens to place first (on the C core's kernel where it is built)."""
        amazons = getattr(self.rules, "amazons", t.AMAZONS) + HANDICAP_AMAZONS * self.handicap
        return new_kernel(self.board, self.threshold, getattr(self.rules, "max_plies", None), amazons)

    def setup(self, aliens: Iterable[int], amazons: Iterable[int], *, to_move: Color = ALIENS_COLOR,
              amazons_placed: int = -1, captured: int = 0) -> None:
        """Set up a hand-made position before any move (tests, studies): stones on the given nodes, the counters as
        given (-1 Amazons placed: all of them); the end is not judged until the next move."""
        if self._history:
            raise GameSpecError(f"setup after {len(self._history)} moves; set up a position on a new state")
        self.kernel.setup(list(aliens), list(amazons), int(to_move), amazons_placed, captured)

    # --- counts --------------------------------------------------------------------------------------------

    @property
    def amazons_placed(self) -> int:
        """Amazons placed so far, the captured ones included."""
        return self.kernel.amazons_placed

    @property
    def captured(self) -> int:
        """Amazons the Aliens have captured."""
        return self.kernel.captured

    @property
    def aliens_on_board(self) -> int:
        """Aliens placed so far (they are never captured)."""
        return self.kernel.aliens_placed

    @property
    def amazons_in_hand(self) -> int:
        """Amazons still to be placed."""
        return self.kernel.amazons_total - self.kernel.amazons_placed

    @property
    def amazons_left(self) -> int:
        """Amazons not captured: on the board or still in hand."""
        return self.kernel.amazons_total - self.kernel.captured

    def placing(self, color: Color) -> bool:
        """True while `color` places stones rather than moving them."""
        if color is ALIENS_COLOR:
            return self.kernel.aliens_placed < t.ALIENS
        return self.kernel.amazons_placed < self.kernel.amazons_total

    # --- the end --------------------------------------------------------------------------------------------

    def end_reason(self) -> str:
        """The Aliens' captures and the immobilized Aliens in words; the tool's endings as the front words them."""
        termination = self.kernel.termination
        if termination is CAPTURES:
            return (f"{self.amazons_left} Amazons left, fewer than the {self.threshold} that can immobilize "
                    "three Aliens")
        if termination is IMMOBILIZED:
            return "the Aliens are immobilized"
        return super().end_reason()

    # --- explaining a refusal --------------------------------------------------------------------------------

    def refusal(self, move: Move) -> str:
        """Why an illegal move is refused: one line naming it and the rule it breaks."""
        return self.why_illegal(move)

    # --- explaining a refusal --------------------------------------------------------------------------------

    def why_illegal(self, move: Move) -> str:
        """One line naming the move and why the rules refuse it here."""
        names = self.board.names
        text = self._name(move).strip("'\"")
        side = "Aliens" if self.to_move is ALIENS_COLOR else "Amazons"
        if move.kind is MoveKind.PASS:
            return f"{text}: there is no passing in aliens-amazons"
        if not move.path or any(type(node) is not int or not 0 <= node < self.board.num_cells
                                for node in move.path):
            return f"{text}: not a node of {self.board.spec}"
        if move.capture is not None:
            return f"{text}: captures are implied by the jumps; name only the landings"
        if self.placing(self.to_move):
            if move.kind is not MoveKind.PLACE:
                done = (f"{self.aliens_on_board} of {t.ALIENS}" if self.to_move is ALIENS_COLOR
                        else f"{self.amazons_placed} of {self.kernel.amazons_total}")
                return f"{text}: the {side} are still placing ({done} placed); play a node"
            return f"{text}: {names[move.cell]} is occupied"
        if move.kind is MoveKind.PLACE:
            return f"{text}: the {side} have no stones in hand; move one ({names[move.cell]}-...)"
        source = move.path[0]
        if self.cells[source] != int(self.to_move):
            return f"{text}: {names[source]} holds no {side[:-1]}"
        if move.kind is MoveKind.STEP:
            if move.path[1] not in self.tables.neighbors[source]:
                return f"{text}: {names[move.path[1]]} is not next to {names[source]}"
            return f"{text}: {names[move.path[1]]} is occupied"
        if self.to_move is AMAZONS_COLOR:
            return f"{text}: Amazons never jump; they step one node"
        return self._why_chain(move.path, text)

    def _why_chain(self, path: tuple[int, ...], text: str) -> str:
        names = self.board.names
        cells = self.cells.copy()
        cells[path[0]] = t.EMPTY
        seen = {path[0]}
        for a, c in zip(path, path[1:]):
            over = self.tables.middle.get((a, c))
            if over is None:
                return f"{text}: {names[c]} is not on a line from {names[a]} two nodes on (no jump lands there)"
            if cells[over] == t.EMPTY:
                return f"{text}: {names[over]} is empty, nothing to jump from {names[a]} to {names[c]}"
            if c in seen:
                return (f"{text}: the chain lands on {names[c]} again with no capture since it was there; a chain "
                        "may revisit a node only after a capture has changed the board")
            if cells[c] != t.EMPTY:
                return f"{text}: the landing {names[c]} is occupied"
            if cells[over] == t.AMAZON:
                cells[over] = t.EMPTY
                seen = set()
            seen.add(c)
        return f"{text}: not a legal move for the {side_name(self.to_move)} here"  # pragma: no cover


def side_name(color: Color) -> str:
    """'Aliens' for White, 'Amazons' for Black."""
    return "Aliens" if color is ALIENS_COLOR else "Amazons"
