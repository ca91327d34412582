"""One typed reader of every game's rules: a mapping of rule options (a config's `rules:`, a record's JSON, an SGF's
`RU`, `--rule` items) checked against the game's declared `RuleOption`s and built into its frozen rules value."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ytourney.errors import GameSpecError
from ytourney.numerals import ascii_float, ascii_int

@dataclass(frozen=True)
class RuleOption:
    """One `rules:` key of a game: its type, default and a line of help; ints and floats may carry a range."""

    type: type
    default: Any
    help: str = ""
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()

    def broken_range(self, value: Any) -> str | None:
        """The range a number outside it must keep to, as '>= 1 and <= 50'; None for a value inside (or no number)."""
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return None
        if (self.low is None or value >= self.low) and (self.high is None or value <= self.high):
            return None
        return " and ".join(f"{sign} {int(bound) if float(bound).is_integer() else bound}"
                            for sign, bound in ((">=", self.low), ("<=", self.high)) if bound is not None)


def rule_value_text(value: Any) -> str:
    """A rule option's value in words: on/off for a switch, 'default' for an option left unset (None)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return "default" if value is None else str(value)


RULE_KINDS: dict[type, str] = {bool: "true or false", int: "a whole number", float: "a number", str: "a word"}
"""A rule option's type in the words of a refusal."""
SWITCH_WORDS = {"true": True, "on": True, "yes": True, "1": True, "false": False, "off": False, "no": False, "0": False}
"""How a switch may be written in text (`--rule`, GTP's `ytourney-rules`)."""
DEFAULT_WORD = "default"
"""A rule's value that sets it back to its default (a computed one included), in text and in a config alike."""


def is_default_word(value: Any, option: RuleOption) -> bool:
    """True for `default` given as a rule's value (any case) where it is not itself one of the rule's choices."""
    return isinstance(value, str) and value.strip().lower() == DEFAULT_WORD and DEFAULT_WORD not in option.choices


def rule_from_text(raw: str, option: RuleOption) -> Any:
    """A rule value written as text (`--rule KEY=VALUE`, GTP's `ytourney-rules`): `default`, a switch word, a number
    in ASCII digits or a word; ValueError for anything else. Its range and choices are left to rule_value."""
    word = raw.strip()
    if is_default_word(word, option):
        return option.default
    if option.type is bool:
        if word.lower() not in SWITCH_WORDS:
            raise ValueError(raw)
        return SWITCH_WORDS[word.lower()]
    if option.type is int:
        return ascii_int(word)
    if option.type is float:
        return ascii_float(word)
    return option.type(word)


def rule_value(game: str, key: str, value: Any, option: RuleOption) -> Any:
    """One rule value as its option allows it: `default` (its default), else its type (a bool is no number, 1.0 no
    whole number), its choices and its range; None only where the option's default is None (the game computes it)."""
    if is_default_word(value, option):
        value = option.default
    if value is None and option.default is None:
        return None
    kind = RULE_KINDS.get(option.type, option.type.__name__)
    if option.type is bool:
        fits = isinstance(value, bool)
    elif option.type is int:
        fits = type(value) is int
    elif option.type is float:
        fits = isinstance(value, (int, float)) and not isinstance(value, bool)
        value = float(value) if fits else value
    else:
        fits = isinstance(value, option.type)
    if not fits:
        raise GameSpecError(f"{game} rule {key}={_shown(value)}: expected {kind}")
    if option.choices and value not in option.choices:
        raise GameSpecError(f"{game} rule {key}={value!r}: expected one of {', '.join(option.choices)}")
    bounds = option.broken_range(value)
    if bounds:
        raise GameSpecError(f"{game} rule {key}={value!r} is out of range: expected {kind} {bounds}")
    return value


def read_rules(game: str, options: Mapping[str, RuleOption], rules_class: type, data: object) -> Any:
    """The rules value of `data`: missing keys take their defaults; an unknown key, a value of the wrong type, choice
    or range, or anything but a mapping is a GameSpecError naming it."""
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise GameSpecError(f"{game} rules {_shown(data)}: expected a mapping of rule names to values")
    values = {}
    for key, value in data.items():
        option = options.get(key) if isinstance(key, str) else None
        if option is None:
            raise GameSpecError(f"unknown {game} rule {_shown(key)}; expected one of {', '.join(options)}")
        values[key] = rule_value(game, key, value, option)
    return rules_class(**values)


def _shown(value: object) -> str:
    """A value as a refusal shows it, cut short when long (a record's value may be anything)."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - any unprintable value is shown by its type
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."
