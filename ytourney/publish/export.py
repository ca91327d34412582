"""Game records for other tools: JSON lines, PGN (for BayesElo / Ordo) and SGF.

PGN: the seven tag roster, then ytourney's own tags. [White] and [Black] are the players who owned those colours
at the end (after any swap), so [Result] "1-0" means the White owner won; note that in Y Black places the first
stone, so a rating tool's "white advantage" is the second mover's. [Termination] uses the PGN standard words
(normal, time forfeit, rules infraction, abandoned) and [YTermination] keeps ytourney's exact reason. The movetext
has one token a turn, numbered by full move as PGN readers expect ("1. e5 swap 2. c3 d4 ..."): a handicap's
stones are placed in one turn, written as one token joined by colons ("1. e5:c6:g3:g2 f4 2. ..."), so [PlyCount]
counts turns, as the game pages and `play` count moves; [Rules] states the rules in force (no pie in a handicap
game). A fault ending adds a {comment} before the result, and so does an adjudicated one (the rule that ended it:
`{adjudicated: white resigned (its search proved the loss)}`), whose [Termination] is "adjudication".

A draw is "1/2-1/2". A game other than Y adds a [Game "<name>"] tag (after [YTermination]) and its moves are in the
game's own notation; a game with a score adds [Score "black-white"].

SGF (FF[4], GM[y] for Y, GM[ytourney-<game>] for the others): written by ytourney.publish.sgf, which also reads it
back (`ytourney import`).

JSON lines: one `GameRecord.to_dict()` object per line, every record field included.
"""

from __future__ import annotations

import contextlib
import enum
import fcntl
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ytourney.choices import parse_choice
from ytourney.errors import ReportError
from ytourney.games.api import Color, Game, Termination, score_text
from ytourney.games.record import TIME_ODDS_KEY, GameRecord
from ytourney.games.legacy import game_key
from ytourney.publish.feed_files import FeedKey, refuse_store_file, scan_feed
from ytourney.publish.game_facts import move_count, rules_in_play, turns
from ytourney.publish.sgf import game_to_sgf, sgf_filename, to_sgf_collection
from ytourney.safe_files import open_file, write_file

PGN_LINE_WIDTH = 79
PGN_TERMINATION = {
    Termination.MOVE_LIMIT: "adjudication",
    Termination.ADJUDICATED_RESIGN: "adjudication",
    Termination.ADJUDICATED_DRAW: "adjudication",
    Termination.TIME: "time forfeit",
    Termination.ILLEGAL: "rules infraction",
    Termination.PROTOCOL: "rules infraction",
    Termination.CRASH: "abandoned",
    Termination.FORFEIT: "abandoned",
}
"""The tool's terminations in the PGN standard's Termination words; a game's own endings are "normal"."""
HANDICAP_JOINER = ":"
"""Joins a handicap's stones into the one movetext token of their turn (a PGN symbol character, unlike a space)."""


class ExportFormat(str, enum.Enum):
    """Formats of `ytourney export`."""

    JSONL = "jsonl"
    PGN = "pgn"
    SGF = "sgf"

    @classmethod
    def parse(cls, value: ExportFormat | str) -> ExportFormat:
        """The format named by `value`."""
        return parse_choice(cls, value, "export format", ReportError)


# --- JSON lines -------------------------------------------------------------------------------------------------


def to_jsonl(records: Iterable[GameRecord]) -> str:
    """One JSON object per line with every field of each record."""
    return "".join(json.dumps(record.to_dict(), ensure_ascii=False) + "\n" for record in records)


# --- PGN --------------------------------------------------------------------------------------------------------


