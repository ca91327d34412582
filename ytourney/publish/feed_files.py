"""Reading back a live results file (`--pgn-out`, `--jsonl-out`) before a run appends to it.

A run appends only to a file that ytourney wrote: a new path, or a regular file whose every entry is a whole game
record of ytourney (PGN with `[Site "ytourney"]` and a `[GameId]`, its movetext as long as its `[PlyCount]` and
ending in its `[Result]`; a JSON line with an integer `id`), followed at most by the beginning of one more entry,
cut by a kill. Anything else (a README, a config, another tool's PGN) is refused untouched, and so are links,
FIFOs and devices. Entries are keyed by tournament and game id, so several tournaments can share one file. The
file is read line by line with every line bounded, so memory stays flat whatever the file holds.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ytourney.errors import ReportError
from ytourney.numerals import is_ascii_digits
from ytourney.safe_files import open_file
from ytourney.tournament.store import STORE_FILES

LINE_BYTES = 16 << 20
"""Longest line a live file may hold (a JSON line keeps a game's printed output, itself capped)."""
FeedKey = tuple[str, int]
"""An entry's tournament (as the file writes it: the PGN [Event] text, the JSON `tournament`) and game id."""

_TAG = re.compile(r'^\[([A-Za-z0-9_]+) "((?:[^"\\]|\\.)*)"\]$')
_COMMENT = re.compile(r"\{[^}]*\}")
_NUMBER = re.compile(r"^[0-9]+\.$")
_PGN_START = '[Event "'
_JSON_START = '{"'


@dataclass
class FeedScan:
    """What a live file holds: its entries' keys, and how many of its bytes are whole entries."""

    keys: set[FeedKey] = field(default_factory=set)
    whole: int = 0  # bytes of whole entries: anything after them is an entry cut short, dropped before appending
    size: int = 0
    identity: tuple[int, int] | None = None  # (device, inode) of the file read, None when there is none


def refuse_store_file(path: str | os.PathLike[str]) -> None:
    """A ReportError when `path` is named like a file of a results store: SQLite writes those, their WAL and lock
    may be empty (so their content cannot tell them from a new file), and the store may be made after this check."""
    target = Path(path)
    if target.name in STORE_FILES:
        raise ReportError(f"{str(target)!r} is named like a file of a results store; expected another name (a "
                          "store's files are left untouched)")


def scan_feed(path: str | os.PathLike[str], pgn: bool) -> FeedScan:
    """Read the live file at `path` (PGN when `pgn`, else JSON lines); ReportError when it is not one ytourney
    wrote, a file of a results store, or not a regular file."""
    refuse_store_file(path)
    try:
        fd = open_file(path, "r", error=ReportError)
    except FileNotFoundError:
        _can_create(Path(path))  # refused now, before the first game, not when the first game is written
        return FeedScan()
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        scan = FeedScan(size=info.st_size, identity=(info.st_dev, info.st_ino))
        try:
            (_scan_pgn if pgn else _scan_jsonl)(Path(path), _lines(Path(path), file), scan)
        except OSError as err:
            raise ReportError(f"cannot read {str(path)!r}: {err.strerror or err}") from err
        if not os.access(path, os.W_OK):  # refused now, not when the first game is written
            raise ReportError(f"cannot append games to {str(path)!r}: it is not writable (its permissions, or a "
                              "read-only disk); make it writable or write elsewhere")
    return scan


def _can_create(path: Path) -> None:
    """ReportError unless a new file can be made at `path`; the one made to find out is removed at once."""
    os.close(open_file(path, "x", error=ReportError))
    os.unlink(path)


def _lines(path: Path, file: object) -> Iterator[tuple[int, bytes]]:
    """(line number, raw line with its newline) of a file, each bounded."""
    number = 0
    while True:
        raw = file.readline(LINE_BYTES + 1)  # type: ignore[attr-defined]
        if not raw:
            return
        number += 1
        if len(raw) > LINE_BYTES:
            raise ReportError(f"{str(path)!r} line {number} is longer than {LINE_BYTES} bytes; expected a file "
                              "written by ytourney (or a new file); it is left untouched")
        yield number, raw


def _foreign(path: Path, number: int, what: str, option: str) -> ReportError:
    return ReportError(f"{str(path)!r} line {number} is not {what} written by ytourney; expected a new file or one "
                       f"that {option} wrote (it is left untouched)")


def _text(path: Path, number: int, raw: bytes, what: str, option: str) -> str:
    if not raw.endswith(b"\n"):
        return raw.decode("utf-8", "replace")  # a line cut short may end inside a character
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _foreign(path, number, what, option) from None


def _starts_like(text: str, start: str) -> bool:
    """Whether `text` (a line, perhaps cut) can begin an entry that begins with `start`."""
    return text.startswith(start) or start.startswith(text)


def _scan_jsonl(path: Path, lines: Iterator[tuple[int, bytes]], scan: FeedScan) -> None:
    what, option = "a game record", "--jsonl-out"
    position = 0
    for number, raw in lines:
        text = _text(path, number, raw, what, option)
        position += len(raw)
        if not raw.endswith(b"\n"):  # the last line, cut short
            if not _starts_like(text.lstrip(), _JSON_START):
                raise _foreign(path, number, what, option)
            return
        if text.strip():
            try:
                data = json.loads(text)
                game_id = data["id"]
                if not isinstance(game_id, int) or isinstance(game_id, bool):
                    raise TypeError(game_id)
            except (ValueError, KeyError, TypeError) as err:
                raise _foreign(path, number, what, option) from err
            scan.keys.add((str(data.get("tournament") or ""), game_id))
        scan.whole = position


def _scan_pgn(path: Path, lines: Iterator[tuple[int, bytes]], scan: FeedScan) -> None:
    what, option = "a PGN game", "--pgn-out"
    position = 0
    tags: dict[str, str] = {}
    moves: list[str] = []
    state = "start"  # then "tags", "moves"
    first = 0
    for number, raw in lines:
        text = _text(path, number, raw, what, option)
        position += len(raw)
        if not raw.endswith(b"\n"):  # the last line, cut short
            if state == "start" and not _starts_like(text, _PGN_START):
                raise _foreign(path, number, what, option)
            return
        line = text[:-1]
        if state == "start":
            if not line:
                scan.whole = position
                continue
            match = _TAG.match(line)
            if match is None or match.group(1) != "Event":
                raise _foreign(path, number, what, option)
            tags, moves, state, first = {"Event": match.group(2)}, [], "tags", number
        elif state == "tags":
            if not line:
                state = "moves"
                continue
            match = _TAG.match(line)
            if match is None or (len(tags) == 1 and (match.group(1), match.group(2)) != ("Site", "ytourney")):
                raise _foreign(path, number, what, option)
            tags[match.group(1)] = match.group(2)
        elif line:
            moves.append(line)
        else:
            scan.keys.add(_pgn_entry(path, first, tags, moves, what, option))
            scan.whole = position
            state = "start"


def _pgn_entry(path: Path, number: int, tags: dict[str, str], moves: list[str], what: str, option: str
               ) -> FeedKey:
    """The key of a whole PGN entry; refused unless its movetext is as long as its PlyCount and ends in its
    Result (an entry whose moves were cut is never taken for a game)."""
    tokens = _COMMENT.sub(" ", " ".join(moves)).split()
    game_id, plies = tags.get("GameId", ""), tags.get("PlyCount", "")
    moves_played = sum(1 for token in tokens[:-1] if not _NUMBER.match(token))  # full-move numbers are not plies
    if (not is_ascii_digits(game_id) or not is_ascii_digits(plies) or not tokens or tokens[-1] != tags.get("Result")
            or moves_played != int(plies)):
        raise _foreign(path, number, what, option)
    return tags["Event"], int(game_id)
