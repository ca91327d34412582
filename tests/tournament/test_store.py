"""Tests of the SQLite results store: round trips, one transaction per game, the run lock, config checks."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from ytourney.errors import ConfigMismatchError, StoreError, StoreLockedError
from ytourney.games.record import GameRecord
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.tournament.store import (
    DB_NAME,
    ResultStore,
    StoredPlayer,
    config_differences,
    encode_moves,
    load_info,
    load_records,
    stream_records,
)
from ytourney.games.y.state import CONNECTION

KEY = {"name": "t", "board": "tri:5", "schedule": {"games_per_pair": 2}, "players": [{"name": "a"}, {"name": "b"}]}
PLAYERS = [StoredPlayer("a", "random", "builtin"), StoredPlayer("b", "random", "builtin")]


def open_store(directory: Path, key: dict | None = None, digest: str = "h1") -> ResultStore:
    return ResultStore.open(directory, name="t", config_text="name: t\n", config_hash=digest,
                            config_key=key or KEY, planned_games=4, players=PLAYERS)


def record(game_id: int, moves: tuple[str, ...] = ("a1", "swap", "b1"), winner: Color = Color.BLACK) -> GameRecord:
    return GameRecord(game="y",
        tournament="t", round=1, board="tri:5", rules=Rules(pie=True, misere=False), handicap=0, first="a",
        second="b", black="b", white="a", moves=moves, winner=winner, termination=CONNECTION,
        move_seconds=tuple(0.5 for _ in moves), seed=42, started="2026-01-01T00:00:00.000Z",
        finished="2026-01-01T00:00:01.000Z", id=game_id, extra={"slot": game_id},
    )


def test_round_trip_in_id_order(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.add_game(record(3))
        store.add_game(record(1, moves=("c1", "a1"), winner=Color.WHITE))
        assert {r.id for r in store.iter_records()} == {1, 3}
        assert store.count() == 2
    records = load_records(tmp_path)
    assert [r.id for r in records] == [1, 3]
    assert records[0].moves == ("c1", "a1")
    assert records[0].winner_name == "a"
    assert records[1] == record(3)
    assert load_info(tmp_path).config_text == "name: t\n"
    assert load_info(tmp_path).planned_games == 4
    with sqlite3.connect(tmp_path / DB_NAME) as conn:
        assert conn.execute("SELECT name, spec, kind FROM players ORDER BY id").fetchall() == [
            ("a", "random", "builtin"), ("b", "random", "builtin")]


def test_moves_encoded_elsewhere_are_stored_as_given(tmp_path: Path) -> None:
    full = record(1, moves=("c1", "swap", "a1"))
    with open_store(tmp_path) as store:
        store.add_game(replace(full, moves=(), move_seconds=()), encode_moves(full))
    assert load_records(tmp_path) == [full]
    with pytest.raises(StoreError, match="3 moves but 2 move times"):
        encode_moves(replace(full, move_seconds=(0.5, 0.5)))


def test_stream_reads_the_same_games_one_at_a_time(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        for game_id in (2, 1, 3):
            store.add_game(record(game_id))
        stream = stream_records(tmp_path)
        assert next(stream) == record(1)  # a stream may run while the run writes
        store.add_game(record(4))
        assert [r.id for r in stream] == [2, 3]
    assert list(stream_records(tmp_path)) == load_records(tmp_path)
    lean = next(stream_records(tmp_path, times=False))
    assert lean.moves == record(1).moves and lean.move_seconds == ()
    results = next(stream_records(tmp_path, moves=False))
    assert results.moves == () and results.winner_name == "b"


def test_move_rows_view_lists_each_move(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.add_game(record(7, moves=("c1", "swap", "a1")))
    with sqlite3.connect(tmp_path / DB_NAME) as conn:
        rows = conn.execute("SELECT game_id, ply, move, seconds FROM move_rows ORDER BY ply").fetchall()
    assert rows == [(7, 1, "c1", 0.5), (7, 2, "swap", 0.5), (7, 3, "a1", 0.5)]


def test_completion_order_is_kept(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        for game_id in (3, 1, 2):
            store.add_game(record(game_id))
        assert [r.id for r in store.iter_records(completion_order=True)] == [3, 1, 2]
        assert list(store.iter_records(completion_order=True)) == [record(3), record(1), record(2)]
        assert [r.id for r in store.iter_records()] == [1, 2, 3]
        assert [r.moves for r in store.iter_records(moves=False)] == [(), (), ()]


def test_a_slot_is_never_stored_twice(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.add_game(record(1))
        with pytest.raises(StoreError, match="game 1 is already stored"):
            store.add_game(record(1))
        assert store.count() == 1
        with sqlite3.connect(tmp_path / DB_NAME) as conn:
            assert conn.execute("SELECT COUNT(*) FROM move_rows").fetchone()[0] == 3


def test_record_without_id_or_with_mismatched_times_is_refused(tmp_path: Path) -> None:
    from dataclasses import replace

    with open_store(tmp_path) as store:
        with pytest.raises(StoreError, match="slot id"):
            store.add_game(replace(record(1), id=None))
        with pytest.raises(StoreError, match="3 moves but 1 move times"):
            store.add_game(replace(record(1), move_seconds=(0.1,)))
        assert store.count() == 0


def test_second_open_is_refused_while_locked(tmp_path: Path) -> None:
    with open_store(tmp_path), pytest.raises(StoreLockedError, match="in use by another run"):
        open_store(tmp_path)
    open_store(tmp_path).close()  # released on close


def test_lock_dies_with_a_killed_process(tmp_path: Path) -> None:
    script = textwrap.dedent(f"""
        import os, sys
        from ytourney.tournament.store import ResultStore, StoredPlayer
        store = ResultStore.open({str(tmp_path)!r}, name="t", config_text="x", config_hash="h1",
                                 config_key={{}}, planned_games=1)
        print("locked", flush=True)
        sys.stdin.read()
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "locked"
        with pytest.raises(StoreLockedError, match=f"pid {child.pid}"):
            ResultStore.open(tmp_path, name="t", config_text="x", config_hash="h1", config_key={}, planned_games=1)
    finally:
        child.kill()
        child.wait(timeout=10)
    ResultStore.open(tmp_path, name="t", config_text="x", config_hash="h1", config_key={}, planned_games=1).close()


