"""Results to report on: the games of results folders (or exported JSON-lines files), read in league order."""

from __future__ import annotations

import functools
import itertools
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ytourney.errors import ReportError, YTourneyError
from ytourney.game.record import GameRecord, replay_order
from ytourney.stats.ratings import Ratings, RatingSettings, rate_records


@dataclass(frozen=True)
class Source:
    """The games of one results folder (or JSON-lines file), in game-id order.

    A folder's games stay in its store until asked for: `iter_records` streams them one at a time (what the rating
    table needs), `records` reads them all once and keeps them (crosstables, exports, the published site).
    `loaded` holds the games of a file, read when the source is opened.
    """

    path: Path
    name: str
    loaded: tuple[GameRecord, ...] | None = None
    config_text: str = ""

    @functools.cached_property
    def records(self) -> tuple[GameRecord, ...]:
        """Every game, in game-id order, read once."""
        if self.loaded is not None:
            return tuple(replay_order(self.loaded))
        from ytourney.tournament import store

        return tuple(store.load_records(self.path))

    def iter_records(self, *, moves: bool = True, times: bool = True) -> Iterator[GameRecord]:
        """The games in game-id order; a folder's are streamed from its store (times left out with `times=False`,
        moves and times with `moves=False`) unless they were already read."""
        if self.loaded is not None or "records" in self.__dict__:
            return iter(self.records)
        from ytourney.tournament import store

        return store.stream_records(self.path, moves=moves, times=times)


def load_source(path: str | os.PathLike[str]) -> Source:
    """Games of a results folder (its tournament.db, read when needed) or of a JSON-lines export file (`.jsonl`)."""
    location = Path(path)
    if location.is_file() and location.suffix.lower() in (".jsonl", ".json", ".ndjson"):
        return Source(location, location.stem, tuple(read_jsonl(location)))
    if not location.exists():
        raise ReportError(f"results folder {str(location)!r} does not exist")
    from ytourney.tournament import store

    if not store.db_path(location).is_file():
        store.load_records(location)  # raises the store's "not a results folder" error
    try:
        info = store.load_info(location)
        name, config_text = info.name or location.name, info.config_text
    except YTourneyError:  # the config is optional context for the report; the games are what counts
        first = next(store.stream_records(location, moves=False), None)
        name, config_text = (first.tournament if first else "") or location.name, ""
    return Source(location, name, None, config_text)


def load_sources(paths: Iterable[str | os.PathLike[str]]) -> list[Source]:
    """Every source in the order given (the league order)."""
    sources = [load_source(path) for path in paths]
    if not sources:
        raise ReportError("no results folder given; expected one or more results folders")
    return sources


def read_jsonl(path: str | os.PathLike[str]) -> list[GameRecord]:
    """Game records from a JSON-lines file (one record object per line, as `export --format jsonl` writes)."""
    location = Path(path)
    try:
        lines = location.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise ReportError(f"cannot read records file {str(location)!r}: {err.strerror or err}") from err
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as err:
            raise ReportError(f"{str(location)!r} line {number}: not JSON ({err.msg})") from err
        records.append(GameRecord.from_dict(data))
    return records


@dataclass(frozen=True)
class SourceSettings:
    """What a results folder's config says about reporting: rating parameters, SPRT, players, handicap section."""

    ratings: RatingSettings = field(default_factory=RatingSettings)
    sprt: Any = None
    players: tuple[str, ...] = ()
    handicap: Mapping[str, Any] | None = None


def source_settings(source: Source) -> SourceSettings:
    """Settings read from the stored config text (plain YAML; unreadable parts fall back to the defaults)."""
    import yaml

    try:
        data = yaml.safe_load(source.config_text) if source.config_text else None
    except yaml.YAMLError:
        data = None
    if not isinstance(data, Mapping):
        return SourceSettings()
    try:
        ratings = RatingSettings.from_mapping(data.get("ratings"))
    except YTourneyError:
        ratings = RatingSettings()
    players = tuple(str(p["name"]) for p in data.get("players") or () if isinstance(p, Mapping) and "name" in p)
    sprt = None
    schedule = data.get("schedule")
    if isinstance(schedule, Mapping) and schedule.get("sprt") is not None:
        from ytourney.stats.sprt import SprtSettings

        try:
            sprt = SprtSettings.from_mapping(schedule["sprt"])
        except YTourneyError:
            sprt = None
    handicap = data.get("handicap") if isinstance(data.get("handicap"), Mapping) else None
    return SourceSettings(ratings, sprt, players, handicap)


def sprt_state_of(source: Source) -> Any:
    """The SPRT state of a match folder whose config has `schedule.sprt` (first player tested), else None."""
    settings = source_settings(source)
    if settings.sprt is None or len(settings.players) < 2:
        return None
    from ytourney.stats.sprt import sprt_from_records

    return sprt_from_records(source.iter_records(moves=False), settings.sprt, settings.players[0],
                             settings.players[1])


def rate_sources(sources: Sequence[Source], settings: RatingSettings | Mapping[str, Any] | object | None = None,
                 *, detail: bool = True) -> Ratings:
    """Rate several sources together as a league (source order, then game id).

    With `detail=False` the games are streamed from the stores and nothing per game is kept (what a rating table
    needs): memory stays flat however many games the folders hold.
    """
    games = itertools.chain.from_iterable(s.records if detail else s.iter_records(times=False) for s in sources)
    return rate_records(games, settings, ordered=True, detail=detail)


