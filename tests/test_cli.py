"""The play, bots and --version commands, and clean errors for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney import __version__
from ytourney.cli import main
from ytourney.games.y.notation import parse_moves
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import GameState


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_play_kadon_prints_a_finished_game() -> None:
    code, out = invoke("play", "random", "random", "--board", "kadon", "--seed", "3")
    assert code == 0, out
    assert "result: " in out and "wins by completing a Y" in out
    assert "moves: 1." in out
    lines = out.splitlines()
    assert lines[0].startswith("9 ") and lines[8].startswith("1 ")
    assert lines[0].split()[-1] == "A9-E9" and lines[4].split()[-1] == "A5-M5" and lines[8].split()[-1] == "A1-I1"
    assert lines[9] == "X black, O white; lower case: the last move's stones"


def test_play_names_the_winner_of_twin_players_once_by_colour() -> None:
    code, out = invoke("play", "random", "random", "--board", "tri:5", "--seed", "3")
    result = out.splitlines()[-1]
    assert code == 0 and result.startswith("result: random (black) wins") and "(black) (black)" not in result


def test_play_is_reproducible_for_a_seed() -> None:
    first = invoke("play", "random", "random", "--seed", "11", "--json")[1]
    second = invoke("play", "random", "random", "--seed", "11", "--json")[1]
    strip = lambda text: {k: v for k, v in json.loads(text).items() if k not in ("move_seconds", "started", "finished")}
    assert strip(first) == strip(second)


def test_play_json_record_replays_to_its_winner() -> None:
    code, out = invoke("play", "random", "random:swap_rate=1", "--board", "tri:6", "--seed", "5", "--json")
    assert code == 0
    record = json.loads(out)
    assert record["board"] == "tri:6" and record["rules"] == {"pie": True, "misere": False}
    assert record["moves"][1] == "swap"
    assert record["black"] == "random:swap_rate=1" and record["first"] == "random"
    state = GameState("tri:6", Rules())
    for move in parse_moves(state.board, record["moves"]):
        state.play(move)
    assert str(state.winner) == record["winner"] and record["termination"] == "connection"


def test_play_handicap_and_misere() -> None:
    code, out = invoke("play", "random", "random", "--board", "tri:7", "--handicap", "3", "--misere", "--seed", "2",
                       "--json")
    record = json.loads(out)
    assert record["handicap"] == 3 and record["rules"]["misere"] is True and "swap" not in record["moves"]
    state = GameState("tri:7", Rules(misere=True), 3)
    for move in parse_moves(state.board, record["moves"]):
        state.play(move)
    assert str(state.winner) == record["winner"]


def test_play_refuses_a_handicap_in_a_game_without_a_ladder() -> None:
    code, out = invoke("play", "random", "random", "--game", "tetra", "--handicap", "2", "--seed", "1", "--json")
    assert code == 1 and "Traceback" not in out
    assert "Invalid value for '--handicap': game 'tetra' has no handicap ladder; expected 0, found 2" in out
    assert '"moves"' not in out  # refused before a game, not played even and recorded as handicap 2


def test_play_text_board_for_tri() -> None:
    code, out = invoke("play", "random", "random", "--board", "tri:4", "--no-pie", "--seed", "1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].strip().startswith("4") and lines[4].split() == ["a", "b", "c", "d"]
    assert "pie=off" in out


def test_bad_inputs_give_clean_errors() -> None:
    cases = [
        (["play", "random", "random", "--board", "hex:5"], "board 'hex:5' is not a board of Y"),
            (["play", "random", "random", "--board", "hex:1"], "board size 1 in 'hex:1' is out of range"),
        (["play", "random", "randm"], "unknown bot 'randm'"),
        (["play", "random", "random:speed=3"], "unknown option 'speed'"),
        (["play", "nofile.py:Bot", "random"], "plugin file 'nofile.py' does not exist"),
        (["play", "random", "random", "--board", "tri:3", "--handicap", "9"], "too large"),
    ]
    for args, message in cases:
        code, out = invoke(*args)
        assert code == 1, (args, out)
        assert message in out and "Traceback" not in out


def test_a_rule_out_of_range_names_its_bounds() -> None:
    code, out = invoke("play", "random", "random", "--game", "tetra", "--rule", "max_plies=0")
    assert code == 1 and "max_plies='0' is out of range; expected a whole number >= 20 and <= 1000000" in out
    code, out = invoke("play", "random", "random", "--game", "aliens-amazons", "--rule", "threshold=61")
    assert code == 1 and "threshold='61' is out of range; expected a whole number >= 1 and <= 60" in out
    code, out = invoke("play", "random", "random", "--game", "sexta", "--rule", "rings=maybe")
    assert code == 1 and "rings='maybe': expected true or false" in out
    code, out = invoke("play", "random", "random", "--game", "sexta", "--rule", "max_plies=1e3")
    assert code == 1 and "max_plies='1e3': expected a whole number" in out


def test_a_rule_given_twice_is_refused_not_silently_overridden() -> None:
    code, out = invoke("play", "random", "random", "--game", "tetra", "--rule", "max_plies=50",
                       "--rule", "max_plies=60")
    assert code == 1 and "'max_plies=60': rule 'max_plies' is already set" in out and "Traceback" not in out
    code, out = invoke("play", "random", "random", "--pie", "--rule", "pie=false")
    assert code == 1 and "rule 'pie' is already set" in out


def test_a_computed_rule_default_shows_its_value_in_play_and_validate(tmp_path: Path) -> None:
    code, out = invoke("play", "random", "random", "--game", "aliens-amazons", "--no-pie", "--seed", "1")
    assert code == 0 and "threshold=10" in out and "None" not in out and "default" not in out
    config = tmp_path / "aa.yaml"
    config.write_text("name: aa\ngame: aliens-amazons\nplayers: [{name: a, bot: random}, {name: b, bot: random}]\n")
    code, out = invoke("validate", str(config), "--no-start")
    assert code == 0 and "threshold 10" in out and "None" not in out


def test_play_refuses_a_negative_seed_as_match_does() -> None:
    code, out = invoke("play", "random", "random", "--seed", "-5")
    assert code == 1 and "--seed" in out and "Traceback" not in out


def test_a_bad_gtp_player_of_play_is_blamed_on_play_not_match() -> None:
    code, out = invoke("play", "gtp:", "random", "--game", "tetra")
    assert code == 1 and "Traceback" not in out
    assert "ytourney play: player 1 ('gtp:'): expected gtp:NAME=COMMAND ARGS" in out and "ytourney match" not in out
    code, out = invoke("play", "random", "gtp:e=true;rows")
    assert code == 1 and "ytourney play: player 2 ('gtp:e=true;rows'): engine option 'rows': expected KEY=VALUE" in out


def test_games_svg_never_writes_through_a_link_or_into_a_device(tmp_path: Path) -> None:
    code, out = invoke("games", "--svg", "/dev/null")
    assert code == 1 and "'/dev/null' is a character device; expected a folder" in out
    notes = tmp_path / "notes.txt"
    notes.write_text("keep\n")
    (tmp_path / "svg").mkdir()
    (tmp_path / "svg" / "tetra-start.svg").symlink_to(notes)
    code, out = invoke("games", "--svg", str(tmp_path / "svg"))
    assert code == 1 and "tetra-start.svg' is a symbolic link" in out and "Traceback" not in out
    assert notes.read_text() == "keep\n" and "rules page" not in out  # no half list before the error
    code, out = invoke("games", "--svg", str(tmp_path / "new"))
    assert code == 0 and (tmp_path / "new" / "tetra-start.svg").read_text().startswith("<svg")


SLEEPER = """
from pathlib import Path
import time

