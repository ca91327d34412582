"""Tetra's positions: ten stones each placed in turn, then moved 1 or 2 nodes along a line; four in a figure wins."""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from ytourney.boards.board import Board
from ytourney.games.api import EMPTY, Color, Move, MoveKind, Outcome, Termination
from ytourney.games.stones import StoneState
from ytourney.games.tetra.figures import figures, figures_by_node

FIGURE = Termination.define("figure")
STONES = 10
"""Stones each player places before the movement phase (the rulebook's ten)."""


@dataclass(frozen=True)
class TetraRules:
    """Tetra's rule options (see docs/games/tetra.md)."""

    pie: bool = False
    bridge_lines: bool = True
    max_plies: int | None = 1000

    def to_dict(self) -> dict[str, Any]:
        """JSON form kept in records."""
        return {"pie": self.pie, "bridge_lines": self.bridge_lines, "max_plies": self.max_plies}


@functools.lru_cache(maxsize=8)
def step_table(board: Board) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each node, its moves as (target, via): via -1 for a step to a neighbour, else the node passed over on
    a 2-node move along a line (either branch at a pentad)."""
    table = []
    for source in range(board.num_cells):
        moves = [(b, -1) for b in board.neighbors[source]]
        moves += [(c, b) for b in board.neighbors[source] for c in board.continuations(source, b) if c != source]
        table.append(tuple(moves))
    return tuple(table)


@functools.lru_cache(maxsize=8)
def reaching(board: Board) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each node, the (source, via) of every move that ends there (step_table turned round)."""
    table: list[list[tuple[int, int]]] = [[] for _ in range(board.num_cells)]
    for source, moves in enumerate(step_table(board)):
        for target, via in moves:
            table[target].append((source, via))
    return tuple(tuple(t) for t in table)


@functools.lru_cache(maxsize=8)
def move_objects(board: Board) -> tuple[tuple[Move, ...], tuple[dict[int, Move], ...]]:
    """Placement moves by node and step moves by source and target, made once per board."""
    places = tuple(Move.place(n) for n in range(board.num_cells))
    steps = tuple({t: Move.step(s, t) for t, _ in step_table(board)[s]} for s in range(board.num_cells))
    return places, steps


