"""How to start an external GTP engine and which dialect it speaks: settings, checks before the first game."""

from __future__ import annotations

import difflib
import enum
import math
import os
import re
import shlex
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ytourney.errors import (
    ConfigError,
)
from ytourney.game.board import Board, BoardKind


class FirstColor(str, enum.Enum):
    """The colour name an engine gives the player who places the first stone."""

    BLACK = "black"
    WHITE = "white"


class RowOrder(str, enum.Enum):
    """How an engine numbers the rows of a tri board (see `to_engine_cell`)."""

    NORMAL = "normal"
    FLIPPED = "flipped"


class SwapDialect(str, enum.Enum):
    """What an engine knows of the pie rule."""

    NONE = "none"  # neither decides nor hears of swaps; the pie policy decides for it
    GENMOVE = "genmove"  # may answer `swap` to genmove and accepts `play C swap`
    PLAY = "play"  # accepts `play C swap` but never answers it; the pie policy decides for it


class PiePolicy(str, enum.Enum):
    """How the tool answers the pie for an engine that cannot decide it itself."""

    NEVER = "never"  # never swap
    ALWAYS = "always"  # always swap
    RANDOM = "random"  # swap with probability 1/2 (seeded)
    CENTER = "center"  # swap a stone at least a third of the board's depth away from every side


class TimeCommand(str, enum.Enum):
    """How an engine is told its time for a move."""

    GTP = "gtp"  # time_settings / kgs-time_settings and time_left, when the engine knows them
    Y_PARAM = "y_param"  # `y_param max_time S` (Fuego-based Y engines: seconds per move, at least 0.5)
    MORAT = "morat"  # `time -m S -g 0 -f 0` (morat's engines: seconds per move, no game or flexible time)
    NONE = "none"  # nothing: the engine keeps its own default


_INTERPRETERS = r"(python|pypy|node|java|ruby|perl|julia|Rscript|dotnet|mono)[0-9.]*(\.exe)?$"

_CHOICES: dict[str, type[enum.Enum]] = {
    "first_color": FirstColor,
    "rows": RowOrder,
    "swap": SwapDialect,
    "pie_policy": PiePolicy,
    "time_command": TimeCommand,
}


@dataclass(frozen=True)
class GtpSettings:
    """How to start and talk to one external GTP engine; picklable so workers can start their own copy."""

    command: tuple[str, ...]
    first_color: str = FirstColor.BLACK.value
    rows: str = RowOrder.NORMAL.value
    swap: str = SwapDialect.NONE.value
    setup: tuple[str, ...] = ()
    pie_policy: str = PiePolicy.CENTER.value
    name: str = ""
    cwd: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    startup_seconds: float = 10.0
    command_seconds: float = 5.0
    grace_seconds: float = 1.0
    untimed_seconds: float = 300.0
    kadon_boardsize: str = ""
    time_command: str = TimeCommand.GTP.value
    chatter_lines: int = 0  # lines (statistics, logs) an engine may print on stdout before an answer

    def __post_init__(self) -> None:
        if not self.command or not all(isinstance(arg, str) and arg for arg in self.command):
            raise ConfigError(f"gtp command must be a non-empty list of non-empty strings, got {self.command!r}")
        for key, choice in _CHOICES.items():
            value = getattr(self, key)
            if value not in {member.value for member in choice}:
                raise ConfigError(f"gtp {key} {value!r} is not valid; expected {_one_of(choice)}")
        for key in ("startup_seconds", "command_seconds", "grace_seconds", "untimed_seconds"):
            value = getattr(self, key)
            least = 0 if key == "grace_seconds" else math.nextafter(0, 1)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= least:
                relation = ">= 0" if key == "grace_seconds" else "> 0"
                raise ConfigError(f"gtp {key} must be a number {relation}, got {value!r}")
        if not _is_count(self.chatter_lines):
            raise ConfigError(f"gtp chatter_lines must be a whole number >= 0, got {self.chatter_lines!r}")

    @property
    def display_name(self) -> str:
        """The name to show for this engine: `name`, else the program's (or an interpreted script's) file name."""
        if self.name:
            return self.name
        program = os.path.basename(self.command[0])
        if re.match(_INTERPRETERS, program):
            args = iter(self.command[1:])
            for arg in args:
                if arg == "-m":
                    return next(args, program)
                if arg == "-c":
                    return program
                if not arg.startswith("-"):
                    return os.path.basename(arg)
        return program

    @property
    def environment(self) -> dict[str, str] | None:
        """The full environment for the engine process (ours plus `env`), or None to inherit ours unchanged."""
        if not self.env:
            return None
        merged = dict(os.environ)
        merged.update(self.env)
        return merged

    @classmethod
    def from_mapping(cls, data: Any, where: str = "gtp") -> GtpSettings:
        """Validate a config mapping (the `gtp:` block of a player); errors name the key path like `where.swap`."""
        if not isinstance(data, Mapping):
            raise ConfigError(f"{where} must be a mapping with at least a 'command', got {_kind(data)}")
        known = [f.name for f in fields(cls)]
        for key in data:
            if key not in known:
                hint = difflib.get_close_matches(str(key), known, n=1)
                suggestion = f"; did you mean {where}.{hint[0]}?" if hint else f"; known keys: {', '.join(known)}"
                raise ConfigError(f"unknown key {where}.{key}{suggestion}")
        if "command" not in data:
            raise ConfigError(f"{where}.command is missing; give the engine's program and arguments as a list")
        values: dict[str, Any] = {"command": _command(data["command"], f"{where}.command")}
        for key, choice in _CHOICES.items():
            if key in data:
                values[key] = _choice(data[key], choice, f"{where}.{key}")
        if "setup" in data:
            values["setup"] = _string_list(data["setup"], f"{where}.setup", allow_single=True)
        for key in ("name", "kadon_boardsize"):
            if key in data:
                values[key] = _string(data[key], f"{where}.{key}")
        if data.get("cwd") is not None:
            values["cwd"] = _string(data["cwd"], f"{where}.cwd")
        if data.get("env") is not None:
            values["env"] = _env(data["env"], f"{where}.env")
        for key in ("startup_seconds", "command_seconds", "grace_seconds", "untimed_seconds"):
            if key in data:
                values[key] = _seconds(data[key], f"{where}.{key}", allow_zero=key == "grace_seconds")
        # --- engine dialect keys of issue 12 ---
        chatter = data.get("chatter_lines", 0)
        if not _is_count(chatter):
            raise ConfigError(f"{where}.chatter_lines must be a whole number >= 0, got {_kind(chatter)}")
        values["chatter_lines"] = chatter
        return cls(**values)


