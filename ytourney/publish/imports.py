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
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from ytourney.errors import RecordError, StoreError
from ytourney.games.record import GameRecord
from ytourney.games.registry import DEFAULT_GAME, get_game
from ytourney.publish.sgf import read_sgf_games
from ytourney.safe_files import kind_of, read_file, write_file
from ytourney.tournament.config import parse_config
from ytourney.tournament.folder import LOCK_NAME
from ytourney.tournament.run import open_store
from ytourney.tournament.store import DB_NAME, db_path

SGF_BYTES = 64 << 20
"""Largest SGF file read."""
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
    """The SGF files named: files as given, folders searched for *.sgf (sorted); RecordError when none exist."""
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
    records = []
    for file in files:
        raw = read_file(file, SGF_BYTES, error=RecordError) or b""  # bounded; a FIFO or device is refused
        records += read_sgf_games(_decoded(raw), str(file))
    return records


def _decoded(raw: bytes) -> str:
    """SGF text: UTF-8 (a byte-order mark dropped) or UTF-16 with its mark; bytes that are neither are replaced."""
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return raw.decode("utf-16", errors="replace")
    return raw.decode("utf-8-sig", errors="replace")


def _one_setting(records: Sequence[GameRecord], what: str) -> None:
    """RecordError unless every game has the first game's `what`."""
    first = records[0]
    for record in records:
        if getattr(record, what) != getattr(first, what):
            raise RecordError(f"the games use more than one {what} ({getattr(first, what)!r} and "
                              f"{getattr(record, what)!r}); import each {what} into its own folder")


def synthetic_config(name: str, records: Sequence[GameRecord], players: Sequence[str], sources: int) -> str:
    """A config the config reader accepts, describing the imported games (board, rules, handicap, players)."""
    first = records[0]
    pairs = collections.Counter(frozenset((r.first, r.second)) for r in records)
    handicaps = max(r.handicap for r in records)
    data: dict[str, object] = {"name": name}
    if first.game != DEFAULT_GAME:
        data["game"] = first.game
    data |= {
        "board": first.board,
        "rules": get_game(first.game).rules_dict(first.rules),
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
    records = read_games(files)
    for what in ("game", "board", "rules"):
        _one_setting(records, what)
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
    config = parse_config(text, source=str(config_file), base_dir=directory, require_files=False)
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


def _entries(directory: Path) -> set[str]:
    try:
        return set(os.listdir(directory))
    except OSError:
        return set()


def _remove_new(directory: Path, before: set[str]) -> None:
    """Remove the files a failed import made in a folder that existed already (the store, its lock, the config):
    only names it writes, only when they were not there before, never through a link."""
    ours = {CONFIG_NAME, LOCK_NAME, *(DB_NAME + suffix for suffix in ("", "-wal", "-shm", "-journal"))}
    for name in sorted((_entries(directory) - before) & ours):
        with contextlib.suppress(OSError):
            os.unlink(directory / name)  # unlinking a link removes the link, never its target
