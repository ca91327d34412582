"""Building YvY positions by play: each side's stones in order, the other side passing while it has none left."""

from __future__ import annotations

from collections.abc import Sequence

from ytourney.games.api import PASS, Move, MoveKind
from ytourney.games.yvy.game import GAME
from ytourney.games.yvy.state import YvyState


def cell(board, name: str) -> int:
    """The index of a named cell (the name must exist)."""
    index = board.index_of(name)
    assert index is not None, name
    return index


def build(spec: str, white: Sequence[str] | str, black: Sequence[str] | str = (), *, finish: bool = False,
          pie: bool = False) -> YvyState:
    """White's and Black's stones placed alternately (White first), a side with none left passing; `finish`
    adds the two passes that end the game with the count."""
    board = GAME.parse_board(spec)
    state = GAME.new_state(board, GAME.parse_rules({"pie": pie}))
    whites = list(white.split() if isinstance(white, str) else white)
    blacks = list(black.split() if isinstance(black, str) else black)
    while whites or blacks:
        for queue in (whites, blacks):
            if state.is_over:
                return state
            state.play(Move(MoveKind.PLACE, (cell(board, queue.pop(0)),)) if queue else PASS)
    if finish:
        while not state.is_over:
            state.play(PASS)
    return state
