"""Python plugins: a bot class loaded from a file the user names, checked for the bot protocol."""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import re
import sys
from pathlib import Path

from ytourney.errors import PluginError
from ytourney.games.bot import PROTOCOL_METHODS
from ytourney.players.untrusted import describe_error


def _existing(path: str) -> Path:
    file = Path(path)
    if not file.is_file():
        raise PluginError(f"plugin file {path!r} does not exist (looked in {str(file.resolve().parent)!r})")
    return file


def _syntax_error(path: str, err: SyntaxError) -> PluginError:
    return PluginError(f"plugin file {path!r} has a syntax error at line {err.lineno}: {err.msg}")


MOVED_MODULES = {
    "ytourney.game.board": "ytourney.boards.board",
    "ytourney.game.rules": "ytourney.games.y.rules (Rules) and ytourney.games.api (Color)",
    "ytourney.game.state": "ytourney.games.y.state",
    "ytourney.game.notation": "ytourney.games.y.notation",
    "ytourney.game.record": "ytourney.games.record",
    "ytourney.game.playout": "ytourney.games.y.playout",
    "ytourney.game.diagram": "ytourney.boards.text",
    "ytourney.game": "ytourney.boards and ytourney.games.y",
    "ytourney.players.base": "ytourney.games.bot (or import BaseBot and Limit from ytourney.players)",
    "ytourney.players.bots.heuristic": "ytourney.games.y.bots.heuristic",
    "ytourney.players.bots.mcts": "ytourney.games.y.bots.mcts",
}
"""Modules plugins written before the game API imported, and where they went."""


def _moved(path: str, err: ModuleNotFoundError) -> str:
    """The line for a plugin whose import failed: what moved where, when it is one of ours."""
    name = err.name or ""
    try:  # the full dotted name the plugin wrote (the error names only the first missing package)
        written = re.search(rf"{re.escape(name)}(\.\w+)*", Path(path).read_text(encoding="utf-8"))
        name = written.group(0) if written and name else name
    except (OSError, UnicodeDecodeError):
        pass
    for old in sorted(MOVED_MODULES, key=len, reverse=True):
        if name == old or name.startswith(old + "."):
            return (f"plugin file {path!r} imports {name!r}, which moved when ytourney became a family of games: "
                    f"import from {MOVED_MODULES[old]} instead (bots/example_bot.py shows the current imports; "
                    "the state, the cell indices and the move answers are unchanged for Y)")
    return f"plugin file {path!r} failed to import: ModuleNotFoundError: {err}"


def check_plugin_source(path: str) -> None:
    """Check that the plugin file at `path` exists and compiles, without running any of its code."""
    file = _existing(path)
    try:
        compile(file.read_bytes(), str(file), "exec")
    except SyntaxError as err:
        raise _syntax_error(path, err) from err
    except (OSError, ValueError) as err:
        raise PluginError(f"plugin file {path!r} cannot be read as Python source: {err}") from err


def load_plugin_class(path: str, class_name: str) -> type:
    """Import `class_name` from the Python file at `path` and check it has the bot protocol."""
    file = _existing(path)
    module_name = f"ytourney_plugin_{hashlib.sha1(str(file.resolve()).encode()).hexdigest()[:16]}"  # same in every process
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
            raise _syntax_error(path, err) from err
        except ModuleNotFoundError as err:
            del sys.modules[module_name]
            raise PluginError(_moved(path, err)) from err
        except (Exception, SystemExit) as err:  # a plugin calling sys.exit() at import is refused, not obeyed
            del sys.modules[module_name]
            raise PluginError(f"plugin file {path!r} failed to import: {describe_error(err)}") from None
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
