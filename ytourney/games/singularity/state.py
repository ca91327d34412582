"""Singularity positions for the tool: the Move-level front over the kernel, its refusals and its ending in words."""

from __future__ import annotations


from ytourney.games.api import Color, Move, MoveKind
from ytourney.games.front import KernelState
from ytourney.games.kernel import Kernel
from ytourney.games.singularity.core import core, core_tables_with_moves, new_kernel
from ytourney.games.singularity.kernel import (
    BLACK_START,
    MAX_SLIDE,
    SINGULARITY,
    WHITE_START,
    SingularityKernel,
    start_nodes,
    tables,
)

__all__ = ["BLACK_START", "SINGULARITY", "WHITE_START", "SingularityState"]


class SingularityState(KernelState):
    """A Singularity position: 12 stones a side at the start, each move one slide and at most one fusion."""

    kernel: Kernel
    """The C core's kernel when built and allowed, else the pure-Python `SingularityKernel` (core.py)."""

    def new_kernel(self) -> Kernel:
        """Alternate round the perimeter; `corners: white` swaps the two sets (the C tables learn this state's
        Moves, for `legal_moves`)."""
        if core is not None:
            core_tables_with_moves(self.board, self.rules.fusion, self.move_table())
        black, white = start_nodes(self.board, self.rules.corners)
        return new_kernel(self.board, self.rules.fusion, self.rules.max_plies, black, white)

    def listed_moves(self) -> list[Move] | None:
        """On the C core, the legal Moves straight from it (the state's own Move objects)."""
        kernel = self.kernel
        return None if type(kernel) is SingularityKernel else kernel.legal_moves()  # type: ignore[attr-defined]

    def played_directly(self, move: object) -> bool:
        """On the C core, a Move of its own lists applied in one call."""
        kernel = self.kernel
        return type(kernel) is not SingularityKernel and kernel.play_move(move)  # type: ignore[attr-defined]

    def set_position(self, black: list[int], white: list[int], to_move: Color = Color.BLACK) -> None:
        """Replace the stones (a hand-made position for tests and analysis); the history stays as it was."""
        self.kernel.setup(black, white, int(to_move))  # type: ignore[attr-defined]
        self._outcome = None

    @property
    def stones(self) -> list[int]:
        """Stones left on the board, indexed by Color value (index 0 unused)."""
        return list(self.kernel.stones)  # type: ignore[attr-defined]

    # --- explanations -------------------------------------------------------------------------------------

    def end_reason(self) -> str:
        """The singularity in words; the house endings as the front words them."""
        kernel = self.kernel
        if kernel.termination is SINGULARITY:
            mover = Color(kernel.result)
            name = self.board.names[self._history[-1].target]
            return f"{mover} is down to one stone, on the central node {name}"
        return super().end_reason()

    def refusal(self, move: object) -> str:
        """One line naming the move and why the rules refuse it."""
        names = self.board.names
        text = self._name(move).strip("'")
        size = len(names)
        me = self.to_move
        if not isinstance(move, Move) or move.kind is not MoveKind.STEP or len(move.path) != 2:
            return f"{text}: a singularity move slides one stone, written FROM-TO (like E5-E7)"
        cells, t = self.kernel.cells, tables(self.board, self.rules.fusion)
        source, target = move.path
        known = type(source) is int and 0 <= source < size
        if not known or cells[source] != me:
            return f"{text}: {names[source] if known else repr(source)} holds no {me} stone"
        if target == source or target not in t.on_line[source]:
            return f"{text}: not on a line from {names[source]}"
        path = t.paths[source].get(target)
        if path is None:
            return f"{text}: a stone slides 1 to {MAX_SLIDE} nodes, {names[target]} is farther along the line"
        blocker = next((c for c in path if cells[c]), None)
        if blocker is not None:
            if blocker == target:
                return f"{text}: {names[target]} is occupied"
            return f"{text}: the slide is blocked at {names[blocker]}"
        fusing = [c for c in self.board.neighbors[target]
                  if t.partners[target] >> c & 1 and c != source and cells[c] == me]
        plain = f"{names[source]}-{names[target]}"
        if move.capture is None and len(fusing) > 1:
            legal = [m for m in self.legal_moves() if m.path == move.path] or [
                Move.step(source, target, c) for c in fusing]
            options = " or ".join(f"{plain}x{names[m.capture]}" for m in legal if m.capture is not None)
            return f"{text}: must name the capture ({options})"
        if move.capture is not None and len(fusing) <= 1:
            if not fusing:
                return f"{text}: no fusion happens on {names[target]}, so there is nothing to capture"
            return f"{text}: the capture of {names[fusing[0]]} is the only one, write {plain}"
        if move.capture is not None and move.capture not in fusing:
            options = " or ".join(names[c] for c in fusing)
            capture = names[move.capture] if type(move.capture) is int and 0 <= move.capture < size else repr(
                move.capture)
            return f"{text}: {capture} cannot be captured here (choose {options})"
        central = [c for c in t.central_nodes if cells[c] == me and c != source and c != move.capture]
        if len(fusing) == 1 and move.capture is None:
            central = [c for c in central if c != fusing[0]]
        return (f"{text}: {me} would hold more than one of the central nodes F6 G6 F7 "
                f"({' '.join(names[c] for c in sorted(central + [target]))})")
