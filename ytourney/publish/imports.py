"""`ytourney import`: SGF games played elsewhere into a results folder, to be rated with ours.

Every file is read and every move replayed before anything is written: one bad game stops the import with its file
and move number, and the folder stays as it was. The folder gets a store whose config is a synthetic config the one
config reader accepts (its board and rules, the players as engines that cannot be started: imported games are for
ratings, crosstables, exports and sites, not for `run`), written next to it as config.yaml.
"""

from __future__ import annotations

import codecs
import collections
import contextlib
import dataclasses
import itertools
import os
import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from ytourney.errors import ConfigError, RecordError, StoreError
from ytourney.games.record import GameRecord
from ytourney.games.rules import rule_value_text
from ytourney.games.legacy import game_key
from ytourney.publish.sgf import read_sgf_games
from ytourney.safe_files import kind_of, read_file, write_file
from ytourney.tournament.config import parse_config
from ytourney.tournament.run import open_store
from ytourney.tournament.store import STORE_FILES, db_path

SGF_BYTES = 64 << 20
"""Largest SGF file read."""
MAX_IMPORT_GAMES = 200_000
"""Most games one import reads, over all its files (memory stays bounded)."""
CONFIG_NAME = "config.yaml"
"""The synthetic config an import writes next to its store."""
IMPORTED_COMMAND = "imported-player-cannot-be-started"
"""The program the synthetic config names for every imported player: none exists, so `run` cannot start one."""


@dataclass(frozen=True)
class ImportResult:
    """What an import wrote: the games, the players, the results folder."""

    directory: Path
    name: str
    games: int
    players: tuple[str, ...]
    files: int


def sgf_files(paths: Sequence[str | os.PathLike[str]]) -> list[Path]:
    """The SGF files named: files as given, folders searched for *.sgf (sorted); RecordError when none exist, or
    when a file is named twice (as given, or inside a folder given too)."""
    files = _sgf_files(paths)
    seen: dict[tuple[int, int], Path] = {}
    for file in files:
        info = file.stat()
        first = seen.setdefault((info.st_dev, info.st_ino), file)
        if first is not file:
            raise RecordError(f"SGF file {str(file)!r} is given twice (also as {str(first)!r}); its games would be "
                              "imported twice")
    return files


def _sgf_files(paths: Sequence[str | os.PathLike[str]]) -> list[Path]:
    files: list[Path] = []
    for item in paths:
        path = Path(item)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix.lower() == ".sgf" and p.is_file())
            if not found:
                raise RecordError(f"folder {str(path)!r} holds no .sgf file")
            files += found
        elif path.is_file():
            files.append(path)
        elif os.path.lexists(path):
            raise RecordError(f"{str(path)!r} is {kind_of(os.stat(path).st_mode) if path.exists() else 'a broken link'}"
                              "; expected an SGF file or a folder holding them")
        else:
            raise RecordError(f"{str(path)!r} does not exist; give SGF files or folders holding them")
    return files


def read_games(files: Sequence[Path]) -> list[GameRecord]:
    """Every game of every file, checked move by move."""
    return [record for record, _ in read_sourced(files)]


def read_sourced(files: Sequence[Path]) -> list[tuple[GameRecord, str]]:
    """Every game of every file with the file it came from; at most MAX_IMPORT_GAMES in all."""
    sourced: list[tuple[GameRecord, str]] = []
    for file in files:
        raw = read_file(file, SGF_BYTES, error=RecordError) or b""  # bounded; a FIFO or device is refused
        text = decoded(raw, str(file))
        if text.lstrip().startswith("[") and "(;" not in text[:4096]:  # PGN (`--pgn-out`, `export --format pgn`)
            raise RecordError(f"{file}: this is PGN (it opens with a tag such as [Event \"...\"]); import reads SGF "
                              "only: `ytourney export DIR --format sgf` writes a results folder's games as SGF")
        games = read_sgf_games(text, str(file), limit=MAX_IMPORT_GAMES - len(sourced))
        sourced += ((record, str(file)) for record in games)
    return sourced


