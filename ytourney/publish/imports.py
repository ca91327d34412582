"""`ytourney import`: SGF games played elsewhere into a results folder, to be rated with ours.

Every file is read and every move replayed before anything is written: one bad game stops the import with its file
and move number, and the folder stays as it was. The folder gets a store whose config is a synthetic config the one
config reader accepts (its board and rules, the players as engines that cannot be started: imported games are for
ratings, crosstables, exports and sites, not for `run`), written next to it as config.yaml.
"""

from __future__ import annotations

import collections
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
from ytourney.tournament.config import parse_config
from ytourney.tournament.run import open_store
from ytourney.tournament.store import db_path

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
        else:
            raise RecordError(f"{str(path)!r} does not exist; give SGF files or folders holding them")
    return files


def read_games(files: Sequence[Path]) -> list[GameRecord]:
    """Every game of every file, checked move by move."""
    records = []
    for file in files:
        try:
            text = file.read_text(encoding="utf-8", errors="replace")
        except OSError as err:
            raise RecordError(f"cannot read {str(file)!r}: {err.strerror or err}") from err
        records += read_sgf_games(text, str(file))
    return records


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
    config_file = directory / "config.yaml"
    config = parse_config(text, source=str(config_file), base_dir=directory, require_files=False)
    created = not directory.exists()
    try:
        with open_store(config, directory, len(records)) as store:
            for record in sorted(records, key=lambda r: r.id or 0):
                store.add_game(record)
        config_file.write_text(text, encoding="utf-8")
    except BaseException:
        if created:
            shutil.rmtree(directory, ignore_errors=True)  # a failed import leaves no partial folder
        raise
    return ImportResult(directory, name, len(records), players, len(files))
