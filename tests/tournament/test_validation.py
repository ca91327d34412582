"""Tests of the checks before a run: each player built as a worker would, and the summary `validate` prints."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from ytourney.errors import YTourneyError
from ytourney.tournament.config import parse_config
from ytourney.tournament.validation import check_player, validate_config

FAKE = Path(__file__).resolve().parents[1] / "fake_engines" / "fake_gtp.py"

PLUGINS = textwrap.dedent("""
    from ytourney.players import BaseBot

    class First(BaseBot):
        def move(self, state, limit):
            return state.empty_cells()[0]

    class Raises(BaseBot):
        def __init__(self, seed=None):
            raise RuntimeError("no weights")
        def move(self, state, limit):
            return 0
""")

PLAYERS = (f"  - {{name: ok, gtp: {{command: ['{sys.executable}', '{FAKE}']}}}}\n"
           "  - {name: missing, gtp: {command: [no-such-engine-xyz]}}\n"
           "  - {name: raises, bot: 'plugins.py:Raises'}\n  - {name: first, bot: 'plugins.py:First'}\n")


def write(tmp_path: Path, players: str = PLAYERS) -> Path:
    (tmp_path / "plugins.py").write_text(PLUGINS)
    path = tmp_path / "t.yaml"
    path.write_text(f"name: t\nboard: tri:5\nseed: 4\nschedule: {{games_per_pair: 2}}\nplayers:\n{players}")
    return path


def test_check_player_reports_problems(tmp_path: Path) -> None:
    path = write(tmp_path)
    cfg = parse_config(path.read_text(), str(path), tmp_path)
    assert check_player(cfg, cfg.players[0]).startswith("ok, engine started")
    with pytest.raises(YTourneyError, match="not found on PATH"):
        check_player(cfg, cfg.players[1])
    with pytest.raises(Exception, match="no weights"):
        check_player(cfg, cfg.players[2])
    assert check_player(cfg, cfg.players[3]) == "ok"


def test_validation_names_each_problem_and_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    report = validate_config(str(write(tmp_path)))
    assert (report.games, report.pairs, report.stored, report.differing, report.nodes) == (12, 6, 0, None, None)
    assert [p.name for p in report.players if p.problem] == ["missing", "raises"]
    assert "no weights" in report.players[2].problem and report.players[3].note == "ok"
    assert report.failure == f"{report.source}: 2 player(s) cannot be started or failed the probe; see above"
    lines = report.lines()
    assert lines[0] == f"{report.source}: tournament 't'"
    assert any("round-robin: 6 pairs x 2 games = 12 games" in line for line in lines)
    assert any(line.split()[0] == "missing" and "[PROBLEM: " in line for line in lines)


def test_validation_without_starting_players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    report = validate_config(str(write(tmp_path, "  - {name: a, bot: random}\n  - {name: b, bot: random}\n")),
                             start=False)
    assert report.failure == ""
    assert [p.note for p in report.players] == ["not started (--no-start)"] * 2
    assert report.lines()[-1].endswith("[not started (--no-start)]")


def test_the_schedule_line_words_one_game_in_the_singular(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It read '1 pair x 1 games = 1 games'."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "one.yaml"
    path.write_text("name: one\nboard: tri:5\nschedule: {games_per_pair: 1}\nplayers:\n"
                    "  - {name: a, bot: random}\n  - {name: b, bot: random}\n")
    lines = validate_config(str(path), start=False).lines()
    assert any(line.endswith("round-robin: 1 pair x 1 game = 1 game") for line in lines), lines
