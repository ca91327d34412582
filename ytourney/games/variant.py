"""A game variant as one immutable value: a game loaded with its board and rules bound, as OpenSpiel loads
`y(board_size=11)`. Every layer above games/ carries a `Variant`, never a game's name."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ytourney.boards.board import Board
from ytourney.games.api import Game, Move, State, rule_value_text
from ytourney.games.registry import get_game



@dataclass(frozen=True)
class Variant:
    """A game with its board and rules bound: it starts positions, reads and writes moves, and names itself."""

    game: Game
    board: Board
    rules: Any

    @property
    def name(self) -> str:
        """The game's registry name."""
        return self.game.name

    @property
    def rules_dict(self) -> dict[str, Any]:
        """The rules in their JSON form, as records and stores keep them."""
        return self.game.rules_dict(self.rules)

    @property
    def spec(self) -> str:
        """The canonical spec, `game(board=B,key=value,...)`, keys sorted (what `ytourney games` shows)."""
        options = [f"board={self.board.spec}"]
        options += [f"{key}={'none' if value is None else rule_value_text(value)}"
                    for key, value in sorted(self.rules_dict.items())]
        return f"{self.game.name}({','.join(options)})"

    def new_state(self, handicap: int = 0) -> State:
        """The start position (with `handicap` stones for the weaker side where the game has handicaps)."""
        return self.game.new_state(self.board, self.rules, handicap)

    def parse_move(self, text: str) -> Move:
        """A move from its notation, or a NotationError naming what was expected."""
        return self.game.parse_move(self.board, text)

    def format_move(self, move: Move) -> str:
        """The notation of a move."""
        return self.game.format_move(self.board, move)

    def __str__(self) -> str:
        return self.spec

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # travels (to workers, Ray actors) as its name, board and rules, and is loaded again there
        return (load_variant, (self.game.name, self.board.spec, self.rules_dict))


def load_variant(game: str, board: str | None = None, rules: Mapping[str, Any] | None = None) -> Variant:
    """The variant of the game named `game` on `board` (its default when None) under `rules` (defaults for keys left
    out); every part checked, errors naming the bad value."""
    loaded = get_game(game)
    return Variant(loaded, loaded.parse_board(board or loaded.default_board), loaded.parse_rules(rules))
