"""Hostile configs: alias bombs, self-referring aliases, oversized texts and extreme numbers, wherever YAML is read.

Classes covered (issue 24): YAML alias bombs in a config's choice fields, in `--set` values and in command-line
engine-spec values (one YAML reader with the same limits on depth, aliases and size for all of them), a size cap
on configs, values YAML resolves but Python cannot build (a 5000-digit number, a 13th month), and extreme
`ratings:` settings (huge or tiny mu, sigma, beta, tau, draw_probability), refused when the config is read and
bounded by what TrueSkill computes: every corner of the bounds rates upsets, draws and handicap games to finite
numbers. Each is one clear line, exit 1, in seconds, with memory bounded; nothing is written.
"""

from __future__ import annotations

import itertools
import math
import resource
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ytourney.cli import main
from ytourney.errors import ConfigError
from ytourney.games.api import Color, Termination
from ytourney.games.record import GameRecord
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import CONNECTION
from ytourney.publish.ratings_table import build_table, format_table
from ytourney.stats.elo import fit_elo
from ytourney.stats.ratings import RATING_BOUNDS, RatingSettings, rate_records
from ytourney.tournament.config_fields import MAX_NODES, load_yaml

pytestmark = pytest.mark.usefixtures("memory_cap")  # tests/conftest.py: a regression fails, the machine lives

BOMB = ("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
        "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
        "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\n")
FLOW_BOMB = ("[&a [x, x, x, x, x, x, x, x, x], &b [*a, *a, *a, *a, *a, *a, *a, *a, *a], "
             "&c [*b, *b, *b, *b, *b, *b, *b, *b, *b], &d [*c, *c, *c, *c, *c, *c, *c, *c, *c], "
             "&e [*d, *d, *d, *d, *d, *d, *d, *d, *d], &f [*e, *e, *e, *e, *e, *e, *e, *e, *e], "
             "&g [*f, *f, *f, *f, *f, *f, *f, *f, *f], [*g, *g, *g, *g, *g, *g, *g, *g, *g]]")


def invoke(*args: str) -> Result:
    begin = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = CliRunner().invoke(main, list(args))
    assert time.monotonic() - begin < 20
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200 * 1024  # KiB: no expansion
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


def test_the_reader_refuses_bombs_cycles_and_huge_texts() -> None:
    with pytest.raises(ConfigError, match=f"expand to more than {MAX_NODES}"):
        load_yaml(BOMB, "bomb.yaml")
    with pytest.raises(ConfigError, match="refers to a collection that holds it"):
        load_yaml("a: &a [1, *a]\n", "cycle.yaml")
    with pytest.raises(ConfigError, match="characters of YAML; expected at most"):
        load_yaml("x: " + "y" * (2 << 20), "huge.yaml")
    anchors = "base: &base {command: [engine], swap: none}\nplayers: [" + ", ".join(["*base"] * 20) + "]\n"
    assert len(load_yaml(anchors, "fine.yaml")["players"]) == 20  # anchors as people use them still work


def test_a_bomb_in_a_choice_field_of_a_config_is_one_line(tmp_path: Path) -> None:
    config = tmp_path / "cup.yaml"
    config.write_text("name: cup\nboard: tri:4\n" + BOMB.replace("h: &h", "rules:\n  pie: &h") +
                      "players: [{name: a, bot: random}, {name: b, bot: random}]\n")
    for command in (["validate", str(config), "--no-start"], ["run", str(config), "--out", str(tmp_path / "o")]):
        result = invoke(*command)
        assert result.exit_code == 1 and "alias bomb" in result.output, result.output
        assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


def test_a_bomb_in_a_set_value_and_in_an_engine_spec_value_is_one_line(tmp_path: Path) -> None:
    config = tmp_path / "cup.yaml"
    config.write_text("name: cup\nboard: tri:4\nplayers: [{name: a, bot: random}, {name: b, bot: random}]\n")
    result = invoke("run", str(config), "--out", str(tmp_path / "o"), "--set", f"rules.pie={FLOW_BOMB}")
    assert result.exit_code == 1 and "alias bomb" in result.output, result.output
    result = invoke("match", f"gtp:e=/bin/true;setup={FLOW_BOMB}", "random", "--out", str(tmp_path / "m"))
    assert result.exit_code == 1 and "alias bomb" in result.output, result.output
    assert not (tmp_path / "o").exists() and not (tmp_path / "m").exists()


CONFIG = "name: cup\nboard: tri:4\nplayers: [{name: a, bot: random}, {name: b, bot: random}]\n"


