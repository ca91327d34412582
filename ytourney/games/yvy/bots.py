"""YvY's own `random` (with an optional late pass) and `heuristic` (one ply deep: loops, blocks, threats, the
count); its `mcts` is the generic one with the game's knowledge."""

from __future__ import annotations

import random
from typing import ClassVar

from ytourney.games.api import PASS, Move, MoveKind, State
from ytourney.games.bot import QUICK_SECONDS, BaseBot, BotOption, Limit
from ytourney.games.kernel import PASS_ACTION, Kernel
from ytourney.games.one_ply import OnePlyBot


def _placements(state: State) -> list[Move]:
    """The placements among the legal moves (no pass, no swap)."""
    return [move for move in state.legal_moves() if move.kind is MoveKind.PLACE]


class YvyRandomBot(BaseBot):
    """A random placement; passes when nothing else is legal, or (option) with a small probability late on."""

    name = "random"
    OPTIONS: ClassVar[dict[str, BotOption]] = {
        "swap_rate": BotOption(float, 0.5, "probability of answering the first move with swap", 0, 1, pie_only=True),
        "late_pass": BotOption(float, 0.0, "probability of passing once the board is `late` full", 0, 1),
        "late": BotOption(float, 0.5, "the share of filled cells from which `late_pass` applies", 0, 1),
        "seconds": QUICK_SECONDS,
    }

    def __init__(self, seed: int | None = None, swap_rate: float = 0.5, late_pass: float = 0.0,
                 late: float = 0.5, seconds: float = 0.0) -> None:
        super().__init__(seed)
        self.seconds = seconds
        self.swap_rate = swap_rate
        self.late_pass = late_pass
        self.late = late
        self._rng = random.Random(seed)

    def reset(self, seed: int | None) -> None:
        """Start afresh exactly as a new bot with this seed would."""
        self.seed = seed
        self._rng.seed(seed)

    def move(self, state: State, limit: Limit) -> Move:
        """A random empty cell (drawn exactly as the generic random draws), or a pass (see the options)."""
        moves = _placements(state)
        if not moves:
            return PASS
        if self.late_pass > 0:
            filled = 1 - len(moves) / len(state.cells)
            if filled >= self.late and self._rng.random() < self.late_pass:
                return PASS
        return self._rng.choice(moves)

    def swap(self, state: State, limit: Limit) -> bool:
        """Swap with probability `swap_rate`."""
        return self._rng.random() < self.swap_rate


LOSS_IN_ONE = 1000.0
"""What each cell where the opponent would close a loop next costs (one is a loss unless it is the last move)."""
THREAT = 30.0
"""What each cell where the mover could close a loop next is worth (two: the opponent cannot block both)."""
TOUCH = 0.5
"""What each own stone next to the new stone is worth (stones that touch grow the rings loops are made of)."""


class YvyHeuristicBot(OnePlyBot):
    """One ply deep: closes a loop, blocks the opponent's, makes loop threats (two win), then the count (sprouts
    minus twice the groups) and stones that touch; passes only to end a game the count wins, or on a full board."""

    OPTIONS: ClassVar[dict[str, BotOption]] = {
        **OnePlyBot.OPTIONS,
        "swap_rate": BotOption(float, 0.5, "probability of answering the first move with swap", 0, 1),
    }

    def __init__(self, seed: int | None = None, seconds: float = 0.0, swap_rate: float = 0.5) -> None:
        super().__init__(seed, seconds)
        self.swap_rate = swap_rate

    def candidates(self, kernel: Kernel) -> list[int]:
        """Every empty cell; the pass too after the opponent's (it ends the game by the count), or alone."""
        cells = kernel.placements()  # type: ignore[attr-defined]
        if not cells or kernel.passes == 1:  # type: ignore[attr-defined]
            cells.append(PASS_ACTION)
        return cells

    def score(self, kernel: Kernel, mover: int, action: int) -> float:
        """Loops the opponent threatens (a loss), loops the mover threatens, the count, own stones touching."""
        opponent = 3 - mover
        value = -LOSS_IN_ONE * len(kernel.closing_cells(opponent))  # type: ignore[attr-defined]
        value += THREAT * min(len(kernel.closing_cells(mover)), 2)  # type: ignore[attr-defined]
        black, white = kernel.count_score()  # type: ignore[attr-defined]
        value += black - white if mover == 1 else white - black
        if action != PASS_ACTION and self.board is not None:
            cells = kernel.cells
            value += TOUCH * sum(1 for other in self.board.neighbors[action] if cells[other] == mover)
        return value

    def swap(self, state: State, limit: Limit) -> bool:
        """Swap with probability `swap_rate`."""
        return self._rng.random() < self.swap_rate
