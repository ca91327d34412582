"""The typed fields of the config reader: YAML values checked one by one, every failure a structured ConfigError.

A ConfigError from here carries the file (`source`), the key path (`players[2].gtp.swap`), the value found and what
was expected; its message reads `file: key.path: expected …; found …`, with the close key or choice for a typo.
"""

from __future__ import annotations

import difflib
import enum
import math
import operator
import re
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import yaml

from ytourney.errors import ConfigError
from ytourney.numerals import foreign_digit_problem
from ytourney.safe_files import kind_of

Choice = TypeVar("Choice", bound=enum.Enum)


class _StrictLoader(yaml.SafeLoader):
    """The safe loader, refusing duplicate keys instead of silently keeping the last one."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    seen: dict[Any, yaml.Node] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if isinstance(key, (Mapping, list)):
            continue  # reported as a bad key type later
        if key in seen:
            mark = key_node.start_mark
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (first given on line {seen[key].start_mark.line + 1})", mark
            )
        seen[key] = key_node
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
# YAML 1.1 reads `1e-3` (an exponent without a decimal point) as text; YAML 1.2 and every user read it as a number
_StrictLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float", re.compile(r"^[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+$"), list("-+0123456789"))

MAX_YAML_CHARS = 1 << 20
"""Longest YAML text read (a config, a --set value, a command-line spec value)."""
MAX_NODES = 100_000
"""Most values a YAML text may expand to, aliases expanded (an alias bomb is refused, not expanded)."""
MAX_DEPTH = 64
"""How deeply a config may nest; real configs use four levels, and deeper input only costs recursion."""


def load_yaml(text: str, source: str) -> Any:
    """The YAML tree of `text` (safe_load semantics, duplicate keys refused); syntax errors give line and column."""
    if len(text) > MAX_YAML_CHARS:
        raise ConfigError(f"{source}: {len(text)} characters of YAML; expected at most {MAX_YAML_CHARS}",
                          source=source, expected=f"at most {MAX_YAML_CHARS} characters")
    if _nesting(text) > MAX_DEPTH:
        raise ConfigError(f"{source}: invalid YAML: nested more than {MAX_DEPTH} levels deep; expected at most "
                          f"{MAX_DEPTH}", source=source, expected=f"at most {MAX_DEPTH} levels of nesting")
    try:
        tree = yaml.load(text, Loader=_StrictLoader)  # a SafeLoader subclass: safe_load semantics
        if _expanded(tree, {}) > MAX_NODES:
            raise ConfigError(f"{source}: invalid YAML: its aliases expand to more than {MAX_NODES} values; expected "
                              "a config without an alias bomb", source=source, expected=f"at most {MAX_NODES} values")
        return tree
    except _Cycle as err:
        raise ConfigError(f"{source}: invalid YAML: an alias refers to a collection that holds it; expected a tree",
                          source=source, expected="a tree without cycles") from err
    except RecursionError as err:  # a nesting the token scan did not see (indentation alone): still no traceback
        raise ConfigError(f"{source}: invalid YAML: nested too deeply; expected at most {MAX_DEPTH} levels",
                          source=source, expected=f"at most {MAX_DEPTH} levels of nesting") from err
    except ValueError as err:  # a value YAML resolves but Python cannot build: a 5000-digit number, 2026-13-45
        problem = str(err).split(":")[0].split(";")[0].lower()
        raise ConfigError(f"{source}: invalid YAML: a value cannot be read ({problem}); expected numbers of at most "
                          f"4300 digits and real dates", source=source, expected="valid YAML") from err
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = err.problem or err.context or "invalid YAML"
        raise ConfigError(f"{source}: {where}invalid YAML: {problem}", source=source, value=text,
                          expected="valid YAML") from err
    except yaml.YAMLError as err:  # no line and column (a character YAML refuses): the message on one line
        problem = " ".join(str(err).split())
        raise ConfigError(f"{source}: invalid YAML: {problem}", source=source, value=text, expected="valid YAML") from err


class _Cycle(Exception):
    """A YAML collection that holds itself through an alias."""


def _expanded(node: Any, sizes: dict[int, int]) -> int:
    """How many values `node` holds once every alias is expanded (counted once per shared collection, so the count
    takes linear time even for an alias bomb); stops counting past MAX_NODES."""
    if not isinstance(node, (list, dict)):
        return 1
    known = sizes.get(id(node))
    if known is not None:
        if known < 0:
            raise _Cycle()
        return known
    sizes[id(node)] = -1
    total = 1
    for child in (node.items() if isinstance(node, dict) else node):
        for part in (child if isinstance(node, dict) else (child,)):
            total += _expanded(part, sizes)
        if total > MAX_NODES:
            break
    sizes[id(node)] = total
    return total


def _nesting(text: str) -> int:
    """The deepest nesting of flow and block collections in YAML text (up to MAX_DEPTH + 1), found by the scanner
    without recursion."""
    depth = deepest = 0
    try:
        for token in yaml.scan(text, Loader=_StrictLoader):
            if isinstance(token, (yaml.FlowSequenceStartToken, yaml.FlowMappingStartToken,
                                  yaml.BlockSequenceStartToken, yaml.BlockMappingStartToken)):
                depth += 1
                deepest = max(deepest, depth)
                if deepest > MAX_DEPTH:
                    break  # deep enough to refuse: scanning on costs time for nothing
            elif isinstance(token, (yaml.FlowSequenceEndToken, yaml.FlowMappingEndToken, yaml.BlockEndToken)):
                depth -= 1
    except yaml.YAMLError:
        return deepest  # the syntax error is reported by the loader, with its line and column
    return deepest
_OVERRIDE_STEP = re.compile(r"([^.\[\]]+)|\[([0-9]+)\]")


def apply_override(data: Any, override: str, source: str) -> Any:
    """`data` with one `KEY.PATH=VALUE` (`--set`) applied: the value is read as YAML, a path step `[i]` indexes a
    list (`players[1].bot=mcts`); missing mappings on the way are made. Unknown keys are left to the reader."""
    path, sep, text = override.partition("=")
    expected = "KEY.PATH=VALUE, like schedule.games_per_pair=40 or players[1].bot=mcts"
    steps = [(key, None if index == "" else int(index)) for key, index in _OVERRIDE_STEP.findall(path.strip())]
    rebuilt = "".join(f"[{i}]" if i is not None else f".{k}" for k, i in steps).lstrip(".")
    if not sep or not steps or steps[0][1] is not None or rebuilt != path.strip():
        raise ConfigError(f"{source}: --set {override!r}: expected {expected}", source=source, value=override,
                          expected=expected)
    value = load_yaml(text, f"{source}: --set {path}")
    root: Any = {} if data is None else data
    node, where = root, ""
    for position, (key, index) in enumerate(steps):
        last = position == len(steps) - 1
        if index is None:
            if not isinstance(node, dict):
                raise ConfigError(f"{source}: {where}: --set {path}: expected a mapping here; found {describe(node)}",
                                  source=source, path=where, value=node, expected="a mapping")
            where = f"{where}.{key}" if where else key
            if last:
                node[key] = value
            else:
                if node.get(key) is None:
                    node[key] = {}
                node = node[key]
        else:
            if not isinstance(node, list) or not 0 <= index < len(node):
                size = f"a list of {len(node)}" if isinstance(node, list) else describe(node)
                raise ConfigError(f"{source}: {where}[{index}]: --set {path}: no such item; found {size}",
                                  source=source, path=f"{where}[{index}]", value=node, expected="an existing item")
            where = f"{where}[{index}]"
            if last:
                node[index] = value
            else:
                node = node[index]
    return root


def describe(value: Any) -> str:
    """How a found value is shown in errors."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"boolean {value!r}"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, int) and abs(value).bit_length() > 64:
        return f"an integer of about {math.floor(abs(value).bit_length() * math.log10(2)) + 1} digits"
    return f"{type(value).__name__} {value!r}"


