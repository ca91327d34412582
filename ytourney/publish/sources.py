"""Results to report on: the games of results folders (or exported JSON-lines files), read in league order.

A results folder's stored config is read again by the one config reader, without the files it names (they may be
on another machine): its rating, handicap and SPRT settings are the ones the tournament ran with. A stored config
that no longer reads is an error naming the folder, never a silent fall back to default settings.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ytourney.errors import RecordError, ReportError, StoreError
from ytourney.games.api import Game
from ytourney.games.record import GameRecord, replay_order
from ytourney.games.legacy import is_legacy, recorded_game
from ytourney.games.registry import get_game
from ytourney.stats import elo_sprt
from ytourney.stats.elo import EloFit, fit_elo
from ytourney.stats.elo_sprt import EloSprtSettings, EloSprtState
from ytourney.stats.handicap import HandicapSettings
from ytourney.stats.ratings import Ratings, RatingSettings, rate_records
from ytourney.stats.sprt import SprtState, sprt_from_records

if TYPE_CHECKING:
    from ytourney.tournament.config import TournamentConfig


@dataclass(frozen=True)
class Source:
    """The games of one results folder (or JSON-lines file), in game-id order.

    A folder's games stay in its store until asked for: `iter_records` streams them one at a time (what the rating
    table needs), `records` reads them all once and keeps them (crosstables, exports, the published site).
    `loaded` holds the games of a file, read when the source is opened; `config` the folder's stored config (None
    for a file, or a folder that stores none).
    """

    path: Path
    name: str
    loaded: tuple[GameRecord, ...] | None = None
    config: TournamentConfig | None = None

    @property
    def rating_settings(self) -> RatingSettings:
        """The rating parameters its tournament ran with (the defaults without a config)."""
        return self.config.ratings if self.config is not None else RatingSettings()

    @property
    def handicap_settings(self) -> HandicapSettings:
        """The handicap settings its tournament ran with (no handicaps without a config)."""
        return self.config.handicap if self.config is not None else HandicapSettings()

    @functools.cached_property
    def records(self) -> tuple[GameRecord, ...]:
        """Every game, in game-id order, read once."""
        if self.loaded is not None:
            return tuple(replay_order(self.loaded))
        from ytourney.tournament import store

        return tuple(store.load_records(self.path))

    def iter_records(self, *, moves: bool = True, times: bool = True,
                     completion_order: bool = False) -> Iterator[GameRecord]:
        """The games in game-id order; a folder's are streamed from its store (times left out with `times=False`,
        moves and times with `moves=False`, in the order they were stored with `completion_order`) unless they were
        already read."""
        if self.loaded is None and (completion_order or "records" not in self.__dict__):
            from ytourney.tournament import store

            return store.stream_records(self.path, moves=moves, times=times, completion_order=completion_order)
        return iter(self.records)


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
    except StoreError:  # a store holding no tournament row has no config: name it after its games
        first = next(store.stream_records(location, moves=False), None)
        return Source(location, (first.tournament if first else "") or location.name)
    return Source(location, info.name or location.name, None,
                  read_stored_config(location, info.config_text, info.name))


def read_stored_config(folder: Path, text: str, name: str) -> TournamentConfig | None:
    """The config a results folder stores, read again without its files (None when it stores none)."""
    if not text.strip():
        return None
    from ytourney.tournament.config import parse_config

    return parse_config(text, f"stored config of results folder {str(folder)!r}", folder, require_files=False,
                        default_name=name or None)


def load_sources(paths: Iterable[str | os.PathLike[str]]) -> list[Source]:
    """Every source in the order given (the league order); a folder or file given twice is refused, since its
    games would count twice."""
    given: dict[Path, str] = {}
    for path in paths:
        where = Path(path).resolve()
        if where in given:
            raise ReportError(f"results folder {str(path)!r} is given twice (also as {given[where]!r}); its games "
                              "would count twice: give each folder once")
        given[where] = str(path)
    sources = [load_source(path) for path in given.values()]
    if not sources:
        raise ReportError("no results folder given; expected one or more results folders")
    _refuse_shared_games(sources)
    return sources


def game_identity(record: GameRecord) -> tuple[Any, ...]:
    """What tells one played game from every other: its tournament, id, players, seed and start time (a copy of a
    folder, or an export of it, holds the same values; two runs of one config never do)."""
    return (record.tournament, record.id, record.first, record.second, record.seed, record.started)


def _refuse_shared_games(sources: Sequence[Source]) -> None:
    """ReportError when a game is held by two sources (a folder and its copy, or its export): every report would
    count it twice. Every command reading folders comes through here, so all count alike."""
    if len(sources) < 2:
        return
    held: dict[tuple[Any, ...], Source] = {}
    for source in sources:
        shared: dict[str, int] = {}
        for record in source.iter_records(moves=False):
            first = held.setdefault(game_identity(record), source)
            if first is not source:
                shared[str(first.path)] = shared.get(str(first.path), 0) + 1
        if shared:
            other, count = next(iter(shared.items()))
            raise ReportError(f"{str(source.path)!r} holds {count} game(s) that {other!r} holds too (a copy or an "
                              "export of it?); they would count twice: give each game's folder once")


VARIANT_IGNORES = ("pie",)
"""Rules options that do not make a league of their own: a tournament's handicap games are played without pie."""


