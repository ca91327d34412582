"""The results store's schema: its tables, their version, reading rows as records, and the move from version 1.

Version 1 (before games) held Y only, with pie and misere columns and a winner always; version 2 has a game
column, the game's rules as JSON, draws (a NULL winner) and scores. Readers take either; a run resuming a version 1
store rebuilds it as version 2 first.

A damaged row (a column holding what ytourney never writes: an unknown termination or winner, JSON that does not
parse or is not the type written there, a game or board no game knows, a text where a number belongs) is not
skipped: every reader refuses the whole folder in one line naming the game id (DamagedRowError, a StoreError for
its folder in store.py). Skipping would rate, cross-tabulate and publish a tournament with a game silently
missing, and a resumed run would try to play that game again into its occupied slot.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Sequence
from typing import Any

from ytourney.errors import RecordError, YTourneyError
from ytourney.games.api import Color
from ytourney.games.legacy import LEGACY_GAME, V1_RULE_SWITCHES
from ytourney.games.record import GameRecord, Termination, refuse_self_play
from ytourney.games.registry import get_game

SCHEMA_VERSION = 2
"""1: Y only (pie and misere columns, a winner always); 2: a game column, the game's rules as JSON, draws (a NULL
winner) and scores. Version 1 stores read as Y games and become version 2 when a run resumes them."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    name          TEXT NOT NULL,
    config_text   TEXT NOT NULL,
    config_hash   TEXT NOT NULL,
    config_key    TEXT NOT NULL,
    config_path   TEXT NOT NULL DEFAULT '',
    planned_games INTEGER NOT NULL,
    created       TEXT NOT NULL,
    updated       TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS players (
    id    INTEGER PRIMARY KEY,
    name  TEXT NOT NULL UNIQUE,
    spec  TEXT NOT NULL,
    kind  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id            INTEGER PRIMARY KEY,
    seq           INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    game          TEXT NOT NULL DEFAULT '$LEGACY_GAME',
    board         TEXT NOT NULL,
    rules         TEXT NOT NULL,
    handicap      INTEGER NOT NULL,
    first         TEXT NOT NULL,
    second        TEXT NOT NULL,
    black         TEXT NOT NULL,
    white         TEXT NOT NULL,
    winner        TEXT CHECK (winner IN ('black', 'white')),
    winner_name   TEXT,
    termination   TEXT NOT NULL,
    reason        TEXT NOT NULL DEFAULT '',
    seed          INTEGER,
    started       TEXT NOT NULL,
    finished      TEXT NOT NULL,
    opening_plies INTEGER NOT NULL DEFAULT 0,
    num_moves     INTEGER NOT NULL,
    extra         TEXT NOT NULL DEFAULT '{}',
    score         TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game_id  INTEGER PRIMARY KEY REFERENCES games(id),
    moves    TEXT NOT NULL,
    seconds  TEXT NOT NULL
);
CREATE VIEW IF NOT EXISTS move_rows (game_id, ply, move, seconds) AS
    SELECT moves.game_id, played.key + 1, played.value, json_extract(moves.seconds, '$[' || played.key || ']')
    FROM moves, json_each(moves.moves) AS played;
