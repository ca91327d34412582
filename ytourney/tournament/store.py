"""SQLite results store of one tournament folder: one transaction per finished game, a run lock, resume.

Layout of a results folder `<out>/`:
  tournament.db   the store (SQLite in WAL mode); the source of truth for every finished game
  run.lock        held with an exclusive flock by the run writing the folder; the kernel drops it when that
                  process dies (kill -9 included), so a crashed run never leaves a stale lock behind

Durability: WAL with synchronous=NORMAL. A commit is atomic and survives any crash of the process (kill -9,
Ctrl-C, an exception); only a power loss or OS crash can drop the last few commits, and the database stays
consistent even then. A dropped game is simply replayed on resume, because the slot id of every planned game is
UNIQUE: a game can be missing for a moment but never doubled. FULL would add one fsync per game, which for fast
bots costs more than the game itself.

Readers (`load_records`, `stream_records`, `load_info`) take no lock and never write: they work while a run holds
the lock.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import sqlite3
import urllib.parse
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing_extensions import Self

from ytourney.errors import ConfigMismatchError, StoreError, YTourneyError
from ytourney.games.record import GameRecord, utc_now
from ytourney.games.registry import get_game
from ytourney.tournament.folder import LOCK_NAME, SQLITE_SUFFIXES, RunLock, refuse_links
from ytourney.tournament.store_schema import (
    DamagedRowError,
    GAME_COLUMNS,
    SCHEMA,
    SCHEMA_VERSION,
    RowReader,
    game_columns,
    migrate_v1,
)

DB_NAME = "tournament.db"
STORE_FILES = frozenset({LOCK_NAME, *(DB_NAME + suffix for suffix in SQLITE_SUFFIXES)})
"""The files of a results folder's store, which only the store writes."""
BUSY_TIMEOUT_MS = 10_000
@dataclass(frozen=True)
class StoredPlayer:
    """A player as the store remembers it: name, spec text and kind (builtin, plugin, gtp)."""

    name: str
    spec: str
    kind: str


@dataclass(frozen=True)
class TournamentInfo:
    """The tournament row of a store: name, config (text, hash, canonical key) and planned game count."""

    name: str
    config_text: str
    config_hash: str
    config_key: dict[str, Any]
    config_path: str
    planned_games: int
    created: str
    updated: str


def db_path(directory: str | os.PathLike[str]) -> Path:
    """Path of the store inside a results folder."""
    return Path(directory) / DB_NAME


def config_differences(old: Any, new: Any, path: str = "") -> list[str]:
    """Key paths (like `schedule.games_per_pair`, `players[2].bot`) where two canonical configs differ."""
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        found: list[str] = []
        for key in sorted(set(old) | set(new), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in old or key not in new:
                found.append(sub)
            else:
                found.extend(config_differences(old[key], new[key], sub))
        return found
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return [f"{path or 'config'} ({len(old)} entries, now {len(new)})"]
        found = []
        for index, (a, b) in enumerate(zip(old, new)):
            found.extend(config_differences(a, b, f"{path}[{index}]"))
        return found
    return [] if old == new else [path or "config"]


def _failure(action: str, path: Path, err: sqlite3.Error) -> StoreError:
    """A StoreError for a failed SQLite call: a full disk says so, a damaged store says how to go on."""
    code = getattr(err, "sqlite_errorcode", 0) & 0xFF  # the primary code of an extended one
    if code == sqlite3.SQLITE_FULL or "disk is full" in str(err):
        return StoreError(f"cannot {action} {str(path)!r}: disk full; free some space and run the same command "
                          "again to resume (stored games are kept)")
    if code in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM) or "readonly" in str(err):
        return StoreError(f"cannot {action} {str(path)!r}: the results folder is not writable ({err}); use --out "
                          "to write to a writable folder")
    return StoreError(f"cannot {action} {str(path)!r}: {err} (the store is damaged or was not written by "
                      "ytourney; use --out to start a new results folder)")


def _rollback(conn: sqlite3.Connection) -> None:
    """Roll back the open transaction, if SQLite has not already rolled it back itself (it does on a full disk)."""
    if conn.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


