"""Fake plugins answering Moves that would mean something else if read naively: a legal move's nodes written as
negative indexes (Python's from-the-end), as bools, and Y's pass; every one must be refused as illegal, in words."""

from __future__ import annotations

from ytourney.games.api import PASS, Move
from ytourney.players import BaseBot


class NegativeAlias(BaseBot):
    """The first legal move with every node written as its negative alias (node - board size)."""

    def move(self, state, limit):  # noqa: ANN001, ANN201 - a plugin as users write them
        legal = next(move for move in state.legal_moves() if not move.is_swap and move.path)
        size = state.board.num_cells
        return Move(legal.kind, tuple(node - size for node in legal.path), legal.capture)


class BoolNodes(BaseBot):
    """The first legal move with its first node replaced by True (which equals 1)."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        legal = next(move for move in state.legal_moves() if not move.is_swap and move.path)
        return Move(legal.kind, (True, *legal.path[1:]), legal.capture)


class Passes(BaseBot):
    """Always passes (a pass is no move of Y)."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        return PASS
