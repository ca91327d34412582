"""Bot specs ('random', 'mcts:playouts=2000', 'path/file.py:Class', GTP engines) and turning them into bots."""

from __future__ import annotations

import enum
import importlib
import importlib.util
import inspect
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ytourney.players.base import PROTOCOL_METHODS, Bot
from ytourney.errors import BotSpecError, PluginError

# Built-in bots by name -> "module:Class"; each class declares OPTIONS: dict[str, BotOption].
BUILTIN_BOTS: dict[str, str] = {
    "random": "ytourney.players.bots.random_bot:RandomBot",
    "heuristic": "ytourney.players.bots.heuristic:HeuristicBot",
    "mcts": "ytourney.players.bots.mcts:MctsBot",
}


class BotKind(enum.Enum):
    """Where a player comes from."""

    BUILTIN = "builtin"
    PLUGIN = "plugin"
    GTP = "gtp"


@dataclass(frozen=True)
class BotOption:
    """One option of a built-in bot: its type, default and a line of help."""

    type: type
    default: Any
    help: str = ""


@dataclass(frozen=True)
class BotSpec:
    """A picklable description of a player; workers turn it into a live bot with `create_bot`."""

    kind: BotKind
    name: str
    options: tuple[tuple[str, Any], ...] = ()
    path: str | None = None
    gtp: Any = None

    def __str__(self) -> str:
        if self.kind is BotKind.PLUGIN:
            return f"{self.path}:{self.name}"
        if self.kind is BotKind.GTP:
            return "gtp:" + " ".join(getattr(self.gtp, "command", ()))
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.options)


def builtin_class(name: str) -> type:
    """The class of a built-in bot by name."""
    try:
        target = BUILTIN_BOTS[name]
    except KeyError:
        known = ", ".join(sorted(BUILTIN_BOTS))
        raise BotSpecError(
            f"unknown bot {name!r}; expected a built-in ({known}), a plugin 'path/file.py:ClassName'"
            " or, in configs, a gtp engine"
        ) from None
    module_name, class_name = target.split(":")
    return getattr(importlib.import_module(module_name), class_name)


def builtin_options(name: str) -> dict[str, BotOption]:
    """Declared options of a built-in bot."""
    return dict(getattr(builtin_class(name), "OPTIONS", {}))


def parse_bot_spec(text: str) -> BotSpec:
    """Parse a CLI/config bot spec: a built-in name with options, or a Python plugin 'file.py:Class'."""
    if not isinstance(text, str) or not text.strip():
        raise BotSpecError(f"bot spec must be a non-empty string, got {text!r}")
    text = text.strip()
    path, sep, class_name = text.rpartition(":")
    if sep and path.endswith(".py"):
        if not class_name.isidentifier():
            raise PluginError(f"plugin spec {text!r} must end with a class name, like 'bots/example_bot.py:ExampleBot'")
        return BotSpec(BotKind.PLUGIN, class_name, path=path)
    if text.endswith(".py"):
        raise PluginError(f"plugin spec {text!r} names no class; write it as '{text}:ClassName'")
    name, _, option_text = text.partition(":")
    name = name.strip().lower()
    declared = builtin_options(name)
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in option_text.split(","))):
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq:
            raise BotSpecError(f"option {item!r} of bot {name!r} must be written key=value, like 'playouts=1000'")
        if key not in declared:
            accepted = ", ".join(sorted(declared)) or "none"
            raise BotSpecError(f"unknown option {key!r} for bot {name!r}; accepted options: {accepted}")
        options[key] = _convert_option(name, key, raw.strip(), declared[key])
    return BotSpec(BotKind.BUILTIN, name, tuple(sorted(options.items())))


def _convert_option(bot: str, key: str, raw: str, option: BotOption) -> Any:
    try:
        if option.type is bool:
            if raw.lower() in ("1", "true", "yes", "on"):
                return True
            if raw.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(raw)
        return option.type(raw)
    except ValueError as err:
        raise BotSpecError(
            f"option {key}={raw!r} of bot {bot!r} is not a valid {option.type.__name__}"
        ) from err


def load_plugin_class(path: str, class_name: str) -> type:
    """Import `class_name` from the Python file at `path` and check it has the bot protocol."""
    file = Path(path)
    if not file.is_file():
        raise PluginError(f"plugin file {path!r} does not exist (looked in {str(file.resolve().parent)!r})")
    module_name = f"ytourney_plugin_{abs(hash(str(file.resolve())))}"
    module = sys.modules.get(module_name)
    if module is None:
        spec = importlib.util.spec_from_file_location(module_name, file)
        if spec is None or spec.loader is None:
            raise PluginError(f"plugin file {path!r} cannot be imported as a Python module")
        module = importlib.util.module_from_spec(spec)
        # Registered before running it, as a normal import does: dataclasses and pickling look the module up.
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except SyntaxError as err:
            del sys.modules[module_name]
            raise PluginError(f"plugin file {path!r} has a syntax error at line {err.lineno}: {err.msg}") from err
        except Exception as err:
            del sys.modules[module_name]
            raise PluginError(f"plugin file {path!r} failed to import: {type(err).__name__}: {err}") from err
    cls = getattr(module, class_name, None)
    if cls is None or not inspect.isclass(cls):
        found = sorted(n for n, v in vars(module).items() if inspect.isclass(v) and v.__module__ == module_name)
        raise PluginError(
            f"plugin file {path!r} has no class {class_name!r}; classes found: {', '.join(found) or 'none'}"
        )
    missing = [m for m in PROTOCOL_METHODS if not callable(getattr(cls, m, None))]
    if missing:
        raise PluginError(
            f"plugin class {class_name!r} in {path!r} lacks the bot method(s) {', '.join(missing)}; "
            "subclass ytourney.players.BaseBot or define new_game, move, swap and close"
        )
    if inspect.isabstract(cls):
        abstract = ", ".join(sorted(getattr(cls, "__abstractmethods__", ())))
        raise PluginError(f"plugin class {class_name!r} in {path!r} does not define {abstract} (still abstract)")
    return cls


def _instantiate(cls: type, seed: int | None, options: dict[str, Any], where: str) -> Bot:
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        params = {}
    kwargs = dict(options)
    if "seed" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        kwargs["seed"] = seed
    try:
        bot = cls(**kwargs)
    except Exception as err:
        raise PluginError(f"{where} could not be created: {type(err).__name__}: {err}") from err
    if not getattr(bot, "name", None):
        bot.name = cls.__name__
    return bot


def create_bot(spec: BotSpec, seed: int | None = None) -> Bot:
    """A live bot for `spec`, seeded for reproducibility where the bot supports it."""
    if spec.kind is BotKind.BUILTIN:
        return _instantiate(builtin_class(spec.name), seed, dict(spec.options), f"bot {str(spec)!r}")
    if spec.kind is BotKind.PLUGIN:
        cls = load_plugin_class(spec.path or "", spec.name)
        return _instantiate(cls, seed, dict(spec.options), f"plugin class {spec.name!r} in {spec.path!r}")
    from ytourney.players.gtp.engine import (
        GtpBot,  # imported here: engines are only needed when a GTP player is seated
    )

    return GtpBot(spec.gtp, seed=seed)
