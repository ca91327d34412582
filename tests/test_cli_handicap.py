"""`ytourney handicap`, and the handicap sections of `ratings` and `publish`, on a real tiny auto-handicap run."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.games.record import GameRecord, Termination
from ytourney.games.y.state import CONNECTION

CONFIG = """name: tiny-handicap
board: tri:5
schedule: {format: round-robin, games_per_pair: 12}
handicap: {mode: auto, max_level: 4}
seed: 5
players:
  - {name: weak, bot: "mcts:playouts=4"}
  - {name: middle, bot: "mcts:playouts=40"}
  - {name: strong, bot: "mcts:playouts=200"}
"""


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("handicap")
    config = base / "tiny.yaml"
    config.write_text(CONFIG)
    out = base / "out"
    code, output = invoke("run", str(config), "--out", str(out), "--workers", "1", "--quiet")
    assert code == 0, output
    return out


@pytest.fixture(scope="module")
def records(folder: Path) -> list[GameRecord]:
    code, output = invoke("export", str(folder), "--format", "jsonl")
    assert code == 0
    return [GameRecord.from_dict(json.loads(line)) for line in output.splitlines() if line.strip()]


def test_text_shows_every_pair_and_the_level_worths(folder: Path, records: list[GameRecord]) -> None:
    code, out = invoke("handicap", str(folder))
    assert code == 0, out
    assert "Fair handicaps: tiny-handicap" in out and "Worth of each handicap level: tiny-handicap" in out
    header = next(line for line in out.splitlines() if line.startswith("weaker"))
    assert header.split()[:5] == ["weaker", "stronger", "fair", "level", "low"]
    assert "results by level" in header
    assert any(r.handicap > 0 for r in records), "the auto planner gave handicaps"
    assert "Games that ended by a fault are left out" in out


def test_csv_rows_carry_numbers_per_level(folder: Path, records: list[GameRecord]) -> None:
    code, out = invoke("handicap", str(folder), "--format", "csv")
    assert code == 0, out
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 3
    assert {frozenset((r["weaker"], r["stronger"])) for r in rows} == {
        frozenset(p) for p in (("weak", "middle"), ("weak", "strong"), ("middle", "strong"))}
    for row in rows:
        assert float(row["low"]) <= float(row["median"]) <= float(row["high"])
        assert int(row["games"]) + int(row["faults"]) == 12
        level_games = sum(int(v) for k, v in row.items() if k.startswith("games_L") and v)
        assert level_games == int(row["games"])
    strongest_pair = next(r for r in rows if {r["weaker"], r["stronger"]} == {"weak", "strong"})
    assert strongest_pair["weaker"] == "weak" and float(strongest_pair["median"]) > 0.5


def test_json_has_the_pairs_and_monotone_level_worths(folder: Path) -> None:
    code, out = invoke("handicap", str(folder), "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    assert data["kind"] == "handicap" and len(data["rows"]) == 3
    assert data["meta"]["max_level"] == 4 and data["meta"]["target"] == 0.5
    worth = data["meta"]["level_worth"]
    assert worth[0]["level"] == 0 and worth[0]["mu"] == 0.0
    mus = [w["mu"] for w in worth]
    assert mus == sorted(mus)


def test_markdown_html_and_levels_only(folder: Path) -> None:
    code, md = invoke("handicap", str(folder), "--format", "md")
    assert code == 0 and md.count("| weaker |") == 1 and "| board | level |" in md
    code, html = invoke("handicap", str(folder), "--format", "html")
    assert code == 0 and html.lstrip().lower().startswith("<!doctype html") and html.count("<table") == 2
    code, levels = invoke("handicap", str(folder), "--levels", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(levels)))
    assert code == 0 and rows[0]["level"] == "0" and {r["board"] for r in rows} == {"tri:5"}


def test_faults_are_counted_apart_and_even_only_results_still_report(tmp_path: Path,
                                                                    records: list[GameRecord]) -> None:
    handicapped = next(r for r in records if r.handicap > 0)
    lost_on_time = GameRecord.from_dict({**handicapped.to_dict(), "id": 1000, "termination": "time"})
    with_fault = tmp_path / "with-fault.jsonl"
    with_fault.write_text("\n".join(json.dumps(r.to_dict()) for r in [*records, lost_on_time]) + "\n")
    code, out = invoke("handicap", str(with_fault), "--format", "json")
    assert code == 0, out
    pair = {handicapped.black, handicapped.white}
    row = next(r for r in json.loads(out)["rows"] if {r["weaker"], r["stronger"]} == pair)
    assert row["faults"] == 1 and row["games"] == 12
    even = tmp_path / "even.jsonl"
    even.write_text("\n".join(json.dumps(r.to_dict()) for r in records if r.handicap == 0) + "\n")
    code, out = invoke("handicap", str(even))
    assert code == 0 and "No handicap games were played" in out


def test_ratings_and_publish_show_the_handicap_section(folder: Path, tmp_path: Path) -> None:
    code, out = invoke("ratings", str(folder))
    assert code == 0, out
    assert "handicap games rated with the learned worth of each level" in out
    assert "Fair handicaps" in out and "Worth of each handicap level" in out
    code, out = invoke("ratings", str(folder), "--format", "csv")
    assert code == 0 and "Fair handicaps" not in out and out.splitlines()[0].startswith("rank,")
    code, out = invoke("publish", str(folder), "--out", str(tmp_path / "site"))
    assert code == 0, out
    index = (tmp_path / "site" / "index.html").read_text()
    assert 'id="handicap"' in index and "Worth of each handicap level" in index and "results by level" in index


def test_bad_folder_is_a_clean_error(tmp_path: Path) -> None:
    code, out = invoke("handicap", str(tmp_path / "missing"))
    assert code == 1 and "does not exist" in out and "Traceback" not in out


def test_a_game_without_a_handicap_ladder_gets_no_fair_levels(tmp_path: Path) -> None:
    out = tmp_path / "tetra"
    code, output = invoke("match", "a=random", "b=random", "--game", "tetra", "--games-per-pair", "2", "--out",
                          str(out), "--quiet", "--seed", "1")
    assert code == 0, output
    code, output = invoke("handicap", str(out))
    assert code == 1 and "Traceback" not in output and "Fair handicaps" not in output
    assert "game 'tetra' has no handicap ladder; expected games of one that has (y, aliens-amazons)" in output


def test_record_helper_matches_the_store(records: list[GameRecord]) -> None:
    assert all(r.termination in (CONNECTION, Termination.ADJUDICATED_RESIGN) for r in records)  # the default rules
    assert len(records) == 36 and sorted(r.id for r in records) == list(range(1, 37))


def test_an_empty_level_worth_table_is_a_line(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from ytourney.cli import main

    config = tmp_path / "even.yaml"
    config.write_text("name: even\nboard: tri:5\nschedule: {games_per_pair: 2}\nplayers: [random, heuristic]\n")
    assert CliRunner().invoke(main, ["run", str(config), "--out", str(tmp_path / "even"), "-q"]).exit_code == 0
    for args in ((), ("--levels",)):
        result = CliRunner().invoke(main, ["handicap", str(tmp_path / "even"), *args])
        assert result.exit_code == 0, result.output
        assert ("Worth of each handicap level: even: nothing to show (no handicap games were played, so no level's "
                "worth was learned).") in result.output
        assert "sigma" not in result.output  # no header of an empty table