@pytest.mark.parametrize(("setting", "message"), [
    ("sigma: 1e300", "ratings.sigma: expected a number <= 1e+06; found 1e+300"),
    ("sigma: 1e-300", "ratings.sigma: expected a number >= 0.001; found 1e-300"),
    ("sigma: 0", "ratings.sigma: expected a number >= 0.001; found 0"),
    ("mu: 1e300", "ratings.mu: expected a number <= 1e+06"),
    ("mu: -1e20", "ratings.mu: expected a number >= -1e+06"),
    ("tau: 1e300", "ratings.tau: expected a number <= 1e+06"),
    ("tau: -1", "ratings.tau: expected a number >= 0"),
    ("beta: 1e300", "ratings.beta: expected a number <= 1e+06"),
    ("beta: 1e-9", "ratings.beta: expected a number >= 0.001"),
    ("draw_probability: 1e-300", "ratings.draw_probability: expected a number >= 1e-06"),
    ("draw_probability: 0.9999999999", "ratings.draw_probability: expected a number <= 0.999999"),
    ("sigma: .nan", "ratings.sigma: expected a number; found float nan"),
    ("sigma: 1" + "0" * 500, "ratings.sigma: expected a number; found an integer of about 501 digits"),
    ("sigma: 1" + "0" * 5000, "invalid YAML: a value cannot be read (exceeds the limit (4300 digits)"),
    ("sigma: 2026-13-45", "invalid YAML: a value cannot be read (month must be in 1..12)"),
])
def test_extreme_rating_settings_are_refused_when_the_config_is_read(tmp_path: Path, setting: str,
                                                                     message: str) -> None:
    config = tmp_path / "cup.yaml"
    config.write_text(CONFIG + f"ratings: {{{setting}}}\n")
    before = config.read_bytes()
    for command in (["validate", str(config), "--no-start"], ["run", str(config), "--out", str(tmp_path / "o")],
                    ["run", str(config), "--out", str(tmp_path / "o"), "--set", f"ratings.{setting.replace(': ', '=')}"]):
        if command[-1].startswith("ratings."):
            config.write_text(CONFIG)
        result = invoke(*command)
        assert result.exit_code == 1 and message in result.output, result.output
        assert len(result.output.strip().splitlines()) == 1
        config.write_text(before.decode())
    assert config.read_bytes() == before and not (tmp_path / "o").exists()


def _record(number: int, black: str, white: str, winner: Color | None, handicap: int = 0) -> GameRecord:
    return GameRecord(game="y",
        tournament="t", round=number, board="tri:5", rules=Rules(pie=handicap == 0, misere=False), handicap=handicap,
        first=black, second=white, black=black, white=white, moves=("a1",), winner=winner,
        termination=Termination.MOVE_LIMIT if winner is None else CONNECTION, move_seconds=(), seed=None,
        started="", finished="", id=number,
    )


def test_every_corner_of_the_rating_bounds_computes() -> None:
    """Thirty wins of a over b, then upsets, draws and handicap games: finite ratings, worths and tables at every
    combination of the lowest and highest accepted settings (floats, else mpmath, else the game left unrated)."""
    games = [(black, white, winner, handicap) for black, white, winner, handicap in
             [("a", "b", Color.BLACK, 0)] * 30 + [("b", "a", Color.BLACK, 0), ("c", "a", None, 0),
                                                  ("c", "b", Color.WHITE, 2), ("c", "b", Color.BLACK, 3)] * 3]
    records = [_record(number, *game) for number, game in enumerate(games, start=1)]
    for corner in itertools.product(*RATING_BOUNDS.values()):
        settings = RatingSettings(**dict(zip(RATING_BOUNDS, corner)))
        ratings = rate_records(records, settings)
        numbers = [value for player in ratings.players.values()
                   for value in (player.mu, player.sigma, player.conservative)]
        numbers += [value for level in ratings.level_worth for value in (level.mu, level.sigma)]
        assert numbers and all(math.isfinite(value) for value in numbers), (corner, numbers)
        assert ratings.game_count == len(records)
        assert "nan" not in format_table(build_table(ratings, elo=fit_elo(records)), "text")


def test_a_plugin_with_a_long_path_is_named_after_its_file(tmp_path: Path) -> None:
    """`match /a/long/path/bot.py:Bot random` was refused: the player, named by its spec, had a name over 64
    characters that the user never gave."""
    from ytourney.tournament.config import parse_config

    folder = tmp_path / ("deep" * 20)
    folder.mkdir()
    plugin = folder / "bot.py"
    plugin.write_text("from ytourney.players import BaseBot\n\n\nclass Bot(BaseBot):\n    pass\n")
    config = parse_config(f"name: t\nplayers: ['{plugin}:Bot', random]\n", require_files=False)
    assert config.player_names == ("bot.py:Bot", "random")
    with pytest.raises(ConfigError, match=r"a player given no name is named by its spec: give it one, `name:` in a "
                                          r"config, NAME=SPEC on the command line"):
        parse_config(f"name: t\nplayers: ['{folder / ('b' * 70)}.py:Bot', random]\n", require_files=False)
