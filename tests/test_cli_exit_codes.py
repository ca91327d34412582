"""One exit code for one mistake: whatever command or layer finds a mistake, and whether Click or ytourney finds it,
the user gets one line `Error: …` naming the value on stderr and exit code 1 (README: exit codes)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ytourney.cli import main
from ytourney.games.registry import all_games

pytestmark = pytest.mark.usefixtures("memory_cap")


def refused(args: list[str], *named: str) -> str:
    """Run `ytourney ARGS`: exit 1, nothing on stdout, one line on stderr naming every `named` text."""
    result = CliRunner().invoke(main, args)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 1, (args, result.output)
    assert len(lines) == 1 and lines[0].startswith("Error: "), (args, result.stderr)
    assert "Traceback" not in result.output and "Usage:" not in result.output
    for text in named:
        assert text in lines[0], (args, lines[0])
    return lines[0]


def test_the_same_bad_rule_value_is_the_same_refusal_through_play_and_match(tmp_path: Path) -> None:
    for game in all_games().values():
        key = next((k for k, o in game.rule_options.items() if o.type is int and o.default is not None), "pie")
        for value in ("abc", "1.5", "-1", "true"):
            if key == "pie" and value == "true":
                continue
            seen = {refused(["play", "random", "random", "--game", game.name, "--rule", f"{key}={value}"],
                            f"{key}={value!r}"),
                    refused(["match", "a=random", "b=random", "--game", game.name, "--rule", f"{key}={value}",
                             "--out", str(tmp_path / "m")], f"{key}={value!r}")}
            assert len(seen) == 1, seen  # one check: the same words
    assert not (tmp_path / "m").exists()


CONTRADICTIONS = [["--misere", "--rule", "misere=off"], ["--no-pie", "--rule", "pie=on"],
                  ["--pie", "--rule", "pie=off"], ["--rule", "pie=on", "--rule", "pie=off"],
                  ["--misere", "--rule", "misere=on"]]


@pytest.mark.parametrize("options", CONTRADICTIONS, ids=" ".join)
def test_contradictory_rule_options_are_refused_alike_by_play_and_match(tmp_path: Path, options: list[str]) -> None:
    item = options[-1]
    key = item.split("=")[0]
    play = refused(["play", "random", "random", *options], f"rule {key!r} is already set")
    match = refused(["match", "a=random", "b=random", *options, "--out", str(tmp_path / "m")],
                    f"rule {key!r} is already set")
    assert play == match
    assert not (tmp_path / "m").exists()


def test_resume_on_a_folder_that_holds_nothing_is_one_line(tmp_path: Path) -> None:
    config = tmp_path / "t.yaml"
    config.write_text("name: t\nplayers:\n  - {name: a, bot: random}\n  - {name: b, bot: random}\n")
    (tmp_path / "empty").mkdir()
    refused(["run", str(config), "--out", str(tmp_path / "empty"), "--resume"], "nothing to resume", "empty")
    refused(["match", "a=random", "b=random", "--out", str(tmp_path / "empty"), "--resume"], "nothing to resume")


@pytest.mark.parametrize("command", [["ratings"], ["crosstable"], ["handicap"], ["export"],
                                     ["publish", "--out", "site"], ["run"], ["validate"], ["import", "--out", "o"]],
                         ids=lambda c: c[0])
def test_a_path_that_does_not_exist_is_one_line_in_every_command(tmp_path: Path, command: list[str]) -> None:
    missing = str(tmp_path / "nonexistent")
    refused([command[0], missing, *command[1:]], "nonexistent")


@pytest.mark.parametrize(("args", "named"), [
    (["match", "random"], ["at least 2 players", "'random'"]),
    (["match", "a=random", "b=random", "--games-per-pair", "0"], ["--games-per-pair", "0"]),
    (["match", "random", "random"], ["'random'", "name them apart"]),
    (["play", "random"], ["SECOND"]),
    (["play", "random", "random", "--bogus"], ["--bogus"]),
    (["nocommand"], ["nocommand"]),
    (["--bogus"], ["--bogus"]),
    (["ratings", "--format", "xml", "."], ["xml"]),
    (["solve", "supply-line", "--seconds", "0"], ["--seconds", "0"]),
    (["play", "random", "random", "--game", "tetra", "--misere"], ["--misere", "tetra"]),
])
def test_usage_mistakes_are_one_line_and_exit_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str],
                                               named: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    refused(args, *named)
    assert not any(tmp_path.iterdir())


@settings(max_examples=40, deadline=None)
@given(option=st.sampled_from(["--games-per-pair", "--workers", "--seed", "--random-plies", "--max-level"]),
       value=st.one_of(st.integers(-5, 0).map(str), st.sampled_from(["x", "", "1.5", "nan"])))
def test_any_bad_number_of_match_is_one_line_naming_the_option(option: str, value: str) -> None:
    if option == "--seed" and value.lstrip("-").isdigit() and int(value) >= 0:
        return  # 0 is a seed
    refused(["match", "a=random", "b=random", option, value, "--out", "/nonexistent/never"], option)


def test_bare_ytourney_shows_its_help_and_exits_0() -> None:
    result = CliRunner().invoke(main, [])
    assert result.exit_code == 0 and "Commands:" in result.output
