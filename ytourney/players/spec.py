"""Bot specs ('random', 'mcts:playouts=2000', 'path/file.py:Class', GTP engines) and turning them into bots."""

from __future__ import annotations

import enum
import importlib
import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ytourney.errors import BotSpecError, PluginError
from ytourney.games.api import Game
from ytourney.games.bot import Bot, BotOption
from ytourney.numerals import foreign_digit_problem
from ytourney.players.gtp.engine import GtpBot
from ytourney.players.gtp.settings import GtpSettings
from ytourney.players.human import HUMAN_SPEC
from ytourney.players.plugin import load_plugin_class
from ytourney.players.untrusted import describe_error

# Built-in bots that play every game, by name -> "module:Class"; each class declares OPTIONS: dict[str, BotOption].
# A game's own bots (Game.own_bots) join them for that game, replacing a generic bot of the same name.
BUILTIN_BOTS: dict[str, str] = {
    "random": "ytourney.players.bots.random_bot:RandomBot",
    "mcts": "ytourney.players.bots.mcts_bot:MctsBot",
}


def bots_of(game: Game) -> dict[str, str]:
    """Every built-in bot that plays `game`: the generic ones and the game's own."""
    return {**BUILTIN_BOTS, **game.own_bots}


OPENSPIEL_PREFIX = "openspiel:"
OPENSPIEL_BOTS: dict[str, str] = {
    "mcts": "ytourney.players.openspiel:OpenSpielMcts",
}
"""OpenSpiel's bots seated by `openspiel:NAME[:KEY=VALUE,...]` -> 'module:Class' (players/openspiel.py); any other
OpenSpiel bot is seated by a plugin subclassing `OpenSpielBot`."""


class BotKind(enum.Enum):
    """Where a player comes from."""

    BUILTIN = "builtin"
    PLUGIN = "plugin"
    GTP = "gtp"
    OPENSPIEL = "openspiel"


@dataclass(frozen=True)
class BotSpec:
    """A picklable description of a player of `game`; workers turn it into a live bot with `create_bot`."""

    kind: BotKind
    name: str
    options: tuple[tuple[str, Any], ...] = ()
    path: str | None = None
    gtp: GtpSettings | None = None
    game: Game = field(kw_only=True)

    def __str__(self) -> str:
        if self.kind is BotKind.PLUGIN:
            return f"{self.path}:{self.name}"
        if self.kind is BotKind.GTP:
            return "gtp:" + " ".join(self.gtp.command if self.gtp else ())
        name = OPENSPIEL_PREFIX + self.name if self.kind is BotKind.OPENSPIEL else self.name
        if not self.options:
            return name
        return name + ":" + ",".join(f"{k}={_option_text(v)}" for k, v in self.options)


def _option_text(value: Any) -> str:
    """An option's value as a spec writes it (an enum by its value)."""
    return str(value.value) if isinstance(value, enum.Enum) else str(value)


def builtin_class(name: str, game: Game) -> type:
    """The class of a built-in bot by name, for `game`."""
    bots = bots_of(game)
    try:
        target = bots[name]
    except KeyError:
        known = ", ".join(sorted(bots))
        raise BotSpecError(
            f"unknown bot {name!r} for game {game.name!r}; expected a built-in ({known}), a plugin"
            " 'path/file.py:ClassName' or, in configs, a gtp engine"
        ) from None
    module_name, class_name = target.split(":")
    return getattr(importlib.import_module(module_name), class_name)


def builtin_options(name: str, game: Game) -> dict[str, BotOption]:
    """Declared options of a built-in bot."""
    return dict(getattr(builtin_class(name, game), "OPTIONS", {}))


def parse_bot_spec(text: str, game: Game) -> BotSpec:
    """Parse a CLI/config bot spec for `game`: a built-in name with options, or a plugin 'file.py:Class'."""
    if not isinstance(game, Game):
        raise BotSpecError(f"bot spec {text!r} needs the game it plays, got {game!r}")
    if not isinstance(text, str) or not text.strip():
        raise BotSpecError(f"bot spec must be a non-empty string, got {text!r}")
    text = text.strip()
    if text.lower().startswith(OPENSPIEL_PREFIX):
        return _openspiel_spec(text, game)
    path, sep, class_name = text.rpartition(":")
    if sep and path.endswith(".py"):
        if not class_name.isidentifier():
            raise PluginError(f"plugin spec {text!r} must end with a class name, like 'bots/example_bot.py:ExampleBot'")
        return BotSpec(BotKind.PLUGIN, class_name, path=path, game=game)
    if text.endswith(".py"):
        raise PluginError(f"plugin spec {text!r} names no class; write it as '{text}:ClassName'")
    name, _, option_text = text.partition(":")
    name = name.strip().lower()
    if name == HUMAN_SPEC and option_text.strip():  # `play human:fast`: the seat has no options, wherever it sits
        raise BotSpecError(f"bot spec {text!r}: a human seat takes no options; expected {HUMAN_SPEC!r} alone")
    if name == HUMAN_SPEC:
        raise BotSpecError(f"bot spec {text!r}: a human plays at the terminal, in `ytourney play` only; tournaments "
                           "play their games in worker processes without one")
    options = _read_options(name, text, option_text.split(","), builtin_options(name, game))
    return BotSpec(BotKind.BUILTIN, name, tuple(sorted(options.items())), game=game)