def check_engine(settings: GtpSettings, board: Board | None = None) -> None:
    """Check, without starting it, that the engine's program exists and is executable (and can play `board`)."""
    if board is not None:
        check_board(settings, board)
    program = settings.command[0]
    where = f"engine {settings.display_name!r}"
    if settings.cwd is not None and not os.path.isdir(settings.cwd):
        raise ConfigError(f"{where}: working directory {settings.cwd!r} does not exist")
    if os.sep in program or (os.altsep and os.altsep in program):
        path = program if os.path.isabs(program) or settings.cwd is None else os.path.join(settings.cwd, program)
        if not os.path.exists(path):
            raise ConfigError(f"{where}: program {program!r} does not exist (looked for {os.path.abspath(path)!r})")
        if os.path.isdir(path):
            raise ConfigError(f"{where}: program {program!r} is a directory, not an executable file")
        if not os.access(path, os.X_OK):
            raise ConfigError(
                f"{where}: program {program!r} is not executable; run 'chmod +x {program}' "
                "or start it through its interpreter, like [python3, script.py]"
            )
        return
    search_path = dict(settings.env).get("PATH", os.environ.get("PATH", os.defpath))
    if shutil.which(program, path=search_path) is None:
        raise ConfigError(f"{where}: program {program!r} is not found on PATH; give its full path")


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _one_of(choice: type[enum.Enum]) -> str:
    return "one of " + ", ".join(repr(member.value) for member in choice)


def _kind(value: Any) -> str:
    return f"{type(value).__name__} {value!r}"


def _choice(value: Any, choice: type[enum.Enum], where: str) -> str:
    allowed = [member.value for member in choice]
    if isinstance(value, str) and value.strip().lower() in allowed:
        return value.strip().lower()
    hint = difflib.get_close_matches(str(value).lower(), allowed, n=1)
    suggestion = f"; did you mean {hint[0]!r}?" if hint else ""
    raise ConfigError(f"{where} must be {_one_of(choice)}, got {_kind(value)}{suggestion}")


def _string(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"{where} must be a string, got {_kind(value)}")
    return value


def _string_list(value: Any, where: str, allow_single: bool = False) -> tuple[str, ...]:
    if allow_single and isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)):
        raise ConfigError(f"{where} must be a list of strings, got {_kind(value)}")
    items = []
    for position, item in enumerate(value):
        if not isinstance(item, str) or not item.strip():
            raise ConfigError(f"{where}[{position}] must be a non-empty string, got {_kind(item)}")
        items.append(item.strip())
    return tuple(items)


def _command(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        try:
            value = shlex.split(value)
        except ValueError as err:
            raise ConfigError(f"{where} {value!r} cannot be split into arguments: {err}") from err
    elif isinstance(value, (list, tuple)):
        value = [str(item) if isinstance(item, (int, float)) and not isinstance(item, bool) else item for item in value]
    command = _string_list(value, where)
    if not command:
        raise ConfigError(f"{where} is empty; give the engine's program and arguments, like [path/to/engine, --gtp]")
    return command


def _env(value: Any, where: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where} must be a mapping of variable names to values, got {_kind(value)}")
    pairs = []
    for key, item in value.items():
        if not isinstance(key, str) or not key or "=" in key:
            raise ConfigError(f"{where} has an invalid variable name {key!r}")
        if isinstance(item, bool) or not isinstance(item, (str, int, float)):
            raise ConfigError(f"{where}.{key} must be a string or number, got {_kind(item)}")
        pairs.append((key, str(item)))
    return tuple(sorted(pairs))


def _seconds(value: Any, where: str, allow_zero: bool = False) -> float:
    valid = not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)
    if not valid or value < 0 or (value == 0 and not allow_zero):
        raise ConfigError(f"{where} must be a number of seconds {'>= 0' if allow_zero else '> 0'}, got {_kind(value)}")
    return float(value)


def check_board(settings: GtpSettings, board: Board) -> None:
    """Raise ConfigError when the engine's settings cannot play on `board` (kadon needs `kadon_boardsize`)."""
    if board.kind is BoardKind.KADON:
        if not settings.kadon_boardsize:
            raise ConfigError(
                f"engine {settings.display_name!r} cannot play board 'kadon': GTP has no standard kadon board; "
                "set gtp.kadon_boardsize to the argument its boardsize command takes for it (e.g. 'kadon')"
            )
        if settings.rows == RowOrder.FLIPPED.value:
            raise ConfigError(
                f"engine {settings.display_name!r}: rows 'flipped' applies to tri boards only, not to 'kadon'"
            )
