"""Pieces of the games' measures of progress (`Game.progress_marks`): what the draw adjudication watches.

A game's marks are a few numbers of its position; a ply makes progress when any of them takes a value it has not
had before in the game. These helpers count from a state's cells, so they work on every kernel, C cores included.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ytourney.boards.board import Board

BLACK, WHITE = 1, 2
"""The Color values of the two sides (games.api.Color), as cells hold them."""


def stone_counts(cells: Sequence[int]) -> tuple[int, int]:
    """Black's and White's stones on the board."""
    black = white = 0
    for cell in cells:
        if cell == BLACK:
            black += 1
        elif cell == WHITE:
            white += 1
    return black, white


def best_alone(cells: Sequence[int], sets: Iterable[Sequence[int]]) -> tuple[int, int]:
    """For each side, the most of its stones on one of `sets` (runs, figures) holding none of the other side's."""
    best = [0, 0, 0]
    for nodes in sets:
        black = white = 0
        for node in nodes:
            cell = cells[node]
            if cell == BLACK:
                black += 1
            elif cell == WHITE:
                white += 1
        if not white and black > best[BLACK]:
            best[BLACK] = black
        elif not black and white > best[WHITE]:
            best[WHITE] = white
    return best[BLACK], best[WHITE]


def largest_groups(board: Board, cells: Sequence[int]) -> tuple[int, int]:
    """For each side, its largest group of stones connected through neighbouring nodes."""
    best = [0, 0, 0]
    seen: set[int] = set()
    for start, colour in enumerate(cells):
        if colour not in (BLACK, WHITE) or start in seen:
            continue
        seen.add(start)
        stack, size = [start], 0
        while stack:
            node = stack.pop()
            size += 1
            for other in board.neighbors[node]:
                if other not in seen and cells[other] == colour:
                    seen.add(other)
                    stack.append(other)
        best[colour] = max(best[colour], size)
    return best[BLACK], best[WHITE]