def decoded(raw: bytes, source: str) -> str:
    """SGF text: UTF-16 by its byte-order mark (or its zero bytes), UTF-8 with or without a mark, else the charset
    its CA[] names; without a CA[], bytes that are no UTF-8 are read as ISO-8859-1, SGF's default. RecordError for
    a CA[] Python does not know, or bytes its charset cannot read (replaced, two names could become one)."""
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _decode(raw, "utf-16", "UTF-16 (by its byte-order mark)", source)
    if raw.startswith(codecs.BOM_UTF8):
        return _decode(raw, "utf-8-sig", "UTF-8 (by its byte-order mark)", source)
    head = raw[:2].lstrip()
    if head[:2] in (b"(\0", b"\0("):  # UTF-16 without a mark: an ASCII '(' next to a zero byte
        return _decode(raw, "utf-16-le" if head[:1] == b"(" else "utf-16-be", "UTF-16 (by its zero bytes)", source)
    found = re.search(rb"CA\s*\[([^\]]{0,40})\]", raw)
    charset = found.group(1).decode("ascii", errors="replace").strip() if found else ""
    if not charset:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw.decode("latin-1")  # every byte is a character: nothing is lost or merged
    try:
        codec = "utf-8-sig" if codecs.lookup(charset).name == "utf-8" else charset
        return _decode(raw, codec, f"CA[{charset}]", source)
    except LookupError as err:  # an unknown name, or a codec that is no text encoding (zlib, base64)
        raise RecordError(f"{source}: CA[{charset}] is no character set Python knows; expected one like UTF-8, "
                          "ISO-8859-1 or Shift_JIS") from err


def _decode(raw: bytes, codec: str, said: str, source: str) -> str:
    """`raw` read with `codec`; RecordError naming the first byte it cannot read."""
    try:
        return raw.decode(codec)
    except UnicodeDecodeError as err:
        start = err.start + len(raw) - len(err.object)  # a decoder that drops a byte-order mark counts after it
        raise RecordError(f"{source}: byte {start} ({raw[start:start + 1]!r}) cannot be read as "
                          f"{said}; expected the file's real character set named in CA[], like CA[ISO-8859-1]"
                          ) from err


def _one_setting(sourced: Sequence[tuple[GameRecord, str]], what: str) -> None:
    """RecordError unless every game has the first game's `what`, naming both files and the settings as the CLI
    shows them (rules as 'pie=on, max_plies=1000')."""
    first, first_file = sourced[0]
    for record, file in sourced:
        if getattr(record, what) != getattr(first, what):
            raise RecordError(f"the games use more than one {what}: {_setting(first, what)} in {first_file} and "
                              f"{_setting(record, what)} in {file}; import each {what} into its own folder")


def _setting(record: GameRecord, what: str) -> str:
    if what == "rules":
        return "rules " + ", ".join(f"{key}={rule_value_text(value)}" for key, value in record.rules_dict.items())
    return repr(getattr(record, what))


