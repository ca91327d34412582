"""Leagues of several folders: a folder given twice is refused; boards and rules sets are rated apart unless pooled."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from table_games import invoke, make_results, sample_records

from ytourney.games.registry import get_game
from ytourney.games.y.rules import Rules
from ytourney.publish.sources import (
    LeagueKey,
    load_sources,
    rate_sources,
    split_by_variant,
)


def folder(tmp_path: Path, name: str, board: str = "tri:4", misere: bool = False) -> Path:
    games = [replace(g, board=board, rules=Rules(pie=g.rules.pie, misere=misere)) for g in sample_records()]
    return make_results(tmp_path / name, games, name=name)


@pytest.mark.parametrize("command", [["ratings"], ["crosstable"], ["handicap"], ["export"], ["publish", "--out", "site"]],
                         ids=lambda c: c[0])
def test_a_folder_given_twice_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    folder(tmp_path, "one")
    folder(tmp_path, "two")
    code, out = invoke(command[0], "one", "two", "./one/", *command[1:])
    assert code == 1
    assert "results folder './one/' is given twice (also as 'one'); its games would count twice" in out
    assert not (tmp_path / "site").exists()


def test_split_by_variant_reads_boards_and_rules_from_the_games(tmp_path: Path) -> None:
    sources = load_sources([folder(tmp_path, "a", "tri:4"), folder(tmp_path, "b", "tri:5"),
                            folder(tmp_path, "c", "tri:4"), folder(tmp_path, "d", "tri:4", misere=True)])
    split = split_by_variant(sources)
    assert [(v.label, [s.name for s in held]) for v, held in split] == [
        ("tri:4", ["a", "c"]), ("tri:5", ["b"]), ("tri:4, misère", ["d"])]
    alone = rate_sources(sources, variant=LeagueKey.of(get_game("y"), "tri:5", {"pie": True, "misere": False}))
    assert len(alone.records) == len(sample_records())
    assert len(rate_sources(sources).records) == 4 * len(sample_records())


def test_handicap_games_without_pie_stay_in_their_tournaments_pool(tmp_path: Path) -> None:
    sources = load_sources([folder(tmp_path, "a")])
    assert {g.rules.pie for g in sources[0].records} == {True, False}
    assert len(split_by_variant(sources)) == 1


@pytest.mark.parametrize("command", ["ratings", "crosstable", "handicap"])
def test_boards_and_rules_sets_get_a_table_each_unless_pooled(tmp_path: Path, command: str) -> None:
    nine, eleven, misere = folder(tmp_path, "nine", "tri:9"), folder(tmp_path, "eleven", "tri:11"), folder(
        tmp_path, "mis", "tri:9", misere=True)
    code, out = invoke(command, str(nine), str(eleven), str(misere))
    assert code == 0, out
    for heading in ("nine [tri:9]", "eleven [tri:11]", "mis [tri:9, misère]"):
        assert heading in out
    code, pooled = invoke(command, str(nine), str(eleven), str(misere), "--pool")
    assert code == 0 and "nine + eleven + mis [pooled: tri:9; tri:11; tri:9, misère]" in pooled
    code, alone = invoke(command, str(nine))
    assert code == 0 and "[tri:" not in alone


@pytest.mark.parametrize("fmt", ["csv", "json", "html"])
def test_one_table_formats_refuse_several_boards_and_name_the_option(tmp_path: Path, fmt: str) -> None:
    nine, eleven = folder(tmp_path, "nine", "tri:9"), folder(tmp_path, "eleven", "tri:11")
    code, out = invoke("ratings", str(nine), str(eleven), "--format", fmt)
    assert code == 1 and "2 boards or rules sets (tri:9; tri:11)" in out and "add --pool" in out
    code, out = invoke("ratings", str(nine), str(eleven), "--format", fmt, "--pool")
    assert code == 0
    if fmt == "json":
        assert json.loads(out)


def test_a_league_section_is_titled_with_its_own_folders(tmp_path: Path) -> None:
    nine, eleven = folder(tmp_path, "nine", "tri:9"), folder(tmp_path, "eleven", "tri:11")
    code, out = invoke("publish", str(nine), str(eleven), "--out", str(tmp_path / "site"))
    assert code == 0, out
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "nine + eleven" in index  # the index names every folder
    section = (tmp_path / "site" / "tri-9" / "index.html").read_text(encoding="utf-8")
    assert "<title>nine [tri:9]" in section and "eleven" not in section