def test_readers_work_while_a_run_holds_the_lock(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.add_game(record(2))
        assert [r.id for r in load_records(tmp_path)] == [2]
        store.add_game(record(1))
        assert [r.id for r in load_records(tmp_path)] == [1, 2]


def test_different_config_is_refused_naming_the_keys(tmp_path: Path) -> None:
    open_store(tmp_path).close()
    changed = {**KEY, "schedule": {"games_per_pair": 4}, "board": "tri:7"}
    with pytest.raises(ConfigMismatchError) as info:
        open_store(tmp_path, key=changed, digest="h2")
    message = str(info.value)
    assert "board" in message and "schedule.games_per_pair" in message and "--out" in message
    open_store(tmp_path).close()  # the lock was released by the refusal


def test_missing_store_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no tournament.db"):
        load_records(tmp_path)
    with pytest.raises(StoreError, match="no tournament.db"):
        load_info(tmp_path / "nowhere")


def test_config_differences_paths() -> None:
    old = {"a": 1, "p": [{"n": "x", "b": "r"}, {"n": "y"}], "s": {"g": 2}}
    new = {"a": 1, "p": [{"n": "x", "b": "m"}, {"n": "y"}], "s": {"g": 2, "c": "y"}}
    assert config_differences(old, new) == ["p[0].b", "s.c"]
    assert config_differences({"p": [1]}, {"p": [1, 2]}) == ["p (1 entries, now 2)"]


def test_store_passes_integrity_check(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        for game_id in range(1, 5):
            store.add_game(record(game_id))
    with sqlite3.connect(tmp_path / DB_NAME) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
