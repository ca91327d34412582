"""The one replay of a record's move list: every layer that rebuilds a position from notation goes through here."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ytourney.boards.board import Board
from ytourney.errors import RecordError, YTourneyError
from ytourney.games.api import Color, Game, Move, State

Visit = Callable[[int, Move, Color], None]
"""Called after each move is played: its 1-based number, the Move, and the colour making it."""


class ReplayError(RecordError):
    """A move of a record that does not replay: `number` (1-based), its `token`, and `state`, the position just
    before it (so a viewer can still show the game up to there)."""

    def __init__(self, message: str, number: int, token: str, state: State) -> None:
        super().__init__(message)
        self.number = number
        self.token = token
        self.state = state


def replay(game: Game, board: Board, rules: Any, handicap: int, moves: Sequence[str],
           visit: Visit | None = None) -> State:
    """The position after `moves` (tokens in the game's notation) from the start; a ReplayError (a RecordError)
    naming the move number when a move is unreadable or illegal."""
    state = game.new_state(board, rules, handicap)
    for number, token in enumerate(moves, start=1):
        try:
            move = game.parse_move(board, token)
            colour = state.to_move
            state.play(move)
        except YTourneyError as err:
            if isinstance(err, ReplayError):
                raise
            raise ReplayError(f"move {number} ({token!r}) does not replay on {board.spec}: {err}", number, token,
                              state) from err
        if visit is not None:
            visit(number, move, colour)
    return state


def replay_record(record: Any, visit: Visit | None = None) -> State:
    """The final position of a GameRecord (its game, board, rules, handicap and moves)."""
    variant = record.variant
    return replay(variant.game, variant.board, variant.rules, record.handicap, record.moves, visit)
