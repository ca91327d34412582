"""Singularity positions: slides of 1-3 nodes along the board's lines, fusion captures, the central-node rule."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from ytourney.boards.board import Board
from ytourney.boards.regions import region
from ytourney.games.api import EMPTY, Color, Move, MoveKind, Outcome, Termination
from ytourney.games.singularity.evaluation import evaluate
from ytourney.games.stones import StoneState, evaluated_rollout

SINGULARITY = Termination.define("singularity")
MAX_SLIDE = 3
BLACK_START = ("A1", "C1", "E1", "G1", "I1", "K3", "M5", "K7", "A9", "A7", "A5", "A3")
WHITE_START = ("B1", "D1", "F1", "H1", "J2", "L4", "L6", "J8", "A8", "A6", "A4", "A2")
"""DESIGN §1b: alternating round the perimeter, Black on the corners and side middles."""


@dataclass(frozen=True)
class Geometry:
    """Per-board tables: slide branches, fusion partners and the regions, computed once."""

    branches: tuple[tuple[tuple[int, ...], ...], ...]
    """branches[s]: every line leaving s, as the (up to 3) nodes after s; forks give one branch each."""
    paths: tuple[dict[int, tuple[int, ...]], ...]
    """paths[s][t]: the nodes a slide from s to t passes, t included (one path: branches never meet again)."""
    on_line: tuple[frozenset[int], ...]
    """on_line[s]: every node some line from s reaches, at any distance (for error messages)."""
    partners: tuple[tuple[int, ...], ...]
    """partners[t]: the neighbours a stone landing on t fuses with, when they hold the mover's colour."""
    central: tuple[bool, ...]
    """central[n]: n is one of the three central nodes F6 G6 F7."""
    central_nodes: tuple[int, ...]
    steps: tuple[dict[int, Move], ...]
    """steps[s][t]: the one Move object of the slide s-t without a named capture (shared, so lists compare fast)."""
    named: dict[tuple[int, int, int], Move]
    """named[(s, t, c)]: the Move object of the slide s-t naming the capture c."""


@functools.cache
def geometry(board: Board, fusion: str = "both") -> Geometry:
    """The tables of `board` for a fusion zone ('both', 'landing' or 'resting')."""
    n = board.num_cells
    triangle = set(region(board, "central-triangle"))
    central_nodes = region(board, "central-nodes")
    branches, paths, on_line, partners = [], [], [], []
    for s in range(n):
        lines = board.lines_through(s, MAX_SLIDE)
        branches.append(tuple(line[1:] for line in lines))
        reach: dict[int, tuple[int, ...]] = {}
        for line in lines:
            for k in range(1, len(line)):
                previous = reach.setdefault(line[k], line[1:k + 1])
                if previous != line[1:k + 1]:
                    raise AssertionError(f"two slides from {board.names[s]} reach {board.names[line[k]]}")
        paths.append(reach)
        on_line.append(frozenset(c for line in board.lines_through(s) for c in line[1:]))
    for t in range(n):
        if fusion == "both":
            found = [c for c in board.neighbors[t] if t in triangle and c in triangle]
        elif fusion == "landing":
            found = [c for c in board.neighbors[t] if t in triangle]
        else:
            found = [c for c in board.neighbors[t] if c in triangle]
        partners.append(tuple(found))
    steps = tuple({t: Move.step(s, t) for t in paths[s]} for s in range(n))
    named = {(s, t, c): Move.step(s, t, c) for s in range(n) for t in paths[s] for c in partners[t]}
    return Geometry(
        steps=steps,
        named=named,
        branches=tuple(branches),
        paths=tuple(paths),
        on_line=tuple(on_line),
        partners=tuple(partners),
        central=tuple(c in central_nodes for c in range(n)),
        central_nodes=central_nodes,
    )


