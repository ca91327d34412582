"""The results folder at its edges: symlinks, read-only folders, full disks, damaged, half-made and newer stores."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_store import open_store, record

from ytourney.errors import StoreError
from ytourney.tournament.store import (
    load_records,
    stored_count,
    stored_info,
    stream_records,
)


def test_a_symlinked_lock_is_refused_and_its_target_untouched(tmp_path: Path) -> None:
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "run.lock").symlink_to(victim)
    with pytest.raises(StoreError, match="run.lock' is a symbolic link"):
        open_store(out)
    assert victim.read_text() == "keep me\n"
    assert not (out / "tournament.db").exists()


@pytest.mark.parametrize("name", ["tournament.db", "tournament.db-wal", "tournament.db-shm"])
def test_a_symlinked_store_file_is_refused_and_its_target_untouched(tmp_path: Path, name: str) -> None:
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / name).symlink_to(victim)
    with pytest.raises(StoreError, match="is a symbolic link"):
        open_store(out)
    assert victim.read_text() == "keep me\n"


def test_a_lock_that_is_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "run.lock").mkdir(parents=True)
    with pytest.raises(StoreError, match="run.lock"):
        open_store(out)


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder this process cannot write: chmod for a normal user, a read-only tmpfs for root."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)
        return
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,ro", "tmpfs", str(folder)],
                      capture_output=True).returncode != 0:
        pytest.skip("root cannot mount a read-only tmpfs here")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def test_a_read_only_folder_is_one_clear_error(read_only_folder: Path) -> None:
    with pytest.raises(StoreError, match="not writable; use --out"):
        open_store(read_only_folder)


def test_a_full_disk_says_disk_full_and_the_store_resumes_once_space_is_freed(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    long_game = ("a1",) * 400
    store.add_game(record(1, long_game))
    conn = store._conn
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count={pages}")  # the disk is full: no page can be added
    with pytest.raises(StoreError) as caught:
        for game_id in range(2, 50):
            store.add_game(record(game_id, long_game))
    message = str(caught.value)
    assert "disk full" in message and "cannot rollback" not in message
    failed = game_id
    assert [r.id for r in load_records(tmp_path)] == list(range(1, failed))
    conn.execute("PRAGMA max_page_count=1073741823")  # space freed
    store.add_game(record(failed, long_game))
    store.close()
    assert [r.id for r in load_records(tmp_path)] == list(range(1, failed + 1))
    with sqlite3.connect(tmp_path / "tournament.db") as check:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_store_missing_a_column_is_refused_by_writer_and_readers(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.add_game(record(1))
    with sqlite3.connect(tmp_path / "tournament.db") as conn:
        conn.execute("ALTER TABLE games DROP COLUMN reason")
    with pytest.raises(StoreError, match="no column reason"):
        open_store(tmp_path)
    with pytest.raises(StoreError, match="no such column: games.reason"):
        load_records(tmp_path)
    with pytest.raises(StoreError, match="damaged"):
        list(stream_records(tmp_path))


@pytest.mark.parametrize("made", ["empty file", "no tables"])
def test_a_store_killed_before_its_schema_is_resumable(tmp_path: Path, made: str) -> None:
    db = tmp_path / "tournament.db"
    if made == "empty file":
        db.touch()
    else:
        with sqlite3.connect(db) as conn:
            conn.execute("PRAGMA journal_mode=WAL")
    assert stored_count(tmp_path) == 0
    assert stored_info(tmp_path) is None
    assert load_records(tmp_path) == []
    with open_store(tmp_path) as store:
        store.add_game(record(1))
    assert [r.id for r in load_records(tmp_path)] == [1]


def test_a_store_of_a_newer_version_is_refused_by_writer_and_readers(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.add_game(record(1))
    with sqlite3.connect(tmp_path / "tournament.db") as conn:
        conn.execute("PRAGMA user_version=99")
    for read in (lambda: open_store(tmp_path), lambda: load_records(tmp_path), lambda: stored_count(tmp_path),
                 lambda: list(stream_records(tmp_path)), lambda: stored_info(tmp_path)):
        with pytest.raises(StoreError, match="schema version 99, written by a newer ytourney"):
            read()
