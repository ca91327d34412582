"""The views of a game: how it shows itself in the terminal, on diagrams and in result sentences (the `Views`
protocol of games/api.py). A game subclasses `GameViews` and sets it as its `Game.views`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ytourney.boards.board import Board
from ytourney.boards.text import board_text
from ytourney.games.api import Color, Move, Outcome, State, Termination, score_text


class GameViews:
    """The defaults every game's views start from."""

    highlight_text: ClassVar[str] = "the highlighted stones are ringed and joined in gold"
    """How a diagram's caption names `highlight` (Y: the winning Y)."""
    side_names: ClassVar[Mapping[Color, str]] = {}
    """What each colour stands for in a game whose sides differ (e.g. White the Aliens); empty when they do not."""

    def board_text(self, state: State, last: Move | None = None) -> str:
        """The position as text for the terminal: the board's rows, the last move's nodes in lower case."""
        return board_text(state.board, state.cells, last.path if last is not None else ())

    def highlight(self, state: State) -> frozenset[int]:
        """Nodes a diagram draws in gold (a winning group, a loop), empty by default."""
        return frozenset()

    def result_text(self, winner: str | None, loser: str | None, outcome: Outcome) -> str:
        """The result as a sentence, from the players' names."""
        termination = outcome.termination
        if winner is None:
            text = "draw by move limit" if termination is Termination.MOVE_LIMIT else f"draw ({termination.value})"
        else:
            text = f"{winner} beat {loser} ({termination.value})"
        if outcome.score is not None:
            text += f", score {score_text(outcome.score)}"
        return text

    def win_text(self, termination: Termination, rules: Any) -> str:
        """How a game was won, the words after 'wins' in a result sentence ('by connection')."""
        return f"by {termination.value}"

    def marked_cells(self, board: Board) -> Mapping[int, str]:
        """Cells a diagram's empty board fills with a colour of their own (YvY's green sprouts); none by default."""
        return {}