class SingularityState(StoneState):
    """A Singularity position: 12 stones a side at the start, each move one slide and at most one fusion."""

    def start(self) -> None:
        """Alternate round the perimeter; `corners: white` swaps the two sets."""
        self.geo = geometry(self.board, self.rules.fusion)
        black, white = (BLACK_START, WHITE_START) if self.rules.corners == "black" else (WHITE_START, BLACK_START)
        for names, colour in ((black, Color.BLACK), (white, Color.WHITE)):
            for name in names:
                self.cells[self.board.index_of(name)] = colour
        self.stones = [0, len(black), len(white)]

    def set_position(self, black: list[int], white: list[int], to_move: Color = Color.BLACK) -> None:
        """Replace the stones (a hand-made position for tests and analysis); the history stays as it was."""
        self.cells[:] = [EMPTY] * len(self.cells)
        for nodes, colour in ((black, Color.BLACK), (white, Color.WHITE)):
            for node in nodes:
                self.cells[node] = colour
        self.stones = [0, len(black), len(white)]
        self._to_move = to_move
        self._legal = None
        self._outcome = None

    def copy_extra(self, new: StoneState) -> None:
        """The stone counts are a list."""
        new.stones = list(self.stones)  # type: ignore[attr-defined]

    def rollout(self, rng: Any, plies: int) -> float:
        """Black's value for the generic mcts: the evaluation after `plies` random moves (its default: none)."""
        return evaluated_rollout(self, rng, plies, evaluate)

    # --- moves --------------------------------------------------------------------------------------------

    def generate_moves(self) -> list[Move]:
        """Every slide of 1-3 nodes of the side to move, with its fusion choices, keeping the central rule."""
        me = int(self._to_move)
        cells, geo = self.cells, self.geo
        central = geo.central
        held = sum(cells[c] == me for c in geo.central_nodes)
        moves: list[Move] = []
        named = geo.named
        for s in range(len(cells)):
            if cells[s] != me:
                continue
            steps = geo.steps[s]
            cells[s] = EMPTY
            base = held - central[s]
            seen: set[int] = set()
            for branch in geo.branches[s]:
                for t in branch:
                    if cells[t]:
                        break
                    if t in seen:
                        continue
                    seen.add(t)
                    after = base + central[t]
                    fusing = [c for c in geo.partners[t] if cells[c] == me]
                    if not fusing:
                        if after <= 1:
                            moves.append(steps[t])
                    elif len(fusing) == 1:
                        if after - central[fusing[0]] <= 1:
                            moves.append(steps[t])
                    else:
                        moves.extend(named[s, t, c] for c in fusing if after - central[c] <= 1)
            cells[s] = me
        return moves

    def fusions(self, source: int, target: int) -> list[int]:
        """The mover's stones a slide from `source` to `target` may capture (the moving stone left out)."""
        me = self.cells[source]
        return [c for c in self.geo.partners[target] if c != source and self.cells[c] == me]

    def apply(self, move: Move) -> None:
        """Slide the stone and remove the fused one (named, or the only candidate)."""
        source, target = move.path
        me = self.cells[source]
        fusing = self.fusions(source, target)
        self.cells[source] = EMPTY
        self.cells[target] = me
        capture = move.capture if move.capture is not None else (fusing[0] if fusing else None)
        if capture is not None:
            self.cells[capture] = EMPTY
            self.stones[me] -= 1
        self.last_capture = capture

    def judge(self, move: Move) -> Outcome | None:
        """The mover wins when its one remaining stone stands on a central node."""
        target = move.path[-1]
        mover = self._to_move.other
        if self.stones[mover] == 1 and self.geo.central[target]:
            name = self.board.names[target]
            return Outcome(mover, SINGULARITY, None, f"{mover} is down to one stone, on the central node {name}")
        return None

    # --- explanations -------------------------------------------------------------------------------------

    def refusal(self, move: Move) -> str:
        """One line naming the move and why the rules refuse it (the base's `play` raises it)."""
        names = self.board.names
        text = self._name(move).strip("'")
        me = self._to_move
        if move.kind is not MoveKind.STEP or len(move.path) != 2:
            return f"{text}: a singularity move slides one stone, written FROM-TO (like E5-E7)"
        source, target = move.path
        if self.cells[source] != me:
            return f"{text}: {names[source]} holds no {me} stone"
        if target == source or target not in self.geo.on_line[source]:
            return f"{text}: not on a line from {names[source]}"
        path = self.geo.paths[source].get(target)
        if path is None:
            return f"{text}: a stone slides 1 to {MAX_SLIDE} nodes, {names[target]} is farther along the line"
        blocker = next((c for c in path if self.cells[c] != EMPTY), None)
        if blocker is not None:
            where = "is occupied" if blocker == target else f"is blocked at {names[blocker]}"
            return f"{text}: {names[target]} {where}" if blocker == target else f"{text}: the slide {where}"
        fusing = self.fusions(source, target)
        plain = f"{names[source]}-{names[target]}"
        if move.capture is None and len(fusing) > 1:
            legal = [m for m in self.generate_moves_cached() if m.path == move.path] or [
                Move.step(source, target, c) for c in fusing]
            options = " or ".join(f"{plain}x{names[m.capture]}" for m in legal if m.capture is not None)
            return f"{text}: must name the capture ({options})"
        if move.capture is not None and len(fusing) <= 1:
            if not fusing:
                return f"{text}: no fusion happens on {names[target]}, so there is nothing to capture"
            return f"{text}: the capture of {names[fusing[0]]} is the only one, write {plain}"
        if move.capture is not None and move.capture not in fusing:
            options = " or ".join(names[c] for c in fusing)
            return f"{text}: {names[move.capture]} cannot be captured here (choose {options})"
        central = [c for c in self.geo.central_nodes if self.cells[c] == me and c != source and c != move.capture]
        if len(fusing) == 1 and move.capture is None:
            central = [c for c in central if c != fusing[0]]
        return (f"{text}: {me} would hold more than one of the central nodes F6 G6 F7 "
                f"({' '.join(names[c] for c in sorted(central + [target]))})")