""".replace("$LEGACY_GAME", LEGACY_GAME)  # rows written before the game column are the legacy game's

GAMES_TABLE = "CREATE TABLE games (" + SCHEMA.split("CREATE TABLE IF NOT EXISTS games (")[1].split(";")[0]

COLORS = {str(color): color for color in Color}

GAME_COLUMNS = (
    "id", "seq", "round", "game", "board", "rules", "handicap", "first", "second", "black", "white", "winner",
    "winner_name", "termination", "reason", "seed", "started", "finished", "opening_plies", "num_moves", "extra",
    "score",
)
V1_RULES = "json_object(" + ", ".join(f"'{key}', json(CASE WHEN games.{key} THEN 'true' ELSE 'false' END)"
                                      for key in V1_RULE_SWITCHES) + ")"
V1_AS_V2 = {"game": f"'{LEGACY_GAME}'", "rules": V1_RULES, "score": "NULL"}
"""How a version 1 games table yields each version 2 column it lacks: every game is the legacy game (Y), its rules
from the version 1 switch columns."""


class RowReader:
    """Turns rows into records, sharing equal strings (names, and move tokens unless streaming) between records to
    save memory when many records are kept."""

    def __init__(self, tournament: str, *, moves: bool = True, times: bool = True, share_moves: bool = True) -> None:
        self.tournament = tournament
        self.moves = moves
        self.times = times
        self.share_moves = share_moves
        self._strings: dict[str, str] = {}
        self._parsed: dict[tuple[str, str], Any] = {}
        self._boards: set[tuple[str, str]] = set()  # (game, board) pairs already checked

    def _shared(self, text: str) -> str:
        return self._strings.setdefault(text, text)

    def record(self, row: Sequence[Any]) -> GameRecord:
        """The GameRecord of one `_SELECT_GAMES` row; DamagedRowError naming the game when a column holds what
        ytourney never writes (an unknown termination or winner, bad JSON, a wrong type)."""
        try:
            return self._record(row)
        except (YTourneyError, ValueError, TypeError, KeyError) as err:
            problem = str(err) if isinstance(err, YTourneyError) else f"{type(err).__name__}: {err}"
            raise DamagedRowError(f"game {row[0]!r} is damaged: {' '.join(problem.split())[:300]}",
                                  row[0]) from err

    def _record(self, row: Sequence[Any]) -> GameRecord:
        (game_id, _, round_number, game, board, rules_text, handicap, first, second, black, white, winner, _,
         termination, reason, seed, started, finished, opening_plies, _, extra, score, moves_text, seconds_text) = row
        for column, value, kind in (("id", game_id, int), ("round", round_number, int), ("handicap", handicap, int),
                                    ("opening_plies", opening_plies, int), ("seed", seed, (int, type(None))),
                                    ("game", game, str), ("board", board, str), ("first", first, str),
                                    ("second", second, str), ("black", black, str), ("white", white, str),
                                    ("reason", reason, str), ("started", started, str), ("finished", finished, str)):
            if not isinstance(value, kind) or isinstance(value, bool):
                raise RecordError(f"column {column} holds {value!r}; expected {_kind_name(kind)}")
        refuse_self_play(black, white, first, second)  # as SGF import and JSON lines refuse it
        if handicap < 0 or winner not in (None, *COLORS):
            raise RecordError(f"handicap {handicap!r} and winner {winner!r}; expected a handicap >= 0 and a winner "
                              f"{', '.join(COLORS)} or none")
        shared = self._shared
        moves: tuple[str, ...] = ()
        seconds: tuple[float, ...] = ()
        if self.moves and moves_text:
            played = _json(moves_text, "moves", list)
            if not all(isinstance(token, str) for token in played):
                raise RecordError("column moves holds a list that is not all text; expected move tokens")
            moves = tuple(map(shared, played)) if self.share_moves else tuple(played)
            if self.times and seconds_text:
                seconds = tuple(_json(seconds_text, "seconds", list))
                if not all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in seconds):
                    raise RecordError("column seconds holds a list that is not all numbers; expected move times")
        scores = None if score is None else tuple(_json(score, "score", list))
        if scores is not None and (len(scores) != 2 or not all(isinstance(value, (int, float)) and
                                                               math.isfinite(value) for value in scores)):
            raise RecordError(f"column score holds {score!r}; expected two numbers")
        if (game, board) not in self._boards:
            get_game(game).parse_board(board)
            self._boards.add((game, board))
        return GameRecord(
            id=game_id,
            tournament=self.tournament,
            game=shared(game),
            round=round_number,
            board=shared(board),
            rules=self._rules(game, rules_text),
            handicap=handicap,
            first=shared(first),
            second=shared(second),
            black=shared(black),
            white=shared(white),
            moves=moves,
            winner=None if winner is None else COLORS[winner],
            termination=Termination.parse(termination),
            move_seconds=seconds,
            seed=seed,
            started=started,
            finished=finished,
            reason=reason,
            opening_plies=opening_plies,
            extra=_json(extra, "extra", dict) if extra and extra != "{}" else {},
            score=scores,  # type: ignore[arg-type]
        )

    def _rules(self, game: str, text: str) -> Any:
        """The rules value of a stored JSON text, parsed once per distinct text."""
        key = (game, text)
        rules = self._parsed.get(key)
        if rules is None:
            rules = self._parsed[key] = get_game(game).parse_rules(_json(text, "rules", dict))
        return rules


class DamagedRowError(RecordError):
    """A stored games row that ytourney never writes; the store reader refuses its folder in one line."""

    def __init__(self, message: str, game_id: object) -> None:
        super().__init__(message)
        self.game_id = game_id


def _json(text: object, column: str, kind: type) -> Any:
    """The JSON value of a column, of the type ytourney writes there."""
    try:
        value = json.loads(text)  # type: ignore[arg-type]
    except (TypeError, ValueError) as err:
        raise RecordError(f"column {column} holds {str(text)[:60]!r}, which is not JSON") from err
    if not isinstance(value, kind):
        raise RecordError(f"column {column} holds {str(text)[:60]!r}; expected a JSON {_kind_name(kind)}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {int: "whole number", str: "text", list: "list", dict: "object", type(None): "null"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def game_columns(conn: sqlite3.Connection) -> str:
    """The select list of a games row in version 2's order, from a version 2 or a version 1 table."""
    present = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
    if "game" in present or "pie" not in present:  # version 2 (a damaged table fails loudly on its missing column)
        return ", ".join(f"games.{c}" for c in GAME_COLUMNS)
    return ", ".join(f"{V1_AS_V2[c]} AS {c}" if c in V1_AS_V2 else f"games.{c}" for c in GAME_COLUMNS)


def migrate_v1(conn: sqlite3.Connection) -> None:
    """Rebuild a version 1 games table as version 2 in one transaction: every game becomes a Y game with its rules
    as JSON, and draws become possible. SQLite cannot alter a CHECK in place, so the table is copied, the old one
    dropped and the copy renamed, with foreign keys off meanwhile (SQLite's own recipe for such changes)."""
    present = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
    if not present or "game" in present:
        return
    values = ", ".join(V1_AS_V2[c] if c in V1_AS_V2 else f"games.{c}" for c in GAME_COLUMNS)
    conn.execute("PRAGMA foreign_keys=OFF")
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(GAMES_TABLE.replace("CREATE TABLE games (", "CREATE TABLE games_v2 (", 1))
            conn.execute(f"INSERT INTO games_v2 ({', '.join(GAME_COLUMNS)}) SELECT {values} FROM games")
            conn.execute("DROP TABLE games")
            conn.execute("ALTER TABLE games_v2 RENAME TO games")
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    finally:
        conn.execute("PRAGMA foreign_keys=ON")
