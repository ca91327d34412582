"""A plugin's Move that would mean something else is an illegal answer in every game, refereed or served over GTP,
and its reason is in words (never an exception's text)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ytourney.games.record import Termination
from ytourney.games.registry import game_names, get_game
from ytourney.players.spec import create_bot, parse_bot_spec
from ytourney.tournament.match import Seat, play_game

pytestmark = pytest.mark.usefixtures("memory_cap")  # tests/conftest.py: hostile input, a bounded machine

PLUGINS = Path(__file__).resolve().parents[1] / "fake_plugins" / "malformed.py"
ROOT = Path(__file__).resolve().parents[2]


def refereed(name: str, plugin: str):
    game = get_game(name)
    bad = Seat("bad", create_bot(parse_bot_spec(f"{PLUGINS}:{plugin}", game), 1))
    good = Seat("random", create_bot(parse_bot_spec("random", game), 1), trusted=True)
    return play_game([bad, good], game, seed=1)


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("plugin", ["NegativeAlias", "BoolNodes"])
def test_a_disguised_legal_move_loses_as_illegal_in_every_game(name: str, plugin: str) -> None:
    record = refereed(name, plugin)
    assert record.termination is Termination.ILLEGAL and record.loser_name == "bad", record.reason
    assert not record.moves, record.moves  # nothing of it was played
    assert "no node of" in record.reason and "Error" not in record.reason, record.reason


def test_a_y_plugin_passing_is_refused_in_words() -> None:
    record = refereed("y", "Passes")
    assert record.termination is Termination.ILLEGAL and not record.moves
    assert "pass moves are not part of Y" in record.reason and "Error" not in record.reason, record.reason


@pytest.mark.parametrize("name", ["quinta", "yvy"])
def test_the_gtp_server_refuses_a_disguised_move_of_a_plugin(name: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "ytourney", "gtp", f"{PLUGINS}:NegativeAlias", "--game", name],
                          input=f"genmove {str(get_game(name).first_color)[0]}\nshowboard\nquit\n", capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    first = done.stdout.split("\n\n")[0]
    assert first.startswith("? bot answered an illegal move: ") and "no node of" in first, first
    assert "Error" not in first
