"""Puzzles: a board, a start position and the final positions that count as solved, with the move notation."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ytourney.boards.board import Board, parse_board
from ytourney.boards.regions import CENTRAL_TRIANGLE, CORNERS, NEXT_TO_CORNERS, RING, SIDE_MIDDLES
from ytourney.errors import IllegalMoveError, NotationError, YTourneyError
from ytourney.games.api import Move


class PuzzleError(YTourneyError, ValueError):
    """A puzzle, start or goal that cannot be posed."""


@dataclass(frozen=True)
class Goal:
    """What solves a puzzle: the final position must equal one of `targets` (each a set of nodes)."""

    name: str
    targets: tuple[frozenset[int], ...]


@dataclass(frozen=True)
class Puzzle:
    """A solitaire: jumps along the board's lines from `start` until the stones left are one of a goal's targets."""

    name: str
    board: Board
    start: frozenset[int]
    goals: tuple[Goal, ...]


PUZZLES = {
    "supply-line": (CENTRAL_TRIANGLE, ("side-middles", "next-to-corners")),
    "grand-supply-line": (CENTRAL_TRIANGLE + RING, ("corners", "one-corner")),
}
"""The two puzzles of the rulebook: their start nodes and default goals (DESIGN §1b)."""

NAMED_GOALS = {
    "side-middles": "one stone left, on a middle of a side (E1, A5 or M5)",
    "next-to-corners": "one stone left, on the interior node next to a corner (B2, I2 or B9)",
    "corners": "one stone left on each corner (A1, I1 and A9)",
    "one-corner": "a single stone left, on one corner (A1, I1 or A9)",
}


def _cells(board: Board, names: Iterable[str]) -> list[int]:
    cells = []
    for name in names:
        cell = board.index_of(name)
        if cell is None:
            raise PuzzleError(f"unknown node {name!r} on {board.spec!r}; expected a kadon node like E5")
        cells.append(cell)
    return cells


def parse_nodes(board: Board, text: str) -> frozenset[int]:
    """A node list such as 'E1', 'A1,I1,A9' or 'A1 I1 A9' as cells."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if not tokens:
        raise PuzzleError(f"no nodes in {text!r}")
    cells = _cells(board, tokens)
    if len(set(cells)) != len(cells):
        raise PuzzleError(f"a node is listed twice in {text!r}")
    return frozenset(cells)


def named_goal(board: Board, name: str) -> Goal:
    """One of NAMED_GOALS on the kadon board."""
    if name == "side-middles":
        targets = tuple(frozenset(_cells(board, [n])) for n in SIDE_MIDDLES)
    elif name == "next-to-corners":
        targets = tuple(frozenset(_cells(board, [n])) for n in NEXT_TO_CORNERS)
    elif name == "corners":
        targets = (frozenset(_cells(board, CORNERS)),)
    elif name == "one-corner":
        targets = tuple(frozenset(_cells(board, [n])) for n in CORNERS)
    else:
        raise PuzzleError(f"unknown goal {name!r}; expected NODES or one of {', '.join(NAMED_GOALS)}")
    return Goal(name, targets)


def parse_goal(board: Board, text: str) -> Goal:
    """A named goal, or a node list meaning exactly those nodes hold stones at the end."""
    key = text.strip().lower()
    if key in NAMED_GOALS:
        return named_goal(board, key)
    nodes = parse_nodes(board, text)
    return Goal(" ".join(board.names[c] for c in sorted(nodes)), (nodes,))


def make_puzzle(name: str, goal: str | None = None, start: str | None = None) -> Puzzle:
    """The named puzzle ('supply-line', 'grand-supply-line' or 'custom'), optionally with another goal or start."""
    board = parse_board("kadon")
    key = name.strip().lower()
    if key == "custom":
        if start is None or goal is None:
            raise PuzzleError("puzzle 'custom' needs both --start and --goal")
        start_nodes, goal_names = None, ()
    elif key in PUZZLES:
        start_nodes, goal_names = PUZZLES[key]
    else:
        raise PuzzleError(f"unknown puzzle {name!r}; expected supply-line, grand-supply-line or custom")
    cells = parse_nodes(board, start) if start is not None else frozenset(_cells(board, start_nodes or ()))
    goals = (parse_goal(board, goal),) if goal is not None else tuple(named_goal(board, g) for g in goal_names)
    for g in goals:
        for target in g.targets:
            if len(target) > len(cells):
                raise PuzzleError(f"goal {g.name!r} keeps {len(target)} stones but the start has only {len(cells)}")
            if target & cells:
                overlap = " ".join(board.names[c] for c in sorted(target & cells))
                raise PuzzleError(f"the start overlaps the goal {g.name!r} on {overlap}; a goal names empty nodes")
    return Puzzle(key, board, cells, goals)


def jump_middles(board: Board) -> dict[tuple[int, int], int]:
    """Every jump (from, to) along a line with the node jumped over (unique on every board this serves)."""
    middles: dict[tuple[int, int], int] = {}
    for (a, b), nexts in board.continuation_table.items():
        for c in nexts:
            middles[(a, c)] = b
    return middles


def play(board: Board, stones: frozenset[int], move: Move) -> frozenset[int]:
    """The position after one move (a chain of jumps by one stone), checking every jump."""
    middles = jump_middles(board)
    path = move.path
    if len(path) < 2:
        raise IllegalMoveError(f"a move needs at least one jump, got {format_move(board, move)!r}")
    if path[0] not in stones:
        raise IllegalMoveError(f"no stone on {board.names[path[0]]!r} to move")
    current = set(stones)
    current.discard(path[0])
    for a, c in zip(path, path[1:]):
        b = middles.get((a, c))
        if b is None:
            raise IllegalMoveError(f"{board.names[a]}-{board.names[c]} is not a jump along a line")
        if b not in current or c in current:
            raise IllegalMoveError(f"no jump from {board.names[a]} over {board.names[b]} to {board.names[c]} here")
        current.discard(b)
    current.add(path[-1])
    return frozenset(current)


def format_move(board: Board, move: Move) -> str:
    """A jump chain in DESIGN's notation: every landing, e.g. 'F8-H6-H4-F2'."""
    return "-".join(board.names[c] for c in move.path)


def parse_move(board: Board, text: str) -> Move:
    """A jump chain 'F8-H6-H4'."""
    tokens = text.strip().split("-")
    cells = []
    for token in tokens:
        cell = board.index_of(token)
        if cell is None:
            raise NotationError(f"unknown node {token!r} in move {text!r}")
        cells.append(cell)
    if len(cells) < 2:
        raise NotationError(f"move {text!r} names no jump; expected FROM-TO[-TO...]")
    return Move.jump(cells)


def replay(board: Board, start: frozenset[int], moves: Sequence[Move]) -> frozenset[int]:
    """The position after playing every move from `start`; raises IllegalMoveError on the first bad one."""
    stones = start
    for move in moves:
        stones = play(board, stones, move)
    return stones
