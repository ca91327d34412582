"""A plugin's Move that would mean something else is an illegal answer in every game, refereed or served over GTP,
and its reason is in words (never an exception's text)."""

from __future__ import annotations

import os
import random
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
                          input=f"genmove {str(get_game(name).first_color)[0]}\nshowboard\nquit\n",
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    first = done.stdout.split("\n\n")[0]
    assert first.startswith("? bot answered an illegal move: ") and "no node of" in first, first
    assert "Error" not in first


@pytest.mark.parametrize("name", ["quinta", "sexta", "singularity", "leap-over", "tetra", "aliens-amazons"])
def test_an_engine_answer_in_a_move_game_is_named_a_move_and_its_fault_in_words(name: str) -> None:
    """Slide and jump games answer moves, not cells; a capture written where the game has none is that fault."""
    from ytourney.errors import YTourneyError
    from ytourney.players.gtp.engine import GtpBot
    from ytourney.players.gtp.settings import GtpSettings

    game = get_game(name)
    board = game.parse_board(game.default_board)
    state = game.new_state(board, game.parse_rules(None))
    rng = random.Random(3)
    while all(move.kind.value == "place" for move in state.legal_moves() if move.path):  # past a placing phase
        state.play(rng.choice([move for move in state.legal_moves() if move.path]))
    assert not state.is_over
    bot = GtpBot(GtpSettings(command=("unused",), game=game, name="e"))
    named = name in ("quinta", "sexta", "tetra")  # the others read a lone node as an unreadable move, also words
    for answer, words in [("hello", "'hello', which is not a move"), ("z9", "unknown node" if named else ""),
                          ("B1-A1xF1", "capture" if name in ("quinta", "sexta", "tetra", "aliens-amazons") else "")]:
        with pytest.raises(YTourneyError) as refused:
            bot._answer_to_action(answer, state.copy(), "genmove b", False)
        assert words in str(refused.value) and "not a cell" not in str(refused.value), str(refused.value)
