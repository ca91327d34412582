"""The colours of Y and the rule options of a game: small frozen values every layer passes around."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from ytourney.choices import parse_choice

_COLOR_NAMES = {"b": "black", "w": "white"}


class Color(enum.IntEnum):
    """Stone colours; Black places the first stone."""

    BLACK = 1
    WHITE = 2

    @property
    def other(self) -> Color:
        """The opposing colour."""
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @classmethod
    def parse(cls, text: str) -> Color:
        """Colour from 'black'/'b'/'white'/'w' in any case."""
        return parse_choice(cls, text, "colour", aliases=_COLOR_NAMES)

    def __str__(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class Rules:
    """Rule options of a game; the pie rule only applies to even (handicap 0) games."""

    pie: bool = True
    misere: bool = False

    def to_dict(self) -> dict[str, bool]:
        """JSON form used in records."""
        return {"pie": self.pie, "misere": self.misere}

    @classmethod
    def from_dict(cls, data: Mapping[str, object] | None) -> Rules:
        """Rules from their JSON form; missing keys take the defaults (pie on, misère off)."""
        data = data or {}
        return _RULES[bool(data.get("pie", True)), bool(data.get("misere", False))]


_RULES = {(pie, misere): Rules(pie, misere) for pie in (False, True) for misere in (False, True)}
