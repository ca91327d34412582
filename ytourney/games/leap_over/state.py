"""Leap Over positions: every move a chain of jumps over stones of either colour along the board's lines."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from ytourney.boards.board import Board
from ytourney.boards.regions import region
from ytourney.games.api import EMPTY, PASS, Color, Move, MoveKind, Outcome, Termination
from ytourney.games.leap_over.evaluation import evaluate
from ytourney.games.stones import StoneState, evaluated_rollout

FILLED = Termination.define("filled")
BLOCKED = Termination.define("blocked")


@dataclass(frozen=True)
class Geometry:
    """Per-board tables: the jumps from every node, the start triangles and their targets."""

    jumps: tuple[tuple[tuple[int, int], ...], ...]
    """jumps[p]: every (over, to) a stone on p can jump along a line (both branches at a pentad fork)."""
    over: dict[tuple[int, int], tuple[int, ...]]
    """over[(p, q)]: the nodes a jump from p to q passes over."""
    homes: dict[Color, tuple[int, ...]]
    """The start triangle of each colour: Black's apex A5, White's apex M5."""
    targets: dict[Color, tuple[int, ...]]
    """The triangle each colour must fill: the other colour's start."""
    edge: tuple[bool, ...]


@functools.cache
def geometry(board: Board) -> Geometry:
    """The tables of `board`."""
    jumps: list[list[tuple[int, int]]] = [[] for _ in range(board.num_cells)]
    over: dict[tuple[int, int], list[int]] = {}
    for (a, b), nexts in sorted(board.continuation_table.items()):
        for c in nexts:
            jumps[a].append((b, c))
            over.setdefault((a, c), []).append(b)
    homes = {Color.BLACK: region(board, "side-triangle-2"), Color.WHITE: region(board, "side-triangle-3")}
    return Geometry(
        jumps=tuple(tuple(j) for j in jumps),
        over={key: tuple(value) for key, value in over.items()},
        homes=homes,
        targets={Color.BLACK: homes[Color.WHITE], Color.WHITE: homes[Color.BLACK]},
        edge=tuple(side != 0 for side in board.sides),
    )


@functools.lru_cache(maxsize=1 << 16)
def _jump(path: tuple[int, ...]) -> Move:
    """The Move of a chain, made once (a search meets the same chains again and again)."""
    return Move.jump(path)


