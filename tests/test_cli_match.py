"""`ytourney match`: config-free matches, round-robins and gauntlets (engines included), SPRT stops, resume, and
the YAML it writes read back by the one config reader."""

from __future__ import annotations

import collections
import os
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.errors import ConfigError
from ytourney.tournament.adhoc import MatchOptions, match_data, player_entry
from ytourney.tournament.config import load_config
from ytourney.tournament.store import load_records

FAKES = Path(__file__).resolve().parent / "fake_engines"


def match(*args: str):
    return CliRunner().invoke(main, ["match", *args])


def test_player_syntax() -> None:
    assert player_entry("mcts:playouts=20", 0) == {"bot": "mcts:playouts=20"}
    assert player_entry("fast=mcts:playouts=20", 0) == {"name": "fast", "bot": "mcts:playouts=20"}
    assert player_entry("bots/x.py:Bot", 0) == {"bot": "bots/x.py:Bot"}
    assert player_entry("gtp:hy=/opt/y --gtp;rows=flipped;chatter_lines=100;setup=[a, b]", 0) == {
        "name": "hy", "gtp": {"command": "/opt/y --gtp", "rows": "flipped", "chatter_lines": 100, "setup": ["a", "b"]}}
    for bad, message in (("gtp:hy", "expected gtp:NAME=COMMAND"), ("gtp:hy=/opt/y;rows", "engine option 'rows'")):
        with pytest.raises(ConfigError, match=message):
            player_entry(bad, 0)


def test_formats_follow_the_player_count_and_gauntlet() -> None:
    assert match_data(["a=random", "b=random"], MatchOptions())["schedule"] == {"format": "match"}
    assert match_data(["random", "heuristic", "mcts"], MatchOptions())["schedule"]["format"] == "round-robin"
    gauntlet = match_data(["mcts", "random", "heuristic"], MatchOptions(gauntlet=True))
    assert gauntlet["schedule"] == {"format": "gauntlet", "challenger": "mcts"}
    data = match_data(["random", "heuristic"], MatchOptions(handicap="1.5", game_seconds=30, increment=0.5,
                                                           sprt="elo0=0,elo1=5,model=trinomial", pie=False))
    assert data["handicap"] == {"mode": "fixed", "level": 1.5} and data["rules"] == {"pie": False}
    assert data["time"] == {"game_seconds": 30, "increment": 0.5}
    assert data["schedule"]["sprt"] == {"elo0": 0, "elo1": 5, "model": "trinomial"}
    assert data["name"] == "random-vs-heuristic"


def test_a_match_writes_its_config_resumes_and_runs_again_as_a_config(tmp_path: Path) -> None:
    out = tmp_path / "m"
    args = ["random", "heuristic", "--games-per-pair", "4", "--board", "tri:5", "--seed", "3", "--out", str(out)]
    result = match(*args, "--workers", "1", "--elo")
    assert result.exit_code == 0, result.output
    assert "Elo ± 95%" in result.stdout and len(load_records(out)) == 4
    config = load_config(out / "match.yaml")
    assert config.schedule.format.value == "match" and config.board == "tri:5" and config.seed == 3
    again = match(*args, "--workers", "2")  # the workers are not part of the match
    assert again.exit_code == 0 and "0 played now" in again.stderr
    run = CliRunner().invoke(main, ["run", str(out / "match.yaml"), "--out", str(out)])
    assert run.exit_code == 0 and "0 played now" in run.stderr
    assert CliRunner().invoke(main, ["validate", str(out / "match.yaml"), "--no-start"]).exit_code == 0
    other = match("random", "mcts", "--out", str(out))
    assert other.exit_code == 1 and "players[1].bot" in other.output and "rerun the command" in other.output
    assert yaml.safe_load((out / "match.yaml").read_text())["players"] == [{"bot": "random"}, {"bot": "heuristic"}]


