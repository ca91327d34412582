"""The config sections other layers own (gtp, schedule.sprt, ratings, handicap, time): read into those layers' own
types by the one reader, every bad value a ConfigError carrying its key path, the value found and what was expected."""

from __future__ import annotations

import math
import pickle

import pytest

from ytourney.errors import ConfigError
from ytourney.games.registry import get_game
from ytourney.players.clock import TimeControl
from ytourney.players.gtp.settings import (
    FirstColor,
    GtpSettings,
    PiePolicy,
    RowOrder,
    SwapDialect,
    TimeCommand,
)
from ytourney.stats.elo_sprt import EloSprtSettings, SprtModel
from ytourney.stats.handicap import HandicapMode, HandicapSettings
from ytourney.stats.ratings import HandicapRating, RatingSettings
from ytourney.stats.sprt import SprtSettings
from ytourney.tournament.config import TournamentConfig, parse_config

TWO = "players: [random, heuristic]\n"
MATCH = "schedule: {format: match, sprt: %s}\n" + TWO


def read(text: str) -> TournamentConfig:
    return parse_config("name: x\n" + text, "t.yaml")


def failure(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        read(text)
    error = info.value
    assert str(error).startswith(f"t.yaml: {error.path}: ") and error.source == "t.yaml", str(error)
    return error


def engine(block: str) -> GtpSettings:
    settings = read(f"players:\n  - random\n  - name: e\n    gtp: {block}\n").players[1].spec.gtp
    assert settings is not None
    return settings


def same(found: object, value: object) -> bool:
    """Equal, counting NaN equal to NaN."""
    nan = isinstance(found, float) and isinstance(value, float) and math.isnan(found) and math.isnan(value)
    return nan or (found == value and type(found) is type(value))


# --- gtp -----------------------------------------------------------------------------------------------------------


def test_time_command_and_chatter_lines_are_read_and_checked() -> None:
    settings = engine("{command: [e], time_command: Y_param, chatter_lines: 40}")
    assert (settings.time_command, settings.chatter_lines) == (TimeCommand.Y_PARAM, 40)
    assert GtpSettings(command=("e",)).time_command is TimeCommand.GTP and GtpSettings(command=("e",)).chatter_lines == 0
    error = failure("players:\n  - random\n  - name: e\n    gtp: {command: [e], time_command: moray}\n")
    assert error.path == "players[1].gtp.time_command" and "did you mean 'morat'" in str(error)
    for bad in (-1, 2.5, "true", "'10'"):
        error = failure(f"players:\n  - random\n  - name: e\n    gtp: {{command: [e], chatter_lines: {bad}}}\n")
        assert error.path == "players[1].gtp.chatter_lines" and "whole number" in str(error), str(error)


def test_gtp_block_reads_every_field_into_enums_and_pickles() -> None:
    settings = engine(
        "{command: [engine, --threads, 2], first_color: White, rows: flipped, swap: genmove, "
        "setup: 'set_param strength 3', pie_policy: random, name: ext, cwd: /tmp, env: {OMP_NUM_THREADS: 1}, "
        "startup_seconds: 3, command_seconds: 0.5, grace_seconds: 2, untimed_seconds: 60, kadon_boardsize: kadon}"
    )
    assert settings.command == ("engine", "--threads", "2")
    assert settings.first_color is FirstColor.WHITE and settings.rows is RowOrder.FLIPPED
    assert settings.swap is SwapDialect.GENMOVE and settings.pie_policy is PiePolicy.RANDOM
    assert settings.setup == ("set_param strength 3",) and settings.cwd == "/tmp"
    assert settings.env == (("OMP_NUM_THREADS", "1"),) and settings.kadon_boardsize == "kadon"
    assert (settings.startup_seconds, settings.command_seconds, settings.grace_seconds) == (3.0, 0.5, 2.0)
    assert settings.untimed_seconds == 60.0 and settings.display_name == "ext"
    assert pickle.loads(pickle.dumps(settings)) == settings


def test_gtp_command_string_is_split_without_a_shell_and_defaults_hold() -> None:
    settings = engine("{command: \"my-engine --name 'two words'\", grace_seconds: 0}")
    assert settings == GtpSettings(command=("my-engine", "--name", "two words"), grace_seconds=0.0, game=get_game("y"),
                                   name="e")  # named after its player
    assert settings.swap is SwapDialect.NONE and settings.pie_policy is PiePolicy.CENTER


@pytest.mark.parametrize(
    ("block", "path", "value", "message"),
    [
        ("{command: [e], swpa: play}", "swpa", "swpa", "gtp.swpa: unknown key; did you mean 'swap'?"),
        ("{command: [e], swap: genmov}", "swap", "genmov",
         "gtp.swap: expected one of none, genmove, play; found str 'genmov'; did you mean 'genmove'?"),
        ("{command: [e], swap: both}", "swap", "both", "gtp.swap: expected one of none, genmove, play; found str 'both'"),
        ("{command: [e], rows: 3}", "rows", 3, "gtp.rows: expected one of normal, flipped; found int 3"),
        ("{command: [e], pie_policy: centre}", "pie_policy", "centre", "found str 'centre'; did you mean 'center'?"),
        ("{command: []}", "command", [], ("gtp.command: expected the engine's program and arguments, like "
                                          "[path/to/engine, --gtp]; found an empty list")),
        ("{swap: none}", "command", None,
         "gtp.command: missing; give the engine's program and arguments as a list"),
        ("{command: [e, null]}", "command[1]", None, "gtp.command[1]: expected a non-empty string; found nothing"),
        ("{command: \"e 'open\"}", "command", "e 'open", "gtp.command: expected a command line with balanced quotes"),
        ("{command: e, setup: [1]}", "setup[0]", 1, "gtp.setup[0]: expected a non-empty string; found int 1"),
        ("{command: e, command_seconds: 0}", "command_seconds", 0,
         "gtp.command_seconds: expected a number > 0; found 0"),
        ("{command: e, grace_seconds: -1}", "grace_seconds", -1, "gtp.grace_seconds: expected a number >= 0; found -1"),
        ("{command: e, startup_seconds: true}", "startup_seconds", True,
         "gtp.startup_seconds: expected a number; found boolean True"),
        ("{command: e, env: [A=1]}", "env", ["A=1"], "gtp.env: expected a mapping of variable names to values"),
        ("{command: e, env: {A=B: 1}}", "env", "A=B", "gtp.env: expected variable names (text without '=')"),
        ("{command: e, env: {A: [1]}}", "env.A", [1], "gtp.env.A: expected a string or number; found a list"),
        ("{command: e, name: 5}", "name", 5, "gtp.name: expected a string; found int 5"),
        ("[e]", "", ["e"], "gtp: expected a mapping with keys command, first_color"),
    ],
)
def test_gtp_errors_carry_key_path_value_and_expectation(block: str, path: str, value: object,
                                                         message: str) -> None:
    error = failure(f"players:\n  - random\n  - name: e\n    gtp: {block}\n")
    assert error.path == "players[1].gtp" + (f".{path}" if path else "")
    assert same(error.value, value) and error.expected and message in str(error)


# --- schedule.sprt ---------------------------------------------------------------------------------------------------


def test_sprt_is_read_with_default_error_rates() -> None:
    sprt = read(MATCH % "{p0: 0.45, p1: 0.55}").schedule.sprt
    assert sprt == SprtSettings(p0=0.45, p1=0.55, alpha=0.05, beta=0.05)
    assert read(MATCH % "{p0: 0.4, p1: 0.6, alpha: 0.1, beta: 0.2}").schedule.sprt == SprtSettings(0.4, 0.6, 0.1, 0.2)


@pytest.mark.parametrize(
    ("sprt", "path", "value", "message"),
    [
        ("{p0: 0.6, p1: 0.5}", "schedule.sprt", (0.6, 0.5), "schedule.sprt: expected p0 < p1; found p0 0.6 and p1 0.5"),
        ("{p0: 0.4, p1: 0.6, alpha: 0}", "schedule.sprt.alpha", 0, "expected a number > 0; found 0"),
        ("{p0: 0.4, p1: 1}", "schedule.sprt.p1", 1, "schedule.sprt.p1: expected a number < 1; found 1"),
        ("{p0: 0.4, p1: 0.6, alpha: 0.5, beta: 0.6}", "schedule.sprt", (0.5, 0.6),
         "schedule.sprt: expected alpha + beta < 1; found alpha 0.5 and beta 0.6"),
        ("{p0: 0.4, p1: 0.6, elo0: 1}", "schedule.sprt.elo0", "elo0",
         "schedule.sprt.elo0: unknown key (accepted here: p0, p1, alpha, beta)"),
        ("{p0: 0.4}", "schedule.sprt.p1", None, "schedule.sprt.p1: missing; expected a win probability"),
        ("{p0: even, p1: 0.6}", "schedule.sprt.p0", "even", "schedule.sprt.p0: expected a number; found str 'even'"),
        ("[0.4, 0.6]", "schedule.sprt", [0.4, 0.6], "schedule.sprt: expected a mapping with keys p0, p1, alpha, beta"),
    ],
)
def test_sprt_errors_carry_key_path_value_and_expectation(sprt: str, path: str, value: object, message: str) -> None:
    error = failure(MATCH % sprt)
    assert (error.path, error.value) == (path, value) and error.expected and message in str(error)


def test_sprt_in_elo_is_read_with_defaults() -> None:
    assert read(MATCH % "{elo0: 0, elo1: 5}").schedule.sprt == EloSprtSettings(0.0, 5.0, 0.05, 0.05,
                                                                               SprtModel.PENTANOMIAL)
    sprt = read(MATCH % "{elo0: -2, elo1: 3, alpha: 0.1, beta: 0.2, model: Trinomial}").schedule.sprt
    assert sprt == EloSprtSettings(-2.0, 3.0, 0.1, 0.2, SprtModel.TRINOMIAL)


@pytest.mark.parametrize(
    ("sprt", "path", "message"),
    [
        ("{elo0: 5, elo1: 5}", "schedule.sprt", "schedule.sprt: expected elo0 < elo1; found elo0 5 and elo1 5"),
        ("{elo0: 0, elo1: 5, alpha: 1.5}", "schedule.sprt.alpha", "expected a number < 1; found 1.5"),
        ("{elo0: 0, elo1: 5, alpha: 0.6, beta: 0.5}", "schedule.sprt",
         "schedule.sprt: expected alpha + beta < 1; found alpha 0.6 and beta 0.5"),
        ("{elo0: 0, elo1: x}", "schedule.sprt.elo1", "schedule.sprt.elo1: expected a number; found str 'x'"),
        ("{elo0: 0, elo1: 5, model: normal}", "schedule.sprt.model", "schedule.sprt.model: expected one of"),
        ("{elo1: 5}", "schedule.sprt.elo0", "schedule.sprt.elo0: missing; expected the tested player's Elo"),
        ("{elo0: 0, elo1: 5000}", "schedule.sprt.elo1", "expected a number <= 1000"),
        ("{elo0: 0, elo1: 5, p2: 1}", "schedule.sprt.p2", "unknown key (accepted here: elo0, elo1, alpha, beta, model)"),
    ],
)
def test_sprt_in_elo_errors_carry_key_paths(sprt: str, path: str, message: str) -> None:
    error = failure(MATCH % sprt)
    assert error.path == path and error.expected and message in str(error), str(error)


# --- ratings -------------------------------------------------------------------------------------------------------


def test_ratings_are_read_into_rating_settings() -> None:
    assert read("ratings: {mu: 30, sigma: 10}\n" + TWO).ratings == RatingSettings(30.0, 10.0)
    assert isinstance(read("ratings: {mu: 30}\n" + TWO).ratings.mu, float)
    assert read("ratings: {handicap: EVEN}\n" + TWO).ratings.handicap is HandicapRating.EVEN
    assert read(TWO).ratings == RatingSettings()


@pytest.mark.parametrize(
    ("ratings", "path", "value", "message"),
    [
        ("{handicap: sometimes}", "ratings.handicap", "sometimes", "expected one of learn, even; found str 'sometimes'"),
        ("{sigma: 0}", "ratings.sigma", 0, "ratings.sigma: expected a number >= 0.001; found 0"),
        ("{beta: -1}", "ratings.beta", -1, "ratings.beta: expected a number >= 0.001; found -1"),
        ("{tau: -0.5}", "ratings.tau", -0.5, "ratings.tau: expected a number >= 0; found -0.5"),
        ("{mu: .nan}", "ratings.mu", math.nan, "ratings.mu: expected a number; found float nan"),
        ("{draw: 0.1}", "ratings.draw", "draw", "ratings.draw: unknown key"),
        ("5", "ratings", 5, "ratings: expected a mapping with keys mu, sigma, beta, tau, draw_probability, handicap; found int 5"),
    ],
)
def test_rating_errors_carry_key_path_value_and_expectation(ratings: str, path: str, value: object,
                                                            message: str) -> None:
    error = failure(f"ratings: {ratings}\n" + TWO)
    assert error.path == path and same(error.value, value) and error.expected and message in str(error)


# --- handicap ------------------------------------------------------------------------------------------------------


def test_handicap_is_read_into_handicap_settings_from_yaml_strings() -> None:
    settings = read("handicap: {mode: FIXED, level: 1.5, max_level: 6, target: 0.5, stop_width: 1}\n" + TWO).handicap
    assert settings == HandicapSettings(HandicapMode.FIXED, level=1.5, max_level=6, target=0.5, stop_width=1.0)
    assert isinstance(settings.level, float) and isinstance(settings.stop_width, float)
    assert read("handicap: {mode: Auto}\n" + TWO).handicap == HandicapSettings(HandicapMode.AUTO)
    assert read("handicap: {mode: auto, level: 0}\n" + TWO).handicap.level == 0.0
    assert read(TWO).handicap == HandicapSettings()


@pytest.mark.parametrize(
    ("section", "key", "value", "fragment"),
    [
        ("{mode: sometimes}", "mode", "sometimes", "'sometimes'"),
        ("{mode: null}", "mode", None, "null"),
        ("{mode: auto, max_level: 0}", "max_level", 0, "0"),
        ("{mode: auto, max_level: 51}", "max_level", 51, "51"),
        ("{mode: auto, max_level: 2.5}", "max_level", 2.5, "2.5"),
        ("{mode: auto, max_level: true}", "max_level", True, "True"),
        ("{mode: fixed, level: 7.0}", "level", 7.0, "7.0"),
        ("{mode: fixed, level: -0.5}", "level", -0.5, "-0.5"),
        ("{mode: fixed, level: '1.5'}", "level", "1.5", "'1.5'"),
        ("{mode: fixed, level: .nan}", "level", math.nan, "nan"),
        ("{mode: auto, level: 1.0}", "level", 1.0, "only used with mode fixed, not 'auto'"),
        ("{mode: none, level: 2.0}", "level", 2.0, "only used with mode fixed, not 'none'"),
        ("{mode: auto, target: 1.0}", "target", 1.0, "1.0"),
        ("{mode: auto, target: 0}", "target", 0, "0"),
        ("{mode: auto, stop_width: 0.0}", "stop_width", 0.0, "0.0"),
        ("{mode: auto, stop_width: -1}", "stop_width", -1, "-1"),
        ("{mode: auto, stop_width: false}", "stop_width", False, "False"),
    ],
)
def test_handicap_errors_carry_key_path_value_and_expectation(section: str, key: str, value: object,
                                                              fragment: str) -> None:
    error = failure(f"handicap: {section}\n" + TWO)
    assert error.path == f"handicap.{key}" and same(error.value, value) and error.expected
    message = str(error)
    assert fragment in message
    assert message.replace(fragment, "") == message.replace(fragment, "").lower()


# --- time ----------------------------------------------------------------------------------------------------------


def test_time_is_read_into_the_referees_time_control() -> None:
    clock = read("time: {game_seconds: 30, increment: 0.5}\n" + TWO).time
    assert clock == TimeControl(game_seconds=30.0, increment=0.5) and clock.uses_clock
    assert clock.describe() == "30s + 0.5s per move (grace 1s)"
    move = read("time: {move_seconds: 2, grace_seconds: 0}\n" + TWO).time
    assert move == TimeControl(move_seconds=2.0, grace_seconds=0.0) and move.allowed(None) == 2.0
    assert move.describe() == "2s per move (grace 0s)"
    assert read(TWO).time.describe() == "untimed (built-in bots use their playout budgets)"


def test_time_errors_carry_key_path_value_and_expectation() -> None:
    error = failure("time: {game_seconds: 0}\n" + TWO)
    assert (error.path, error.value, error.expected) == ("time.game_seconds", 0, "a number > 0")
    error = failure("time: {increment: 1}\n" + TWO)
    assert (error.path, error.value) == ("time.increment", 1) and "only used with game_seconds" in str(error)