class LeapOverState(StoneState):
    """A Leap Over position: 10 stones a side on their start triangles; leap, or pass when no leap exists."""

    def start(self) -> None:
        """Black fills the A5 side triangle, White the M5 one."""
        self.geo = geometry(self.board)
        for colour, home in self.geo.homes.items():
            for node in home:
                self.cells[node] = colour

    def set_position(self, black: list[int], white: list[int], to_move: Color = Color.BLACK) -> None:
        """Replace the stones (a hand-made position for tests and analysis); the history stays as it was."""
        self.cells[:] = [EMPTY] * len(self.cells)
        for nodes, colour in ((black, Color.BLACK), (white, Color.WHITE)):
            for node in nodes:
                self.cells[node] = colour
        self._to_move = to_move
        self._legal = None
        self._outcome = None

    # --- moves --------------------------------------------------------------------------------------------

    def leaps(self, colour: Color) -> list[Move]:
        """Every jump chain of `colour`: each landing empty and new, the chain may stop after any jump."""
        me = int(colour)
        cells, jumps = self.cells, self.geo.jumps
        moves: list[Move] = []
        append = moves.append

        def extend(path: list[int]) -> None:
            for over, to in jumps[path[-1]]:
                if cells[over] and not cells[to] and to not in path:
                    path.append(to)
                    append(Move.jump(path))
                    extend(path)
                    path.pop()

        for s in range(len(cells)):
            if cells[s] == me:
                cells[s] = EMPTY
                extend([s])
                cells[s] = me
        return moves

    def generate_moves(self) -> list[Move]:
        """The side to move's leaps, or the pass when it has none."""
        return self.leaps(self._to_move) or [PASS]

    def can_leap(self, colour: Color) -> bool:
        """True when `colour` has a leap (a first jump), found without listing the chains."""
        me, cells, jumps = int(colour), self.cells, self.geo.jumps
        return any(cells[s] == me and any(cells[over] and not cells[to] for over, to in jumps[s])
                   for s in range(len(cells)))

    def has_moves(self) -> bool:
        """A side that cannot leap passes: there is always a move."""
        return True

    def is_legal(self, move: Move) -> bool:
        """Checked on the board, jump by jump, not by a search of every chain."""
        if self._outcome is not None or not isinstance(move, Move) or move.is_swap:
            return super().is_legal(move)
        if move.is_pass:
            return not self.can_leap(self._to_move)
        path, cells = move.path, self.cells
        if move.kind is not MoveKind.JUMP or len(path) < 2 or move.capture is not None:
            return False
        if not all(0 <= n < len(cells) for n in path) or cells[path[0]] != self._to_move:
            return False
        if len(set(path)) != len(path):
            return False
        source = path[0]
        for p, q in zip(path, path[1:]):
            between = self.geo.over.get((p, q))
            if between is None or cells[q] or not any(cells[b] and b != source for b in between):
                return False
        return True

    # --- search hooks for the generic mcts (players/bots/uct.py) ------------------------------------------

    def search_moves(self) -> list[Move]:
        """The leaps worth a search: one chain per stone and landing (chains ending on the same node give the same
        position), the shortest, found breadth first instead of listing every chain; the pass when there is none."""
        me, cells, jumps = int(self._to_move), self.cells, self.geo.jumps
        moves: list[Move] = []
        for s in range(len(cells)):
            if cells[s] != me:
                continue
            cells[s] = EMPTY
            paths = {s: (s,)}
            todo = [s]
            for p in todo:
                for over, to in jumps[p]:
                    if cells[over] and not cells[to] and to not in paths:
                        path = paths[to] = (*paths[p], to)
                        todo.append(to)
                        moves.append(_jump(path))
            cells[s] = me
        return moves or [PASS]

    def rollout(self, rng: Any, plies: int) -> float:
        """Black's value for the generic mcts: the evaluation after `plies` random moves (its default: none)."""
        return evaluated_rollout(self, rng, plies, evaluate)

    def apply(self, move: Move) -> None:
        """Lift the stone from its start and set it on its last landing (a pass changes nothing)."""
        if move.kind is MoveKind.JUMP:
            self.cells[move.path[-1]] = self.cells[move.path[0]]
            self.cells[move.path[0]] = EMPTY

    def filled(self, colour: Color) -> bool:
        """True when `colour` has reached its goal."""
        target = self.geo.targets[colour]
        if self.rules.goal == "all":
            return all(self.cells[n] == colour for n in target)
        return all(self.cells[n] for n in target) and any(self.cells[n] == colour for n in target)

    def judge(self, move: Move) -> Outcome | None:
        """A filled target wins (the mover's first); neither side able to leap is a draw."""
        mover = self._to_move.other
        for colour in (mover, mover.other):
            if self.filled(colour):
                return Outcome(colour, FILLED, None, f"{colour} filled the {self.other_home_name(colour)} triangle")
        if not self.can_leap(self._to_move) and not self.can_leap(mover):
            return Outcome(None, BLOCKED, None, "neither side can leap")
        return None

    def other_home_name(self, colour: Color) -> str:
        """The apex name of the triangle `colour` must fill."""
        return self.board.names[self.geo.targets[colour][0]]

    # --- explanations -------------------------------------------------------------------------------------

    def refusal(self, move: Move) -> str:
        """One line naming the move and why the rules refuse it (the base's `play` raises it)."""
        names = self.board.names
        text = self._name(move).strip("'")
        me = self._to_move
        if move.is_pass:
            example = self.game.format_move(self.board, self.generate_moves_cached()[0])
            return f"pass: {me} can leap (e.g. {example}); a player passes only when no leap is possible"
        if move.kind is not MoveKind.JUMP or len(move.path) < 2:
            return f"{text}: every leap-over move is a jump chain FROM-TO-... (like A5-C5-E5), or pass"
        source = move.path[0]
        if self.cells[source] != me:
            return f"{text}: {names[source]} holds no {me} stone"
        cells = list(self.cells)
        cells[source] = EMPTY
        seen = {source}
        for p, q in zip(move.path, move.path[1:]):
            hop = f"{names[p]}-{names[q]}"
            if q in seen:
                where = "its start" if q == source else names[q]
                return f"{text}: the chain returns to {where}; a chain lands on each node at most once"
            seen.add(q)
            between = self.geo.over.get((p, q))
            if between is None:
                edge = self._edge_between(p, q)
                if edge is not None:
                    return (f"{text}: {hop} would jump over the edge node {names[edge]}; "
                            "only a stone on the edge jumps over an edge stone")
                return f"{text}: {hop} is not a jump along a line"
            if not any(cells[b] for b in between):
                return f"{text}: {hop} jumps over {' or '.join(names[b] for b in between)}, which is empty"
            if cells[q]:
                return f"{text}: {names[q]} is occupied"
        return f"{text}: not a legal leap for {me} here"

    def _edge_between(self, p: int, q: int) -> int | None:
        """An edge node next to both p and q (p off that edge, p and q apart): the jump the edge rule forbids."""
        if q in self.board.neighbors[p] or self.geo.edge[p]:
            return None
        common = set(self.board.neighbors[p]) & set(self.board.neighbors[q])
        return next((b for b in sorted(common) if self.geo.edge[b]), None)
