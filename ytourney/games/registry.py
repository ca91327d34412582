"""The registry: game names to their Game classes, loaded on first use so a game costs nothing until played."""

from __future__ import annotations

import copyreg
import functools
from dataclasses import dataclass
import importlib
from collections.abc import Mapping
from types import ModuleType

from ytourney.errors import GameSpecError
from ytourney.games.api import Game

GAMES: dict[str, str] = {
    "y": "ytourney.games.y.game:GAME",
    "tetra": "ytourney.games.tetra.game:GAME",
    "quinta": "ytourney.games.quinta.game:GAME",
    "sexta": "ytourney.games.sexta.game:GAME",
    "aliens-amazons": "ytourney.games.aliens_amazons.game:GAME",
    "singularity": "ytourney.games.singularity.game:GAME",
    "leap-over": "ytourney.games.leap_over.game:GAME",
    "yvy": "ytourney.games.yvy.game:GAME",
}
"""Every game by its `game:` name -> 'module:GAME' (an instance, or a class to instantiate). Adding a game is one subpackage and one line here."""

def game_names() -> tuple[str, ...]:
    """The names of every registered game, in registry order."""
    return tuple(GAMES)


def get_game(name: str) -> Game:
    """The game registered as `name` (case-insensitive); called only where a name enters (CLI, config, store and
    record readers, GTP), every layer below carries the Game or its Variant."""
    key = name.strip().lower() if isinstance(name, str) else name
    if not isinstance(key, str) or key not in GAMES:
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
    copyreg.pickle(type(game), _reduce_game)  # a Game travels to workers as its name and is the same value there
    return game


def _reduce_game(game: Game) -> tuple[object, tuple[str]]:
    return (get_game, (game.name,))


PUZZLES: dict[str, str] = {
    "solitaire": "ytourney.games.solitaire.report",
}
"""One-player puzzles by kind -> the module that solves and reports them (`ytourney solve`); not two-player games,
so they play no tournaments."""


def puzzle_solver(kind: str) -> ModuleType:
    """The module solving puzzles of `kind`, loaded on first use."""
    if kind not in PUZZLES:
        raise GameSpecError(f"unknown puzzle kind {kind!r}; expected one of {', '.join(PUZZLES)}")
    return importlib.import_module(PUZZLES[kind])


def register(name: str, target: str) -> None:
    """Add a game at run time (a third-party or test game): `name` -> 'module:Class'."""
    GAMES[name] = target


def all_games() -> Mapping[str, Game]:
    """Every registered game, loaded."""
    return {name: get_game(name) for name in GAMES}


@dataclass(frozen=True)
class RuleFlag:
    """A flag standing for one rule of a game (`--misere` is `--rule misere=true`): its rule key, the value it sets,
    the rule in words for a refusal, and its help."""

    key: str
    value: str
    words: str
    help: str


RULE_FLAGS: dict[str, RuleFlag] = {
    "--misere": RuleFlag("misere", "true", "misère", "Y: the player who completes a Y loses (--rule misere=on)."),
}
"""Documented aliases of `--rule KEY=VALUE` that the CLI offers on play and match, declared with the games so that
nothing above games/ names one game's rule."""
