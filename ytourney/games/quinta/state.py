"""Quinta's positions: twelve stones each in pairs round the perimeter, slid any distance along a line; five of one
colour adjacent along one line wins."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ytourney.boards.board import Board
from ytourney.games.api import EMPTY, Color, Move, Outcome, Termination
from ytourney.games.slides import SlideState

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


class QuintaState(SlideState):
    """A Quinta position: the stones and whose turn it is."""

    example = "E5-E7"

    def start_sets(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """DESIGN's pairs round the perimeter (`corners: white` gives White the pairs on the corners)."""
        return (BLACK_START, WHITE_START) if self.rules.corners == "black" else (WHITE_START, BLACK_START)

    def setup(self) -> None:
        """The five-node runs through each node; no winning line yet."""
        self._segs = segments_by_node(self.board)
        self.winning_line: tuple[int, ...] = ()

    def judge(self, move: Move) -> Outcome | None:
        """A win when the moved stone completes five of its colour along one line."""
        run = completed_run(self.cells, self._segs, move.target)
        if run:
            self.winning_line = run
            mover = self.to_move.other
            names = " ".join(self.board.names[n] for n in run)
            return Outcome(mover, LINE, None, f"{mover} has five in a line: {names}")
        return None

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

    # --- search hooks for the generic mcts (players/bots/uct.py): can_win_now, and the rollout's pieces ------

    def rollout_won(self, cells: list[int], mover: int, target: int) -> bool:
        """Five in a line through the moved stone."""
        return bool(completed_run(cells, self._segs, target))

    def rollout_score(self, cells: list[int], own: dict[int, list[int]], mover: int) -> float:
        """The run heuristic (`evaluate`)."""
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
