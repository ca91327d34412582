"""What the stone games on the kadon board share: their lines' rays, their move notation (E5, E5-E7,
F8-H6-H4-F2, F8-F6xG6, pass, swap), the kadon board check, and small pieces of search knowledge."""

from __future__ import annotations

import functools
import math
import re

from ytourney.boards.board import Board, parse_board
from ytourney.errors import GameSpecError, NotationError
from ytourney.games.api import (
    PASS,
    PASS_TOKEN,
    SWAP,
    SWAP_TOKEN,
    Move,
    MoveKind,
)


@functools.lru_cache(maxsize=16)
def slide_table(board: Board) -> tuple[tuple[tuple[tuple[int, ...], int], ...], ...]:
    """For each node, its rays (`Board.rays`) as (ray, shared): a ray past a fork shares its first `shared` nodes
    with an earlier ray, so a walk lists them once."""
    table = []
    for rays in board.rays:
        entry = []
        for i, ray in enumerate(rays):
            shared = max((_common_prefix(ray, other) for other in rays[:i]), default=0)
            entry.append((ray, shared))
        table.append(tuple(entry))
    return tuple(table)


def _common_prefix(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n




# --- notation shared by the stone games: E5, E5-E7, F8-H6-H4-F2, F8-F6xG6, pass, swap ------------------------

_PATH_MOVE = re.compile(r"([a-z]+[0-9]+(?:-[a-z]+[0-9]+)*?)(?:x([a-z]+[0-9]+))?")


def parse_path_move(board: Board, text: str, *, jumps: bool = False) -> Move:
    """A move in DESIGN's notation: a node places, `FROM-TO` steps (a jump when `jumps`), more landings jump."""
    token = text.strip().lower() if isinstance(text, str) else ""
    if token == SWAP_TOKEN:
        return SWAP
    if token == PASS_TOKEN:
        return PASS
    node = board.index_of(token)
    if node is not None:
        return Move.place(node)
    match = _PATH_MOVE.fullmatch(token)
    if match is None:
        raise NotationError(f"unreadable move {text!r}; expected a node (E5), FROM-TO (E5-E7), a jump chain "
                            f"(F8-H6-H4-F2), a capture (F8-F6xG6), pass or swap")
    nodes = []
    for name in match.group(1).split("-"):
        node = board.index_of(name)
        if node is None:
            raise NotationError(f"unknown node {name.upper()!r} in move {text!r} on {board.spec}")
        nodes.append(node)
    capture = None
    if match.group(2):
        capture = board.index_of(match.group(2))
        if capture is None:
            raise NotationError(f"unknown capture node {match.group(2).upper()!r} in move {text!r} on {board.spec}")
        if len(nodes) < 2:
            raise NotationError(f"move {text!r} names a capture but no move (expected FROM-TOxNODE)")
    if len(nodes) == 1:
        return Move.place(nodes[0])
    if len(nodes) == 2 and not jumps:
        return Move.step(nodes[0], nodes[1], capture)
    return Move.jump(nodes, capture)


def format_path_move(board: Board, move: Move) -> str:
    """The notation of any stone-game move (node names as the board prints them)."""
    if move.kind is MoveKind.SWAP:
        return SWAP_TOKEN
    if move.kind is MoveKind.PASS:
        return PASS_TOKEN
    text = "-".join(board.names[node] for node in move.path)
    return text if move.capture is None else f"{text}x{board.names[move.capture]}"


# --- the kadon board ----------------------------------------------------------------------------------------


def kadon_board(spec: object, game: str) -> Board:
    """The 93-node kadon board, the only board of the Kadon games; any other spec is refused naming it."""
    if not isinstance(spec, str) or spec.strip().lower() != "kadon":
        raise GameSpecError(f"board {spec!r} is not a board of {game}; expected kadon")
    return parse_board("kadon")




# --- pieces the games' search knowledge shares -------------------------------------------------------------


def bfs_distances(board: Board, sources: tuple[int, ...] | list[int]) -> list[int]:
    """Graph distance of every node to the nearest of `sources` (-1 where none is reachable)."""
    dist = [-1] * board.num_cells
    todo = list(sources)
    for node in todo:
        dist[node] = 0
    for node in todo:
        for nb in board.neighbors[node]:
            if dist[nb] < 0:
                dist[nb] = dist[node] + 1
                todo.append(nb)
    return dist


def squash(margin: float, temperature: float) -> float:
    """A margin in a game's own units turned into a win probability (a logistic curve of width `temperature`)."""
    return 1.0 / (1.0 + math.exp(-margin / temperature))

