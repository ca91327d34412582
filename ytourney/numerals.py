"""Numbers in text a user, a record or an engine gives are written in ASCII digits 0-9, the one check every layer
makes: Python's int(), float(), str.isdigit() and a regex's \\d also take other scripts' digits ('١', '１', '²')."""

from __future__ import annotations

from collections.abc import Callable

from ytourney.errors import YTourneyError

ASCII_DIGITS = "0123456789"


def is_ascii_digits(text: str) -> bool:
    """True for a non-empty run of ASCII digits 0-9 only (not '١', '１' or '²', which str.isdigit() takes)."""
    return bool(text) and text.isascii() and text.isdigit()


def foreign_digit(text: str) -> str | None:
    """The first character of `text` that is a digit or numeral of another script than ASCII; None when none is."""
    return next((char for char in text if not char.isascii() and char.isnumeric()), None)


def foreign_digit_problem(text: str) -> str | None:
    """Why `text` is no number in ASCII digits ("'１' is no ASCII digit; ..."), None when it has no foreign digit."""
    char = foreign_digit(text)
    if char is None:
        return None
    return f"{char!r} (U+{ord(char):04X}) is no ASCII digit; expected digits 0-9"


def check_ascii_digits(text: str, what: str, error: Callable[[str], Exception] = YTourneyError) -> str:
    """`text` itself, or `error` naming `what` when a digit of another script is in it."""
    problem = foreign_digit_problem(text)
    if problem is not None:
        shown = text if len(text) <= 40 else f"{text[:40]}..."
        raise error(f"{what} {shown!r}: {problem}")
    return text


def ascii_int(text: str) -> int:
    """int(text) for ASCII digits only: ValueError for any other script's digit, like any other non-number."""
    if foreign_digit(text) is not None:
        raise ValueError(f"invalid literal for int(): {text!r} (digits of another script than ASCII)")
    return int(text)


def ascii_float(text: str) -> float:
    """float(text) for ASCII digits only: ValueError for any other script's digit, like any other non-number."""
    if foreign_digit(text) is not None:
        raise ValueError(f"could not convert string to float: {text!r} (digits of another script than ASCII)")
    return float(text)