def synthetic_config(name: str, records: Sequence[GameRecord], players: Sequence[str], sources: int) -> str:
    """A config the config reader accepts, describing the imported games (board, rules, handicap, players)."""
    first = records[0]
    pairs = collections.Counter(frozenset((r.first, r.second)) for r in records)
    handicaps = max(r.handicap for r in records)
    data: dict[str, object] = {"name": name, **game_key(first.game)}  # Y's config names no game, as before games
    data |= {
        "board": first.board,
        "rules": first.rules_dict,
        "schedule": {"format": "round-robin", "games_per_pair": max(pairs.values())},
        "handicap": {"mode": "auto", "max_level": handicaps} if handicaps else {"mode": "none"},
        "seed": 0,
        "players": [{"name": player, "gtp": {"command": [IMPORTED_COMMAND]}} for player in players],
    }
    header = (f"# Written by `ytourney import`: {len(records)} games from {sources} SGF file(s), played elsewhere.\n"
              "# For ratings, crosstables, exports and sites; its players cannot be started, so `run` cannot add "
              "games.\n")
    return header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def import_sgf(paths: Sequence[str | os.PathLike[str]], out: str | os.PathLike[str], name: str | None = None
               ) -> ImportResult:
    """Read the SGF games at `paths` into a new results folder `out`; nothing is written when a game is bad."""
    directory = Path(out)
    if db_path(directory).exists():
        raise StoreError(f"{str(directory)!r} already holds a results store; import into a new folder")
    if os.path.lexists(directory / CONFIG_NAME):
        raise StoreError(f"{str(directory)!r} already holds a {CONFIG_NAME}; import into a new or empty folder")
    files = sgf_files(paths)
    sourced = read_sourced(files)
    records = [record for record, _ in sourced]
    for what in ("game", "board", "rules"):
        _one_setting(sourced, what)
    events = {r.tournament for r in records}
    name = name or (events.pop() if len(events) == 1 and "" not in events else directory.resolve().name)
    players = tuple(dict.fromkeys(itertools.chain.from_iterable((r.first, r.second) for r in records)))
    if len(players) < 2:
        raise RecordError(f"the games name only the player {players[0]!r}; a results folder needs two players")
    ids = [r.id for r in records]
    if None in ids or len(set(ids)) != len(ids):
        ids = list(range(1, len(records) + 1))  # the files' game numbers are missing or repeat: number in order
    records = [dataclasses.replace(r, tournament=name, id=game_id) for r, game_id in zip(records, ids)]
    text = synthetic_config(name, records, players, len(files))
    config_file = directory / CONFIG_NAME
    try:
        config = parse_config(text, source=str(config_file), base_dir=directory, require_files=False)
    except ConfigError as err:  # the config is ours; what it refuses came from an SGF file (or the folder's name)
        raise RecordError(_blame(err, sourced, players, name)) from err
    created = not os.path.lexists(directory)
    before = set() if created else _entries(directory)
    try:
        with open_store(config, directory, len(records)) as store:
            for record in sorted(records, key=lambda r: r.id or 0):
                store.add_game(record)
        write_file(config_file, text, "x", root=directory, error=StoreError)  # new, never through a link
    except BaseException:
        if created:
            shutil.rmtree(directory, ignore_errors=True)  # a failed import leaves no partial folder
        else:
            _remove_new(directory, before)
        raise
    return ImportResult(directory, name, len(records), players, len(files))


def _blame(err: ConfigError, sourced: Sequence[tuple[GameRecord, str]], players: Sequence[str], name: str) -> str:
    """The config reader's refusal of an imported game's value, said of the SGF file that gave the value."""
    problem = f"expected {err.expected}" if err.expected else str(err).removeprefix(f"{err.source}: ")
    player = re.fullmatch(r"players\[([0-9]+)\]\.name", err.path)
    if player:
        who = players[int(player.group(1))]
        source = next(source for record, source in sourced if who in (record.first, record.second))
        return f"{source}: player name {_shown(who)} cannot be used: {problem}"
    if err.path == "name":
        from_file = next((source for record, source in sourced if record.tournament == name), None)
        if from_file is not None:
            return f"{from_file}: EV[{_shown(name)[1:-1]}] cannot name the tournament: {problem}; give --name"
        return f"tournament name {_shown(name)} (--name, else the folder's name) cannot be used: {problem}"
    return f"{sourced[0][1]}: the games' {err.path or 'settings'} cannot be used: {problem}"


def _shown(text: str, limit: int = 40) -> str:
    """A value as an error shows it: its repr, cut to `limit` characters."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"


def _entries(directory: Path) -> set[str]:
    try:
        return set(os.listdir(directory))
    except OSError:
        return set()


def _remove_new(directory: Path, before: set[str]) -> None:
    """Remove the files a failed import made in a folder that existed already (the store, its lock, the config):
    only names it writes, only when they were not there before, never through a link."""
    ours = {CONFIG_NAME, *STORE_FILES}
    for name in sorted((_entries(directory) - before) & ours):
        with contextlib.suppress(OSError):
            os.unlink(directory / name)  # unlinking a link removes the link, never its target