def close_hint(word: object, choices: Sequence[str]) -> str:
    """`; did you mean 'x'?` for the choice closest to a typo, else nothing."""
    close = difflib.get_close_matches(str(word), list(choices), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _broken_bound(value: float, above: float | None, at_least: float | None, below: float | None,
                  at_most: float | None) -> str:
    """The first bound `value` breaks, like `>= 1`, or nothing."""
    bounds = ((">", above, operator.gt), (">=", at_least, operator.ge), ("<", below, operator.lt),
              ("<=", at_most, operator.le))
    return next((f"{sign} {limit:g}" for sign, limit, holds in bounds
                 if limit is not None and not holds(value, limit)), "")


def _digits_hint(value: Any) -> str:
    """Why a text that looks like a number is none: a digit of another script ('١', '１'); else nothing."""
    problem = foreign_digit_problem(value) if isinstance(value, str) else None
    return f" ({problem})" if problem else ""


def _finite(value: float) -> bool:
    """True for a finite number, False for nan, inf and an integer too large for a float (10**400)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


class FieldReader:
    """Reads the fields of one config with key-path errors.

    `base_dir` anchors relative paths (the config's folder, then the current directory); `require_files=False`
    reads no file and checks no path the config names, keeping them as written (see `parse_config`).
    """

    def __init__(self, source: str, base_dir: Path, *, require_files: bool = True) -> None:
        self.source = source
        self.base_dir = base_dir
        self.require_files = require_files

    # --- errors -------------------------------------------------------------------------------------------

    def error(self, path: str, problem: str, *, value: Any = None, expected: str = "") -> ConfigError:
        """An error naming the file and the key path."""
        where = f"{self.source}: {path}: " if path else f"{self.source}: "
        return ConfigError(where + problem, source=self.source, path=path, value=value, expected=expected)

    def mismatch(self, path: str, value: Any, expected: str, *, found: str | None = None,
                 hint: str = "") -> ConfigError:
        """`expected …; found …` at `path`."""
        shown = describe(value) if found is None else found
        return self.error(path, f"expected {expected}; found {shown}{hint}", value=value, expected=expected)

    def missing(self, path: str, expected: str, advice: str) -> ConfigError:
        """A required key that is not there."""
        return self.error(path, f"missing; {advice}", expected=expected)

    # --- fields -------------------------------------------------------------------------------------------

    def mapping(self, value: Any, path: str, keys: Sequence[str]) -> Mapping[str, Any]:
        """A mapping whose keys all belong to `keys` (nothing reads as an empty mapping)."""
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            raise self.mismatch(path, value, f"a mapping with keys {', '.join(keys)}")
        for key in value:
            if not isinstance(key, str):
                raise self.error(path, f"keys must be text; found {describe(key)}", value=key, expected="text keys")
            if key not in keys:
                sub = f"{path}.{key}" if path else key
                raise self.error(sub, f"unknown key{close_hint(key, keys)} (accepted here: {', '.join(keys)})",
                                 value=key, expected=f"one of the keys {', '.join(keys)}")
        return value

    def number(self, value: Any, path: str, *, above: float | None = None, at_least: float | None = None,
               below: float | None = None, at_most: float | None = None) -> float:
        """A finite number within the bounds given (`above`/`below` exclusive, `at_least`/`at_most` inclusive)."""
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not _finite(value):
            raise self.mismatch(path, value, "a number", hint=_digits_hint(value))
        broken = _broken_bound(value, above, at_least, below, at_most)
        if broken:
            raise self.mismatch(path, value, f"a number {broken}", found=repr(value))
        return float(value)

    def integer(self, value: Any, path: str, *, at_least: int | None = None, at_most: int | None = None) -> int:
        """A whole number within the bounds given (inclusive)."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.mismatch(path, value, "a whole number", hint=_digits_hint(value))
        broken = _broken_bound(value, None, at_least, None, at_most)
        if broken:
            raise self.mismatch(path, value, f"a whole number {broken}", found=repr(value))
        return value

    def boolean(self, value: Any, path: str) -> bool:
        """true or false."""
        if not isinstance(value, bool):
            raise self.mismatch(path, value, "true or false")
        return value

    def string(self, value: Any, path: str) -> str:
        """Any string, as written."""
        if not isinstance(value, str):
            raise self.mismatch(path, value, "a string")
        return value

    def text(self, value: Any, path: str) -> str:
        """A non-empty string, stripped."""
        if not isinstance(value, str) or not value.strip():
            raise self.mismatch(path, value, "a non-empty string")
        return value.strip()

    def texts(self, value: Any, path: str, *, single: bool = False) -> tuple[str, ...]:
        """A list of non-empty strings, stripped (with `single`, one string stands for a list of one)."""
        if single and isinstance(value, str):
            value = [value]
        if not isinstance(value, (list, tuple)):
            raise self.mismatch(path, value, "a list of strings")
        return tuple(self.text(item, f"{path}[{index}]") for index, item in enumerate(value))

    def choice(self, value: Any, path: str, choices: type[Choice]) -> Choice:
        """One member of an enum by its value, case-insensitive."""
        allowed = [member.value for member in choices]
        if isinstance(value, str) and value.strip().lower() in allowed:
            return choices(value.strip().lower())
        raise self.mismatch(path, value, f"one of {', '.join(allowed)}", hint=close_hint(str(value).lower(), allowed))

    # --- paths --------------------------------------------------------------------------------------------

    def resolve(self, relative: str) -> Path | None:
        """An existing path: as given if absolute, else under the config's folder, else under the CWD."""
        candidate = Path(relative).expanduser()
        if candidate.is_absolute():
            return candidate if candidate.exists() else None
        for base in (self.base_dir, Path.cwd()):
            if (base / candidate).exists():
                return (base / candidate).resolve()
        return None

    def existing(self, relative: str, path: str, what: str, *, folder: bool = False) -> Path | None:
        """The file (or `folder`) a config names, resolved; None when this reader requires no files."""
        if not self.require_files:
            return None
        found = self.resolve(relative)
        kind = "an existing folder" if folder else "an existing regular file"
        if found is None:
            places = " and ".join(repr(p) for p in dict.fromkeys([str(self.base_dir), str(Path.cwd())]))
            raise self.error(path, f"{what} {relative!r} not found (looked in {places})", value=relative,
                             expected=kind)
        try:
            mode = found.stat().st_mode
        except OSError as err:
            raise self.error(path, f"{what} {relative!r} cannot be read: {err.strerror or err}", value=relative,
                             expected=kind) from err
        if not (stat.S_ISDIR(mode) if folder else stat.S_ISREG(mode)):  # a device or FIFO is never read
            raise self.error(path, f"{what} {relative!r} is {kind_of(mode)}; expected {kind}", value=relative,
                             expected=kind)
        return found
