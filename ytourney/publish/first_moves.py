"""First-move statistics of even games and their heat maps (win rate of the first stone's owner, swap rate)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ytourney.boards.board import BoardKind, parse_board
from ytourney.errors import YTourneyError
from ytourney.games.api import Game, MoveKind
from ytourney.games.legacy import is_legacy
from ytourney.games.record import GameRecord
from ytourney.publish.svg import heatmap_svg

KADON_HEATMAP_UNIT = 58.0
"""Pixels per layout unit of kadon heat maps: large enough that every cell's figures stay legible."""


@dataclass(frozen=True)
class FirstMoveStats:
    """Per first-stone cell of one game's board: the game, games, wins of the first stone's owner (a draw counts
    half), swap chances, swaps."""

    game: Game
    board: str
    games: dict[int, int]
    black_wins: dict[int, float]
    chances: dict[int, int]
    swaps: dict[int, int]

    @property
    def total(self) -> int:
        """Games counted."""
        return sum(self.games.values())


def first_move_stats(records: Iterable[GameRecord]) -> list[FirstMoveStats]:
    """First-stone statistics of even games (handicap 0) that open with a placement, one entry per game and board
    (games whose first move is no placement, such as movement games from a set position, are left out)."""
    by_board: dict[tuple[str, str], FirstMoveStats] = {}
    for record in records:
        if record.handicap != 0 or not record.moves:
            continue
        game = record.game_rules
        try:
            board = game.parse_board(record.board)
            move = game.parse_move(board, record.moves[0])
        except YTourneyError:
            continue
        if move.kind is not MoveKind.PLACE:
            continue
        cell = move.cell
        key = (game.name, board.spec)
        stats = by_board.setdefault(key, FirstMoveStats(game, board.spec, {}, {}, {}, {}))
        stats.games[cell] = stats.games.get(cell, 0) + 1
        owner_won = 0.5 if record.winner is None else float(record.winner is game.first_color)
        stats.black_wins[cell] = stats.black_wins.get(cell, 0) + owner_won
        if game.rules_dict(record.rules).get("pie") and len(record.moves) >= 2:
            stats.chances[cell] = stats.chances.get(cell, 0) + 1
            stats.swaps[cell] = stats.swaps.get(cell, 0) + (record.moves[1].lower() == "swap")
    return [by_board[key] for key in sorted(by_board, key=lambda k: (not is_legacy(k[0]), k[0], k[1]))]


def heatmaps(records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """Win-rate and swap-rate heat maps of the first stone, one pair per game and board."""
    maps = []
    for stats in first_move_stats(records):
        board = parse_board(stats.board)
        where = stats.board if is_legacy(stats.game.name) else f"{stats.board} ({stats.game.name})"
        unit = KADON_HEATMAP_UNIT if board.kind is BoardKind.KADON else max(20.0, min(44.0, 400.0 / board.size))
        win = {cell: stats.black_wins[cell] / n for cell, n in stats.games.items()}
        win_svg = heatmap_svg(board, win, stats.games, label=f"first-stone owner win rate on {where}",
                              low="owner loses", high="owner wins", unit=unit)
        swap_svg = None
        if stats.chances:
            swap = {cell: stats.swaps.get(cell, 0) / n for cell, n in stats.chances.items()}
            swap_svg = Markup(heatmap_svg(board, swap, stats.chances, label=f"swap rate on {where}",
                                          low="never swapped", high="always swapped", diverging=False, unit=unit))
        maps.append({"board": where, "games": stats.total, "win_svg": Markup(win_svg), "swap_svg": swap_svg,
                     "wide": board.kind is BoardKind.KADON, "owner": stats.game.first_color.name.title()})
    return maps
