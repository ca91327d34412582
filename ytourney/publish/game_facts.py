"""Facts of a finished game as its pages and files state them: the rules in play and the number of moves.

A record keeps the tournament's rules, but a handicap game (level >= 1) is played without the pie whatever they
say, and the level's stones (k >= 2) are placed in one turn: reports say "pie off" and count that turn once.
"""

from __future__ import annotations

from typing import Any

from ytourney.games.record import GameRecord


def rules_in_play(record: GameRecord) -> dict[str, Any]:
    """The record's rules as they applied to this game: no pie in a handicap game."""
    rules = record.rules_dict
    if record.handicap > 0 and rules.get("pie") is True:
        rules["pie"] = False
    return rules


def move_count(record: GameRecord) -> int:
    """Moves of the game, a handicap level's stones (placed in one turn) counted as one."""
    plies = len(record.moves)
    return plies - max(0, min(plies, record.handicap) - 1)