def _pgn_escape(value: object) -> str:
    text = " ".join(str(value).split())  # tag values are one line
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _pgn_date(timestamp: str) -> str:
    match = re.match(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", timestamp or "")
    return ".".join(match.groups()) if match else "????.??.??"


def _pgn_time(timestamp: str) -> str | None:
    match = re.match(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T([0-9]{2}:[0-9]{2}:[0-9]{2})", timestamp or "")
    return match.group(1) if match else None


def pgn_result(record: GameRecord) -> str:
    """'1-0' when the White owner won, '0-1' when the Black owner won, '1/2-1/2' for a draw."""
    if record.winner is None:
        return "1/2-1/2"
    return "1-0" if record.winner is Color.WHITE else "0-1"


def pgn_termination(termination: Termination) -> str:
    """The PGN standard's Termination word: a game's own ending is "normal"."""
    return PGN_TERMINATION.get(termination, "normal")


def pgn_rules(game: Game, rules: object) -> str:
    """The Rules tag: the options that are on (booleans) or option=value, comma separated; "none" when none."""
    words = []
    for key, value in sorted(game.rules_dict(rules).items()):
        if value is True:
            words.append(key)
        elif value is not False and value is not None:
            words.append(f"{key}={json.dumps(value, separators=(',', ':'))}")
    return ",".join(words) or "none"


def pgn_tags(record: GameRecord, site: str = "ytourney") -> list[tuple[str, str]]:
    """The tag pairs of one game: the seven tag roster first, then ytourney's tags."""
    game = record.game_rules
    tags = [
        ("Event", record.tournament or "?"),
        ("Site", site),
        ("Date", _pgn_date(record.started)),
        ("Round", str(record.round)),
        ("White", record.white),
        ("Black", record.black),
        ("Result", pgn_result(record)),
        ("Termination", pgn_termination(record.termination)),
        ("YTermination", record.termination.value),
    ]
    tags += [("Game", name) for name in game_key(record.game).values()]  # none for Y, as before games
    tags += [
        ("Board", record.board),
        ("Rules", pgn_rules(game, game.parse_rules(rules_in_play(record)))),
        ("Handicap", str(record.handicap)),
        ("First", record.first),
        ("PlyCount", str(move_count(record))),
    ]
    time_of_day = _pgn_time(record.started)
    if time_of_day:
        tags.append(("Time", time_of_day))
    if record.id is not None:
        tags.append(("GameId", str(record.id)))
    if record.seed is not None:
        tags.append(("Seed", str(record.seed)))
    if record.opening_plies:
        tags.append(("OpeningPlies", str(record.opening_plies)))
    if record.score is not None:
        tags.append(("Score", score_text(record.score)))
    if record.reason:
        tags.append(("Reason", record.reason))
    clocks = record.extra.get(TIME_ODDS_KEY)
    if isinstance(clocks, Mapping):  # time odds: each side's own time control, as cutechess names them
        tags += [(f"{side}TimeControl", str(clocks[name])) for side, name in (("White", record.white),
                                                                           ("Black", record.black)) if name in clocks]
    return tags


def game_to_pgn(record: GameRecord, site: str = "ytourney") -> str:
    """One game as PGN text (tag pairs, a blank line, movetext ending in the result, a blank line)."""
    lines = [f'[{name} "{_pgn_escape(value)}"]' for name, value in pgn_tags(record, site)]
    # full moves, as PGN readers expect: the number before the first player's ply, the second player's after it
    tokens = [f"{index // 2 + 1}. {turn}" if index % 2 == 0 else turn
              for index, turn in enumerate(HANDICAP_JOINER.join(stones) for stones in turns(record))]
    comment = ""
    if record.termination.is_fault and record.winner is not None:
        detail = f": {record.reason}" if record.reason else ""
        comment = f"{record.loser_name} loses by {record.termination.value}{detail}"
    elif record.termination.is_adjudicated and record.reason:
        comment = record.reason
    if comment:
        tokens.extend(("{" + " ".join(comment.replace("{", "(").replace("}", ")").split()) + "}").split(" "))
    tokens.append(pgn_result(record))
    movetext: list[str] = []
    line = ""
    for unit in tokens:  # a move number stays with its move; comments wrap word by word
        if line and len(line) + 1 + len(unit) > PGN_LINE_WIDTH:
            movetext.append(line)
            line = unit
        else:
            line = f"{line} {unit}" if line else unit
    movetext.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(movetext) + "\n\n"


def to_pgn(records: Iterable[GameRecord], site: str = "ytourney") -> str:
    """Every game as one PGN database."""
    return "".join(game_to_pgn(record, site) for record in records)


# --- writing ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExportResult:
    """What an export produced: the text (when written to stdout) or the files written."""

    games: int
    text: str | None = None
    paths: tuple[Path, ...] = ()


_EXPORT_STARTS = {ExportFormat.JSONL: b'{"', ExportFormat.PGN: b"[Event ", ExportFormat.SGF: b"(;FF[4]"}
"""How an export of each format begins: a file at `out` that begins otherwise is not one to replace."""


def _refuse_foreign(target: Path, fmt: ExportFormat) -> None:
    """A ReportError when `target` holds something other than an export of `fmt` (a results store, a README,
    another tool's file), which replacing would destroy; a new or empty file, or an earlier export, is fine."""
    refuse_store_file(target)  # the WAL and the lock may be empty
    try:
        fd = open_file(target, "r", error=ReportError)  # a link, FIFO or device is refused here already
    except FileNotFoundError:
        return
    try:
        head = os.read(fd, 64)
    finally:
        os.close(fd)
    if head.strip() and not head.lstrip().startswith(_EXPORT_STARTS[fmt]):
        raise ReportError(f"{str(target)!r} exists and is not a {fmt.value} export; expected a new file or one "
                          f"`ytourney export --format {fmt.value}` wrote (it is left untouched)")


def export_records(records: Sequence[GameRecord], fmt: ExportFormat | str, out: str | Path | None = None
                   ) -> ExportResult:
    """Export records: to text when `out` is None, else to a file (or, for sgf and a folder, one file per game).

    For sgf, an `out` ending in `.sgf` receives one collection; any other `out` is a folder of per-game files.
    For jsonl and pgn, an existing folder receives `games.jsonl` / `games.pgn`.
    """
    fmt = ExportFormat.parse(fmt)
    if out is None:
        text = {ExportFormat.JSONL: to_jsonl, ExportFormat.PGN: to_pgn,
                ExportFormat.SGF: to_sgf_collection}[fmt](records)
        return ExportResult(len(records), text=text)
    target = Path(out)
    try:
        if fmt is ExportFormat.SGF and target.suffix.lower() != ".sgf":
            target.mkdir(parents=True, exist_ok=True)
            paths: list[Path] = []
            used: set[str] = set()
            for index, record in enumerate(records, start=1):
                name = sgf_filename(record, index)
                stem, suffix = name[:-4], 1
                while name in used:
                    suffix += 1
                    name = f"{stem}-{suffix}.sgf"
                used.add(name)
                path = target / name
                write_file(path, game_to_sgf(record), root=target, error=ReportError)  # never through a link
                paths.append(path)
            return ExportResult(len(records), paths=tuple(paths))
        if target.is_dir():
            target = target / f"games.{fmt.value}"
        _refuse_foreign(target, fmt)
        target.parent.mkdir(parents=True, exist_ok=True)
        writer = {ExportFormat.JSONL: to_jsonl, ExportFormat.PGN: to_pgn, ExportFormat.SGF: to_sgf_collection}[fmt]
        write_file(target, writer(records), error=ReportError)  # a link, FIFO or device at `out` is refused
    except OSError as err:
        raise ReportError(f"cannot write export to {str(target)!r}: {err.strerror or err}") from err
    return ExportResult(len(records), paths=(target,))


# --- results while a run goes on ------------------------------------------------------------------------------------

LIVE_FORMATS = {".pgn": ExportFormat.PGN, ".jsonl": ExportFormat.JSONL}


class GameFeed:
    """A PGN or JSON-lines file that grows by one game as each is stored, flushed per game.

    Opening it reads the games the file already holds, keyed by tournament and game id, so a resumed run (or the
    games stored while no process wrote the file) continues it without duplicates, and several tournaments can
    share one file; an entry cut short by a kill is dropped first. A file ytourney did not write, a link, a FIFO
    or a device is refused untouched (see feed_files).
    """

    def __init__(self, path: str | Path, fmt: ExportFormat) -> None:
        self.path = Path(path)
        self.format = fmt
        scan = scan_feed(self.path, fmt is ExportFormat.PGN)
        self._scan = scan
        self.keys: set[FeedKey] = scan.keys
        self._fd: int | None = None

    def key(self, record: GameRecord) -> FeedKey | None:
        """The key of a record's entry in this file (None without an id: never taken for a stored one)."""
        if record.id is None:
            return None
        return self._event(record), record.id

    def _event(self, record: GameRecord) -> str:
        """A record's tournament as this file writes it (the PGN [Event] text, the JSON `tournament`)."""
        return _pgn_escape(record.tournament or "?") if self.format is ExportFormat.PGN else record.tournament or ""

    def _open(self) -> int:
        """The file, opened for appending at the first game written (a run refused before it leaves it untouched);
        read again under its lock when it changed since the run started, then an entry cut short at its end is
        dropped."""
        if self._fd is None:
            fd = open_file(self.path, "a", error=ReportError)
            try:
                with self._locked(fd):
                    info = os.fstat(fd)
                    if (info.st_dev, info.st_ino) != self._scan.identity or info.st_size != self._scan.size:
                        self._scan = scan_feed(self.path, self.format is ExportFormat.PGN)  # another run appended
                        self.keys |= self._scan.keys
                    if os.fstat(fd).st_size != self._scan.whole:
                        os.ftruncate(fd, self._scan.whole)
            except OSError as err:
                os.close(fd)
                raise ReportError(f"cannot append games to {str(self.path)!r}: {err.strerror or err}") from err
            except BaseException:
                os.close(fd)
                raise
            self._fd = fd
        return self._fd

    @contextlib.contextmanager
    def _locked(self, fd: int) -> Iterator[None]:
        """Hold the file's lock: runs sharing one file never interleave their entries."""
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)

    def write(self, record: GameRecord) -> None:
        """Append one game unless the file holds it already (by tournament and game id), and flush."""
        key = self.key(record)
        if key is not None and key in self.keys:
            return
        fd = self._open()
        with self._locked(fd):
            self._append(fd, record)
        if key is not None:
            self.keys.add(key)

    def write_next(self, record: GameRecord) -> GameRecord:
        """Append `record` as the next game of its tournament in this file, numbered under the file's lock one past
        the highest id the file then holds for it (another process may have appended since the file was read, as
        two `play --out` sessions on one file do); the record as written."""
        fd = self._open()
        with self._locked(fd):
            held = scan_feed(self.path, self.format is ExportFormat.PGN).keys | self.keys
            event = self._event(record)
            number = 1 + max((held_id for held_event, held_id in held if held_event == event), default=0)
            record = replace(record, id=number)
            self._append(fd, record)
        self.keys |= held | {(event, number)}
        return record

    def _append(self, fd: int, record: GameRecord) -> None:
        """Write one game's entry at the end of the file (its lock held)."""
        text = game_to_pgn(record) if self.format is ExportFormat.PGN else to_jsonl([record])
        try:
            view = memoryview(text.encode("utf-8"))
            while view:
                view = view[os.write(fd, view):]
        except OSError as err:
            raise ReportError(f"cannot append game {record.id} to {str(self.path)!r}: {err.strerror or err}") from err

    def close(self) -> None:
        """Close the file."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def open_feed(path: str | Path, fmt: ExportFormat, directory: str | Path, config_hash: str) -> GameFeed:
    """A GameFeed that first catches up with the games a results folder already stores for the config with this
    hash (none if it has no store, or one of another config, which the run is about to refuse)."""
    from ytourney.tournament.store import db_path, load_info, stream_records

    feed = GameFeed(path, fmt)
    if db_path(directory).is_file() and load_info(directory).config_hash == config_hash:
        for record in stream_records(directory):
            feed.write(record)
    return feed
