"""YvY's own `random` (with an optional late pass) and `mcts` (UCT on the loop tracker, fast random playouts)."""

from __future__ import annotations

import math
import random
import time
from typing import Any, ClassVar

import numpy as np

from ytourney.games.api import EMPTY, PASS, Color, Move, MoveKind, State
from ytourney.games.bot import BaseBot, BotOption, Limit
from ytourney.games.yvy.geometry import LoopTracker, geometry
from ytourney.games.yvy.scoring import count


def _placements(state: State) -> list[Move]:
    """The placements among the legal moves (no pass, no swap)."""
    return [move for move in state.legal_moves() if move.kind is MoveKind.PLACE]


def _wins_by_passing(state: State) -> bool:
    """True when the opponent just passed and the count now would make the side to move win."""
    history = state.history
    if not history or not history[-1].is_pass:
        return False
    black, white = count(geometry(state.board), state.cells).score
    return (black > white) if state.to_move is Color.BLACK else (white > black)


class YvyRandomBot(BaseBot):
    """A random placement; passes when nothing else is legal, or (option) with a small probability late on."""

    name = "random"
    OPTIONS: ClassVar[dict[str, BotOption]] = {
        "swap_rate": BotOption(float, 0.5, "probability of answering the first move with swap", 0, 1),
        "late_pass": BotOption(float, 0.0, "probability of passing once the board is `late` full", 0, 1),
        "late": BotOption(float, 0.5, "the share of filled cells from which `late_pass` applies", 0, 1),
    }

    def __init__(self, seed: int | None = None, swap_rate: float = 0.5, late_pass: float = 0.0,
                 late: float = 0.5) -> None:
        super().__init__(seed)
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


class _Node:
    """A tree node: the cell played to reach it, the colour that played it, statistics, untried cells."""

    __slots__ = ("cell", "children", "colour", "terminal", "untried", "visits", "wins")

    def __init__(self, cell: int, colour: int, untried: list[int], terminal: int | None) -> None:
        self.cell = cell
        self.colour = colour
        self.untried = untried
        self.terminal = terminal
        self.children: list[_Node] = []
        self.visits = 0
        self.wins = 0.0


