"""The probe in `validate`: each deliberately wrong dialect is caught against the strict fakes, the right one passes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.tournament.config import parse_config
from ytourney.tournament.probe import probe_engine

FAKES = Path(__file__).resolve().parents[1] / "fake_engines"
ROW_REVERSED = f"['{sys.executable}', '{FAKES / 'fake_row_reversed.py'}', --time-scale, '0', --seed, '2']"
WHITE_FIRST = f"['{sys.executable}', '{FAKES / 'fake_white_first.py'}', --time-scale, '0', --seed, '2']"
HAYWARD = "rows: flipped, first_color: black, swap: genmove, time_command: y_param"
MORAT = "rows: normal, first_color: white, swap: none, time_command: morat, chatter_lines: 100"


def config_text(command: str, dialect: str, board: str = "tri:7") -> str:
    return (f"name: probe\nboard: {board}\ntime: {{move_seconds: 1.0}}\nseed: 4\n"
            f"players:\n  - {{name: engine, gtp: {{command: {command}, {dialect}}}}}\n  - {{name: rnd, bot: random}}\n")


def probe(command: str, dialect: str):
    config = parse_config(config_text(command, dialect))
    return probe_engine(config, config.players[0])


@pytest.mark.parametrize(("command", "dialect"), [(ROW_REVERSED, HAYWARD), (WHITE_FIRST, MORAT)])
def test_the_right_dialect_passes(command: str, dialect: str) -> None:
    found = probe(command, dialect)
    assert found.problem == "", found.lines()


@pytest.mark.parametrize(("command", "dialect", "key"), [
    (ROW_REVERSED, HAYWARD.replace("rows: flipped", "rows: normal"), "gtp.rows (now 'normal'"),
    (WHITE_FIRST, MORAT.replace("first_color: white", "first_color: black"), "gtp.first_color (now 'black'"),
    (WHITE_FIRST, MORAT.replace("chatter_lines: 100", "chatter_lines: 0"), "gtp.chatter_lines (now 0)"),
    (WHITE_FIRST, MORAT.replace("swap: none", "swap: genmove"), "gtp.swap (now 'genmove'"),
])
def test_a_wrong_dialect_is_caught_with_a_hint(command: str, dialect: str, key: str) -> None:
    found = probe(command, dialect)
    assert found.problem.startswith("probe game as the "), found
    assert key in found.hint, found.hint
    assert found.transcript and all(" >engine: " in line or " <engine: " in line for line in found.transcript)
    assert not any(line.endswith(": quit") for line in found.transcript)


def test_validate_prints_the_fault_hint_and_transcript(tmp_path: Path) -> None:
    path = tmp_path / "probe.yaml"
    path.write_text(config_text(ROW_REVERSED, HAYWARD.replace("rows: flipped", "rows: normal")))
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "PROBLEM: probe game as the " in result.stdout
    assert "hint: " in result.stdout and "gtp.rows" in result.stdout and "transcript (last " in result.stdout
    assert "failed the probe" in result.stderr
    result = CliRunner().invoke(main, ["validate", str(path), "--no-probe"])
    assert result.exit_code == 0, result.output
    path.write_text(config_text(ROW_REVERSED, HAYWARD))
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 0 and "probe games clean in both seats" in result.stdout


@pytest.mark.parametrize(("engine_style", "told"), [("recolor", "exchange"), ("exchange", "recolor")])
@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_wrong_swap_style_is_caught_in_either_seat_every_time(engine_style: str, told: str, seat: int,
                                                                 seed: int) -> None:
    """A strict engine of each swap style, told the other: the probe forces the swap in both seats (it swaps the
    engine's first stone; it opens in the centre, which the engine takes) and names gtp.swap_style."""
    from ytourney.tournament.probe import probe_seat

    command = (f"['{sys.executable}', '{FAKES / 'fake_row_reversed.py'}', --time-scale, '0', --seed, '{seed}', "
               f"--swap-style, {engine_style}]")
    config = parse_config(config_text(command, f"{HAYWARD}, swap_style: {told}").replace("seed: 4", f"seed: {seed}"))
    found = probe_seat(config, config.players[0], seat)
    assert found.problem.startswith(f"probe game as the {('first', 'second')[seat]} mover"), found
    assert f"check gtp.swap_style (now '{told}'" in found.hint, found.lines()
    right = parse_config(config_text(command, f"{HAYWARD}, swap_style: {engine_style}"))
    assert probe_seat(right, right.players[0], seat).problem == ""


def test_validate_names_the_swap_style_of_an_engine_told_the_wrong_one(tmp_path: Path) -> None:
    command = (f"['{sys.executable}', '{FAKES / 'fake_row_reversed.py'}', --time-scale, '0', --swap-style, "
               "recolor]")
    path = tmp_path / "probe.yaml"
    path.write_text(config_text(command, HAYWARD))  # swap_style left at its default, exchange
    for _ in range(3):
        result = CliRunner().invoke(main, ["validate", str(path)])
        assert result.exit_code == 1 and "gtp.swap_style (now 'exchange'" in result.stdout, result.output