def _connect(path: Path, *, read_only: bool) -> sqlite3.Connection:
    """A connection with the store's pragmas; read-only connections never create or change files."""
    try:
        if read_only:
            uri = f"file:{urllib.parse.quote(path.resolve().as_posix())}?mode=ro"  # '#', '?' and '%' quoted
            conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
        else:
            conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        return conn
    except sqlite3.Error as err:
        raise _failure("open results store", path, err) from err


def _json_moves(moves: Sequence[str]) -> str:
    """Moves as a JSON array of strings (fast path for plain move tokens)."""
    if "".join(moves).isalnum():  # one C call; plain tokens need no escaping
        return '["' + '","'.join(moves) + '"]' if moves else "[]"
    return json.dumps(list(moves))


_SECONDS_FORMATS: dict[int, str] = {}


def _json_seconds(seconds: Sequence[float]) -> str:
    """Move times as a JSON array of seconds with microsecond precision (one format call: this runs per game)."""
    count = len(seconds)
    template = _SECONDS_FORMATS.get(count)
    if template is None:
        template = _SECONDS_FORMATS.setdefault(count, "[" + ",".join(["%.6f"] * count) + "]")
    return template % tuple(seconds)


@dataclass(frozen=True)
class EncodedMoves:
    """A game's moves and move times in the store's form (JSON arrays) and how many there are: encoded where the
    game was played, so the process writing the store only writes them."""

    moves: str
    seconds: str
    count: int

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # one per game through a pipe: the three values pickle smaller and load faster than the instance dict
        return (EncodedMoves, (self.moves, self.seconds, self.count))


def encode_moves(record: GameRecord) -> EncodedMoves:
    """The stored form of a record's moves and move times; StoreError when their counts differ."""
    if len(record.move_seconds) != len(record.moves):
        raise StoreError(f"game {record.id} has {len(record.moves)} moves but {len(record.move_seconds)} move times")
    return EncodedMoves(_json_moves(record.moves), _json_seconds(record.move_seconds), len(record.moves))


_INSERT_GAME = f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) VALUES ({', '.join('?' * len(GAME_COLUMNS))})"


def _iter_records(conn: sqlite3.Connection, tournament: str, *, order: str = "id", moves: bool = True,
                  times: bool = True, share_moves: bool = True) -> Iterator[GameRecord]:
    """Stream every game in game-id order (or completion order with order='seq'); without moves it is cheap."""
    reader = RowReader(tournament, moves=moves, times=times, share_moves=share_moves)
    columns = game_columns(conn)
    if moves:
        query = (f"SELECT {columns}, moves.moves, {'moves.seconds' if times else 'NULL'}"
                 " FROM games LEFT JOIN moves ON moves.game_id = games.id")
    else:
        query = f"SELECT {columns}, NULL, NULL FROM games"
    for row in conn.execute(f"{query} ORDER BY games.{order}"):
        yield reader.record(row)


@contextlib.contextmanager
def _reader(directory: str | os.PathLike[str]) -> Iterator[sqlite3.Connection]:
    path = db_path(directory)
    if not path.is_file():
        raise StoreError(
            f"{str(directory)!r} is not a results folder: it has no {DB_NAME} (run `ytourney run CONFIG` first)"
        )
    refuse_links(path)
    conn = _connect(path, read_only=True)
    try:
        _check_version(conn, Path(directory))
        yield conn
    except sqlite3.Error as err:
        raise _failure("read results store", path, err) from err
    except DamagedRowError as err:
        raise damaged(path, err) from err
    finally:
        conn.close()


def damaged(path: Path, err: DamagedRowError) -> StoreError:
    """The one line that refuses a results store holding a damaged row (see store_schema)."""
    remedy = "restore it from a backup"
    if isinstance(err.game_id, int):
        remedy += (f", or delete that game (DELETE FROM games WHERE id = {err.game_id}; DELETE FROM moves WHERE "
                   f"game_id = {err.game_id}) and a run plays it again")
    return StoreError(f"results store {str(path)!r} is damaged, so it is not read: {err}; {remedy}")


