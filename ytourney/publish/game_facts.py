"""Facts of a finished game as its pages and files state them: the rules in play and the moves, counted by turn.

A record keeps the tournament's rules, but a handicap game (level >= 1) is played without the pie whatever they
say, and the level's stones (k >= 2) are placed in one turn. Every output counts moves one way, by turn: a turn is
one decision of a player (a move, a pass, a swap, or a handicap level's k stones), and the game pages, PGN and
`play` number and count those.
"""

from __future__ import annotations

from typing import Any

from ytourney.games.api import Outcome, score_text
from ytourney.games.record import GameRecord


def rules_in_play(record: GameRecord) -> dict[str, Any]:
    """The record's rules as they applied to this game: no pie in a handicap game."""
    return record.rules_in_force


def turns(record: GameRecord) -> list[tuple[str, ...]]:
    """The record's moves grouped by turn: a handicap level's stones (k >= 2) make the first, every other move
    (a pass and a swap included) a turn of its own."""
    moves = record.moves
    first = record.game_rules.first_turn_stones(record.handicap)
    stones = min(len(moves), first) if first >= 2 else 0
    return ([tuple(moves[:stones])] if stones else []) + [(move,) for move in moves[stones:]]


def move_count(record: GameRecord) -> int:
    """Moves of the game counted by turn, a handicap level's stones (placed in one turn) counted as one."""
    plies = len(record.moves)
    return plies - max(0, min(plies, record.game_rules.first_turn_stones(record.handicap)) - 1)


def moves_text(count: int) -> str:
    """'1 move', '12 moves'."""
    return f"{count} move" if count == 1 else f"{count} moves"


def result_sentence(record: GameRecord) -> str:
    """The game page's result in words, from the game's views: who won and how, or the draw, and its length."""
    game = record.game_rules
    plies = move_count(record)
    name = record.winner_name or ""
    seat = "" if name.endswith(f"({record.winner})") else f" ({record.winner})"  # play names twins by colour
    if record.termination.is_adjudicated:  # the rule that ended it, in the reason's words
        detail = record.reason.removeprefix("adjudicated: ") or record.termination.value
        who = "Draw" if record.winner is None else f"{name}{seat} wins"
        return f"{who} by adjudication after {moves_text(plies)}: {detail}"
    if record.winner is None:
        text = game.views.result_text(None, None, Outcome(None, record.termination, record.score, record.reason))
        return f"{text[:1].upper()}{text[1:]} after {moves_text(plies)}"
    text = f"{name}{seat} wins {game.views.win_text(record.termination, record.rules)}"
    if record.score is not None:
        text += f", score {score_text(record.score)}"
    return f"{text} after {moves_text(plies)}"
