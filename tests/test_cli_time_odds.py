"""Per-player time controls (time odds): `players[i].time` in a config and `match --player-time`, enforced per seat by
the referee, stored with each game, noted by the rating table and the PGN export, and refused with one clear line
when malformed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ytourney.cli import main
from ytourney.tournament.config import parse_config
from ytourney.tournament.store import load_records

SLEEPER = """\
import time
from ytourney.players import BaseBot


class Sleeper(BaseBot):
    name = "sleeper"

    def move(self, state, limit):
        time.sleep(0.15)
        return state.empty_cells()[0]
"""


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def write_odds(tmp_path: Path) -> Path:
    (tmp_path / "sleeper.py").write_text(SLEEPER)
    config = tmp_path / "odds.yaml"
    config.write_text("name: odds\nboard: tri:5\ntime: {move_seconds: 1}\n"
                      "schedule: {format: match, games_per_pair: 2}\nplayers:\n"
                      "- {name: slow, bot: sleeper.py:Sleeper, time: {move_seconds: 0.05, grace_seconds: 0}}\n"
                      "- {name: patient, bot: sleeper.py:Sleeper}\n")
    return config


def test_each_player_plays_under_its_own_clock_and_the_table_notes_the_odds(tmp_path: Path) -> None:
    config, out = write_odds(tmp_path), tmp_path / "out"
    result = invoke("run", str(config), "--out", str(out), "--workers", "1")
    assert result.exit_code == 0, result.output
    records = load_records(out)
    # the same bot: the one on 0.05 s a move loses on time, the one on the tournament's 1 s never does
    assert len(records) == 2 and all(r.winner_name == "patient" and r.termination.value == "time" for r in records)
    assert all(r.extra["time_controls"] == {"slow": "0.05s/move (grace 0s)", "patient": "1s/move"}
               for r in records)
    assert "{slow loses by time}" in result.stderr
    header = next(line for line in result.stdout.splitlines() if line.startswith("#"))
    assert header.split()[-1] == "time"
    slow = next(line for line in result.stdout.splitlines() if " slow " in line)
    assert slow.endswith("0.05s/move (grace 0s)")
    assert "2 games played at time odds, rated like the others" in result.stdout
    pgn = invoke("export", str(out), "--format", "pgn").stdout
    assert '[BlackTimeControl "0.05s/move (grace 0s)"]' in pgn and '[WhiteTimeControl "1s/move"]' in pgn
    shown = invoke("validate", str(config), "--no-start")
    assert "time odds  slow: 0.05s per move (grace 0s)" in shown.output


def test_a_config_without_time_odds_keeps_its_key_and_shows_no_time_column(tmp_path: Path) -> None:
    text = "name: even\nboard: tri:5\nplayers: [{name: a, bot: random}, {name: b, bot: random}]\n"
    config = parse_config(text)
    assert '"time"' not in json.dumps(json.loads(config.canonical)["players"]) and not config.time_odds
    odds = parse_config(text.replace("{name: b, bot: random}", "{name: b, bot: random, time: {move_seconds: 2}}"))
    assert odds.time_odds and odds.time_of("b").move_seconds == 2 and odds.time_of("a") == config.time
    assert odds.canonical != config.canonical  # another time control is another tournament
    path = tmp_path / "even.yaml"
    path.write_text(text)
    result = invoke("run", str(path), "--out", str(tmp_path / "out"), "-q")
    assert result.exit_code == 0 and "time odds" not in result.stdout
    assert next(line for line in result.stdout.splitlines() if line.startswith("#")).split()[-1] == "faults"


@pytest.mark.parametrize(("value", "message"), [
    ("{move_seconds: -1}", "players[0].time.move_seconds: expected a number > 0; found -1"),
    ("{move_seconds: 1, game_seconds: 5}", "players[0].time: expected either move_seconds or a game clock"),
    ("{seconds: 1}", "players[0].time.seconds: unknown key; did you mean 'move_seconds'?"),
    ("{increment: 1}", "players[0].time.increment: only used with game_seconds"),
    ("fast", "players[0].time: expected a mapping with keys move_seconds"),
])
def test_a_bad_player_time_is_one_line_before_any_game(tmp_path: Path, value: str, message: str) -> None:
    config, out = write_odds(tmp_path), tmp_path / "out"
    result = invoke("run", str(config), "--out", str(out), "--set", f"players[0].time={value}")
    assert result.exit_code == 1 and message in result.output, result.output
    assert "Traceback" not in result.output and not out.exists()


def test_match_player_time_gives_one_player_its_clock(tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = invoke("match", "random", "heuristic", "--board", "tri:5", "--move-seconds", "2", "--player-time",
                    "heuristic=move_seconds=0.5,grace_seconds=0.5", "--out", str(out), "-q")
    assert result.exit_code == 0, result.output
    config = parse_config((out / "match.yaml").read_text())
    assert config.time_of("heuristic").move_seconds == 0.5 and config.time_of("random").move_seconds == 2
    assert all(r.extra["time_controls"]["heuristic"] == "0.5s/move (grace 0.5s)" for r in load_records(out))
    assert "time odds" in result.stdout


def test_match_player_time_reaches_a_player_named_by_a_spec_with_options(tmp_path: Path) -> None:
    """A player named by its spec, 'mcts:playouts=50', holds an '=' that was taken for the end of the name."""
    out = tmp_path / "m"
    result = invoke("match", "mcts:playouts=50", "random", "--board", "tri:4", "--games-per-pair", "2",
                    "--player-time", "mcts:playouts=50=move_seconds=0.5", "--out", str(out), "-q")
    assert result.exit_code == 0, result.output
    assert parse_config((out / "match.yaml").read_text()).time_of("mcts:playouts=50").move_seconds == 0.5


@pytest.mark.parametrize(("item", "message"), [
    ("nobody=move_seconds=1", "no player is named 'nobody'; expected one of 'random', 'heuristic'"),
    ("random", "expected NAME=KEY=VALUE[,KEY=VALUE...], like fast=move_seconds=0.2"),
    ("random=move_seconds=-1", "--player-time random move_seconds: expected a number > 0; found -1"),
    ("random=move_seconds=1,game_seconds=3", "--player-time random: expected either move_seconds or a game clock"),
    ("random=move_seconds=1,move_seconds=2", "names 'move_seconds' twice"),
])
def test_match_refuses_a_bad_player_time_in_its_own_terms(tmp_path: Path, item: str, message: str) -> None:
    out = tmp_path / "m"
    result = invoke("match", "random", "heuristic", "--player-time", item, "--out", str(out))
    assert result.exit_code == 1 and message in result.output, result.output
    assert not out.exists()
    twice = invoke("match", "random", "heuristic", "--player-time", "random=move_seconds=1", "--player-time",
                   "random=move_seconds=2", "--out", str(out))
    assert twice.exit_code == 1 and "already has a time control" in twice.output
