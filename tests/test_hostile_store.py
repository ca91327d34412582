"""Hostile stores: a damaged row in tournament.db, met by every command that reads the store.

Classes covered (issue 24): a stored row ytourney never writes (an unknown termination or winner, bad JSON or JSON
of the wrong type in rules, moves, move times, extra or score, an unknown game or board, a text where a number
belongs, a tournament row whose config key is not JSON) under `ratings`, `crosstable`, `handicap`, `export`
(JSONL and SGF), `publish` and a resuming `run`. The choice (documented in store_schema): the folder is refused in
one line naming the store and the game, never skipped, so no table silently leaves a game out; exit 1, in
seconds, under a memory cap, and the store stays exactly as it was.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from cli_run import invoke

pytestmark = pytest.mark.usefixtures("memory_cap")  # tests/conftest.py: a regression fails, the machine lives

CONFIG = ("name: cup\nboard: tri:4\nseed: 3\nworkers: 1\nschedule: {games_per_pair: 2}\n"
          "players: [{name: a, bot: random}, {name: b, bot: random}, {name: c, bot: random}]\n")

DAMAGES = {
    "unknown termination": ("UPDATE games SET termination = 'boom' WHERE id = 2", "unknown termination 'boom'"),
    "unknown winner": ("UPDATE games SET winner = 'purple' WHERE id = 2", "winner 'purple'"),
    "rules not JSON": ("UPDATE games SET rules = '{bad' WHERE id = 2", "'{bad'"),
    "rules a list": ("UPDATE games SET rules = '[1]' WHERE id = 2", "'[1]'"),
    "unknown game": ("UPDATE games SET game = 'chess' WHERE id = 2", "unknown game 'chess'"),
    "unknown board": ("UPDATE games SET board = 'tri:999999' WHERE id = 2", "'tri:999999'"),
    "text handicap": ("UPDATE games SET handicap = 'x' WHERE id = 2", "column handicap holds 'x'"),
    "moves not JSON": ("UPDATE moves SET moves = '[1,' WHERE game_id = 2", "column moves holds '[1,', which is not JSON"),
    "moves not text": ("UPDATE moves SET moves = '[1, 2]' WHERE game_id = 2", "column moves holds a list that is not"),
    "extra a list": ("UPDATE games SET extra = '[1]' WHERE id = 2", "column extra holds '[1]'"),
    "score infinite": ("UPDATE games SET score = '[1e999, 2]' WHERE id = 2", "column score holds '[1e999, 2]'"),
    "seconds not JSON": ("UPDATE moves SET seconds = 'x' WHERE game_id = 2", "column seconds holds 'x'"),
    "self-play": ("UPDATE games SET white = black, second = first WHERE id = 2",
                  "black and white both name '"),  # a refusal naming the game, as SGF import's
}


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A config and its finished tournament of six games."""
    tmp_path = tmp_path_factory.mktemp("stored")
    config = tmp_path / "cup.yaml"
    config.write_text(CONFIG)
    assert invoke("run", str(config), "--out", str(tmp_path / "out"), "-q").exit_code == 0
    return config, tmp_path / "out"


def damage(stored: tuple[Path, Path], tmp_path: Path, sql: str) -> tuple[Path, Path]:
    config, out = stored
    folder = tmp_path / "out"
    shutil.copytree(out, folder)
    conn = sqlite3.connect(folder / "tournament.db")
    conn.execute("PRAGMA ignore_check_constraints = ON")  # what a hand edit or a bad disk can do
    with conn:
        assert conn.execute(sql).rowcount == 1
    conn.close()
    return config, folder


def contents(folder: Path) -> list[str]:
    conn = sqlite3.connect(f"file:{folder / 'tournament.db'}?mode=ro", uri=True)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


@pytest.mark.parametrize("case", DAMAGES)
def test_a_damaged_row_refuses_the_folder_in_one_line_under_every_command(
        stored: tuple[Path, Path], tmp_path: Path, case: str) -> None:
    sql, detail = DAMAGES[case]
    config, folder = damage(stored, tmp_path, sql)
    before = contents(folder)
    db_bytes = (folder / "tournament.db").read_bytes()
    commands = [["ratings", str(folder)], ["crosstable", str(folder)], ["handicap", str(folder)],
                ["export", str(folder)], ["export", str(folder), "--format", "sgf", "--out", str(tmp_path / "sgf")],
                ["publish", str(folder), "--out", str(tmp_path / "site")],
                ["run", str(config), "--out", str(folder), "-q"]]
    if case == "seconds not JSON":  # only commands that read move times meet it; the others never read it
        commands = [commands[3], commands[6]]
    for command in commands:
        result = invoke(*command)
        assert result.exit_code == 1, (command, result.output)
        assert len(result.output.strip().splitlines()) == 1, (command, result.output)
        assert f"results store '{folder / 'tournament.db'}' is damaged, so it is not read: game 2 is damaged: " \
               in result.output and detail in result.output, (command, result.output)
        assert "DELETE FROM games WHERE id = 2; DELETE FROM moves WHERE game_id = 2" in result.output
    assert contents(folder) == before and (folder / "tournament.db").read_bytes() == db_bytes
    assert not (tmp_path / "sgf").exists() and not (tmp_path / "site").exists()


def test_a_damaged_tournament_row_refuses_the_folder_in_one_line(stored: tuple[Path, Path], tmp_path: Path) -> None:
    config, folder = damage(stored, tmp_path, "UPDATE tournaments SET config_key = '{x'")
    before = contents(folder)
    for command in (["ratings", str(folder)], ["export", str(folder)], ["run", str(config), "--out", str(folder)]):
        result = invoke(*command)
        assert result.exit_code == 1 and "is damaged, so it is not read: the tournament row's config_key '{x' is " \
                                          "not JSON; restore it from a backup" in result.output, result.output
    assert contents(folder) == before


def test_the_same_folder_repaired_reads_again(stored: tuple[Path, Path], tmp_path: Path) -> None:
    """The advice works: deleting the damaged game lets every report read the rest, and run plays it again."""
    config, folder = damage(stored, tmp_path, DAMAGES["unknown termination"][0])
    with sqlite3.connect(folder / "tournament.db") as conn:
        conn.executescript("DELETE FROM games WHERE id = 2; DELETE FROM moves WHERE game_id = 2")
    conn.close()
    assert invoke("ratings", str(folder)).exit_code == 0
    result = invoke("run", str(config), "--out", str(folder), "-q")
    assert result.exit_code == 0, result.output
    assert "6 games" in invoke("ratings", str(folder)).output


@pytest.mark.parametrize("fields", [{"white": "BLACK", "second": "FIRST"}, {"white": "BLACK"}, {"second": "FIRST"}])
def test_a_self_play_line_of_json_lines_is_refused_naming_the_line(stored: tuple[Path, Path], tmp_path: Path,
                                                                    fields: dict[str, str]) -> None:
    """As SGF import refuses PB = PW and a store its row, a JSON line naming one player on both sides is refused:
    it was counted as rated while every player had 0 games."""
    _, out = stored
    result = invoke("export", str(out))
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines() if line.strip()]
    record = lines[1]
    for key, source in fields.items():
        record[key] = record[source.lower()]
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    for command in (["ratings", str(path)], ["crosstable", str(path)], ["handicap", str(path)],
                    ["publish", str(path), "--out", str(tmp_path / "site")]):
        result = invoke(*command)
        assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1, (command, result.output)
        assert f"'{path}' line 2: not a game record: " in result.output, (command, result.output)
        assert "a game against oneself is not rated, expected two players" in result.output, result.output
    assert not (tmp_path / "site").exists()
