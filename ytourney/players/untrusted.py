"""Plugin answers and errors turned into plain values, and the memory limit of processes running player code.

Everything a plugin returns or raises may be hostile: a `__repr__`, `__str__`, `__bool__` or `__eq__` that loops,
raises or answers something huge. These helpers are called only where a deadline holds (inside the referee's
guarded call, or in the child process hosting a plugin, whose parent kills it past its deadline), and what they
return is a plain `str`, `bool` or `Move`, capped in size, safe to format, store and print anywhere.
"""

from __future__ import annotations

import contextlib
import resource
from ytourney.boards.board import Board
from ytourney.errors import YTourneyError
from ytourney.games.api import Game, Move

MESSAGE_CHARS = 1000
"""Most characters kept of one message from player code (an error, an answer's description) that may be stored."""
DEFAULT_MEMORY_MB = 4096
"""Address space (RLIMIT_AS, MiB) of every process running plugins or engines unless the config says otherwise."""
HEADROOM_MB = 256
"""MiB a limited process may always add to what it maps when the limit is set (a fork of a large process)."""


def cap(text: str, limit: int = MESSAGE_CHARS) -> str:
    """`text` cut to `limit` characters, saying how many were dropped."""
    text = str.__str__(text) if isinstance(text, str) else "<not text>"
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... [{len(text) - limit} more characters]"


def describe(value: object) -> str:
    """repr of an untrusted value, capped; a repr that raises or returns a non-string is named as such."""
    try:
        text = repr(value)
    except Exception as err:  # noqa: BLE001 - any failure of foreign code is described, never raised
        return f"<a {_type_name(value)} whose repr raised {_type_name(err)}>"
    if not isinstance(text, str):
        return f"<a {_type_name(value)} whose repr is not text>"
    return cap(text)


def error_message(err: BaseException) -> str:
    """The message of an exception raised by player code, capped; a message that fails is named as such."""
    try:
        message = str(err)
    except Exception as inner:  # noqa: BLE001 - a __str__ that raises is described, never raised
        return f"<message unprintable: its __str__ raised {_type_name(inner)}>"
    if not isinstance(message, str):
        return "<message not text>"
    return cap(message)


def describe_error(err: BaseException) -> str:
    """'Type: message' of an exception raised by player code, capped; a message that fails is named as such."""
    message = error_message(err)
    return cap(f"{_type_name(err)}: {message}" if message else _type_name(err))


def _type_name(value: object) -> str:
    """The class name of `value`, read from the type's own slot (a metaclass cannot fake it)."""
    name = type.__dict__["__name__"].__get__(type(value))
    return str.__str__(name) if isinstance(name, str) else "object"


def plain_move(game: Game, board: Board, answer: object) -> Move | str:
    """A bot's move answer as a fresh Move of `game` (read back from its notation), or why it is not one."""
    try:
        return game.read_answer(board, answer)
    except YTourneyError as err:
        return describe_error(err).partition(": ")[2] or "not a move"
    except Exception as err:  # noqa: BLE001 - an answer whose methods fail is an illegal answer, not a crash of ours
        return f"answered {describe(answer)}, which is not a move ({describe_error(err)})"


def plain_swap(answer: object) -> bool | str:
    """A bot's pie answer as a plain bool (numpy's bool included), or why it is not one."""
    if isinstance(answer, bool):  # bool cannot be subclassed: this is True or False itself
        return answer
    try:
        dtype = getattr(answer, "dtype", None)
        if dtype is not None and dtype.kind == "b" and getattr(answer, "shape", None) == ():
            return True if answer else False  # noqa: SIM210 - numpy's bool, read once
    except Exception:  # noqa: BLE001, S110 - an object failing these checks is simply not a bool
        pass
    return f"answered the pie offer with {describe(answer)}, which is not a bool"


def limit_memory(megabytes: int) -> None:
    """Cap this process's address space (RLIMIT_AS) at `megabytes` MiB (0: leave it), and at least HEADROOM_MB above
    what it maps already (a process forked from a large one), never above its hard limit; what it starts inherits
    the cap."""
    if megabytes <= 0:
        return
    with contextlib.suppress(OSError, ValueError):
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        wanted = max(megabytes, _mapped_mb() + HEADROOM_MB) * 1024 * 1024
        if hard != resource.RLIM_INFINITY:
            wanted = min(wanted, hard)
        if soft == resource.RLIM_INFINITY or wanted < soft:
            resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))


def _mapped_mb() -> int:
    """MiB of address space this process maps now (0 when unknown)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * resource.getpagesize() // (1024 * 1024)
    except (OSError, ValueError, IndexError):
        return 0


_configured = [DEFAULT_MEMORY_MB]  # the limit of player processes this process starts (a config's memory_mb)


def set_player_memory(megabytes: int) -> None:
    """Set the memory limit (MiB, 0: none) of the engines and plugin hosts this process starts from now on."""
    _configured[0] = max(0, int(megabytes))


def player_memory() -> int:
    """The memory limit (MiB, 0: none) of the engines and plugin hosts this process starts."""
    return _configured[0]


def limit_engine() -> None:
    """Run in a new engine process before exec: its memory limit (and what it starts inherits it)."""
    limit_memory(_configured[0])


def memory_note(err: BaseException) -> str:
    """A hint for a MemoryError: the limit that caused it."""
    if not isinstance(err, MemoryError):
        return ""
    soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    if soft == resource.RLIM_INFINITY:
        return ""
    return f" (memory limit {soft // (1024 * 1024)} MiB; raise `memory_mb` in the config)"
