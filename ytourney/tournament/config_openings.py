"""A config's openings (`schedule.openings`): lines of moves from a file, or N random plies.

Every check is made when the config is read, before any game or write: the pie rule and handicaps exclude openings
(blamed on the key that asks for them, `file` or `random_plies`), and an opening file must be a readable regular
file of UTF-8 text no larger than OPENINGS_BYTES whose every line replays as a legal, unfinished opening.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ytourney.boards.board import Board
from ytourney.errors import ConfigError
from ytourney.games.api import Game, Move
from ytourney.games.replay import ReplayError, replay
from ytourney.safe_files import read_file
from ytourney.tournament.config_fields import FieldReader

OPENINGS_BYTES = 16 << 20
"""Largest opening file read (a million openings of a few moves fit)."""
OPENING_KEYS = ("file", "random_plies", "order")
_PATH = "schedule.openings"
_EXPECTED = "a file of opening lines, one line of moves each"


class OpeningOrder(str, enum.Enum):
    """How opening lines are handed out to game pairs."""

    SEQUENTIAL = "sequential"
    RANDOM = "random"


@dataclass(frozen=True)
class OpeningSettings:
    """Openings for games without the pie rule: lines from a file, or N random plies; a pair of games shares one."""

    lines: tuple[tuple[Move, ...], ...] = ()
    file: str | None = None
    random_plies: int = 0
    order: OpeningOrder = OpeningOrder.SEQUENTIAL


def read_openings(reader: FieldReader, value: Any, game: Game, board: Board, rules: Any,
                  handicapped: bool) -> OpeningSettings:
    """The openings `value` asks for (a file name, or a mapping of file or random_plies and order)."""
    if isinstance(value, str):
        value = {"file": value}
    section = reader.mapping(value, _PATH, OPENING_KEYS)
    given = next((key for key in ("random_plies", "file") if key in section), "")
    where = f"{_PATH}.{given}" if given else _PATH  # blamed on the key (and the match option) that asks for them
    what = {"random_plies": "random plies", "file": "opening lines"}.get(given, "openings")
    if rules.pie:
        raise reader.error(where, f"{what} are for games without the pie rule; set rules.pie: false",
                           value=section.get(given, value), expected=f"no {what} with the pie rule")
    if handicapped:
        raise reader.error(where, f"{what} are for even games; set handicap.mode: none",
                           value=section.get(given, value), expected=f"no {what} with handicaps")
    if ("file" in section) == ("random_plies" in section):
        expected = "exactly one of 'file' (opening lines) or 'random_plies' (a number)"
        raise reader.error(_PATH, f"expected {expected}", value=value, expected=expected)
    order = reader.choice(section.get("order", "sequential"), f"{_PATH}.order", OpeningOrder)
    if "random_plies" in section:
        plies = reader.integer(section["random_plies"], f"{_PATH}.random_plies", at_least=1,
                               at_most=max(1, board.num_cells // 2))
        return OpeningSettings(random_plies=plies, order=order)
    name = reader.text(section["file"], f"{_PATH}.file")
    found = reader.existing(name, f"{_PATH}.file", "opening file")
    if found is None:
        return OpeningSettings(file=name, order=order)
    lines = _opening_lines(reader, _opening_text(reader, found, name), name, game, board, rules)
    return OpeningSettings(lines=lines, file=str(found), order=order)


def _opening_text(reader: FieldReader, file: Path, name: str) -> str:
    """The text of an opening file: readable, at most OPENINGS_BYTES, UTF-8 without NUL bytes."""
    path = f"{_PATH}.file"
    try:
        size = file.stat().st_size
        if size > OPENINGS_BYTES:
            raise reader.error(path, f"opening file {name!r} is too large: {size} bytes; expected at most "
                               f"{OPENINGS_BYTES}, one line of moves per opening", value=name, expected=_EXPECTED)
        raw = read_file(file.resolve(), OPENINGS_BYTES, error=ConfigError) or b""  # bounded, never a FIFO
    except OSError as err:
        raise reader.error(path, f"opening file {name!r} cannot be read: {err.strerror or err}", value=name,
                           expected=_EXPECTED) from err
    except ConfigError as err:
        if err.path:
            raise
        raise reader.error(path, f"opening file {name!r} cannot be read: {err}", value=name,
                           expected=_EXPECTED) from err
    try:
        if b"\0" in raw:
            start = raw.index(b"\0")
            raise UnicodeDecodeError("utf-8", raw, start, start + 1, "a NUL byte")
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise reader.error(path, f"opening file {name!r} is not an openings file: byte {err.start} is binary "
                           f"({err.reason}); expected UTF-8 text, one line of moves per opening", value=name,
                           expected=_EXPECTED) from err


def _opening_lines(reader: FieldReader, text: str, name: str, game: Game, board: Board,
                   rules: Any) -> tuple[tuple[Move, ...], ...]:
    """The opening lines of a file's text: one line of move tokens each; '#' starts a comment."""
    path = f"{_PATH}.file"
    lines: list[tuple[Move, ...]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        tokens = raw.split("#", 1)[0].replace(",", " ").split()
        if not tokens:
            continue
        try:  # openings are for games without the pie rule, so a swap in one is refused as illegal
            state = replay(game, board, rules, 0, tokens)
        except ReplayError as err:
            raise reader.error(path, f"{name} line {number}: {err.token!r}: {err.__cause__ or err}",
                               value=err.token, expected="a legal move") from err
        if state.is_over:
            raise reader.error(path, f"{name} line {number}: the opening already ends the game", value=raw,
                               expected="an opening that leaves the game open")
        lines.append(tuple(state.history))
    if not lines:
        raise reader.error(path, f"{name} holds no opening lines", value=name, expected=_EXPECTED)
    return tuple(lines)


def opening_key(move: Move) -> str:
    """A move as the opening digest spells it: its nodes joined by '-' (a cell index alone, as before games)."""
    return "-".join(map(str, move.path)) if move.path else move.kind.value