def test_bad_match_options_are_one_clean_line(tmp_path: Path) -> None:
    for args, message in ((["random", "random"], "name them apart"),
                          (["random", "heuristic", "--sprt", "elo0=5,elo1=1"], "expected elo0 < elo1"),
                          (["random", "heuristic", "mcts", "--sprt", "elo0=0,elo1=5"], "only used with format match"),
                          (["random", "heuristic", "--sprt", "elo0"], "expected KEY=VALUE pairs"),
                          (["random", "heuristic", "--sprt", "elo0=0,elo1=5,elo1=9"], "names 'elo1' twice"),
                          (["random", "heuristic", "--publish", "site", "--publish-every", "nan"],
                           "expected a finite number"),
                          (["random", "heuristic", "--board", "hex"], "board"),
                          (["random", "heuristic", "--handicap", "lots"], "--handicap: expected a number"),
                          (["random", "nobot"], "unknown bot 'nobot'"),
                          (["random", "heuristic", "--openings", "o.txt", "--random-plies", "2"], "not both"),
                          (["random"], "at least 2 players")):
        result = match(*args, "--out", str(tmp_path / "x"))
        assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output, args
        assert not (tmp_path / "x").exists()


def test_round_robin_and_a_gauntlet_with_both_engine_families(tmp_path: Path) -> None:
    python = sys.executable
    row_reversed = (f"gtp:hy={python} {FAKES / 'fake_row_reversed.py'} --time-scale 0;rows=flipped;swap=genmove;"
                    "time_command=y_param")
    white_first = (f"gtp:moy={python} {FAKES / 'fake_white_first.py'};first_color=white;swap=none;pie_policy=center;"
                   "time_command=morat;chatter_lines=100")
    result = match(row_reversed, white_first, "random", "--gauntlet", "--games-per-pair", "2", "--board", "tri:6",
                   "--move-seconds", "0.05", "--out", str(tmp_path / "g"), "-q", "--workers", "1")
    assert result.exit_code == 0, result.output
    records = load_records(tmp_path / "g")
    assert len(records) == 4 and all("hy" in (r.black, r.white) for r in records)
    assert not any(r.termination.is_fault for r in records), [(r.termination, r.reason) for r in records]
    robin = match("random", "heuristic", "r2=random", "--games-per-pair", "2", "--board", "tri:5",
                  "--out", str(tmp_path / "rr"), "-q")
    assert robin.exit_code == 0 and len(load_records(tmp_path / "rr")) == 6


def test_an_sprt_match_stops_and_every_report_shows_its_decision(tmp_path: Path) -> None:
    out = tmp_path / "s"
    result = match("random:swap_rate=0", "random", "--sprt", "elo0=0,elo1=150,alpha=0.1,beta=0.1",
                   "--games-per-pair", "2000", "--board", "tri:4", "--workers", "2", "--out", str(out), "-q")
    assert result.exit_code == 0, result.output
    decision = [line for line in result.stdout.splitlines() if line.startswith("SPRT ")]
    assert len(decision) == 1 and " accepted after " in decision[0]
    report = CliRunner().invoke(main, ["ratings", str(out)])
    assert [line for line in report.output.splitlines() if line.startswith("SPRT ")] == decision


def test_a_finished_match_grows_with_more_games_per_pair(tmp_path: Path) -> None:
    out = tmp_path / "m"
    args = ["random", "heuristic", "--board", "tri:5", "--seed", "3", "--out", str(out), "--workers", "1"]
    assert match(*args, "--games-per-pair", "4", "-q").exit_code == 0
    first = {r.id: r.moves for r in load_records(out)}
    grown = match(*args, "--games-per-pair", "8", "--jsonl-out", str(tmp_path / "games.jsonl"))
    assert grown.exit_code == 0, grown.output
    assert "schedule.games_per_pair grows from 4 to 8" in grown.stderr and "4 played now" in grown.stderr
    records = load_records(out)
    assert [r.id for r in records] == list(range(1, 9)) and all(first[i] == records[i - 1].moves for i in first)
    assert sorted(collections.Counter(r.first for r in records).values()) == [4, 4]
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 8  # the stored games too
    assert yaml.safe_load((out / "match.yaml").read_text())["schedule"]["games_per_pair"] == 8
    shrunk = match(*args, "--games-per-pair", "2")
    assert shrunk.exit_code == 1 and "schedule.games_per_pair, 8 when stored and now 2" in shrunk.output
    assert "Traceback" not in shrunk.output
    run = CliRunner().invoke(main, ["run", str(out / "match.yaml"), "--out", str(out), "-q",
                                    "--set", "schedule.games_per_pair=10"])
    assert run.exit_code == 0, run.output
    assert len(load_records(out)) == 10


