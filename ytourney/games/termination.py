"""Why a game ended: a value type with one instance per name, so each game adds its own endings."""

from __future__ import annotations

import re
from typing import ClassVar

from ytourney.errors import RecordError, YTourneyError


class Termination:
    """Why a game ended: a rule's own ending (`connection`, `loop`, `figure`, ...) or one of the tool's.

    A value type with one instance per name, so games add their endings without touching this module; tool endings
    are class attributes. `Termination("time")` returns the interned instance, as an enum lookup would.
    """

    __slots__ = ("is_fault", "value")
    _known: ClassVar[dict[str, Termination]] = {}
    _NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")

    TIME: ClassVar[Termination]
    ILLEGAL: ClassVar[Termination]
    CRASH: ClassVar[Termination]
    PROTOCOL: ClassVar[Termination]
    FORFEIT: ClassVar[Termination]
    MOVE_LIMIT: ClassVar[Termination]
    ADJUDICATED_RESIGN: ClassVar[Termination]
    ADJUDICATED_DRAW: ClassVar[Termination]
    NO_MOVES: ClassVar[Termination]

    value: str
    is_fault: bool

    def __new__(cls, value: str) -> Termination:
        known = cls._known.get(value) if isinstance(value, str) else None
        if known is None:
            raise ValueError(f"{value!r} is not a termination ytourney or a registered game knows")
        return known

    @classmethod
    def define(cls, value: str, *, fault: bool = False) -> Termination:
        """The termination named `value`, created on first use; a game defines its endings this way."""
        known = cls._known.get(value)
        if known is not None:
            return known
        if not cls._NAME.fullmatch(value):
            raise YTourneyError(f"termination name {value!r} must be lowercase words joined by '-'")
        made = object.__new__(cls)
        object.__setattr__(made, "value", value)
        object.__setattr__(made, "is_fault", fault)
        cls._known[value] = made
        return made

    @classmethod
    def parse(cls, value: str) -> Termination:
        """The termination of a stored or exported record (its game loaded first, which defines its endings)."""
        known = cls._known.get(value) if isinstance(value, str) else None
        if known is None:
            raise RecordError(f"unknown termination {value!r}; expected one of {', '.join(sorted(cls._known))}")
        return known

    @property
    def is_rule(self) -> bool:
        """True when the game's rules ended the game (no fault, no move limit, no adjudication)."""
        return not self.is_fault and self not in TOOL_TERMINATIONS

    @property
    def is_adjudicated(self) -> bool:
        """True when the tournament's adjudication ended the game (a resignation or a draw it declared)."""
        return self is Termination.ADJUDICATED_RESIGN or self is Termination.ADJUDICATED_DRAW

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Termination values are immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Termination.parse, (self.value,))

    def __repr__(self) -> str:
        return f"Termination({self.value!r})"

    def __str__(self) -> str:
        return self.value


Termination.TIME = Termination.define("time", fault=True)
Termination.ILLEGAL = Termination.define("illegal", fault=True)
Termination.CRASH = Termination.define("crash", fault=True)
Termination.PROTOCOL = Termination.define("protocol", fault=True)
Termination.FORFEIT = Termination.define("forfeit", fault=True)
Termination.MOVE_LIMIT = Termination.define("move-limit")
Termination.ADJUDICATED_RESIGN = Termination.define("adjudicated-resign")
Termination.ADJUDICATED_DRAW = Termination.define("adjudicated-draw")
Termination.NO_MOVES = Termination.define("no-moves")
TOOL_TERMINATIONS = (Termination.TIME, Termination.ILLEGAL, Termination.CRASH, Termination.PROTOCOL,
                     Termination.FORFEIT, Termination.MOVE_LIMIT, Termination.ADJUDICATED_RESIGN,
                     Termination.ADJUDICATED_DRAW)
