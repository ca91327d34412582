"""A game variant as one immutable value: a game loaded with its board and rules bound, as OpenSpiel loads
`y(board_size=11)`. Every layer above games/ carries a `Variant`, never a game's name."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ytourney.boards.board import Board
from ytourney.errors import GameSpecError
from ytourney.games.api import Game, Move, State, rule_value_text
from ytourney.games.registry import get_game

_SPEC = re.compile(r"\s*([a-z][a-z0-9-]*)\s*(?:\((.*)\))?\s*", re.IGNORECASE | re.DOTALL)


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
        """The canonical spec, `game(board=B,key=value,...)`, keys sorted; `parse_variant` reads it back."""
        options = [f"board={self.board.spec}"]
        options += [f"{key}={_spec_value(value)}" for key, value in sorted(self.rules_dict.items())]
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

    def with_rules(self, rules: Any) -> Variant:
        """The same game and board under other rules."""
        return Variant(self.game, self.board, rules)

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


def parse_variant(text: str) -> Variant:
    """A variant from its spec, `tetra`, `y(board=tri:11)` or `yvy(board=hex:5,pie=off)` (what `Variant.spec` writes)."""
    match = _SPEC.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise GameSpecError(f"unreadable game spec {text!r}; expected NAME or NAME(board=B,key=value,...)")
    board: str | None = None
    rules: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in (match.group(2) or "").split(","))):
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise GameSpecError(f"option {item!r} in game spec {text!r} must be written key=value")
        if key in rules or (key == "board" and board is not None):
            raise GameSpecError(f"option {key!r} is given twice in game spec {text!r}")
        if key == "board":
            board = raw.strip()
        else:
            rules[key] = _read_value(raw.strip())
    return load_variant(match.group(1).lower(), board, rules)


def _spec_value(value: Any) -> str:
    return "none" if value is None else rule_value_text(value)


def _read_value(raw: str) -> Any:
    """A rule value from spec text: on/off, none, a whole number, a number, else the word itself."""
    lowered = raw.lower()
    if lowered in ("on", "true"):
        return True
    if lowered in ("off", "false"):
        return False
    if lowered in ("none", "default"):
        return None
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            continue
    return raw