def _openspiel_spec(text: str, game: Game) -> BotSpec:
    """`openspiel:NAME[:KEY=VALUE,...]` (`;` may separate too): one of OPENSPIEL_BOTS, for a game OpenSpiel has."""
    from ytourney.players.openspiel import check_game, import_pyspiel

    rest = text[len(OPENSPIEL_PREFIX):].replace(";", ":", 1)
    name, _, option_text = rest.partition(":")
    name = name.strip().lower()
    if name not in OPENSPIEL_BOTS:
        raise BotSpecError(f"unknown OpenSpiel bot {name!r} in {text!r}; expected one of "
                           f"{', '.join(sorted(OPENSPIEL_BOTS))} (any other: a plugin subclassing "
                           "ytourney.players.openspiel.OpenSpielBot)")
    check_game(game, f"bot {OPENSPIEL_PREFIX + name!r}")
    import_pyspiel()  # one clear line now, not a failed game later, when OpenSpiel is not installed
    declared = dict(getattr(_class_of(OPENSPIEL_BOTS[name]), "OPTIONS", {}))
    options = _read_options(OPENSPIEL_PREFIX + name, text, option_text.replace(";", ",").split(","), declared)
    return BotSpec(BotKind.OPENSPIEL, name, tuple(sorted(options.items())), game=game)


def _class_of(target: str) -> type:
    module_name, class_name = target.split(":")
    return getattr(importlib.import_module(module_name), class_name)


def _read_options(name: str, text: str, items: list[str], declared: dict[str, BotOption]) -> dict[str, Any]:
    """The KEY=VALUE `items` of bot `name` (spec `text`), each checked against its `declared` options."""
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in items)):
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq:
            raise BotSpecError(f"option {item!r} of bot {name!r} must be written key=value, like 'playouts=1000'")
        if key not in declared:
            accepted = ", ".join(sorted(declared)) or "none"
            raise BotSpecError(f"unknown option {key!r} for bot {name!r}; accepted options: {accepted}")
        if key in options:
            raise BotSpecError(f"option {key!r} of bot {name!r} is given twice in {text!r}; give it once")
        options[key] = _convert_option(name, key, raw.strip(), declared[key])
    return options


def _convert_option(bot: str, key: str, raw: str, option: BotOption) -> Any:
    problem = foreign_digit_problem(raw) if option.type in (int, float) else None  # int('１０') is 10
    if problem:
        raise BotSpecError(f"option {key}={raw!r} of bot {bot!r}: {problem}")
    try:
        if option.type is bool:
            if raw.lower() in ("1", "true", "yes", "on"):
                return True
            if raw.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(raw)
        value = option.type(raw)
    except ValueError as err:
        if isinstance(option.type, type) and issubclass(option.type, enum.Enum):
            choices = ", ".join(str(member.value) for member in option.type)
            raise BotSpecError(f"option {key}={raw!r} of bot {bot!r} must be one of {choices}") from err
        raise BotSpecError(
            f"option {key}={raw!r} of bot {bot!r} is not a valid {option.type.__name__}"
        ) from err
    _check_bounds(bot, key, value, option)
    return value


def _check_bounds(bot: str, key: str, value: Any, option: BotOption) -> None:
    """Refuse a number that is not finite or lies outside the option's range, naming the limit."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return
    if not math.isfinite(value):
        raise BotSpecError(f"option {key}={value!r} of bot {bot!r} must be a finite number")
    if option.low is not None and value < option.low:
        raise BotSpecError(f"option {key}={value!r} of bot {bot!r} must be at least {option.low:g}")
    if option.high is not None and value > option.high:
        raise BotSpecError(f"option {key}={value!r} of bot {bot!r} must be at most {option.high:g}")


def bot_factory(spec: BotSpec) -> Callable[[int | None], Bot]:
    """A constructor of live bots for `spec`: class, options and seed handling are looked up once, so a worker
    building a fresh bot for every game pays for the lookups only the first time."""
    if spec.kind is BotKind.GTP:
        settings = spec.gtp
        if settings is None:
            raise BotSpecError(f"gtp player {spec.name!r} has no engine settings")
        return lambda seed: GtpBot(settings, seed=seed)
    if spec.kind is BotKind.PLUGIN:
        cls = load_plugin_class(spec.path or "", spec.name)
        where = f"plugin class {spec.name!r} in {spec.path!r}"
    elif spec.kind is BotKind.OPENSPIEL:
        cls = _class_of(OPENSPIEL_BOTS[spec.name])
        where = f"bot {str(spec)!r}"
    else:
        cls = builtin_class(spec.name, spec.game)
        where = f"bot {str(spec)!r}"
    options = dict(spec.options)
    fixed_seed = options.pop("seed", None) if spec.kind is BotKind.OPENSPIEL else None
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        params = {}
    takes_seed = "seed" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    if "game" in params:  # a bot that needs to know its game before the first move (an OpenSpiel adapter)
        options["game"] = spec.game

    def make(seed: int | None) -> Bot:
        seed = seed if fixed_seed is None else fixed_seed
        try:
            bot = cls(seed=seed, **options) if takes_seed else cls(**options)
        except (Exception, SystemExit) as err:
            raise PluginError(f"{where} could not be created: {describe_error(err)}") from None
        if not getattr(bot, "name", None):
            bot.name = cls.__name__
        return bot

    return make


def create_bot(spec: BotSpec, seed: int | None = None) -> Bot:
    """A live bot for `spec`, seeded for reproducibility where the bot supports it."""
    return bot_factory(spec)(seed)
