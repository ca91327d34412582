"""Y's engine dialect: the time commands of the two public Y engine families, both ways.

Fuego-based Y engines (Hayward's) take `y_param max_time S`, seconds per move, never under 0.5 s; morat's engines
take `time -m S -g G -f F` (move, game and flexible time). A GtpBot tells an engine its move time in the command its
`gtp.time_command` names (`y_param` or `morat`), or, under the default `gtp`, with `y_param max_time` when the engine
takes no `time_left` but knows `y_param`; a served bot answers both commands, so the families' own tools drive it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from ytourney.errors import NotationError
from ytourney.games.dialect import EngineDialect, NumberReader, TimeParser, TimeSetting

_TIME_FLAGS = {"-m": "move", "--move": "move", "-g": "game", "--game": "game", "-f": "flexible", "--flexible": "flexible",
               "-i": "increment", "--increment": "increment"}
"""morat's `time` options -> the clock each sets."""


def serve_y_param(args: Sequence[str], number: NumberReader) -> TimeSetting:
    """`y_param max_time S`: S seconds a move."""
    if len(args) != 2:
        raise NotationError("syntax error; expected: y_param max_time SECONDS")
    if args[0].lower() != "max_time":
        raise NotationError(f"unknown parameter {args[0]!r}; expected max_time")
    return TimeSetting(period=number(args[1], "max_time"), stones=1)


def serve_morat_time(args: Sequence[str], number: NumberReader) -> TimeSetting:
    """`time -m MOVE -g GAME -f FLEXIBLE [-i INCREMENT]`: a game time and seconds a move (morat's engines)."""
    values = {"move": 0.0, "game": 0.0, "flexible": 0.0, "increment": 0.0}
    if len(args) % 2:
        raise NotationError("syntax error; expected: time -m MOVE -g GAME -f FLEXIBLE [-i INCREMENT]")
    for flag, word in zip(args[::2], args[1::2]):
        if flag.lower() not in _TIME_FLAGS:
            raise NotationError(f"unknown time option {flag!r}; expected -m, -g, -f or -i")
        values[_TIME_FLAGS[flag.lower()]] = number(word, f"{_TIME_FLAGS[flag.lower()]} time")
    return TimeSetting(main=values["game"], period=values["move"], stones=1 if values["move"] > 0 else 0,
                       increment=values["increment"])


class YDialect(EngineDialect):
    """Y's engines: the board facts of every game, and the Fuego-based and morat families' time commands."""

    time_commands: ClassVar[Mapping[str, str]] = {
        "y_param": "y_param max_time {seconds}",
        "morat": "time -m {seconds} -g 0 -f 0",
    }
    fallback_time_commands: ClassVar[Mapping[str, str]] = {"y_param": "y_param"}
    served_time_commands: ClassVar[Mapping[str, TimeParser]] = {"y_param": serve_y_param, "time": serve_morat_time}


DIALECT = YDialect()
