"""Configs with no sane answer are refused fast and clearly: deep YAML, huge plans, odd numbers and names."""

from __future__ import annotations

import collections
import time

import pytest

from ytourney.errors import ConfigError
from ytourney.tournament.config import MAX_PLANNED_GAMES, parse_config
from ytourney.tournament.schedule import (
    build_slots,
    pairings,
    planned_games,
    seat_imbalance,
)

TWO = "players: [{name: a, bot: random}, {name: b, bot: random}]\n"


def players(count: int) -> str:
    return "players: [" + ", ".join(f"{{name: p{i}, bot: random}}" for i in range(count)) + "]\n"


@pytest.mark.parametrize("nested", [
    "extra: " + "[" * 10_000 + "]" * 10_000,
    "extra: " + "{x: " * 10_000 + "}" * 10_000,
    "".join("  " * level + "k:\n" for level in range(3_000)),
    "- " * 10_000 + "x",
])
def test_yaml_nested_ten_thousand_levels_is_refused_fast(nested: str) -> None:
    started = time.monotonic()
    with pytest.raises(ConfigError, match="nested more than 64 levels deep|characters of YAML; expected at most"):
        parse_config(nested)  # the indented one is over the size cap too
    assert time.monotonic() - started < 5


def test_a_normal_config_is_not_too_deep() -> None:
    assert parse_config("name: t\nrules: {pie: true}\nplayers:\n  - name: a\n    gtp: {command: [x]}\n"
                        "  - {name: b, bot: random}\n", require_files=False).player_names == ("a", "b")


@pytest.mark.parametrize(("text", "value"), [("1e-3", 0.001), ("2E1", 20.0), ("+5e-1", 0.5), ("0.25", 0.25)])
def test_an_exponent_without_a_decimal_point_is_a_number(text: str, value: float) -> None:
    config = parse_config(f"name: t\ntime: {{move_seconds: {text}}}\n{TWO}")
    assert config.time.move_seconds == value


def test_a_huge_plan_is_counted_not_built_and_refused() -> None:
    started = time.monotonic()
    with pytest.raises(ConfigError, match=r"19,900 pairs x 1,000,000 games per pair plan 19,900,000,000 games; "
                                          r"expected at most 1,000,000"):
        parse_config(f"name: t\nschedule: {{games_per_pair: 1000000}}\n{players(200)}")
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("schedule", ["{games_per_pair: 7}", "{format: gauntlet, challenger: p2, games_per_pair: 5}",
                                      "{games_per_pair: 1}"])
def test_planned_games_are_counted_as_built(schedule: str) -> None:
    config = parse_config(f"name: t\nschedule: {schedule}\n{players(5)}")
    assert planned_games(config) == len(build_slots(config))


def test_the_cap_allows_a_million_game_match() -> None:
    config = parse_config(f"name: t\nschedule: {{format: match, games_per_pair: {MAX_PLANNED_GAMES}}}\n{TWO}")
    assert planned_games(config) == MAX_PLANNED_GAMES


@pytest.mark.parametrize("name", ["a\\0b", "red\\e[31m", "bell\\a", "x\\u202Ey", "line\\u2028two", "del\\x7f",
                                  "tab\\tx"])
def test_player_names_with_control_characters_or_escape_codes_are_refused(name: str) -> None:
    with pytest.raises(ConfigError, match=r"players\[0\]\.name: expected a name of at most 64 printable"):
        parse_config(f'name: t\nplayers: [{{name: "{name}", bot: random}}, {{name: b, bot: random}}]\n')


def test_printable_unicode_player_names_are_kept() -> None:
    config = parse_config('name: t\nplayers: [{name: "café 2", bot: random}, {name: b, bot: random}]\n')
    assert config.player_names == ("café 2", "b")


@pytest.mark.parametrize("name", ['"t\\e[2J"', '"t\\0"', '"t\\tx"'])
def test_tournament_names_with_control_characters_are_refused(name: str) -> None:
    with pytest.raises(ConfigError, match="name: expected letters, digits"):
        parse_config(f"name: {name}\n{TWO}")


@pytest.mark.parametrize("games", [1, 3, 7])
def test_odd_games_per_pair_warns_naming_who_gets_the_extra_first_stone(games: int) -> None:
    config = parse_config(f"name: t\nschedule: {{games_per_pair: {games}}}\n{players(3)}")
    warning = seat_imbalance(config)
    first = collections.Counter((s.pair, s.players[0]) for s in build_slots(config))
    names = config.player_names
    for pair, (a, b) in enumerate(pairings(config)):
        more, fewer = (a, b) if first[(pair, a)] > first[(pair, b)] else (b, a)
        assert first[(pair, more)] == first[(pair, fewer)] + 1
        assert f"{names[more]} over {names[fewer]}" in warning
    assert warning.startswith(f"schedule.games_per_pair {games} is odd")


def test_even_games_per_pair_and_handicap_games_do_not_warn() -> None:
    assert seat_imbalance(parse_config(f"name: t\nschedule: {{games_per_pair: 4}}\n{players(3)}")) == ""
    handicap = parse_config(f"name: t\nhandicap: {{mode: fixed, level: 2}}\nschedule: {{games_per_pair: 3}}\n{TWO}")
    assert seat_imbalance(handicap) == ""
