"""A results folder written before the game API (store schema version 1, Y only) still rates, exports and resumes.

The fixture `tests/fixtures/v1_store/` was made by ytourney at commit 73a601e (the last release before games):
`ytourney run v1-store.yaml` (12 games of tri:5), its table (`ratings.txt`), its JSONL export and two SGF files.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.games.record import GameRecord
from ytourney.tournament.store import SCHEMA_VERSION, load_records

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "v1_store"


def copy_fixture(tmp_path: Path) -> Path:
    """A writable copy of the version 1 results folder."""
    folder = tmp_path / "v1"
    folder.mkdir()
    shutil.copy(FIXTURE / "tournament.db", folder / "tournament.db")
    return folder


def schema_version(folder: Path) -> int:
    with sqlite3.connect(folder / "tournament.db") as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


def test_a_version_1_store_reads_as_y_games_with_the_same_records(tmp_path: Path) -> None:
    folder = copy_fixture(tmp_path)
    records = load_records(folder)
    exported = [GameRecord.from_dict(json.loads(line)) for line in (FIXTURE / "games.jsonl").read_text().splitlines()]
    assert [r.game for r in records] == ["y"] * 12
    assert [(r.id, r.moves, r.winner, r.termination, r.black, r.white) for r in records] == [
        (r.id, r.moves, r.winner, r.termination, r.black, r.white) for r in exported]
    assert schema_version(folder) == 1  # reading never writes


@pytest.mark.parametrize(("args", "expected"), [
    (["ratings"], "ratings.txt"),
    (["ratings", "--elo", "--format", "md"], "ratings-elo.md"),
    (["crosstable"], "crosstable.txt"),
])
def test_a_version_1_store_gives_the_same_tables(tmp_path: Path, args: list[str], expected: str) -> None:
    folder = copy_fixture(tmp_path)
    result = CliRunner().invoke(main, [*args, str(folder)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == (FIXTURE / expected).read_text().strip()


def test_jsonl_written_before_games_reads_as_y_and_exports_with_a_game_key(tmp_path: Path) -> None:
    old = json.loads((FIXTURE / "games.jsonl").read_text().splitlines()[0])
    assert "game" not in old
    record = GameRecord.from_dict(old)
    again = record.to_dict()
    assert again["game"] == "y"
    assert {k: v for k, v in again.items() if k != "game"} == old  # every key and value kept


def test_sgf_written_before_games_imports(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["import", str(FIXTURE / "v1-store-00001.sgf"),
                                       str(FIXTURE / "v1-store-00002.sgf"), "--out", str(tmp_path / "imported")])
    assert result.exit_code == 0, result.output
    imported = load_records(tmp_path / "imported")
    originals = load_records(copy_fixture(tmp_path))[:2]
    assert [r.moves for r in imported] == [r.moves for r in originals]
    assert [r.winner_name for r in imported] == [r.winner_name for r in originals]


def test_resume_on_a_version_1_folder_plays_the_missing_games_exactly_as_before(tmp_path: Path) -> None:
    folder = copy_fixture(tmp_path)
    before = {r.id: r for r in load_records(folder)}
    with sqlite3.connect(folder / "tournament.db") as conn:  # as if the old run had been killed after 8 games
        conn.execute("DELETE FROM moves WHERE game_id > 8")
        conn.execute("DELETE FROM games WHERE id > 8")
    config = tmp_path / "v1-store.yaml"
    shutil.copy(FIXTURE / "v1-store.yaml", config)
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(folder), "--resume", "--quiet",
                                       "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert schema_version(folder) == SCHEMA_VERSION
    after = {r.id: r for r in load_records(folder)}
    assert sorted(after) == sorted(before)
    for game_id, old in before.items():  # the replayed games are the games the old version played
        new = after[game_id]
        assert (new.moves, new.winner, new.termination, new.black, new.white, new.game) == (
            old.moves, old.winner, old.termination, old.black, old.white, "y")


def test_the_ratings_are_the_numbers_the_version_before_games_computed(tmp_path: Path) -> None:
    # ratings-before.json is `ratings --elo --format json` of this folder by ytourney 73a601e; since then the
    # per-seat rates from fewer than 5 games are left blank (issue 22) and the notes gained lines
    before = json.loads((FIXTURE / "ratings-before.json").read_text())
    result = CliRunner().invoke(main, ["ratings", str(copy_fixture(tmp_path)), "--elo", "--format", "json"])
    now = json.loads(result.output)
    blanked = {"first_win_rate", "swap_rate", "swap_win_rate"}
    assert [{k: v for k, v in row.items() if k not in blanked} for row in now["rows"]] == [
        {k: v for k, v in row.items() if k not in blanked} for row in before["rows"]]
