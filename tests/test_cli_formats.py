"""Tests of `ytourney run` with the Swiss and knockout formats: standings and bracket, resume after a kill, site."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.tournament.config import ScheduleFormat, load_config
from ytourney.tournament.store import load_records

REPO = Path(__file__).resolve().parent.parent
PLAYERS = ("[{name: m40, bot: 'mcts:playouts=40'}, {name: m20, bot: 'mcts:playouts=20'}, heuristic, "
           "{name: r1, bot: random}, {name: r2, bot: random}]")


def write(tmp_path: Path, schedule: str, name: str = "cup") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\nboard: tri:6\nseed: 9\nschedule: {schedule}\nplayers: {PLAYERS}\n")
    return path


def run(*args: str):
    result = CliRunner().invoke(main, ["run", *args, "--quiet", "--workers", "2"])
    assert result.exit_code == 0, result.output
    return result


def games(folder: Path) -> list[tuple]:
    return [(r.id, r.round, r.first, r.second, r.moves, r.winner_name) for r in load_records(folder)]


@pytest.mark.parametrize("name", ["swiss-example.yaml", "knockout-example.yaml"])
def test_example_configs_validate(name: str) -> None:
    config = load_config(REPO / "configs" / name)
    assert config.schedule.format in (ScheduleFormat.SWISS, ScheduleFormat.KNOCKOUT)
    result = CliRunner().invoke(main, ["validate", str(REPO / "configs" / name), "--no-start"])
    assert result.exit_code == 0, result.output
    assert f"schedule   {config.schedule.format.value}" in result.output


@pytest.mark.parametrize(("schedule", "shown"), [
    ("{format: swiss, rounds: 3}", "Swiss standings after 3 of 3 rounds"),
    ("{format: knockout, games_per_pair: 2, tiebreak_games: 2}", "Knockout bracket"),
])
def test_a_run_killed_mid_round_resumes_to_the_same_games(tmp_path: Path, schedule: str, shown: str) -> None:
    config = write(tmp_path, schedule)
    whole = run(str(config), "--out", str(tmp_path / "whole"))
    assert shown in whole.output and "Ratings" in whole.output
    assert whole.output.index(shown) < whole.output.index("Ratings")
    expected = games(tmp_path / "whole")
    # what kill -9 leaves: every game stored before it, whole (a game is one transaction); games of a round finish
    # in any order, so the stored ones need not be the first ids
    shutil.copytree(tmp_path / "whole", tmp_path / "cut")
    dropped = [game_id for game_id, *_ in expected][3::2]
    with sqlite3.connect(tmp_path / "cut" / "tournament.db") as conn:
        conn.executemany("DELETE FROM moves WHERE game_id = ?", [(i,) for i in dropped])
        conn.executemany("DELETE FROM games WHERE id = ?", [(i,) for i in dropped])
    resumed = run(str(config), "--out", str(tmp_path / "cut"))
    assert games(tmp_path / "cut") == expected
    assert resumed.output == whole.output.replace(str(tmp_path / "whole"), str(tmp_path / "cut"))
def test_site_shows_the_rounds_and_the_bracket(tmp_path: Path) -> None:
    run(str(write(tmp_path, "{format: swiss, rounds: 2}", "sw")), "--out", str(tmp_path / "sw"))
    run(str(write(tmp_path, "{format: knockout, games_per_pair: 1}", "ko")), "--out", str(tmp_path / "ko"))
    for folder, words in (("sw", ("Round 1", "Round 2", "bye", "Buchholz")), ("ko", ("Quarter-finals", "Semi-finals", "Final", "bye", "Winner:"))):
        site = str(tmp_path / f"site-{folder}")
        result = CliRunner().invoke(main, ["publish", str(tmp_path / folder), "--out", site])
        assert result.exit_code == 0, result.output
        page = (tmp_path / f"site-{folder}" / "rounds.html").read_text(encoding="utf-8")
        for word in words:
            assert word in page
        assert 'href="rounds.html"' in (tmp_path / f"site-{folder}" / "index.html").read_text(encoding="utf-8")
