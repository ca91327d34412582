"""An example ytourney plugin bot: copy this file, rename the class, and change `score_cell` to taste.

Use it anywhere a bot spec is accepted:

    ytourney play bots/example_bot.py:ExampleBot random --board tri:9
    players:
      - {name: my-bot, bot: "bots/example_bot.py:ExampleBot"}

A plugin is any class with the four bot methods (new_game, move, swap, close). Subclassing
ytourney.players.BaseBot gives you new_game/swap/close for free, so only `move` is required. The referee
hands you a copy of the game state: read it freely (state.cells, state.to_move, state.legal_moves(),
state.group_sides(cell), state.board.neighbors ...), and return a flat cell index. A move that is not
legal, or an exception, loses the game for your bot: it never stops the tournament.
"""

from __future__ import annotations

import random

from ytourney.boards.board import ALL_SIDES
from ytourney.games.api import Color
from ytourney.games.y.state import EMPTY, GameState
from ytourney.players import BaseBot, Limit


class ExampleBot(BaseBot):
    """Wins in one, blocks a win in one, else grows its groups toward the sides it still lacks."""

    name = "example"

    def __init__(self, seed: int | None = None) -> None:
        # ytourney passes a per-game seed when the constructor accepts `seed`: use it for every random choice
        # so that a tournament can be replayed exactly.
        super().__init__(seed)
        self.rng = random.Random(seed)

    def move(self, state: GameState, limit: Limit) -> int:
        """Pick a cell for `state.to_move`; on a handicap turn this is called once per stone."""
        me = state.to_move
        empty = state.empty_cells()
        misere = state.rules.misere  # under misère, completing a Y LOSES

        # 1. Tactics: a stone that completes my Y wins (normal rules) or loses (misère).
        mine = [cell for cell in empty if self.sides_if_played(state, cell, me) == ALL_SIDES]
        if mine and not misere:
            return mine[0]
        candidates = [cell for cell in empty if cell not in mine] or empty  # misère: avoid them if we can

        # 2. Block: if the opponent completes a Y on some cell next turn, take that cell first.
        if not misere and state.stones_left_this_turn == 1:
            theirs = [cell for cell in candidates if self.sides_if_played(state, cell, me.other) == ALL_SIDES]
            if theirs:
                return theirs[0]

        # 3. Otherwise score every cell and play the best (random among equals).
        best_score = max(self.score_cell(state, cell, me) for cell in candidates)
        best = [cell for cell in candidates if self.score_cell(state, cell, me) == best_score]
        return self.rng.choice(best)

    def swap(self, state: GameState, limit: Limit) -> bool:
        """Pie rule: take the first stone when it lies away from every side (central stones are strong)."""
        stone = next(cell for cell, colour in enumerate(state.cells) if colour != EMPTY)
        neighbours_on_sides = sum(1 for nb in state.board.neighbors[stone] if state.board.sides[nb])
        return state.board.sides[stone] == 0 and neighbours_on_sides == 0

    # --- helpers: plain functions of the position --------------------------------------------------------

    @staticmethod
    def sides_if_played(state: GameState, cell: int, colour: Color) -> int:
        """Side mask (1 | 2 | 4) of the group `colour` would form by playing `cell`."""
        mask = state.board.sides[cell]
        for nb in state.board.neighbors[cell]:
            if state.cells[nb] == colour:
                mask |= state.group_sides(nb)
        return mask

    def score_cell(self, state: GameState, cell: int, me: Color) -> float:
        """Higher is better: sides gained, groups joined, contact with the opponent, and a pull to the centre."""
        board = state.board
        before = {state.group_sides(nb) for nb in board.neighbors[cell] if state.cells[nb] == me}
        joined = len(before)  # distinct own groups (by side mask) this stone touches
        gained = self.sides_if_played(state, cell, me).bit_count() - max(
            (mask.bit_count() for mask in before), default=0
        )
        blocking = sum(1 for nb in board.neighbors[cell] if state.cells[nb] == me.other)
        centre = len(board.neighbors[cell]) - (2 if board.sides[cell] else 0)  # interior cells have more room
        score = 3.0 * gained + 2.0 * min(joined, 2) + 1.0 * min(blocking, 2) + 0.5 * centre
        return -score if state.rules.misere else score
