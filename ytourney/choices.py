"""Reading an enum member from its name, the one way every layer does it (the config reader adds key paths)."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import TypeVar

from ytourney.errors import YTourneyError

E = TypeVar("E", bound=enum.Enum)


def choice_name(member: enum.Enum) -> str:
    """How a member is written in configs and on the command line: its value for text enums, else its name."""
    return member.value if isinstance(member.value, str) else member.name.lower()


def parse_choice(choices: type[E], value: E | str, what: str, error: type[YTourneyError] = YTourneyError, *,
                 aliases: Mapping[str, str] | None = None) -> E:
    """The member of `choices` written `value` (any case, spaces around ignored, `aliases` first); otherwise `error`
    naming `what`, the bad value and the accepted names."""
    if isinstance(value, choices):
        return value
    word = str(value).strip().lower()
    word = (aliases or {}).get(word, word)
    for member in choices:
        if choice_name(member).lower() == word:
            return member
    accepted = ", ".join(repr(choice_name(member)) for member in choices)
    raise error(f"unknown {what} {value!r}; expected one of {accepted}")
