"""YvY's rules value and position: place or pass, a loop wins at once, two passes in a row end with a count."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ytourney.errors import GameSpecError
from ytourney.games.api import EMPTY, PASS, Color, Move, MoveKind, Outcome, Termination
from ytourney.games.stones import StoneState
from ytourney.games.yvy.geometry import LoopTracker, geometry, loop_cells
from ytourney.games.yvy.scoring import Count, count

LOOP = Termination.define("loop")
SCORE = Termination.define("score")

DEFAULT_MAX_PLIES = 1000
"""Above every possible game: a game has at most one pass per stone plus the final pair and the swap, and
hex:12 (the largest) has 433 cells, so 2 x 433 + 3 < 1000."""


@dataclass(frozen=True)
class YvyRules:
    """The swap (pie) rule and the move limit."""

    pie: bool = True
    max_plies: int = DEFAULT_MAX_PLIES

    def to_dict(self) -> dict[str, Any]:
        """JSON form used in records."""
        return {"pie": self.pie, "max_plies": self.max_plies}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> YvyRules:
        """Rules from their JSON form; unknown keys and bad values are errors naming them."""
        data = dict(data or {})
        unknown = sorted(set(data) - {"pie", "max_plies"})
        if unknown:
            raise GameSpecError(f"unknown yvy rule {unknown[0]!r}; expected pie, max_plies")
        pie = data.get("pie", True)
        if not isinstance(pie, bool):
            raise GameSpecError(f"yvy rule pie={pie!r} must be true or false")
        limit = data.get("max_plies", DEFAULT_MAX_PLIES)
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 2:
            raise GameSpecError(f"yvy rule max_plies={limit!r} must be an integer >= 2")
        return cls(pie, limit)


class YvyState(StoneState):
    """A YvY position: stones, the union-find of groups for loop detection, and the count once both passed."""

    def start(self) -> None:
        """An empty board and its loop tracker."""
        self.geo = geometry(self.board)
        self.tracker = LoopTracker(self.geo)
        self.loop_at: int | None = None
        self.final_count: Count | None = None

    def copy_extra(self, new: StoneState) -> None:
        """The tracker is copied by value."""
        new.tracker = self.tracker.copy()  # type: ignore[attr-defined]

    def generate_moves(self) -> list[Move]:
        """Every empty cell, then a pass (always allowed)."""
        cells = self.cells
        moves = [Move(MoveKind.PLACE, (cell,)) for cell in range(len(cells)) if cells[cell] == EMPTY]
        moves.append(PASS)
        return moves

    def is_legal(self, move: Move) -> bool:
        """A placement on an empty cell, a pass, or the swap when offered (no list search)."""
        if self._outcome is not None or not isinstance(move, Move):
            return False
        if move.kind is MoveKind.PLACE:
            return (len(move.path) == 1 and 0 <= move.path[0] < len(self.cells) and move.capture is None
                    and self.cells[move.path[0]] == EMPTY)
        if move.kind is MoveKind.PASS:
            return move == PASS
        if move.kind is MoveKind.SWAP:
            return self.can_swap()
        return False

    def can_swap(self) -> bool:
        """The generic pie answer, offered only after a stone (not after an opening pass)."""
        return super().can_swap() and self._history[0].kind is MoveKind.PLACE

    def apply(self, move: Move) -> None:
        """Put the stone down and note whether it closed a loop."""
        if move.kind is MoveKind.PASS:
            return
        cell = move.path[0]
        colour = int(self._to_move)
        self.cells[cell] = colour
        if self.tracker.place(self.cells, cell, colour):
            self.loop_at = cell

    def judge(self, move: Move) -> Outcome | None:
        """A loop wins at once; a second pass in a row ends the game with the count."""
        mover = self._to_move.other
        if move.kind is MoveKind.PLACE:
            if self.loop_at is not None:
                return Outcome(mover, LOOP, None, f"{mover} closed a loop at {self.board.names[self.loop_at]}")
            return None
        history = self._history
        if len(history) >= 2 and history[-2].kind is MoveKind.PASS:
            return self._scored()
        return None

    def _scored(self) -> Outcome:
        result = count(self.geo, self.cells)
        self.final_count = result
        black, white = result.score
        winner = None if black == white else Color.BLACK if black > white else Color.WHITE
        reason = (f"black {result.black.sprouts} sprouts, {result.black.counted_groups} groups: {black}; "
                  f"white {result.white.sprouts} sprouts, {result.white.counted_groups} groups: {white}")
        return Outcome(winner, SCORE, (float(black), float(white)), reason)

    def loop_stones(self) -> frozenset[int]:
        """The stones of the winning loop (empty unless a loop ended the game)."""
        if self.loop_at is None:
            return frozenset()
        return loop_cells(self.geo, self.cells, self.loop_at)

    def current_count(self) -> Count:
        """What the count would be if both players passed now."""
        return count(self.geo, self.cells)

    # --- search hooks for the generic mcts (players/bots/uct.py) ------------------------------------------

    def urgent_moves(self) -> list[Move]:
        """A pass that ends a game the count wins (after the opponent's pass), else a stone that closes a loop at
        once, else one that stops the opponent's loop-in-one (with several threats the game is lost anyway)."""
        history = self._history
        if history and history[-1].is_pass and self._outcome is None:
            black, white = count(self.geo, self.cells).score
            if (black > white) if self._to_move is Color.BLACK else (white > black):
                return [PASS]
        me = int(self._to_move)
        for colour in (me, 3 - me):
            cells = closing_cells(self.cells, self.tracker, colour)
            if cells:
                return [Move.place(cells[0])]
        return []

    def rollout(self, rng: Any, plies: int) -> float:
        """Black's value of the empty cells filled in random order from the side to move, stopping at the first
        loop (a full board without one is counted); a draw when `plies` stones leave the board unfilled."""
        cells = self.cells.copy()
        empties = [cell for cell in range(len(cells)) if cells[cell] == EMPTY]
        rng.shuffle(empties)
        place = self.tracker.copy().place
        colour = int(self._to_move)
        for cell in empties[:plies]:
            cells[cell] = colour
            if place(cells, cell, colour):
                return float(colour == Color.BLACK)
            colour = 3 - colour
        if len(empties) > plies:
            return 0.5
        black, white = count(self.geo, cells).score
        return 0.5 if black == white else float(black > white)


def closing_cells(cells: list[int], tracker: LoopTracker, colour: int) -> list[int]:
    """The empty cells where a stone of `colour` would close a loop now."""
    found = []
    for cell in range(len(cells)):
        if cells[cell] == EMPTY:
            cells[cell] = colour
            if tracker.copy().place(cells, cell, colour):
                found.append(cell)
            cells[cell] = EMPTY
    return found
