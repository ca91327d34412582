"""`ytourney handicap` on a game whose levels favour a fixed side (Aliens and Amazons: extra Amazons), on a tiny real
auto run; its records export to SGF and import back as they were played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.games.record import GameRecord

CONFIG = """name: tiny-sides
game: aliens-amazons
schedule: {format: round-robin, games_per_pair: 12}
handicap: {mode: auto}
seed: 5
players:
  - {name: a, bot: random}
  - {name: b, bot: random}
"""


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("sides")
    config = base / "tiny.yaml"
    config.write_text(CONFIG)
    out = base / "out"
    code, output = invoke("run", str(config), "--out", str(out), "--workers", "1", "--quiet")
    assert code == 0, output
    return out


def records_of(folder: Path) -> list[GameRecord]:
    code, output = invoke("export", str(folder), "--format", "jsonl")
    assert code == 0, output
    return [GameRecord.from_dict(json.loads(line)) for line in output.splitlines() if line.strip()]


def test_the_fair_value_is_given_in_amazons_for_the_pair(folder: Path) -> None:
    records = records_of(folder)
    assert any(r.handicap > 0 for r in records), "the Aliens win at 30 Amazons: the planner gave levels"
    assert all((r.black, r.white) == (r.second, r.first) for r in records)  # the Amazons move second
    code, out = invoke("handicap", str(folder))
    assert code == 0, out
    header = next(line for line in out.splitlines() if line.startswith("player"))
    assert "fair value" in header and "draws" in header and "results by level" in header
    row = next(line for line in out.splitlines() if line.startswith("a "))
    assert " Amazons [" in row and "0 (30 Amazons): " in row  # the first game is at the rules' own 30
    assert "Levels go to the Amazons, whoever plays them" in out and "a draw counts half a win" in out


def test_json_carries_the_levels_and_the_scores(folder: Path) -> None:
    code, out = invoke("handicap", str(folder), "--format", "json")
    assert code == 0, out
    table = json.loads(out)
    assert table["kind"] == "handicap_sides" and table["meta"]["top"] == 6
    assert (table["meta"]["base"], table["meta"]["per_level"], table["meta"]["unit"]) == (30, 5, "Amazons")
    (row,) = table["rows"]
    assert (row["a"], row["b"]) == ("a", "b") and row["games"] + row["faults"] <= 12
    assert row["low"] <= row["median"] <= row["high"]
    assert sum(row[f"games_L{level}"] for level in table["meta"]["levels"]) == row["games"]


def test_handicap_games_export_to_sgf_and_import_as_played(folder: Path, tmp_path: Path) -> None:
    sgf = tmp_path / "all.sgf"
    code, out = invoke("export", str(folder), "--format", "sgf", "--out", str(sgf))
    assert code == 0, out
    text = sgf.read_text(encoding="utf-8")
    played = records_of(folder)
    assert all(f"HA[{r.handicap}]" in text for r in played) and any(r.handicap for r in played)
    code, out = invoke("import", str(sgf), "--out", str(tmp_path / "back"))
    assert code == 0, out
    back = records_of(tmp_path / "back")
    fields = ("handicap", "rules", "first", "black", "white", "moves", "winner", "termination")
    assert [[getattr(r, f) for f in fields] for r in back] == [[getattr(r, f) for f in fields] for r in played]


def test_play_says_what_a_level_gave_and_refuses_one_past_the_range() -> None:
    code, out = invoke("play", "random", "random", "--game", "aliens-amazons", "--handicap", "2", "--seed", "3")
    assert code == 0, out
    assert "handicap 2 (40 Amazons)" in out and "amazons=30" in out
    code, out = invoke("play", "random", "random", "--game", "aliens-amazons", "--handicap", "7", "--seed", "3")
    assert code != 0 and "Traceback" not in out
    assert "handicap level 7 gives the Amazons 65 stones, above the most (60)" in out


def test_a_level_favouring_a_side_is_rated_as_a_plain_result_and_learns_no_worth(folder: Path) -> None:
    code, out = invoke("handicap", str(folder))
    assert code == 0, out
    assert "Worth of each handicap level: tiny-sides: nothing to show. A level here favours a side" in out
    assert "kadon      1" not in out  # no per-level worth rows
    code, out = invoke("ratings", str(folder))
    assert code == 0, out
    assert "handicap games rated as plain wins/losses" in out and "Worth of each handicap level" not in out


def test_auto_without_max_level_stops_at_the_ladders_top_and_a_ladder_with_no_room_is_refused(tmp_path: Path) -> None:
    args = ("match", "a=random", "b=random", "--game", "aliens-amazons", "--handicap", "auto", "--games-per-pair", "2",
            "--workers", "1", "--quiet")
    code, out = invoke(*args, "--rule", "amazons=40", "--out", str(tmp_path / "forty"))
    assert code == 0, out  # the default max_level 6 would pass 60 Amazons: it stops at level 4 instead
    assert all(r.handicap <= 4 for r in records_of(tmp_path / "forty"))
    code, out = invoke(*args, "--rule", "amazons=40", "--max-level", "5", "--out", str(tmp_path / "given"))
    assert code == 1 and "max_level 5 is above the top" in out and "level 4" in out  # a level given is kept to
    code, out = invoke(*args, "--rule", "amazons=60", "--out", str(tmp_path / "sixty"))
    assert code == 1 and len(out.strip().splitlines()) == 1 and "no level above 0" in out
    assert not (tmp_path / "given").exists() and not (tmp_path / "sixty").exists()


def test_pooling_levels_counted_from_different_amazons_is_refused(folder: Path, tmp_path: Path) -> None:
    other = tmp_path / "forty"
    code, out = invoke("match", "a=random", "b=random", "--game", "aliens-amazons", "--handicap", "1", "--rule",
                       "amazons=40", "--games-per-pair", "2", "--workers", "1", "--quiet", "--out", str(other))
    assert code == 0, out
    code, out = invoke("handicap", str(folder), str(other), "--pool")
    assert code == 1 and len(out.strip().splitlines()) == 1
    assert "amazons=30, amazons=40" in out and "leave out --pool" in out
    code, out = invoke("handicap", str(folder), str(other))  # one table per rules set, each in its own Amazons
    assert code == 0 and "0 (30 Amazons)" in out and "1 (45 Amazons)" in out
    code, out = invoke("ratings", str(folder), str(other), "--pool")  # the pooled ratings, without a fair value
    assert code == 0 and "Ratings: " in out and "Fair handicaps" not in out


def test_the_site_shows_the_sides_fair_value_and_promises_no_charts(folder: Path, tmp_path: Path) -> None:
    code, out = invoke("publish", str(folder), "--out", str(tmp_path / "site"))
    assert code == 0, out
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Fair handicaps" in index and " Amazons [" in index
    assert "Charts of every pair" not in index  # no fair-level history nor level worth for a side's ladder
    assert " Amazons [" in (tmp_path / "site" / "handicaps.html").read_text(encoding="utf-8")


def test_elo_counts_side_handicap_games_as_plain_results_as_trueskill_does(folder: Path) -> None:
    from ytourney.stats.elo import fit_elo

    records = [r for r in records_of(folder) if r.black != r.white]
    assert any(r.handicap > 0 for r in records) and all(r.player_handicap == 0 for r in records)
    fit = fit_elo(records)
    assert fit.handicap_games_left_out == 0
