"""Quinta's positions: twelve stones each in pairs round the perimeter, slid any distance along a line; five of one
colour adjacent along one line wins."""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from ytourney.boards.board import Board
from ytourney.games.api import EMPTY, Color, Move, MoveKind, Outcome, Termination
from ytourney.games.stones import StoneState, slide_table, slide_targets

LINE = Termination.define("line")
RUN = 5
"""Stones in a winning line."""

BLACK_START = ("A1", "B1", "E1", "F1", "I1", "J2", "M5", "L6", "A9", "A8", "A5", "A4")
WHITE_START = ("C1", "D1", "G1", "H1", "K3", "L4", "K7", "J8", "A7", "A6", "A3", "A2")
"""DESIGN §1b's start: pairs round the perimeter, Black's pairs holding the corners and the middles of the sides."""
CORNERS = ("black", "white")


@dataclass(frozen=True)
class QuintaRules:
    """Quinta's rule options (see docs/games/quinta.md)."""

    pie: bool = False
    corners: str = "black"
    max_plies: int | None = 1000

    def to_dict(self) -> dict[str, Any]:
        """JSON form kept in records."""
        return {"pie": self.pie, "corners": self.corners, "max_plies": self.max_plies}


@functools.lru_cache(maxsize=8)
def segments(board: Board) -> tuple[tuple[int, ...], ...]:
    """Every run of five adjacent nodes along one line (either branch at a fork), each once, nodes sorted."""
    found = {tuple(sorted(line)) for a in range(board.num_cells) for b in board.neighbors[a]
             for line in board.line_from(a, b, RUN - 1) if len(line) == RUN}
    return tuple(sorted(found))


