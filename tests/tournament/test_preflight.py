"""`run` starts every player before it plays or writes anything; `validate --no-start` refuses what it can check."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main

PLUGINS = Path(__file__).resolve().parent.parent / "fake_plugins"


def write_config(tmp_path: Path, bot: str) -> Path:
    (tmp_path / "syntax_error.py").write_text("from ytourney.players import BaseBot\n\nclass Broken(BaseBot)\n    pass\n")
    path = tmp_path / "cup.yaml"
    path.write_text(f"name: cup\nboard: tri:5\nseed: 3\nschedule: {{games_per_pair: 2}}\n"
                    f"players: [{{name: good, bot: random}}, {{name: bad, {bot}}}]\n")
    return path


BROKEN = {
    "missing engine": ("gtp: {command: [/nonexistent/engine]}", "/nonexistent/engine"),
    "syntax error": ("bot: 'syntax_error.py:Broken'", "syntax error at line 3"),
    "raising constructor": (f"bot: '{PLUGINS / 'broken.py'}:RaisingInit'", "weights not found"),
    "negative playouts": ("bot: 'mcts:playouts=-5'", "playouts=-5 of bot 'mcts' must be at least 0"),
    "nan c": ("bot: 'mcts:c=nan'", "c=nan of bot 'mcts' must be a finite number"),
    "huge batch": ("bot: 'mcts:batch=100000000'", "batch=100000000 of bot 'mcts' must be at most 4096"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_run_refuses_a_broken_player_before_writing_anything(tmp_path: Path, case: str) -> None:
    bot, cause = BROKEN[case]
    config = write_config(tmp_path, bot)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(out), "-q", "--workers", "1"])
    assert result.exit_code == 1, result.output
    assert cause in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
    if case not in ("negative playouts", "nan c", "huge batch"):  # those are refused as config errors
        assert "player 'bad' cannot be started" in result.output
    assert not out.exists()


@pytest.mark.parametrize("case", ["syntax error", "negative playouts", "nan c", "huge batch"])
def test_validate_no_start_refuses_what_it_can_check(tmp_path: Path, case: str) -> None:
    bot, cause = BROKEN[case]
    result = CliRunner().invoke(main, ["validate", str(write_config(tmp_path, bot)), "--no-start"])
    assert result.exit_code == 1, result.output
    assert cause in result.output


def test_a_player_failing_in_a_game_still_loses_it(tmp_path: Path) -> None:
    config = write_config(tmp_path, f"bot: '{PLUGINS / 'broken.py'}:Exits'")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(out), "-q", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert (out / "tournament.db").is_file()
