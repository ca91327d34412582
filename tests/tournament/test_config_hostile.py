"""Hostile YAML: alias bombs, self-referring aliases and oversized texts, wherever YAML is read.

Classes covered (issue 24): YAML alias bombs in a config's choice fields, in `--set` values and in command-line
engine-spec values (one YAML reader with the same limits on depth, aliases and size for all of them), and a size
cap on configs. Each is one clear line, exit 1, in seconds, with memory bounded.
"""

from __future__ import annotations

import resource
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ytourney.cli import main
from ytourney.errors import ConfigError
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