def _check_version(conn: sqlite3.Connection, folder: Path) -> None:
    """Refuse a store written by a newer ytourney: its layout may mean something this version would misread."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"results store in {str(folder)!r} has schema version {version}, written by a newer ytourney; this "
            f"ytourney reads up to {SCHEMA_VERSION} (upgrade ytourney)"
        )


def _check_columns(conn: sqlite3.Connection, folder: Path) -> None:
    """Refuse a store whose games table lacks a column this version writes and reads."""
    present = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
    missing = [column for column in GAME_COLUMNS if column not in present]
    if missing:
        raise StoreError(f"results store in {str(folder)!r} is damaged: its games table has no column "
                         f"{', '.join(missing)}; use --out to start a new results folder")


def _has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone() is not None


def _info(conn: sqlite3.Connection) -> TournamentInfo | None:
    if not _has_table(conn, "tournaments"):  # a store killed before its schema was written holds no tournament
        return None
    row = conn.execute(
        "SELECT name, config_text, config_hash, config_key, config_path, planned_games, created, updated"
        " FROM tournaments WHERE id = 1"
    ).fetchone()
    if row is None:
        return None
    name, text, digest, key, path, planned, created, updated = row
    try:
        config_key = json.loads(key)
    except (TypeError, ValueError) as err:
        raise DamagedRowError(f"the tournament row's config_key {str(key)[:60]!r} is not JSON", None) from err
    return TournamentInfo(name, text, digest, config_key, path, planned, created, updated)


def load_records(directory: str | os.PathLike[str], *, times: bool = True) -> list[GameRecord]:
    """Every finished game of a results folder in game-id order; read-only, safe while a run is writing.

    `times=False` leaves `move_seconds` empty, which saves about half the memory of a large tournament.
    """
    with _reader(directory) as conn:
        info = _info(conn)
        if info is None and not _has_table(conn, "games"):
            return []
        return list(_iter_records(conn, info.name if info else "", times=times))


def stream_records(directory: str | os.PathLike[str], *, moves: bool = True, times: bool = True,
                   completion_order: bool = False) -> Iterator[GameRecord]:
    """Every finished game of a results folder in game-id order, read one at a time: memory does not grow with the
    number of games. Read-only and safe while a run is writing (the stream sees the games stored when it starts).

    `moves=False` leaves moves and times empty; `times=False` leaves only `move_seconds` empty;
    `completion_order=True` gives them in the order they were stored (what a run's stop condition saw).
    """
    with _reader(directory) as conn:
        info = _info(conn)
        if info is None and not _has_table(conn, "games"):
            return
        yield from _iter_records(conn, info.name if info else "", order="seq" if completion_order else "id",
                                 moves=moves, times=times, share_moves=False)


def stored_variants(directory: str | os.PathLike[str]) -> list[tuple[str, str, dict[str, Any]]]:
    """The (game, board, rules) sets of a results folder's games, in the order they first appear (one query, no
    game read)."""
    with _reader(directory) as conn:
        if not _has_table(conn, "games"):
            return []
        columns = game_columns(conn)
        rows = conn.execute(f"SELECT game, board, rules, MIN(id) FROM (SELECT {columns} FROM games) "
                            "GROUP BY game, board, rules ORDER BY MIN(id)")
        return [_variant(game, board, rules, first_id) for game, board, rules, first_id in rows]


def _variant(game: Any, board: Any, rules: Any, game_id: Any) -> tuple[str, str, dict[str, Any]]:
    """One (game, board, rules) set, checked as the row reader checks it; DamagedRowError naming its first game."""
    try:
        found = get_game(game)
        found.parse_board(board)
        data = json.loads(rules)
        if not isinstance(data, dict):
            raise TypeError("not a JSON object")
        found.parse_rules(data)
    except (YTourneyError, TypeError, ValueError) as err:
        problem = str(err) if isinstance(err, YTourneyError) else f"rules {str(rules)[:60]!r} are no JSON object"
        raise DamagedRowError(f"game {game_id!r} is damaged: {problem}", game_id) from err
    return game, board, data


def load_info(directory: str | os.PathLike[str]) -> TournamentInfo:
    """The tournament row of a results folder (name, config, planned games)."""
    with _reader(directory) as conn:
        info = _info(conn)
    if info is None:
        raise StoreError(f"results folder {str(directory)!r} holds no tournament yet")
    return info


def stored_count(directory: str | os.PathLike[str]) -> int:
    """Number of games stored in a results folder (0 when it has no store yet)."""
    if not db_path(directory).is_file():
        return 0
    with _reader(directory) as conn:
        if not _has_table(conn, "games"):  # half-made by a run killed while creating it: resumable
            return 0
        return conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]


def _mismatch(folder: Path, info: TournamentInfo, config_key: Mapping[str, Any]) -> ConfigMismatchError:
    differing = config_differences(info.config_key, config_key) or ["config"]
    shown = ", ".join(differing[:8]) + (f" and {len(differing) - 8} more" if len(differing) > 8 else "")
    return ConfigMismatchError(
        f"results folder {str(folder)!r} holds tournament {info.name!r} run with a different config "
        f"(differs in: {shown}); use --out to write this config's results elsewhere, or restore the "
        "old config to continue it"
    )


def check_stored_config(directory: str | os.PathLike[str], config_hash: str, config_key: Mapping[str, Any]) -> None:
    """Refuse (ConfigMismatchError) a results folder whose stored tournament ran with a different config."""
    info = stored_info(directory)
    if info is not None and info.config_hash != config_hash:
        raise _mismatch(Path(directory), info, config_key)


def stored_info(directory: str | os.PathLike[str]) -> TournamentInfo | None:
    """The tournament row of a results folder, or None when it has no store or a store with no tournament yet."""
    if not db_path(directory).is_file():
        return None
    with _reader(directory) as conn:
        return _info(conn)


class ResultStore:
    """The writable store of one results folder, held under an exclusive run lock until closed."""

    def __init__(self, directory: Path, conn: sqlite3.Connection, lock: RunLock, info: TournamentInfo) -> None:
        self.directory = directory
        self.info = info
        self._conn = conn
        self._lock = lock
        self._next_seq = 1 + (conn.execute("SELECT COALESCE(MAX(seq), 0) FROM games").fetchone()[0])

    @classmethod
    def open(
        cls,
        directory: str | os.PathLike[str],
        *,
        name: str,
        config_text: str,
        config_hash: str,
        config_key: Mapping[str, Any],
        planned_games: int,
        players: Sequence[StoredPlayer] = (),
        config_path: str = "",
        grows: Callable[[TournamentInfo], bool] | None = None,
    ) -> ResultStore:
        """Lock the folder, create or check the store; a store made by a different config is refused.

        `config_key` is the canonical form of the config compared on reopen (execution-only settings such as the
        worker count left out); `config_hash` is its digest. A different config that `grows` accepts (it plans the
        stored games in the same slots, and more) replaces the stored one instead of being refused.
        """
        folder = Path(directory)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(f"cannot create results folder {str(folder)!r}: {err}") from err
        lock = RunLock(folder)
        lock.acquire()
        conn: sqlite3.Connection | None = None
        try:
            refuse_links(db_path(folder))
            conn = _connect(db_path(folder), read_only=False)
            info = cls._prepare(conn, folder, name, config_text, config_hash, dict(config_key), planned_games,
                                players, config_path, grows)
            return cls(folder, conn, lock, info)
        except sqlite3.Error as err:
            if conn is not None:
                conn.close()
            lock.release()
            raise _failure("use results store", db_path(folder), err) from err
        except DamagedRowError as err:
            if conn is not None:
                conn.close()
            lock.release()
            raise damaged(db_path(folder), err) from err
        except BaseException:
            if conn is not None:
                conn.close()
            lock.release()
            raise

    @staticmethod
    def _prepare(conn: sqlite3.Connection, folder: Path, name: str, config_text: str, config_hash: str,
                 config_key: dict[str, Any], planned_games: int, players: Sequence[StoredPlayer],
                 config_path: str, grows: Callable[[TournamentInfo], bool] | None = None) -> TournamentInfo:
        _check_version(conn, folder)
        migrate_v1(conn)
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in filter(None, (s.strip() for s in SCHEMA.split(";"))):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            info = _info(conn)
            if info is not None:  # a damaged row refuses the folder before anything is written (store_schema)
                _check_columns(conn, folder)
                collections.deque(_iter_records(conn, info.name, share_moves=False), maxlen=0)
            now = utc_now()
            if info is None:
                conn.execute(
                    "INSERT INTO tournaments (id, name, config_text, config_hash, config_key, config_path,"
                    " planned_games, created, updated) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (name, config_text, config_hash, json.dumps(config_key, sort_keys=True), config_path,
                     planned_games, now, now),
                )
                conn.executemany(
                    "INSERT INTO players (name, spec, kind) VALUES (?, ?, ?)",
                    [(p.name, p.spec, p.kind) for p in players],
                )
            elif info.config_hash != config_hash and (grows is None or not grows(info)):
                raise _mismatch(folder, info, config_key)
            elif info.config_hash != config_hash:  # more games per pair: the stored ones keep their slots
                conn.execute("UPDATE tournaments SET config_text = ?, config_hash = ?, config_key = ?, config_path = ?,"
                             " planned_games = ?, updated = ? WHERE id = 1", (config_text, config_hash, json.dumps(
                                 config_key, sort_keys=True), config_path, planned_games, now))
            else:
                conn.execute(
                    "UPDATE tournaments SET config_text = ?, config_path = ?, updated = ? WHERE id = 1",
                    (config_text, config_path, now),
                )
            conn.execute("COMMIT")
        except BaseException:
            _rollback(conn)
            raise
        info = _info(conn)
        if info is None:
            raise StoreError(f"results store in {str(folder)!r} lost its tournament row")
        _check_columns(conn, folder)
        return info

    # --- queries ----------------------------------------------------------------------------------

    def count(self) -> int:
        """Number of stored games."""
        return self._conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    def iter_records(self, *, completion_order: bool = False, moves: bool = True) -> Iterator[GameRecord]:
        """Stream stored games (game-id or completion order); `moves=False` leaves moves and times empty."""
        records = _iter_records(self._conn, self.info.name, order="seq" if completion_order else "id", moves=moves)
        try:
            yield from records
        except DamagedRowError as err:
            raise damaged(db_path(self.directory), err) from err

    # --- writes -----------------------------------------------------------------------------------

    def add_game(self, record: GameRecord, moves: EncodedMoves | None = None) -> GameRecord:
        """Store one finished game and its moves in one transaction; `record.id` is its slot id (UNIQUE).

        `moves` are the game's moves and times already encoded (`encode_moves`, done by the worker that played
        it); the record's own moves and times are then not read (they may be left empty).
        """
        if record.id is None:
            raise StoreError("a game record needs its slot id before it is stored")
        encoded = moves if moves is not None else encode_moves(record)
        game_id = record.id
        rules = json.dumps(record.rules_dict, sort_keys=True)
        row = (
            game_id, self._next_seq, record.round, record.game, record.board, rules, record.handicap, record.first,
            record.second, record.black, record.white, None if record.winner is None else str(record.winner),
            record.winner_name, record.termination.value, record.reason, record.seed, record.started,
            record.finished, record.opening_plies, encoded.count,
            json.dumps(record.extra, sort_keys=True) if record.extra else "{}",
            None if record.score is None else json.dumps(list(record.score)),
        )
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute(_INSERT_GAME, row)
                conn.execute("INSERT INTO moves (game_id, moves, seconds) VALUES (?, ?, ?)",
                             (game_id, encoded.moves, encoded.seconds))
                conn.execute("COMMIT")
            except BaseException:
                _rollback(conn)
                raise
        except sqlite3.IntegrityError as err:
            raise StoreError(f"game {game_id} is already stored; a slot is never played twice ({err})") from err
        except sqlite3.Error as err:
            raise _failure(f"store game {game_id} in", db_path(self.directory), err) from err
        self._next_seq += 1
        return record

    def close(self) -> None:
        """Checkpoint, close the database and release the run lock."""
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._conn.close()
            self._conn = None  # type: ignore[assignment]
        self._lock.release()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