class YvyMctsBot(BaseBot):
    """UCT whose playouts fill the empty cells in random order on a copy of the loop tracker, stopping at the
    first loop (a full board without one is counted). Before searching it closes a loop it can close at once, or
    blocks the opponent's; it passes only to end a game it wins on the count."""

    name = "mcts"
    OPTIONS: ClassVar[dict[str, BotOption]] = {
        "playouts": BotOption(int, 1000, "playouts per move (when no time budget is given)", 1, 10_000_000),
        "c": BotOption(float, 1.0, "UCT exploration constant", 0, 100),
        "playout_plies": BotOption(int, 400, "plies after which a playout stops and scores as a draw", 1, 100_000),
    }

    def __init__(self, seed: int | None = None, playouts: int = 1000, c: float = 1.0,
                 playout_plies: int = 400) -> None:
        super().__init__(seed)
        self.playouts = playouts
        self.exploration = c
        self.playout_plies = playout_plies
        self._rng = random.Random(seed)
        self._orders = np.random.default_rng(seed)

    def reset(self, seed: int | None) -> None:
        """Start afresh exactly as a new bot with this seed would."""
        self.seed = seed
        self._rng.seed(seed)
        self._orders = np.random.default_rng(seed)

    def swap(self, state: State, limit: Limit) -> bool:
        """Swap a first stone in the inner half of the board (a strong opening), keep one nearer the edge."""
        first = state.history[0]
        if first.kind is not MoveKind.PLACE:
            return False
        board = state.board
        x, y = board.coords[first.cell]
        n = board.size
        return max(abs(x - n), abs(y - n), abs(x - y)) <= n // 2

    def move(self, state: State, limit: Limit) -> Move:
        """Pass to end a won count, else the most visited placement of a search."""
        cells = list(state.cells)
        empties = [c for c in range(len(cells)) if cells[c] == EMPTY]
        if not empties or _wins_by_passing(state):
            return PASS
        if len(empties) == 1:
            return Move(MoveKind.PLACE, (empties[0],))
        tracker = getattr(state, "tracker", None)
        if not isinstance(tracker, LoopTracker):
            tracker = _rebuild(state)
        colour = int(state.to_move)
        wins = _closing(cells, tracker, empties, colour)
        if wins:
            return Move(MoveKind.PLACE, (wins[0],))
        threats = _closing(cells, tracker, empties, 3 - colour)
        if threats:  # block the opponent's loop-in-one (with several, the game is lost anyway)
            return Move(MoveKind.PLACE, (threats[0],))
        cell = self._search(state, cells, tracker, colour, limit)
        return Move(MoveKind.PLACE, (cell,))

    def _search(self, state: State, cells: list[int], tracker: LoopTracker, colour: int, limit: Limit) -> int:
        rng = self._rng
        geo = geometry(state.board)
        untried = [c for c in range(len(cells)) if cells[c] == EMPTY]
        rng.shuffle(untried)
        root = _Node(-1, 3 - colour, untried, None)
        budget = limit.playouts or self.playouts
        deadline = None if limit.seconds is None or limit.playouts else time.perf_counter() + limit.seconds * 0.9
        done = 0
        while done < budget or (deadline is not None and done < 1):
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(root, geo, cells.copy(), tracker.copy())
            done += 1
            if deadline is None and done >= budget:
                break
        best = max(root.children, key=lambda child: (child.visits, child.wins))
        return best.cell

    def _iterate(self, root: _Node, geo: Any, cells: list[int], tracker: LoopTracker) -> None:
        node, path = root, [root]
        exploration = self.exploration
        while node.terminal is None and not node.untried and node.children:
            log_n = math.log(node.visits)
            node = max(node.children,
                       key=lambda c: c.wins / c.visits + exploration * math.sqrt(log_n / c.visits))
            cells[node.cell] = node.colour
            tracker.place(cells, node.cell, node.colour)
            path.append(node)
        if node.terminal is None and node.untried:
            cell = node.untried.pop()
            colour = 3 - node.colour
            cells[cell] = colour
            loop = tracker.place(cells, cell, colour)
            rest = [] if loop else [c for c in node.untried]
            if not loop:
                rest.extend(ch.cell for ch in node.children)
                self._rng.shuffle(rest)
            child = _Node(cell, colour, rest, colour if loop else None)
            node.children.append(child)
            node = child
            path.append(node)
        winner = node.terminal if node.terminal is not None else self._playout(geo, cells, tracker, 3 - node.colour)
        for visited in path:
            visited.visits += 1
            visited.wins += 0.5 if winner == 0 else float(winner == visited.colour)

    def _playout(self, geo: Any, cells: list[int], tracker: LoopTracker, colour: int) -> int:
        """Fill the empty cells in random order from `colour` on; the looping colour, else the count's (0 a draw)."""
        empties = [c for c in range(len(cells)) if cells[c] == EMPTY]
        empties = np.array(empties)[self._orders.permutation(len(empties))].tolist()  # 10x faster than shuffle
        place = tracker.place
        for cell in empties[: self.playout_plies]:
            cells[cell] = colour
            if place(cells, cell, colour):
                return colour
            colour = 3 - colour
        if len(empties) > self.playout_plies:
            return 0
        black, white = count(geo, cells).score
        return 0 if black == white else 1 if black > white else 2


def _closing(cells: list[int], tracker: LoopTracker, empties: list[int], colour: int) -> list[int]:
    """The empty cells where a stone of `colour` would close a loop now."""
    found = []
    for cell in empties:
        cells[cell] = colour
        if tracker.copy().place(cells, cell, colour):
            found.append(cell)
        cells[cell] = EMPTY
    return found


def _rebuild(state: State) -> LoopTracker:
    """A loop tracker for a state that lacks one (not a YvyState): the stones replayed in board order."""
    geo = geometry(state.board)
    tracker = LoopTracker(geo)
    cells = [EMPTY] * len(state.cells)
    for cell, stone in enumerate(state.cells):
        if stone != EMPTY:
            cells[cell] = stone
            tracker.place(cells, cell, stone)
    return tracker
