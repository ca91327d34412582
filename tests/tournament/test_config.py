"""Tests of config loading: good configs become dataclasses; every bad one gets a message naming file and key."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from ytourney.errors import ConfigError
from ytourney.players.clock import TimeControl
from ytourney.players.spec import BotKind
from ytourney.stats.handicap import HandicapMode
from ytourney.stats.ratings import RatingSettings
from ytourney.tournament.config import (
    ScheduleFormat,
    derive_seed,
    load_config,
    parse_config,
)
from ytourney.tournament.config_openings import OpeningOrder, OpeningSettings

REPO = Path(__file__).resolve().parents[2]

GOOD = """
name: demo
board: tri:11
rules: {pie: true, misere: false}
schedule: {format: round-robin, games_per_pair: 20}
handicap: {mode: auto, max_level: 6}
time: {move_seconds: 0.5, grace_seconds: 1.0}
ratings: {mu: 25.0, sigma: 8.333, beta: 4.167, tau: 0.083}
workers: 2
seed: 7
players:
  - {name: random, bot: random}
  - {name: mcts-1k, bot: "mcts:playouts=1000"}
"""


def write(tmp_path: Path, text: str, name: str = "t.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def error_of(tmp_path: Path, text: str) -> str:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(str(path)), message
    return message


def test_design_example_loads() -> None:
    config = parse_config(GOOD, "demo.yaml")
    assert config.name == "demo" and config.board == "tri:11"
    assert config.rules.pie and not config.rules.misere
    assert config.schedule.format is ScheduleFormat.ROUND_ROBIN and config.schedule.games_per_pair == 20
    assert config.handicap.mode is HandicapMode.AUTO and config.handicap.max_level == 6
    assert config.time == TimeControl(move_seconds=0.5, grace_seconds=1.0) and config.time.allowed(None) == 1.5
    assert config.ratings == RatingSettings(mu=25.0, sigma=8.333, beta=4.167, tau=0.083)
    assert config.workers == 2 and config.seed == 7 and config.fault_limit == 5
    assert config.player_names == ("random", "mcts-1k")
    assert config.players[1].spec.options == (("playouts", 1000),)
    assert config.players[1].own_budget and not config.players[0].own_budget


def test_defaults_and_shorthand_players(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "players: [random, heuristic]\n", name="my-cup.yaml"))
    assert config.name == "my-cup"
    assert config.board == "tri:11" and config.rules.pie
    assert config.schedule.games_per_pair == 2 and config.handicap.mode is HandicapMode.NONE
    assert config.time == TimeControl() and config.time.allowed(None) is None and config.workers is None
    assert config.seed == derive_seed("ytourney", "my-cup")
    assert config.player_names == ("random", "heuristic")


def test_digest_ignores_execution_keys_and_formatting() -> None:
    base = parse_config(GOOD)
    moved = parse_config(GOOD.replace("workers: 2", "workers: 8").replace("tau: 0.083", "tau: 0.1")
                         + "fault_limit: 2\n# a comment\n")
    assert base.digest() == moved.digest()
    assert base.digest() != parse_config(GOOD.replace("games_per_pair: 20", "games_per_pair: 22")).digest()


PINNED = {
    "gtp": (("name: g\nrules: {pie: false}\nschedule: {format: match, sprt: {p0: 0.45, p1: 0.55}, openings: "
             "{random_plies: 2}}\ntime: {game_seconds: 30, increment: 1}\nplayers:\n  - random\n  - name: e\n"
             "    gtp: {command: [./no/engine, --x, 3], swap: genmove, env: {A: 1}}\n"),
            "0cba848cd984d43cd70d0a22803270d4382a43dcb67c46aa51488d525a20c993"),
    "fixed": ("name: f\nhandicap: {mode: fixed, level: 2, stop_width: 1}\nplayers: [random, 'mcts:playouts=100']\n",
              "9ec80172a6567a383e4cb08569816e76f82a25c0dcfce0d582ab255d1ffef632"),
    "design": (GOOD, "155b78d8aad7ed434375a9cddfed70df6fb06960afd942581f0a0d9775789480"),
}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_digest_of_a_config_never_changes(name: str) -> None:
    """Results folders store this digest: a resumed run of an old folder must still match it."""
    text, digest = PINNED[name]
    assert parse_config(text, "t.yaml").digest() == digest


def test_errors_carry_source_key_path_value_and_expectation(tmp_path: Path) -> None:
    two = "players: [random, heuristic]\n"
    cases = [
        ("player: [random, heuristic]\n", "player", "player",
         "one of the keys name, game, board, rules, schedule, handicap, time, adjudication, ratings, workers, seed,"
             " fault_limit, memory_mb, players"),
        ("schedule: {games_per_pair: 0}\n" + two, "schedule.games_per_pair", 0, "a whole number >= 1"),
        ("schedule: {format: gauntlet}\n" + two, "schedule.challenger", None, "a player name"),
        ("rules: {pie: yes please}\n" + two, "rules.pie", "yes please", "true or false"),
        ("handicap: {mode: fixed}\n" + two, "handicap.level", None, "a handicap level"),
        ("players: [random, {name: m, bot: alphazero}]\n", "players[1].bot", "alphazero",
         "a built-in bot or a plugin file:Class"),
        ("players: [random, {name: e, gtp: {command: [e], swap: maybe}}]\n", "players[1].gtp.swap", "maybe",
         "one of none, genmove, play"),
        ("players: [random, {name: m, bot: nowhere/bot.py:Bot}]\n", "players[1].bot", "nowhere/bot.py",
         "an existing regular file"),
    ]
    for text, key_path, value, expected in cases:
        path = write(tmp_path, "name: x\n" + text)
        with pytest.raises(ConfigError) as info:
            load_config(path)
        error = info.value
        assert (error.source, error.path, error.value, error.expected) == (str(path), key_path, value, expected)
        assert str(error).startswith(f"{path}: {key_path}: ")


def test_error_message_reads_file_key_path_expected_found_and_hint() -> None:
    with pytest.raises(ConfigError) as info:
        parse_config("name: x\nschedule: {format: round-robbin}\nplayers: [random, heuristic]\n", "t.yaml")
    assert str(info.value) == ("t.yaml: schedule.format: expected one of round-robin, gauntlet, match, swiss, knockout; "
                               "found str 'round-robbin'; did you mean 'round-robin'?")
    assert (info.value.path, info.value.value) == ("schedule.format", "round-robbin")


def test_reading_without_files_keeps_named_paths_as_written(tmp_path: Path) -> None:
    text = ("name: x\nrules: {pie: false}\nschedule: {openings: gone.txt}\nplayers:\n  - gone/bot.py:Bot\n"
            "  - {name: e, gtp: {command: [./engines/gone, --gtp], cwd: no/such/dir}}\n")
    with pytest.raises(ConfigError, match="plugin file 'gone/bot.py' not found"):
        parse_config(text, "t.yaml", tmp_path)
    config = parse_config(text, "t.yaml", tmp_path, require_files=False)
    assert config.players[0].spec.path == "gone/bot.py" and config.players[0].name == "gone/bot.py:Bot"
    engine = config.players[1].spec.gtp
    assert engine is not None and engine.command == ("./engines/gone", "--gtp") and engine.cwd == "no/such/dir"
    assert config.schedule.openings == OpeningSettings(file="gone.txt")
    with pytest.raises(ConfigError) as info:  # everything but the files is checked as strictly
        parse_config(text.replace("--gtp]", "--gtp], swap: maybe"), "t.yaml", tmp_path, require_files=False)
    assert info.value.path == "players[1].gtp.swap"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name: x\nplayers: [random, random]\n", "players[1].name: duplicate player name 'random'"),
        ("name: x\nplayer: [random, heuristic]\n", "player: unknown key; did you mean 'players'?"),
        ("name: x\nplayers: [random]\n", "players: expected at least 2 players; found 1"),
        ("name: x\nplayers: random\n", "players: expected a list of players; found str 'random'"),
        ("name: x\nboard: tri:40\nplayers: [random, heuristic]\n", "board: "),
        ("name: x\nboard: 11\nplayers: [random, heuristic]\n", "board: expected a board spec"),
        ("name: x\nrules: {pie: yes please}\nplayers: [random, heuristic]\n",
         "rules.pie: expected true or false; found str 'yes please'"),
        ("name: x\nrules: {mizere: true}\nplayers: [random, heuristic]\n",
         "rules.mizere: unknown key; did you mean 'misere'?"),
        ("name: x\nschedule: {game_per_pair: 4}\nplayers: [random, heuristic]\n",
         "schedule.game_per_pair: unknown key; did you mean 'games_per_pair'?"),
        ("name: x\nschedule: {games_per_pair: 0}\nplayers: [random, heuristic]\n",
         "schedule.games_per_pair: expected a whole number >= 1; found 0"),
        ("name: x\nschedule: {games_per_pair: 2.5}\nplayers: [random, heuristic]\n",
         "schedule.games_per_pair: expected a whole number; found float 2.5"),
        ("name: x\nschedule: {format: round-robbin}\nplayers: [random, heuristic]\n",
         "schedule.format: expected one of round-robin, gauntlet, match, swiss, knockout; found str 'round-robbin'; did you mean"),
        ("name: x\nschedule: {format: gauntlet}\nplayers: [random, heuristic]\n", "schedule.challenger: missing"),
        ("name: x\nschedule: {format: gauntlet, challenger: randon}\nplayers: [random, heuristic]\n",
         "schedule.challenger: expected one of the player names (random, heuristic); found 'randon'; did you mean"),
        ("name: x\nschedule: {format: match}\nplayers: [random, heuristic, mcts]\n",
         "players: format match needs exactly 2 players; found 3"),
        ("name: x\nschedule: {sprt: {p0: 0.5, p1: 0.6}}\nplayers: [random, heuristic]\n",
         "schedule.sprt: only used with format match"),
        ("name: x\nschedule: {format: match, sprt: {p0: 0.6, p1: 0.5}}\nplayers: [random, heuristic]\n",
         "schedule.sprt"),
        ("name: x\nhandicap: {mode: fixd}\nplayers: [random, heuristic]\n",
         "handicap.mode: expected one of none, fixed, auto; found str 'fixd'; did you mean 'fixed'?"),
        ("name: x\nhandicap: {mode: fixed}\nplayers: [random, heuristic]\n", "handicap.level: missing"),
        ("name: x\nhandicap: {mode: fixed, level: 9}\nplayers: [random, heuristic]\n", "handicap.level"),
        ("name: x\nhandicap: {mode: auto, max_level: 9}\nboard: tri:4\nplayers: [random, heuristic]\n",
         "handicap.max_level: expected fewer handicap stones than board 'tri:4' can take"),
        ("name: x\ntime: {move_seconds: 1, game_seconds: 60}\nplayers: [random, heuristic]\n",
         "time: expected either move_seconds or a game clock"),
        ("name: x\ntime: {move_seconds: -1}\nplayers: [random, heuristic]\n",
         "time.move_seconds: expected a number > 0; found -1"),
        ("name: x\ntime: {increment: 1}\nplayers: [random, heuristic]\n", "time.increment: only used with game_seconds"),
        ("name: x\nratings: {sigma: 0}\nplayers: [random, heuristic]\n", "ratings.sigma: expected a number >= 0.001"),
        ("name: x\nratings: {draw_chance: 0.1}\nplayers: [random, heuristic]\n", "ratings.draw_chance: unknown key"),
        ("name: x\nworkers: 0\nplayers: [random, heuristic]\n", "workers: expected a whole number >= 1; found 0"),
        ("name: x\nseed: abc\nplayers: [random, heuristic]\n", "seed: expected a whole number; found str 'abc'"),
        ("name: x\nfault_limit: -1\nplayers: [random, heuristic]\n", "fault_limit: expected a whole number >= 0"),
        ("name: ../evil\nplayers: [random, heuristic]\n", "name: expected letters, digits"),
        ("name: x\nplayers: [random, {name: m, bot: 'mcts:playout=5'}]\n",
         "players[1].bot: unknown option 'playout' for bot 'mcts'"),
        ("name: x\nplayers: [random, {name: m, bot: alphazero}]\n", "players[1].bot: unknown bot 'alphazero'"),
        ("name: x\nplayers: [random, {name: m}]\n", "players[1]: expected exactly one of 'bot'"),
        ("name: x\nplayers: [random, {name: m, bot: random, gtp: {command: [x]}}]\n",
         "players[1]: expected exactly one of 'bot'"),
        ("name: x\nplayers: [random, {nmae: m, bot: random}]\n", "players[1].nmae: unknown key; did you mean 'name'?"),
        ("name: x\nplayers: [random, {name: m, bot: nowhere/bot.py:Bot}]\n",
         "players[1].bot: plugin file 'nowhere/bot.py' not found (looked in"),
        ("name: x\nplayers: [random, {gtp: {command: [engine]}}]\n", "players[1].name: missing; a gtp player needs a name"),
        ("name: x\nplayers: [random, {name: e, gtp: {comand: [engine]}}]\n", "players[1].gtp.comand"),
        ("name: x\nplayers: [random, {name: e, gtp: {command: 5}}]\n", "players[1].gtp.command"),
        ("name: x\nplayers: [random, {name: e, gtp: {command: [e], swap: maybe}}]\n", "players[1].gtp.swap"),
        ("name: x\nplayers: [random, {name: e, gtp: {command: [e], cwd: no/such/dir}}]\n",
         "players[1].gtp.cwd: directory 'no/such/dir' not found"),
        ("name: x\nschedule: {openings: {random_plies: 2}}\nplayers: [random, heuristic]\n",
         "schedule.openings.random_plies: random plies are for games without the pie rule; set rules.pie: false"),
        ("name: x\nschedule: {openings: lines.txt}\nplayers: [random, heuristic]\n",
         "schedule.openings.file: opening lines are for games without the pie rule; set rules.pie: false"),
        (("name: x\nrules: {pie: false}\nschedule: {openings: {random_plies: 2, file: a.txt}}\n"
          "players: [random, heuristic]\n"), "schedule.openings: expected exactly one of 'file'"),
        ("name: x\nrules: {pie: false}\nschedule: {openings: missing.txt}\nplayers: [random, heuristic]\n",
         "schedule.openings.file: opening file 'missing.txt' not found"),
        ("players: [random, heuristic]\n---\nname: y\n", "invalid YAML"),
        ("", "the config is empty"),
        ("- just\n- a list\n", "expected a mapping"),
    ],
)
def test_bad_configs_are_explained(tmp_path: Path, text: str, expected: str) -> None:
    assert expected in error_of(tmp_path, text)


def test_yaml_syntax_error_gives_line_and_column(tmp_path: Path) -> None:
    message = error_of(tmp_path, "name: x\nseed: 1: 2\nplayers: [random, heuristic]\n")
    assert ": line 2, column 8: invalid YAML: mapping values are not allowed here" in message


def test_duplicate_yaml_keys_are_refused(tmp_path: Path) -> None:
    message = error_of(tmp_path, "name: x\nseed: 1\nplayers: [random, heuristic]\nseed: 2\n")
    assert "duplicate key 'seed' (first given on line 2)" in message and "line 4" in message


def test_missing_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "nope.yaml")


def test_plugin_path_resolves_against_the_config_folder_then_cwd(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "configs"
    folder.mkdir()
    (folder / "mine.py").write_text("from ytourney.players import BaseBot\nclass Mine(BaseBot):\n"
                                    "    def move(self, state, limit):\n        return state.empty_cells()[0]\n")
    (tmp_path / "shared.py").write_text((folder / "mine.py").read_text())
    monkeypatch.chdir(tmp_path)
    config = load_config(write(folder, "name: x\nplayers: [random, 'mine.py:Mine', 'shared.py:Mine']\n"))
    assert config.players[1].spec.kind is BotKind.PLUGIN
    assert config.players[1].spec.path == str(folder / "mine.py")
    assert config.players[2].spec.path == str(tmp_path / "shared.py")
    assert config.players[1].name == "mine.py:Mine"


def test_gtp_player_resolves_cwd_and_slashed_program(tmp_path: Path) -> None:
    folder = tmp_path / "cfg"
    (folder / "engines").mkdir(parents=True)
    engine = folder / "engines" / "eng"
    engine.write_text("#!/bin/sh\n")
    text = f"""
    name: x
    players:
      - random
      - name: e1
        gtp: {{command: [./engines/eng, --gtp], cwd: ., swap: genmove}}
      - name: e2
        gtp: {{command: "{sys.executable} -u bot.py"}}
    """
    config = load_config(write(folder, text))
    e1, e2 = config.players[1].spec.gtp, config.players[2].spec.gtp
    assert e1.command == (str(engine.resolve()), "--gtp") and e1.cwd == str(folder.resolve())
    assert e1.swap == "genmove"
    assert e2.command == (sys.executable, "-u", "bot.py")
    assert config.players[1].spec_text == f"gtp: {engine.resolve()} --gtp"


def test_openings_file_is_parsed_and_checked(tmp_path: Path) -> None:
    (tmp_path / "open.txt").write_text("# openings\ne5 c3\n\na1, b2  # comment\n")
    base = "name: x\nboard: tri:9\nrules: {pie: false}\nplayers: [random, heuristic]\n"
    config = load_config(write(tmp_path, base + "schedule: {openings: {file: open.txt, order: random}}\n"))
    openings = config.schedule.openings
    assert openings is not None and len(openings.lines) == 2 and openings.order is OpeningOrder.RANDOM
    (tmp_path / "bad.txt").write_text("e5 e5\n")
    message = error_of(tmp_path, base + "schedule: {openings: bad.txt}\n")
    assert "schedule.openings.file: bad.txt line 1: 'e5'" in message and "occupied" in message
    (tmp_path / "off.txt").write_text("z9\n")
    assert "off.txt line 1: 'z9'" in error_of(tmp_path, base + "schedule: {openings: off.txt}\n")


def test_shipped_configs_are_valid() -> None:
    configs = sorted((REPO / "configs").glob("*.yaml"))
    assert {p.name for p in configs} >= {"quickstart.yaml", "kadon.yaml", "gauntlet.yaml", "misere.yaml", "gtp.yaml"}
    for path in configs:
        config = load_config(path)
        assert config.name and len(config.players) >= 2
    gtp = load_config(REPO / "configs" / "gtp.yaml").players[0].spec.gtp
    assert gtp.cwd == str(REPO)