def test_a_match_whose_player_cannot_start_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = match("random", f"gtp:dead={sys.executable} {FAKES / 'fake_gtp.py'} --fault die-at-start", "--out",
                   str(out), "-q")
    assert result.exit_code == 1 and "dead" in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_match_errors_name_the_option_and_match_takes_the_run_options(tmp_path: Path) -> None:
    out = tmp_path / "m"
    high = match("random", "heuristic", "--handicap", "9", "--out", str(out))
    assert high.exit_code == 1 and "Traceback" not in high.output
    assert "--handicap: expected a number <= 6; found 9; give --max-level" in high.output
    assert "match.yaml" not in high.output and "handicap.level" not in high.output and not out.exists()
    bad = match("random", "mcts:playouts=-5", "--out", str(out))
    assert bad.exit_code == 1 and "player 2 ('mcts:playouts=-5')" in bad.output and not out.exists()
    nothing = match("random", "heuristic", "--resume", "--out", str(out))
    assert nothing.exit_code == 1 and "nothing to resume" in nothing.output and not out.exists()
    args = ["random", "heuristic", "--handicap", "8", "--max-level", "8", "--games-per-pair", "2", "--board", "tri:5",
            "--out", str(out), "-q", "--set", "fault_limit=2", "--gtp-log", str(tmp_path / "logs"), "--backend",
            "local"]
    result = match(*args)
    assert result.exit_code == 0, result.output
    assert [r.handicap for r in load_records(out)] == [8, 8]
    written = yaml.safe_load((out / "match.yaml").read_text())
    assert written["fault_limit"] == 2 and written["handicap"] == {"mode": "fixed", "level": 8, "max_level": 8}
    assert match(*args, "--resume").exit_code == 0


def test_a_rule_set_twice_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    for args in (["--misere", "--rule", "misere=off"], ["--no-pie", "--rule", "pie=on"],
                 ["--rule", "pie=off", "--rule", "pie=on"]):
        out = tmp_path / "twice"
        result = match("a=random", "b=random", *args, "--out", str(out), "--quiet")
        assert result.exit_code == 1 and "is already set" in result.output and "give each rule once" in result.output
        assert not out.exists()


def test_a_site_in_the_results_folder_or_a_refused_feed_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "k1"
    for publish, words in ((out, "is the results folder"), (out / "site", "is inside the results folder")):
        result = match("a=random", "b=random", "--out", str(out), "--publish", str(publish), "--quiet")
        assert result.exit_code == 1 and words in result.output and "give --publish a folder of its own" in result.output
        assert not out.exists()  # refused before match.yaml (the same command could never succeed after it)
    fifo = tmp_path / "feed"
    os.mkfifo(fifo)
    result = match("a=random", "b=random", "--out", str(out), "--jsonl-out", str(fifo), "--quiet")
    assert result.exit_code == 1 and "FIFO" in result.output and not out.exists()


def test_one_file_for_both_feeds_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    out, feed = tmp_path / "k5", tmp_path / "games.txt"
    result = match("a=random", "b=random", "--out", str(out), "--pgn-out", str(feed), "--jsonl-out",
                   str(tmp_path / "." / "games.txt"), "--quiet")
    assert result.exit_code == 1 and "name the same file" in result.output
    assert not out.exists() and not feed.exists()