from ytourney.players import BaseBot


class Sleeper(BaseBot):
    def move(self, state, limit):
        Path(__file__).with_suffix(".thinking").touch()
        time.sleep(60)
"""


def test_ctrl_c_stops_play_with_130_and_no_result(tmp_path: Path) -> None:
    import signal
    import time

    (tmp_path / "sleeper.py").write_text(SLEEPER)
    command = [sys.executable, "-m", "ytourney", "play", "random", f"{tmp_path / 'sleeper.py'}:Sleeper", "--game",
               "tetra", "--seed", "1"]
    done = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        begin = time.monotonic()
        while not (tmp_path / "sleeper.thinking").exists() and time.monotonic() - begin < 60:
            time.sleep(0.05)
        done.send_signal(signal.SIGINT)
        out, err = done.communicate(timeout=20)
    finally:
        done.kill()
    assert done.returncode == 130, err
    assert err.strip() == "ytourney: interrupted by SIGINT; the game was not finished"
    assert out == ""  # no result: the game was not the thinking bot's loss


def test_ctrl_c_in_any_command_exits_130_with_one_line() -> None:
    import signal

    command = [sys.executable, "-m", "ytourney", "gtp", "mcts:playouts=1000000", "--game", "tetra", "--seed", "1"]
    served = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert served.stdin is not None and served.stdout is not None
        served.stdin.write("name\n")
        served.stdin.flush()
        assert served.stdout.readline() == "= ytourney-mcts\n"  # the command runs: its Ctrl-C is ours to handle
        served.stdin.write("genmove b\n")
        served.stdin.flush()
        served.send_signal(signal.SIGINT)
        out, err = served.communicate(timeout=20)
    finally:
        served.kill()
    assert served.returncode == 130 and err.strip() == "ytourney: interrupted by SIGINT", err


def test_bots_lists_builtins_with_options() -> None:
    code, out = invoke("bots")
    assert code == 0 and "random" in out and "swap_rate" in out


def test_bots_shows_each_bots_measured_note_under_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from ytourney.games.registry import all_games

    for game in all_games().values():
        monkeypatch.setattr(type(game), "bot_notes", {"random": "loses every game; about 30 plies"})
        monkeypatch.setattr(type(game), "ladder", ("random", "mcts:playouts=50"))
        code, out = invoke("bots", "--game", game.name)
        lines = out.splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith("random "))
        assert code == 0 and lines[at + 1] == "    measured: rung 1 of 2: loses every game; about 30 plies", out


def test_bots_shows_pie_only_options_only_where_the_pie_is_offered() -> None:
    from ytourney.games.registry import all_games

    for game in all_games().values():
        code, out = invoke("bots", "--game", game.name)
        pie = game.rules_dict(game.parse_rules(None))["pie"]
        assert code == 0 and ("swap_rate=" in out) is pie, game.name
        assert ("pie-only options (swap_rate" in out) is not pie, game.name
        assert "seconds=" in out.split("random ", 1)[1].split("\n\n")[0]


def test_bots_shows_a_bots_whole_summary_when_its_docstring_wraps() -> None:
    code, out = invoke("bots", "--game", "aliens-amazons")
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith("heuristic"))
    assert line.endswith("Amazons leave no capture and the least room.")


def test_version_and_help_through_the_console_script() -> None:
    done = subprocess.run([sys.executable, "-m", "ytourney", "--version"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and __version__ in done.stdout
    code, out = invoke("--help")
    assert code == 0 and "play" in out
    code, out = invoke("play", "--help")
    assert "Example" in out


def test_backend_choices_are_the_executor_backends() -> None:
    from ytourney.cli.options import BACKENDS
    from ytourney.tournament.executor import Backend

    assert BACKENDS == tuple(backend.value for backend in Backend)


def test_play_seats_a_gtp_engine_as_match_does() -> None:
    from pathlib import Path

    fake = Path(__file__).resolve().parent / "fake_engines" / "fake_row_reversed.py"
    engine = f"gtp:hy={sys.executable} {fake} --time-scale 0;rows=flipped;swap=genmove;time_command=y_param"
    code, out = invoke("play", engine, "random", "--board", "tri:5", "--move-seconds", "0.5", "--seed", "2")
    assert code == 0, out
    assert "black: hy" in out or "white: hy" in out
    assert "wins by completing a Y" in out
    code, out = invoke("play", "gtp:hy=/nonexistent/engine", "random", "--board", "tri:5")
    assert code == 1 and "'/nonexistent/engine' does not exist" in out and "Traceback" not in out


def test_play_of_a_handicap_game_says_pie_off_and_counts_the_stones_as_one_move() -> None:
    code, out = invoke("play", "random", "random", "--handicap", "3", "--board", "tri:5", "--seed", "1")
    assert code == 0, out
    turns = out.split("moves: ")[1].splitlines()[0].split()
    assert turns[0].startswith("1.") and len(turns[0].split(",")) == 3  # the three stones are turn 1
    assert turns[1].startswith("2.") and "," not in turns[1]
    assert f"after {len(turns)} moves" in out and "pie=off" in out
