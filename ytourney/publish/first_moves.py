"""First-move statistics of even games and their heat maps (win rate of the first stone's owner, swap rate)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ytourney.errors import YTourneyError
from ytourney.boards.board import BoardKind, parse_board
from ytourney.games.y.notation import parse_cell
from ytourney.games.record import GameRecord
from ytourney.games.api import Color
from ytourney.publish.svg import heatmap_svg

KADON_HEATMAP_UNIT = 58.0
"""Pixels per layout unit of kadon heat maps: large enough that every cell's figures stay legible."""


@dataclass(frozen=True)
class FirstMoveStats:
    """Per first-stone cell of one board: games, wins of the first stone's owner (Black), swap chances, swaps."""

    board: str
    games: dict[int, int]
    black_wins: dict[int, int]
    chances: dict[int, int]
    swaps: dict[int, int]

    @property
    def total(self) -> int:
        """Games counted."""
        return sum(self.games.values())


def first_move_stats(records: Iterable[GameRecord]) -> list[FirstMoveStats]:
    """First-stone statistics of even games (handicap 0), one entry per board spec."""
    by_board: dict[str, FirstMoveStats] = {}
    for record in records:
        if record.handicap != 0 or not record.moves:
            continue
        board = parse_board(record.board)
        try:
            cell = parse_cell(board, record.moves[0])
        except YTourneyError:
            continue
        stats = by_board.setdefault(board.spec, FirstMoveStats(board.spec, {}, {}, {}, {}))
        stats.games[cell] = stats.games.get(cell, 0) + 1
        stats.black_wins[cell] = stats.black_wins.get(cell, 0) + (record.winner is Color.BLACK)
        if record.rules.pie and len(record.moves) >= 2:
            stats.chances[cell] = stats.chances.get(cell, 0) + 1
            stats.swaps[cell] = stats.swaps.get(cell, 0) + (record.moves[1].lower() == "swap")
    return [by_board[spec] for spec in sorted(by_board)]


def heatmaps(records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    maps = []
    for stats in first_move_stats(records):
        board = parse_board(stats.board)
        unit = KADON_HEATMAP_UNIT if board.kind is BoardKind.KADON else max(20.0, min(44.0, 400.0 / board.size))
        win = {cell: stats.black_wins[cell] / n for cell, n in stats.games.items()}
        win_svg = heatmap_svg(board, win, stats.games, label=f"first-stone owner win rate on {stats.board}",
                              low="owner loses", high="owner wins", unit=unit)
        swap_svg = None
        if stats.chances:
            swap = {cell: stats.swaps.get(cell, 0) / n for cell, n in stats.chances.items()}
            swap_svg = Markup(heatmap_svg(board, swap, stats.chances, label=f"swap rate on {stats.board}",
                                          low="never swapped", high="always swapped", diverging=False, unit=unit))
        maps.append({"board": stats.board, "games": stats.total, "win_svg": Markup(win_svg), "swap_svg": swap_svg,
                     "wide": board.kind is BoardKind.KADON})
    return maps