@dataclass(frozen=True)
class LeagueKey:
    """A game, board and rules set as a league tells them apart: games of different keys measure different skills
    and are rated apart (the games layer's Variant is the played value; this is its key in a report).

    `rules` is the rules set as sorted JSON, without the options of VARIANT_IGNORES (the pie rule)."""

    game: Game
    board: str
    rules: str

    @classmethod
    def of(cls, game: Game, board: str, rules: Mapping[str, Any]) -> LeagueKey:
        """The key of a game, board spec and rules mapping (as stores keep them)."""
        kept = {key: value for key, value in rules.items() if key not in VARIANT_IGNORES}
        return cls(game, board, json.dumps(kept, sort_keys=True, separators=(",", ":")))

    @property
    def names_game(self) -> bool:
        """True when `label` names the game: for every game but Y, whose labels read as before games existed."""
        return not is_legacy(self.game.name)

    @property
    def label(self) -> str:
        """Like `tri:9, misère` (Y), `tetra kadon` (another game), with the game's label of its rules."""
        game = self.game
        rules = game.rules_label(game.parse_rules(json.loads(self.rules)))
        where = f"{game.name} {self.board}" if self.names_game else self.board
        return f"{where}, {rules}" if rules else where


def variant_of(record: GameRecord) -> LeagueKey:
    """The game, board and rules a game was played with."""
    return LeagueKey.of(record.game_rules, record.board, record.rules_dict)


def _stored_variant(row: Sequence[Any]) -> LeagueKey:
    """A league key from a row of `store.stored_variants`: (game, board, rules mapping)."""
    name, board, rules = row
    game = get_game(recorded_game(name))  # a name read from a store
    return LeagueKey.of(game, board, game.rules_dict(game.parse_rules(rules)))


def refuse_pool_across_games(variants: Sequence[tuple[LeagueKey, Sequence[Source]]]) -> None:
    """ReportError when a pool would mix games: a pool rates one game's boards and rules sets together, and a
    player's skill at one game says nothing of another."""
    games: dict[str, list[str]] = {}
    for variant, held in variants:
        folders = games.setdefault(variant.game.name, [])
        folders += [str(source.path) for source in held if str(source.path) not in folders]
    if len(games) > 1:
        held: dict[str, list[str]] = {}  # a folder's games: a JSON-lines file may hold several
        for name, folders in games.items():
            for folder in folders:
                held.setdefault(folder, []).append(name)
        if any(len(names) > 1 for names in held.values()):
            listed = "; ".join(f"{folder!r} holds {' and '.join(names)}" for folder, names in held.items())
        else:
            listed = "; ".join(f"{', '.join(repr(folder) for folder in folders)} "
                               f"hold{'s' if len(folders) == 1 else ''} {name}" for name, folders in games.items())
        raise ReportError(f"--pool rates one game's boards and rules sets together, but {listed}; leave out --pool "
                          "for one table per game, or give one game's folders")


def split_by_variant(sources: Sequence[Source]) -> list[tuple[LeagueKey, list[Source]]]:
    """The variants of a league's games in league order, each with the sources holding its games (a folder's
    are asked of its store, without reading its games)."""
    from ytourney.tournament import store

    found: dict[LeagueKey, list[Source]] = {}
    for source in sources:
        if source.loaded is None:
            held = list(dict.fromkeys(_stored_variant(row) for row in store.stored_variants(source.path)))
        else:
            held = list(dict.fromkeys(variant_of(record) for record in source.loaded))
        for variant in held:
            found.setdefault(variant, []).append(source)
    return list(found.items())


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
        if not isinstance(data, dict):
            raise ReportError(f"{str(location)!r} line {number}: not a game record: expected a JSON object, found "
                              f"{type(data).__name__}")
        try:
            records.append(GameRecord.from_dict(data))
        except RecordError as err:  # said of the line, without the record's dump
            cause = err.__cause__
            what = f"missing key {cause}" if isinstance(cause, KeyError) else str(cause or err)
            raise ReportError(f"{str(location)!r} line {number}: not a game record: {what}") from err
    return records


def sprt_state_of(source: Source) -> SprtState | EloSprtState | None:
    """The SPRT state of a match folder whose config has `schedule.sprt` (first player tested), else None.

    The games are replayed in the store's completion order, the order the run's stop condition saw them in (on
    resume too: the scheduler replays the stored games in that order first), so the decision shown is the one that
    stopped the run, whatever the number of workers. Storing the decision instead would need a schema change and
    would still leave the counts after it to be replayed; the order reproduces the whole state.
    """
    config = source.config
    if config is None or config.schedule.sprt is None:
        return None
    player, opponent = config.player_names[:2]
    records = source.iter_records(moves=False, completion_order=True)
    settings = config.schedule.sprt
    if isinstance(settings, EloSprtSettings):
        return elo_sprt.sprt_from_records(records, settings, player, opponent)
    return sprt_from_records(records, settings, player, opponent, as_given=True)


def rate_sources(sources: Sequence[Source], settings: RatingSettings | None = None, *,
                 detail: bool = True, variant: LeagueKey | None = None) -> Ratings:
    """Rate several sources together as a league (source order, then game id); with `variant`, only its games.

    With `detail=False` the games are streamed from the stores and nothing per game is kept (what a rating table
    needs): memory stays flat however many games the folders hold.
    """
    games: Iterable[GameRecord] = itertools.chain.from_iterable(
        s.records if detail else s.iter_records(times=False) for s in sources)
    if variant is not None:
        games = (record for record in games if variant_of(record) == variant)
    return rate_records(games, settings, ordered=True, detail=detail)




def fit_sources(sources: Sequence[Source], anchor: str | None = None, *, variant: LeagueKey | None = None) -> EloFit:
    """Bradley-Terry Elo of several sources' games together (streamed from the stores, results only), only the
    games of `variant` (a game, board and rules set) when given, as `rate_sources` rates them."""
    games: Iterable[GameRecord] = itertools.chain.from_iterable(s.iter_records(moves=False) for s in sources)
    if variant is not None:
        games = (record for record in games if variant_of(record) == variant)
    return fit_elo(games, anchor=anchor)
