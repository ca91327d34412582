"""Y's kernel: the game state (C core or pure Python) under the kernel protocol, undone by snapshots (a Y copy costs
its arrays, never a replay). Y's own tuned search works on the state itself; this serves the generic search and the
properties every game keeps."""

from __future__ import annotations

from typing import Any

from ytourney.games.kernel import ONGOING
from ytourney.games.termination import Termination
from ytourney.games.y.notation import SWAP

CONNECTION = Termination.define("connection")


class YKernel:
    """A Y position: actions are cells; `undo` returns to the snapshot taken before the last action."""

    __slots__ = ("_stack", "_state")

    def __init__(self, state: Any) -> None:  # a y.state.GameState (imported there, so not here)
        self._state = state
        self._stack: list[Any] = []

    @property
    def cells(self) -> list[int]:
        """Contents of every cell."""
        return self._state.cells

    @property
    def to_move(self) -> int:
        """The Color value of the stone placed next."""
        return int(self._state.to_move)

    @property
    def plies(self) -> int:
        """Actions so far, the pie answer included."""
        return len(self._state.moves)

    @property
    def result(self) -> int:
        """ONGOING, or the winner's Color value (Y has no draws)."""
        winner = self._state.winner
        return ONGOING if winner is None else int(winner)

    @property
    def termination(self) -> Termination | None:
        """Connection once won."""
        return None if self._state.winner is None else CONNECTION

    score = None
    """Y keeps no score."""

    def legal_actions(self) -> list[int]:
        """The empty cells while the game goes on."""
        return [] if self._state.winner is not None else self._state.empty_cells()

    def is_legal(self, action: int) -> bool:
        """An empty cell of the board while the game goes on."""
        return type(action) is int and action >= 0 and self._state.is_legal(action)

    def apply(self, action: int) -> None:
        """Place a stone."""
        self._stack.append(self._state)
        self._state = self._state.copy()
        self._state.play(action)

    def count_swap(self) -> None:
        """The pie answer."""
        self._stack.append(self._state)
        self._state = self._state.copy()
        self._state.play(SWAP)

    def undo(self) -> None:
        """Back to the position before the last action."""
        self._state = self._stack.pop()

    def key(self) -> int:
        """The stones, the side to move and the stones left in its turn."""
        state = self._state
        return hash((tuple(state.cells), int(state.to_move), state.stones_left_this_turn))

    def state_copy(self) -> Any:
        """A copy of the game state under the kernel, for a playout that needs no undo."""
        return self._state.copy()

    def clone(self) -> YKernel:
        """An independent copy (its undo history stays behind)."""
        return YKernel(self._state.copy())


