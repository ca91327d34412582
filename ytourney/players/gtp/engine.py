"""External engines over GTP: settings and dialects, the process with deadlines, and the GtpBot player."""

from __future__ import annotations

import collections
import difflib
import enum
import functools
import math
import os
import queue
import random
import re
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, Protocol

from ytourney.game.board import Board, BoardKind
from ytourney.players.base import Limit
from ytourney.errors import (
    ConfigError,
    EngineCrashError,
    EngineProtocolError,
    EngineResignedError,
    EngineTimeoutError,
    IllegalAnswerError,
    NotationError,
    PlayerFault,
    YTourneyError,
)
from ytourney.game.state import Color, GameState, Rules
from ytourney.game.notation import SWAP, SWAP_TOKEN


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


_INTERPRETERS = r"(python|pypy|node|java|ruby|perl|julia|Rscript|dotnet|mono)[0-9.]*(\.exe)?$"

_CHOICES: dict[str, type[enum.Enum]] = {
    "first_color": FirstColor,
    "rows": RowOrder,
    "swap": SwapDialect,
    "pie_policy": PiePolicy,
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


# --- board dialect: cell names and colour names as the engine knows them ----------------------------------------
#
# Cells travel in the DESIGN notation (`a1`; kadon `E5`). An engine with `rows: flipped` counts rows from the other
# end: its rows run parallel to our side C (x + y = N - 1) and its row 1 is that side; columns keep their letters.
# In coordinates, our (x, y) is the engine's (x, N - 1 - x - y). That map is the mirror of the triangle that swaps
# sides A and C (it fixes the corner at the end of row 1), so every cell has a valid engine name, neighbours stay
# neighbours, the game is the same game, and the map is its own inverse (the round trip is exact).
#
# Colours: with `first_color: white` the engine calls the player who places the first stone "white"; we swap the two
# names on the wire in both directions. Stones keep their colour after a pie swap (DESIGN §1), so a `swap` never
# changes the names either.
#
# Kadon: GTP has no standard way to select the 93-node board, so an engine plays it only when `kadon_boardsize`
# names the argument its `boardsize` command accepts for it (`ytourney gtp` accepts `boardsize kadon`). Cell names
# are then the Boardspace names. Flipped rows apply to tri boards only.

_VERTEX = re.compile(r"[a-z]{1,2}[0-9]{1,3}")


def to_engine_cell(board: Board, cell: int, rows: str = RowOrder.NORMAL.value) -> str:
    """The engine's name for a flat cell index under the `rows` dialect."""
    if not 0 <= cell < board.num_cells:
        raise NotationError(f"cell index {cell!r} is outside board {board.spec!r} (0..{board.num_cells - 1})")
    if rows == RowOrder.FLIPPED.value and board.kind is BoardKind.TRI:
        x, y = board.coords[cell]
        return f"{chr(ord('a') + x)}{board.size - x - y}"
    return board.names[cell]


def from_engine_cell(board: Board, token: str, rows: str = RowOrder.NORMAL.value) -> int:
    """Flat cell index of an engine's cell name under the `rows` dialect; NotationError when it names no cell."""
    index = board.index_of(token.strip())
    if index is None:
        raise NotationError(f"{token!r} is not a cell of board {board.spec!r}")
    if rows == RowOrder.FLIPPED.value and board.kind is BoardKind.TRI:
        x, engine_y = board.coords[index]
        return board.index_of(f"{chr(ord('a') + x)}{board.size - x - engine_y}")  # type: ignore[return-value]
    return index


def to_engine_color(color: Color, first_color: str = FirstColor.BLACK.value) -> str:
    """The GTP colour word ('b'/'w') the engine uses for our `color`."""
    if first_color == FirstColor.WHITE.value:
        color = color.other
    return "b" if color is Color.BLACK else "w"


def from_engine_color(word: str, first_color: str = FirstColor.BLACK.value) -> Color:
    """Our colour for a GTP colour word of an engine with the given `first_color` dialect."""
    color = Color.parse(word)
    return color.other if first_color == FirstColor.WHITE.value else color


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


# --- the pie for engines that cannot decide it -------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def side_distances(board: Board) -> tuple[int, ...]:
    """Steps from every cell to the nearest cell on a side (0 on the sides), by breadth-first search."""
    distance = [-1] * board.num_cells
    frontier = [cell for cell, mask in enumerate(board.sides) if mask]
    for cell in frontier:
        distance[cell] = 0
    while frontier:
        following = []
        for cell in frontier:
            for neighbor in board.neighbors[cell]:
                if distance[neighbor] < 0:
                    distance[neighbor] = distance[cell] + 1
                    following.append(neighbor)
        frontier = following
    return tuple(distance)


def decide_pie(policy: str, state: GameState, rng: random.Random) -> bool:
    """The pie answer the tool gives for an engine that cannot swap, given the position after the first stone."""
    if policy == PiePolicy.NEVER.value:
        return False
    if policy == PiePolicy.ALWAYS.value:
        return True
    if policy == PiePolicy.RANDOM.value:
        return rng.random() < 0.5
    first = next(move for move in state.moves if move != SWAP)
    distances = side_distances(state.board)
    return distances[first] >= max(1, math.ceil(max(distances) / 3))


# --- transports: where GTP lines go and come from ----------------------------------------------------------------

STDERR_LINES = 20
TERM_SECONDS = 0.5  # between SIGTERM and SIGKILL when ending an engine's process group
_LINE_LIMIT = 1 << 16


class Transport(Protocol):
    """A line channel to one engine; `receive` never waits past its timeout."""

    pid: int | None

    def send(self, line: str) -> None:
        """Write one command line; raise EngineCrashError when the engine can no longer read."""

    def receive(self, timeout: float) -> str | None:
        """The next output line without its newline, None at end of output; TimeoutError after `timeout` seconds."""

    def exit_code(self) -> int | None:
        """The engine's exit status once it has ended (negative: killed by that signal), else None."""

    def stderr_tail(self) -> list[str]:
        """The last lines the engine wrote to stderr."""

    def close(self, wait: float) -> None:
        """End the engine: give it `wait` seconds to exit after end of input, then terminate, then kill."""


class ProcessTransport:
    """An engine subprocess in its own session; reader threads feed queues so no read blocks without a deadline."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self._process = process
        self.pid: int | None = process.pid
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._reaped: int | None = None
        self._threads = [
            threading.Thread(target=self._read_stdout, name=f"gtp-stdout-{process.pid}", daemon=True),
            threading.Thread(target=self._read_stderr, name=f"gtp-stderr-{process.pid}", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    @classmethod
    def start(cls, settings: GtpSettings) -> ProcessTransport:
        """Start the engine from its argv (no shell) in a new session; EngineCrashError if it cannot start."""
        try:
            process = subprocess.Popen(
                list(settings.command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=settings.cwd,
                env=settings.environment,
                start_new_session=True,
            )
        except OSError as err:
            raise EngineCrashError(
                f"engine {settings.display_name!r} could not start {shlex.join(settings.command)!r}: "
                f"{err.strerror or err}"
            ) from err
        return cls(process)

    def _read_stdout(self) -> None:
        stream = self._process.stdout
        try:
            while stream is not None:
                raw = stream.readline(_LINE_LIMIT)
                if not raw:
                    break
                self._lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        except (OSError, ValueError):
            pass  # the pipe was closed under us: report end of output like a normal end
        finally:
            self._lines.put(None)

    def _read_stderr(self) -> None:
        stream = self._process.stderr
        try:
            while stream is not None:
                raw = stream.readline(_LINE_LIMIT)
                if not raw:
                    break
                text = raw.decode("utf-8", "replace").rstrip("\r\n")
                if text.strip():
                    self._stderr.append(text)
        except (OSError, ValueError):
            pass

    def send(self, line: str) -> None:
        """Write one line to the engine's stdin."""
        stdin = self._process.stdin
        try:
            if stdin is None:
                raise BrokenPipeError("no stdin")
            stdin.write(line.encode("utf-8") + b"\n")
            stdin.flush()
        except (OSError, ValueError) as err:
            raise EngineCrashError(f"cannot write {line!r} to the engine: {err}") from err

    def receive(self, timeout: float) -> str | None:
        """The next stdout line within `timeout` seconds."""
        try:
            return self._lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            raise TimeoutError(f"no output within {timeout:.3f}s") from None

    def exit_code(self) -> int | None:
        """Exit status without reaping, so the process group id stays reserved until `close`."""
        if self._reaped is not None:
            return self._reaped
        try:
            info = os.waitid(os.P_PID, self._process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return self._process.returncode
        if info is None:
            return None
        return -info.si_status if info.si_code in (os.CLD_KILLED, os.CLD_DUMPED) else info.si_status

    def stderr_tail(self) -> list[str]:
        """The last lines of the engine's stderr."""
        return list(self._stderr)

    def close(self, wait: float) -> None:
        """End of input, then TERM to the whole process group, KILL to whatever is left, then reap."""
        if self._reaped is not None:
            return
        process = self._process
        if process.stdin is not None:
            try:
                process.stdin.close()
            except OSError:
                pass
        self._wait_exit(wait)
        # Until the leader is reaped its pid still names this process group, so signalling the group is safe.
        self._signal_group(signal.SIGTERM)
        deadline = time.monotonic() + TERM_SECONDS
        if self._wait_exit(TERM_SECONDS):
            self._reap(0.0)
            while self._group_alive() and time.monotonic() < deadline:
                time.sleep(0.01)  # children of the engine still ending
        if self._reaped is None or self._group_alive():
            self._signal_group(signal.SIGKILL)
        self._reap(5.0)
        for thread in self._threads:
            thread.join(timeout=1.0)
        if not any(thread.is_alive() for thread in self._threads):
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    stream.close()

    def _signal_group(self, sig: signal.Signals) -> None:
        try:
            os.killpg(self._process.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass  # the group is already empty

    def _group_alive(self) -> bool:
        try:
            os.killpg(self._process.pid, 0)
        except (ProcessLookupError, PermissionError):
            return False
        return True

    def _reap(self, timeout: float) -> None:
        if self._reaped is not None:
            return
        try:
            self._reaped = self._process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass

    def _wait_exit(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while self.exit_code() is None:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.005)
        return True


TransportFactory = Callable[[GtpSettings], Transport]


# --- the GTP conversation ----------------------------------------------------------------------------------------

_RESPONSE = re.compile(r"([=?])(\d*)(?:\s(.*))?$", re.DOTALL)


@dataclass(frozen=True)
class GtpResponse:
    """One GTP response: success (`=`) or failure (`?`) and its text."""

    ok: bool
    text: str


class GtpClient:
    """Sends GTP commands and reads framed responses, every read bounded by a deadline."""

    def __init__(self, transport: Transport, name: str) -> None:
        self.transport = transport
        self.name = name

    def command(self, command: str, timeout: float) -> GtpResponse:
        """Send `command` and return its response; raise the engine fault that prevents an answer."""
        self._check_quiet()
        try:
            self.transport.send(command)
        except EngineCrashError as err:
            raise EngineCrashError(self.describe_death(f"before {command!r} ({err})")) from err
        deadline = time.monotonic() + timeout
        first: re.Match[str] | None = None
        body: list[str] = []
        while True:
            try:
                line = self.transport.receive(deadline - time.monotonic())
            except TimeoutError:
                if first is None:
                    raise EngineTimeoutError(
                        f"{self.name} gave no answer to {command!r} within {timeout:.2f}s"
                    ) from None
                raise EngineProtocolError(
                    f"{self.name} began answering {command!r} but never ended the response with an empty line"
                ) from None
            if line is None:
                if first is not None and first.group(1) == "=" and command == "quit":
                    break
                raise EngineCrashError(self.describe_death(f"while answering {command!r}"))
            if first is None:
                if not line.strip():
                    continue
                first = _RESPONSE.match(line.strip())
                if first is None:
                    raise EngineProtocolError(
                        f"{self.name} answered {command!r} with {_clip(line)!r}, which is not a GTP response "
                        "(it must start with '=' or '?')"
                    )
                body.append(first.group(3) or "")
            elif line.strip():
                body.append(line)
            else:
                return GtpResponse(first.group(1) == "=", "\n".join(body).strip())
        return GtpResponse(True, "\n".join(body).strip())  # `quit` answered, then the engine closed its output

    def expect(self, command: str, timeout: float) -> str:
        """Send `command` and return its text; EngineProtocolError when the engine answers `?`."""
        response = self.command(command, timeout)
        if not response.ok:
            raise EngineProtocolError(f"{self.name} refused {command!r}: ? {_clip(response.text)}")
        return response.text

    def describe_death(self, when: str) -> str:
        """A message for an engine that stopped: exit status and the tail of its stderr."""
        code = None
        for _ in range(40):  # the exit status usually follows end of output within milliseconds
            code = self.transport.exit_code()
            if code is not None:
                break
            time.sleep(0.005)
        if code is None:
            status = "closed its output"
        elif code < 0:
            status = f"was killed by signal {-code}"
        else:
            status = f"exited with code {code}"
        tail = self.transport.stderr_tail()[-3:]
        detail = "; stderr: " + " | ".join(_clip(line, 120) for line in tail) if tail else ""
        return f"{self.name} {status} {when}{detail}"

    def _check_quiet(self) -> None:
        """Fail on output the engine wrote without being asked (an answer out of turn)."""
        while True:
            try:
                line = self.transport.receive(0.0)
            except TimeoutError:
                return
            if line is None:
                raise EngineCrashError(self.describe_death("between commands"))
            if line.strip():
                raise EngineProtocolError(f"{self.name} wrote {_clip(line)!r} without being asked")


def _on_off(flag: bool) -> str:
    return "on" if flag else "off"


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --- the player ----------------------------------------------------------------------------------------------------

# Optional extension, sent before the first move of a game when the engine knows it:
# `ytourney-rules pie=on|off misere=on|off genmove_swap=on|off` (pie is off in handicap games; genmove_swap is on only
# for `swap: genmove`, as otherwise the pie policy decides). `ytourney gtp` knows it, so served bots learn the rules.
RULES_COMMAND = "ytourney-rules"
_OPTIONAL_COMMANDS = ("time_settings", "time_left", "kgs-time_settings", RULES_COMMAND)
_RESTART_FAULTS = (EngineCrashError, EngineTimeoutError, EngineProtocolError)


class GtpBot:
    """A Bot backed by an external GTP engine; it keeps the engine in sync by sending only the moves it has not seen."""

    def __init__(
        self,
        settings: GtpSettings,
        seed: int | None = None,
        transport_factory: TransportFactory | None = None,
    ) -> None:
        if not isinstance(settings, GtpSettings):
            raise ConfigError(f"GtpBot needs GtpSettings, got {type(settings).__name__} {settings!r}")
        self.settings = settings
        self.name = settings.display_name
        self.engine_name = ""
        self.engine_version = ""
        self.restarts = 0  # engine starts after the first one (each follows a fault)
        self._started = 0
        self._factory: TransportFactory = transport_factory or ProcessTransport.start
        self._rng = random.Random(seed)
        self._client: GtpClient | None = None
        self._known: frozenset[str] = frozenset()
        self._healthy = False
        self._seen: GameState | None = None  # the game exactly as the engine knows it
        self._answer: tuple[int, int] | None = None  # (ply, cell): a genmove answer obtained while deciding the pie
        self._clock_sent = False

    @property
    def pid(self) -> int | None:
        """Process id of the running engine, if any."""
        return self._client.transport.pid if self._client is not None else None

    # --- Bot protocol ---------------------------------------------------------------------------------------------

    def new_game(self, board: Board, rules: Rules, color: Color) -> None:
        """Start (or restart after a fault) the engine, then set the board up empty."""
        check_board(self.settings, board)
        with self._fault_guard():
            if self._client is None or not self._healthy or self._client.transport.exit_code() is not None:
                self._restart()
            client = self._require_client()
            size = self.settings.kadon_boardsize if board.kind is BoardKind.KADON else str(board.size)
            client.expect(f"boardsize {size}", self.settings.command_seconds)
            client.expect("clear_board", self.settings.command_seconds)
        self._seen = None
        self._answer = None
        self._clock_sent = False

    def move(self, state: GameState, limit: Limit) -> int:
        """Sync the engine with `state`, then `genmove` for the colour to move."""
        if self._answer is not None:
            ply, cell = self._answer
            self._answer = None
            if ply == len(state.moves):
                return cell
        with self._fault_guard():
            return self._genmove(self._sync(state), state, limit, allow_swap=False)

    def swap(self, state: GameState, limit: Limit) -> bool:
        """Ask the engine (`swap: genmove`) or apply the pie policy (engines that cannot decide the pie)."""
        if self.settings.swap != SwapDialect.GENMOVE.value:
            return decide_pie(self.settings.pie_policy, state, self._rng)
        with self._fault_guard():
            action = self._genmove(self._sync(state), state, limit, allow_swap=True)
        if action == SWAP:
            return True
        self._answer = (len(state.moves), action)
        return False

    def close(self) -> None:
        """Say `quit` to a healthy engine, then end its whole process group."""
        client, self._client = self._client, None
        if client is None:
            return
        if self._healthy:
            try:
                client.command("quit", min(self.settings.command_seconds, 1.0))
            except PlayerFault:
                pass  # it is being shut down either way
        self._healthy = False
        client.transport.close(wait=0.5)

    # --- engine lifecycle -----------------------------------------------------------------------------------------

    def _restart(self) -> None:
        if self._client is not None:
            self._healthy = False
            self.close()
        self.restarts += self._started
        self._started = 1
        transport = self._factory(self.settings)
        client = GtpClient(transport, f"engine {self.name!r}")
        self._client = client
        first = client.command("name", self.settings.startup_seconds)
        self.engine_name = first.text if first.ok else ""
        version = client.command("version", self.settings.command_seconds)
        self.engine_version = version.text if version.ok else ""
        known = set()
        for command in _OPTIONAL_COMMANDS:
            answer = client.command(f"known_command {command}", self.settings.command_seconds)
            if answer.ok and answer.text.strip().lower() == "true":
                known.add(command)
        self._known = frozenset(known)
        for command in self.settings.setup:
            client.expect(command, self.settings.command_seconds)
        self._healthy = True

    def _require_client(self) -> GtpClient:
        if self._client is None:
            raise EngineCrashError(f"engine {self.name!r} is not running")
        return self._client

    def _fault_guard(self) -> _FaultGuard:
        return _FaultGuard(self)

    def _on_fault(self) -> None:
        """After a crash, timeout or protocol fault: stop the engine now (a hung one would eat the CPU)."""
        self._healthy = False
        client, self._client = self._client, None
        if client is not None:
            client.transport.close(wait=0.0)

    # --- playing --------------------------------------------------------------------------------------------------

    def _sync(self, state: GameState) -> GameState:
        """Send the moves of `state` the engine has not seen; start over with clear_board if the histories differ."""
        client = self._require_client()
        timeout = self.settings.command_seconds
        seen = self._seen
        moves = state.moves
        if seen is None or seen.handicap != state.handicap or seen.moves != moves[: len(seen.moves)]:
            if seen is not None and seen.moves:
                client.expect("clear_board", timeout)
            seen = self._seen = GameState(state.board, state.rules, state.handicap)
            if RULES_COMMAND in self._known:
                pie = _on_off(seen.pie_active)
                misere = _on_off(seen.rules.misere)
                decides = _on_off(self.settings.swap == SwapDialect.GENMOVE.value)
                client.expect(f"{RULES_COMMAND} pie={pie} misere={misere} genmove_swap={decides}", timeout)
        for move in moves[len(seen.moves):]:
            if move == SWAP:
                if self.settings.swap != SwapDialect.NONE.value:
                    color = to_engine_color(seen.to_move, self.settings.first_color)
                    client.expect(f"play {color} {SWAP_TOKEN}", timeout)
            else:
                color = to_engine_color(seen.to_move, self.settings.first_color)
                client.expect(f"play {color} {to_engine_cell(state.board, move, self.settings.rows)}", timeout)
            seen.play(move)
        return seen

    def _genmove(self, seen: GameState, state: GameState, limit: Limit, allow_swap: bool) -> int:
        client = self._require_client()
        color = to_engine_color(state.to_move, self.settings.first_color)
        self._send_clock(state, limit, color)
        budget = limit.remaining if limit.remaining is not None else limit.seconds
        timeout = budget + self.settings.grace_seconds if budget is not None else self.settings.untimed_seconds
        command = f"genmove {color}"
        response = client.command(command, timeout)
        if not response.ok:
            raise EngineProtocolError(f"{client.name} refused {command!r}: ? {_clip(response.text)}")
        return self._answer_to_action(response.text, seen, command, allow_swap)

    def _answer_to_action(self, text: str, seen: GameState, command: str, allow_swap: bool) -> int:
        name = f"engine {self.name!r}"
        token = text.strip().lower()
        if token == "resign":
            raise EngineResignedError(f"{name} resigned")
        if token == SWAP_TOKEN:
            if not (allow_swap and seen.can_swap()):
                raise IllegalAnswerError(f"{name} answered 'swap' to {command!r} where the rules allow no swap")
            seen.play(SWAP)
            return SWAP
        if token == "pass":
            raise IllegalAnswerError(f"{name} answered 'pass' to {command!r}; Y has no passing")
        if not _VERTEX.fullmatch(token):
            raise EngineProtocolError(f"{name} answered {command!r} with {_clip(text)!r}, which is not a cell")
        try:
            cell = from_engine_cell(seen.board, token, self.settings.rows)
        except NotationError as err:
            raise IllegalAnswerError(f"{name} answered {token!r} to {command!r}: {err}") from err
        if seen.cells[cell]:
            shown = to_engine_cell(seen.board, cell, self.settings.rows)
            raise IllegalAnswerError(f"{name} answered {shown!r} to {command!r}, a cell that is already occupied")
        seen.play(cell)
        return cell

    def _send_clock(self, state: GameState, limit: Limit, color: str) -> None:
        """Tell the engine its time: once `time_settings` per game, then `time_left` before each genmove."""
        client = self._require_client()
        timeout = self.settings.command_seconds
        if limit.remaining is not None:
            if not self._clock_sent:
                self._clock_sent = True
                main = max(1, math.ceil(limit.remaining))
                if limit.increment >= 1 and "kgs-time_settings" in self._known:
                    client.command(f"kgs-time_settings fischer {main} {int(limit.increment)}", timeout)
                elif "time_settings" in self._known:
                    client.command(f"time_settings {main} 0 0", timeout)
            if "time_left" in self._known:
                client.command(f"time_left {color} {max(0, int(limit.remaining))} 0", timeout)
        elif limit.seconds is not None:
            seconds = max(1, math.ceil(limit.seconds))
            if not self._clock_sent and "time_settings" in self._known:
                self._clock_sent = True
                client.command(f"time_settings 0 {seconds} 1", timeout)
            if "time_left" in self._known:
                client.command(f"time_left {color} {seconds} 1", timeout)


class _FaultGuard:
    """Context manager: a crash, timeout or protocol fault stops the engine so the next game restarts it."""

    def __init__(self, bot: GtpBot) -> None:
        self.bot = bot

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: object) -> bool:
        if kind is not None and (issubclass(kind, _RESTART_FAULTS) or not issubclass(kind, YTourneyError)):
            self.bot._on_fault()
        return False
