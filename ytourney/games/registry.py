"""The registry: game names to their Game classes, loaded on first use so a game costs nothing until played."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping

from ytourney.errors import GameSpecError
from ytourney.games.api import Game

GAMES: dict[str, str] = {
    "y": "ytourney.games.y.game:GAME",
}
"""Every game by its `game:` name -> 'module:GAME' (an instance, or a class to instantiate). Adding a game is one subpackage and one line here."""

DEFAULT_GAME = "y"


def game_names() -> tuple[str, ...]:
    """The names of every registered game, in registry order."""
    return tuple(GAMES)


def get_game(name: str | None) -> Game:
    """The game registered as `name` (case-insensitive; None means Y)."""
    key = DEFAULT_GAME if name is None else name.strip().lower() if isinstance(name, str) else name
    if key not in GAMES:
        raise GameSpecError(f"unknown game {name!r}; expected one of {', '.join(GAMES)}")
    return _load(key, GAMES[key])


@functools.cache
def _load(key: str, target: str) -> Game:
    module_name, attribute = target.split(":")
    game = getattr(importlib.import_module(module_name), attribute)
    if isinstance(game, type):
        game = game()
    if game.name != key:
        raise GameSpecError(f"game class {target!r} calls itself {game.name!r}, registered as {key!r}")
    return game


def register(name: str, target: str) -> None:
    """Add a game at run time (a third-party or test game): `name` -> 'module:Class'."""
    GAMES[name] = target


def all_games() -> Mapping[str, Game]:
    """Every registered game, loaded."""
    return {name: get_game(name) for name in GAMES}