@functools.lru_cache(maxsize=8)
def segments_by_node(board: Board) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each node, the five-node runs through it."""
    table: list[list[tuple[int, ...]]] = [[] for _ in range(board.num_cells)]
    for seg in segments(board):
        for node in seg:
            table[node].append(seg)
    return tuple(tuple(t) for t in table)


@functools.lru_cache(maxsize=8)
def step_moves(board: Board) -> tuple[dict[int, Move], ...]:
    """The slide moves by source and target, made once per board."""
    return tuple({t: Move.step(s, t) for ray in board.rays[s] for t in ray} for s in range(board.num_cells))


class QuintaState(StoneState):
    """A Quinta position: the stones and whose turn it is."""

    def start(self) -> None:
        """DESIGN's pairs round the perimeter (`corners: white` gives White the pairs on the corners)."""
        board = self.board
        black, white = (BLACK_START, WHITE_START) if self.rules.corners == "black" else (WHITE_START, BLACK_START)
        for names, colour in ((black, Color.BLACK), (white, Color.WHITE)):
            for name in names:
                self.cells[board.index_of(name)] = colour  # type: ignore[index]
        self._segs = segments_by_node(board)
        self._rays = slide_table(board)
        self._moves = step_moves(board)
        self.winning_line: tuple[int, ...] = ()

    def generate_moves(self) -> list[Move]:
        """Every slide of an own stone any distance along a line through empty nodes."""
        cells, mover, rays, table = self.cells, self.to_move, self._rays, self._moves
        moves: list[Move] = []
        for source, stone in enumerate(cells):
            if stone == mover:
                by_target = table[source]
                moves.extend(by_target[t] for t in slide_targets(rays[source], cells))
        return moves

    def is_legal(self, move: Move) -> bool:
        """Checked on the board (the stone, then its slides), not by a search of the move list."""
        if self._outcome is not None or not isinstance(move, Move) or move.kind is not MoveKind.STEP:
            return super().is_legal(move)
        if move.capture is not None or len(move.path) != 2 or not all(0 <= n < len(self.cells) for n in move.path):
            return False
        source, target = move.path
        return self.cells[source] == self.to_move and target in slide_targets(self._rays[source], self.cells)

    def apply(self, move: Move) -> None:
        """Slide the stone."""
        self.cells[move.source] = EMPTY
        self.cells[move.target] = self.to_move

    def judge(self, move: Move) -> Outcome | None:
        """A win when the moved stone completes five of its colour along one line."""
        run = completed_run(self.cells, self._segs, move.target)
        if run:
            self.winning_line = run
            mover = self.to_move.other
            names = " ".join(self.board.names[n] for n in run)
            return Outcome(mover, LINE, None, f"{mover} has five in a line: {names}")
        return None

    def refusal(self, move: Move) -> str:
        """Why `move` is illegal, in one line naming it."""
        name = self._name(move).strip("'")
        names = self.board.names
        if move.kind is not MoveKind.STEP or move.capture is not None:
            return f"{name}: quinta moves slide a stone along a line (FROM-TO, e.g. E5-E7), no {move.kind.value}"
        source, target = move.path
        if self.cells[source] != self.to_move:
            return f"{name}: no {self.to_move} stone on {names[source]}"
        if self.cells[target] != EMPTY:
            return f"{name}: node {names[target]} is occupied"
        if target not in self._moves[source]:
            return f"{name}: not on a line from {names[source]}"
        return f"{name}: the line from {names[source]} to {names[target]} is blocked"

    def can_win_now(self) -> bool:
        """True when the side to move can slide a stone from outside a run of five onto its one empty node while
        it holds the other four (lines run both ways, so the slide is the first stone met walking out from it)."""
        mover = int(self.to_move)
        runs = segment_array(self.board)
        held = np.asarray(self.cells, dtype=np.int8)[runs]
        ready = ((held == mover).sum(axis=1) == 4) & ((held == EMPTY).sum(axis=1) == 1)
        cells = self.cells
        for row in np.flatnonzero(ready):
            run = runs[row]
            target = int(run[held[row] == EMPTY][0])
            for ray, _ in self._rays[target]:
                for node in ray:
                    if cells[node]:
                        if cells[node] == mover and node not in run:
                            return True
                        break
        return False

    # --- search hooks for the generic mcts (players/bots/uct.py) ----------------------------------------

    def rollout(self, rng: random.Random, plies: int) -> float:
        """Up to `plies` random slides on scratch stones; Black's share: 1 or 0 on a win, else the heuristic
        (the search scores a position whose side to move can win at once itself: see `can_win_now`)."""
        mover = int(self.to_move)
        cells = self.cells.copy()
        rays, segs = self._rays, self._segs
        own = {Color.BLACK: [n for n, c in enumerate(cells) if c == Color.BLACK],
               Color.WHITE: [n for n, c in enumerate(cells) if c == Color.WHITE]}
        for _ in range(plies):
            stones = own[mover]
            i = rng.randrange(len(stones))
            targets = slide_targets(rays[stones[i]], cells)
            if not targets:
                movable = [j for j, n in enumerate(stones) if slide_targets(rays[n], cells)]
                if not movable:
                    return 0.0 if mover == Color.BLACK else 1.0
                i = rng.choice(movable)
                targets = slide_targets(rays[stones[i]], cells)
            source = stones[i]
            target = rng.choice(targets)
            stones[i] = target
            cells[source] = EMPTY
            cells[target] = mover
            if completed_run(cells, segs, target):
                return 1.0 if mover == Color.BLACK else 0.0
            mover = 3 - mover
        return evaluate(cells, segment_array(self.board), mover)


def completed_run(cells: list[int], segs: tuple[tuple[tuple[int, ...], ...], ...], node: int) -> tuple[int, ...]:
    """A five-node run through `node` all of the colour on `node`, or ()."""
    colour = cells[node]
    for seg in segs[node]:
        a, b, c, d, e = seg
        if cells[a] == colour and cells[b] == colour and cells[c] == colour and cells[d] == colour and cells[e] == colour:
            return seg
    return ()


WEIGHTS = np.array((0.0, 0.0, 1.0, 5.0, 25.0, 125.0))


@functools.lru_cache(maxsize=8)
def segment_array(board: Board) -> np.ndarray:
    """The five-node runs as an int array of shape (runs, 5)."""
    return np.array(segments(board), dtype=np.intp)


def evaluate(cells: list[int], runs: np.ndarray, to_move: int) -> float:
    """Black's prospects in [0, 1]: five-node runs each side holds alone, weighted by how full they are."""
    held = np.asarray(cells, dtype=np.int8)[runs]
    black = (held == Color.BLACK).sum(axis=1)
    white = (held == Color.WHITE).sum(axis=1)
    ours = WEIGHTS[black][white == 0].sum() * (1.5 if to_move == Color.BLACK else 1.0)
    theirs = WEIGHTS[white][black == 0].sum() * (1.5 if to_move == Color.WHITE else 1.0)
    return 1.0 / (1.0 + math.exp(-(ours - theirs) / 40.0))
