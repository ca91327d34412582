"""Leagues never pool different games, and a game held by two sources (a folder and its copy, or its export) is
refused by every command that reads folders, alike."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from table_games import invoke, make_results, sample_records

from ytourney.games.record import GameRecord
from ytourney.games.registry import all_games
from ytourney.players.spec import create_bot, parse_bot_spec
from ytourney.tournament.match import Seat, play_game

COMMANDS = [["ratings"], ["crosstable"], ["handicap"], ["export"], ["publish", "--out", "site"]]
POOLED = [["ratings", "--pool"], ["crosstable", "--pool"], ["handicap", "--pool"],
          ["publish", "--pool", "--out", "site"]]
OTHER_GAMES = [name for name in all_games() if name != "y"]


def played(name: str, count: int = 3) -> list[GameRecord]:
    game = all_games()[name]
    records = []
    for seed in range(count):
        seats = [Seat(player, create_bot(parse_bot_spec("random", game), seed + i))
                 for i, player in enumerate(("ann", "bob") if seed % 2 == 0 else ("bob", "ann"))]
        records.append(play_game(seats, game, None, None, 0, seed=seed))
    return records


@pytest.mark.parametrize("other", OTHER_GAMES)
@pytest.mark.parametrize("command", POOLED, ids=lambda c: c[0])
def test_a_pool_of_two_games_is_refused_naming_the_folders_and_games(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch,
                                                                      command: list[str], other: str) -> None:
    monkeypatch.chdir(tmp_path)
    make_results(tmp_path / "ys", sample_records(), name="ys")
    make_results(tmp_path / "others", played(other), name="others")
    make_results(tmp_path / "more", sample_records(), name="more")
    code, out = invoke(command[0], "ys", "others", "more", *command[1:])
    assert code == 1, out
    assert f"'ys', 'more' hold y; 'others' holds {other}; leave out --pool" in out
    assert "Traceback" not in out and not (tmp_path / "site").exists()


def test_a_pool_of_one_file_holding_two_games_names_both_games_once(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """It said "'mixed.jsonl' holds tetra; 'mixed.jsonl' holds y", as if two files."""
    monkeypatch.chdir(tmp_path)
    make_results(tmp_path / "ys", sample_records(), name="ys")
    make_results(tmp_path / "others", played(OTHER_GAMES[0]), name="others")
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("".join(invoke("export", folder)[1] for folder in ("ys", "others")), encoding="utf-8")
    code, out = invoke("ratings", "mixed.jsonl", "--pool")
    assert code == 1, out
    assert f"but 'mixed.jsonl' holds y and {OTHER_GAMES[0]}; leave out --pool" in out


def test_without_pool_each_game_gets_its_own_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    make_results(tmp_path / "ys", sample_records(), name="ys")
    other = OTHER_GAMES[0]
    make_results(tmp_path / "others", played(other), name="others")
    code, out = invoke("ratings", "ys", "others")
    assert code == 0, out
    assert out.count("Ratings:") == 2 and f"[{other} " in out


def copy_of(tmp_path: Path, how: str) -> str:
    make_results(tmp_path / "one", sample_records(), name="one")
    if how == "copy":
        shutil.copytree(tmp_path / "one", tmp_path / "two")
        return "two"
    if how == "export":
        code, out = invoke("export", "one", "--out", str(tmp_path / "one.jsonl"))
        assert code == 0, out
        return "one.jsonl"
    records = sample_records()  # a folder holding some of the same games, then games of its own
    make_results(tmp_path / "two", records, name="one")
    return "two"


@pytest.mark.parametrize("how", ["copy", "export", "overlap"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_folder_and_its_copy_are_refused_alike_by_every_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  command: list[str], how: str) -> None:
    monkeypatch.chdir(tmp_path)
    second = copy_of(tmp_path, how)
    code, out = invoke(command[0], "one", second, *command[1:])
    assert code == 1, out
    assert f"'{second}' holds {len(sample_records())} game(s) that 'one' holds too" in out
    assert "would count twice" in out and not (tmp_path / "site").exists()


def test_two_runs_of_one_tournament_name_are_not_copies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    make_results(tmp_path / "one", sample_records(), name="cup")
    make_results(tmp_path / "two", [replace(r, started="2027-01-01T00:00:00.000Z") for r in sample_records()],
                 name="cup")
    for command in COMMANDS:
        code, out = invoke(command[0], "one", "two", *command[1:])
        assert code == 0, (command, out)