class TetraState(StoneState):
    """A Tetra position: the stones, each side's stones in hand, and whose turn it is."""

    def start(self) -> None:
        """Empty board, ten stones in each hand."""
        self.in_hand = [0, STONES, STONES]
        self._figs = figures_by_node(self.board, self.rules.bridge_lines)
        self._steps = step_table(self.board)
        self._places, self._step_moves = move_objects(self.board)
        self.winning_figure: tuple[int, ...] = ()

    def copy_extra(self, new: StoneState) -> None:
        """The stones in hand are a list."""
        new.in_hand = self.in_hand.copy()  # type: ignore[attr-defined]

    @property
    def placing(self) -> bool:
        """True while the side to move still has stones in hand."""
        return self.in_hand[self.to_move] > 0

    def generate_moves(self) -> list[Move]:
        """Placements on empty nodes while stones are in hand, else every 1- or 2-node move of an own stone."""
        cells = self.cells
        if self.in_hand[self.to_move]:
            places = self._places
            return [places[n] for n, stone in enumerate(cells) if stone == EMPTY]
        mover = self.to_move
        moves: list[Move] = []
        for source, stone in enumerate(cells):
            if stone != mover:
                continue
            seen = set()
            step_moves = self._step_moves[source]
            for target, via in self._steps[source]:
                if cells[target] == EMPTY and (via < 0 or cells[via] == EMPTY) and target not in seen:
                    seen.add(target)
                    moves.append(step_moves[target])
        return moves

    def is_legal(self, move: Move) -> bool:
        """Checked on the board, not by a search of the move list."""
        if self._outcome is not None or not isinstance(move, Move) or move.is_swap:
            return super().is_legal(move)
        cells, size = self.cells, len(self.cells)
        if move.capture is not None or not all(0 <= n < size for n in move.path):
            return False
        if move.kind is MoveKind.PLACE:
            return len(move.path) == 1 and self.placing and cells[move.target] == EMPTY
        if move.kind is not MoveKind.STEP or len(move.path) != 2 or self.placing:
            return False
        source, target = move.path
        return cells[source] == self.to_move and cells[target] == EMPTY and any(
            t == target and (via < 0 or cells[via] == EMPTY) for t, via in self._steps[source])

    def apply(self, move: Move) -> None:
        """Place a stone from hand, or move one."""
        if move.kind is MoveKind.PLACE:
            self.in_hand[self.to_move] -= 1
        else:
            self.cells[move.source] = EMPTY
        self.cells[move.target] = self.to_move

    def judge(self, move: Move) -> Outcome | None:
        """A win when the stone just placed or moved completes a figure of its colour."""
        figure = completed_figure(self.cells, self._figs, move.target)
        if figure:
            self.winning_figure = figure
            mover = self.to_move.other
            names = " ".join(self.board.names[n] for n in figure)
            return Outcome(mover, FIGURE, None, f"{mover} formed a figure: {names}")
        return None

    def refusal(self, move: Move) -> str:
        """Why `move` is illegal, in one line naming it."""
        name = self._name(move).strip("'")
        names = self.board.names
        if move.kind is MoveKind.PLACE:
            if not self.placing:
                return f"{name}: {self.to_move} has no stones left in hand; move a stone (FROM-TO)"
            return f"{name}: node {names[move.target]} is occupied"
        if move.kind is MoveKind.STEP and move.capture is None:
            source, target = move.path
            if self.placing:
                return f"{name}: {self.to_move} must place its stones in hand first"
            if self.cells[source] != self.to_move:
                return f"{name}: no {self.to_move} stone on {names[source]}"
            if self.cells[target] != EMPTY:
                return f"{name}: node {names[target]} is occupied"
            if all(t != target for t, _ in self._steps[source]):
                return f"{name}: not on a line from {names[source]} within 2 nodes"
            return f"{name}: the way from {names[source]} to {names[target]} is blocked"
        return f"{name}: tetra moves are placements (E5) and moves of 1 or 2 nodes (E5-E7), no {move.kind.value}"

    def can_win_now(self) -> bool:
        """True when the side to move can complete a figure with its next move (placing, or moving a stone from
        outside the figure onto its one empty node)."""
        mover = int(self.to_move)
        figs = figure_array(self.board, self.rules.bridge_lines)
        held = np.asarray(self.cells, dtype=np.int8)[figs]
        ready = ((held == mover).sum(axis=1) == 3) & ((held == EMPTY).sum(axis=1) == 1)
        if not ready.any():
            return False
        if self.in_hand[mover]:
            return True
        cells, reach = self.cells, reaching(self.board)
        for row in np.flatnonzero(ready):
            fig = figs[row]
            target = int(fig[held[row] == EMPTY][0])
            if any(cells[src] == mover and src not in fig and (via < 0 or cells[via] == EMPTY)
                   for src, via in reach[target]):
                return True
        return False

    # --- search hooks for the generic mcts (players/bots/uct.py) ----------------------------------------

    def rollout(self, rng: random.Random, plies: int) -> float:
        """Up to `plies` random moves on scratch stones; Black's share: 1 or 0 on a win, else the heuristic
        (the search scores a position whose side to move can win at once itself: see `can_win_now`)."""
        mover = int(self.to_move)
        cells = self.cells.copy()
        hand = self.in_hand.copy()
        steps, figs = self._steps, self._figs
        size = len(cells)
        for _ in range(plies):
            if hand[mover]:
                target = rng.randrange(size)
                while cells[target] != EMPTY:
                    target = rng.randrange(size)
                hand[mover] -= 1
            else:
                own = [n for n in range(size) if cells[n] == mover]
                rng.shuffle(own)
                for source in own:
                    options = [t for t, via in steps[source] if cells[t] == EMPTY and (via < 0 or cells[via] == EMPTY)]
                    if options:
                        target = rng.choice(options)
                        cells[source] = EMPTY
                        break
                else:
                    return 0.0 if mover == Color.BLACK else 1.0
            cells[target] = mover
            if completed_figure(cells, figs, target):
                return 1.0 if mover == Color.BLACK else 0.0
            mover = 3 - mover
        return evaluate(cells, figure_array(self.board, self.rules.bridge_lines), mover)


def completed_figure(cells: list[int], figs: tuple[tuple[tuple[int, ...], ...], ...], node: int) -> tuple[int, ...]:
    """A figure through `node` whose four nodes all hold the colour on `node`, or ()."""
    colour = cells[node]
    for fig in figs[node]:
        if cells[fig[0]] == colour and cells[fig[1]] == colour and cells[fig[2]] == colour and cells[fig[3]] == colour:
            return fig
    return ()


WEIGHTS = np.array((0.0, 1.0, 4.0, 16.0, 64.0))


@functools.lru_cache(maxsize=8)
def figure_array(board: Board, bridge_lines: bool) -> np.ndarray:
    """The figures' nodes as an int array of shape (figures, 4)."""
    return np.array([fig for _, fig in figures(board, bridge_lines)], dtype=np.intp)


def evaluate(cells: list[int], figs: np.ndarray, to_move: int) -> float:
    """Black's prospects in [0, 1]: figures each side still holds alone, weighted by how full they are."""
    held = np.asarray(cells, dtype=np.int8)[figs]
    black = (held == Color.BLACK).sum(axis=1)
    white = (held == Color.WHITE).sum(axis=1)
    ours = WEIGHTS[black][white == 0].sum() * (1.5 if to_move == Color.BLACK else 1.0)
    theirs = WEIGHTS[white][black == 0].sum() * (1.5 if to_move == Color.WHITE else 1.0)
    return 1.0 / (1.0 + math.exp(-(ours - theirs) / 24.0))
