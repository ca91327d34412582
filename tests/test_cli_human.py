"""The human seat of `ytourney play`, driven through piped stdin as a person would type, in a placement game (Y)
and a jump game (Leap Over); and how `play` names the seats, draws kadon boards and words a misère win."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ytourney.cli import main
from ytourney.games.registry import get_game


def play(*args: str, typed: str = "") -> Result:
    result = CliRunner().invoke(main, ["play", *args], input=typed)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result


def every_cell(size: int) -> str:
    """Every cell of tri:N, one a line: typed in turn, the occupied ones are refused and the first free one plays."""
    return "".join(f"{chr(ord('a') + col)}{row}\n" for row in range(1, size + 1) for col in range(size + 1 - row))


def test_an_illegal_move_is_refused_with_the_reason_and_asked_again(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = play("human", "random", "--board", "tri:4", "--no-pie", "--seed", "1", "--out", str(out),
                  typed="zz9\nhello\na1\na1\nresign\n")
    assert result.exit_code == 0, result.output
    text = result.output
    assert "'zz9' is not a move: unknown cell 'zz9'" in text
    assert "'hello': not a move or command" in text or "'hello' is not a move" in text
    assert "'a1' is illegal: cell 'a1' is already occupied" in text  # the second a1, after the bot's reply
    assert "1. human (black): a1" in text and "X black, O white; lower case: the last move's stones" in text
    assert "wins by forfeit after 2 moves (human resigned)" in text
    stored = json.loads(out.read_text(encoding="utf-8"))
    assert stored["moves"][0] == "a1" and len(stored["moves"]) == 2  # nothing lost, nothing invented
    assert (stored["tournament"], stored["id"], stored["termination"]) == ("play", 1, "forfeit")
    assert stored["winner_name"] == "random" and stored["reason"] == "human resigned"


def test_undo_takes_back_the_human_move_and_the_reply(tmp_path: Path) -> None:
    out = tmp_path / "games.pgn"
    result = play("human", "random", "--board", "tri:4", "--no-pie", "--seed", "2", "--out", str(out),
                  typed="undo\nb2\nundo\nc1\n" + every_cell(4) * 2)
    assert result.exit_code == 0, result.output
    text = result.output
    assert "nothing to undo: you have not moved yet" in text
    assert "took back 2 moves" in text
    pgn = out.read_text(encoding="utf-8")
    assert '[Event "play"]' in pgn and '[GameId "1"]' in pgn and '[White "random"]' in pgn
    assert "\n\n1. c1 " in pgn  # b2 was taken back: the record starts with the move played after the undo
    again = play("human", "random", "--board", "tri:4", "--no-pie", "--seed", "2", "--out", str(out),
                 typed=every_cell(4) * 2)
    assert again.exit_code == 0, again.output
    assert '[GameId "2"]' in out.read_text(encoding="utf-8")  # a second session appends the next game


def test_odd_input_is_echoed_escaped_and_a_huge_line_is_refused_in_a_few_words() -> None:
    """A terminal escape in piped input is echoed as text (it would clear the user's screen), and a line of 100,000
    characters is refused in one short line (it was echoed and quoted in full, twice), reading it in bounded pieces."""
    result = play("human", "random", "--board", "tri:4", "--no-pie", "--seed", "1",
                  typed="c\x1b[2J1\n" + "a" * 100_000 + "\n\x00\nquit\n")
    assert result.exit_code == 0, result.output
    text = result.output
    assert "\x1b" not in text and "\x00" not in text
    assert "to move: c\\x1b[2J1\n" in text  # the echo shows the escape as text
    assert "a" * 1001 not in text
    assert "a line of more than 1000 characters is not a move" in text
    assert "nothing was recorded" in text


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs Linux /proc")
def test_an_out_file_that_cannot_be_made_is_refused_before_the_game() -> None:
    """The game (perhaps an hour of a person's play) was played, then lost to 'cannot create'."""
    result = play("human", "random", "--board", "tri:4", "--no-pie", "--out", "/proc/ytourney-play.pgn",
                  typed="a1\n")
    assert result.exit_code == 1
    assert "cannot create '/proc/ytourney-play.pgn'" in result.output and "to move" not in result.output


def test_quit_and_the_end_of_input_leave_the_game_unrecorded(tmp_path: Path) -> None:
    out = tmp_path / "games.pgn"
    for typed in ("a1\nquit\n", "a1\n"):  # `quit`, and stdin ending mid-game
        result = play("human", "random", "--board", "tri:5", "--seed", "3", "--out", str(out), typed=typed)
        assert result.exit_code == 0, result.output
        assert "quit; the game was left unfinished and nothing was recorded" in result.output
    assert not out.exists()


def test_the_human_decides_the_pie_and_help_names_the_notation() -> None:
    result = play("random", "human", "--board", "tri:5", "--seed", "4",
                  typed="help\nswap\n" + every_cell(5) * 2)
    assert result.exit_code == 0, result.output
    text = result.output
    assert "human: swap (take" in text and "moves in Y's notation" in text and "undo" in text
    assert "first move: random (swapped by human)" in text
    declined = play("random", "human", "--board", "tri:5", "--seed", "4", typed="no\nquit\n")
    assert "2. human (white) to move" in declined.output


def test_a_human_plays_a_jump_game_in_its_notation() -> None:
    game = get_game("leap-over")
    state = game.new_state(game.parse_board("kadon"), game.parse_rules(None))
    legal = game.format_move(state.board, state.legal_moves()[0])
    result = play("human", "random", "--game", "leap-over", "--seed", "5",
                  typed=f"E5\nA1-C1\n{legal}\nundo\n{legal}\nquit\n")
    assert result.exit_code == 0, result.output
    text = result.output
    assert "'E5' is not a move: unreadable leap-over move" in text
    assert "'A1-C1' is illegal" in text
    assert f"1. human (black): {legal}" in text and "took back 2 moves" in text
    assert "A5-M5" in text  # the kadon rows carry their cell names
    assert "nothing was recorded" in text


def test_human_is_refused_where_games_run_without_a_terminal(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["match", "human", "random", "--out", str(tmp_path / "m")])
    assert result.exit_code == 1
    assert "a human plays at the terminal, in `ytourney play` only" in result.output


def test_a_human_with_options_is_refused_in_play_in_its_own_terms() -> None:
    """`play human:fast random` was told a human plays 'in `ytourney play` only', inside ytourney play."""
    result = play("human:fast", "random", "--board", "tri:4", typed="quit\n")
    assert result.exit_code == 1
    assert "bot spec 'human:fast': a human seat takes no options; expected 'human' alone" in result.output
    assert "play` only" not in result.output


def test_a_human_with_stdin_closed_is_refused_before_the_game() -> None:
    """`play human random <&-`: the human lost 'by crash (AttributeError: 'NoneType' object has no attribute
    'readline')'."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "ytourney", "play", "human", "random", "--board", "tri:4"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False,
                          preexec_fn=lambda: os.close(0))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "a human seat reads its moves from standard input, which is closed" in done.stderr
    assert "crash" not in done.stdout and "Traceback" not in done.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_human_whose_board_cannot_be_written_records_nothing(tmp_path: Path) -> None:
    """With stdout on a full disk the human lost 'by crash (OSError: [Errno 28] ...)', and --out recorded it."""
    import subprocess
    import sys

    out = tmp_path / "games.jsonl"
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = subprocess.run([sys.executable, "-m", "ytourney", "play", "human", "random", "--board", "tri:4",
                               "--out", str(out)], input="a1\n", stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=60, check=False)
    assert done.returncode == 1, done.stderr
    assert "cannot write the board and prompts (No space left on device); the game was left unfinished and " \
           "nothing was recorded" in done.stderr
    assert not out.exists()


def test_any_command_with_stdout_closed_is_one_line() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "ytourney", "games"], capture_output=True, text=True, timeout=60,
                          check=False, preexec_fn=lambda: os.close(1))
    assert done.returncode == 1
    assert done.stderr.strip() == ("Error: cannot write output: standard output is closed; redirect it instead (to "
                                   "/dev/null to drop it)")


def test_play_names_the_seats_by_the_game_s_sides_first_mover_first() -> None:
    result = play("random", "mcts:playouts=20", "--game", "yvy", "--board", "hex:3", "--seed", "1")
    assert result.exit_code == 0, result.output
    seats = next(line for line in result.output.splitlines() if line.startswith("white: "))
    assert seats.startswith("white: random   black: mcts:playouts=20   first move: random")
    assert "FIRST makes the first move" in CliRunner().invoke(main, ["play", "--help"]).output


def test_a_misere_win_is_worded_as_the_site_words_it() -> None:
    result = play("random", "random", "--misere", "--board", "tri:5", "--seed", "2")
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if line.startswith("result: "))
    assert "(misère: the opponent completed a Y)" in line and "by connection" not in line


def test_a_bad_rule_value_of_match_is_blamed_on_its_rule(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["match", "random", "mcts", "--rule", "pie=maybe", "--out", str(tmp_path)])
    assert result.exit_code != 0
    assert result.output == "Error: Invalid value for '--rule': pie='maybe': expected true or false\n"


def test_undo_after_handicap_stones_takes_back_the_whole_turn(tmp_path: Path) -> None:
    """A handicap level's k stones are one turn: undo takes back all of them and the reply, not the last stone."""
    out = tmp_path / "games.jsonl"
    result = play("human", "random", "--board", "tri:5", "--handicap", "2", "--seed", "3", "--out", str(out),
                  typed="a1\nb1\nundo\nc1\nd1\n" + every_cell(5) * 2)
    assert result.exit_code == 0, result.output
    assert "took back 2 moves" in result.output  # the handicap turn and the reply, counted by turn
    stored = json.loads(out.read_text(encoding="utf-8"))
    assert stored["moves"][:2] == ["c1", "d1"]  # both handicap stones were taken back, then placed again


def test_json_with_a_human_seat_prints_the_json_alone_on_stdout() -> None:
    """The boards and prompts go to stderr, so `play human ... --json | jq` reads one JSON object."""
    result = play("human", "random", "--board", "tri:4", "--no-pie", "--seed", "1", "--json",
                  typed=every_cell(4) * 2)
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["moves"][0] == "a1"
    assert "to move: " in result.stderr and "X black, O white" in result.stderr


def test_ctrl_c_at_the_prompt_says_so_on_a_new_line() -> None:
    """The interruption's message was printed on the prompt's line ('... to move: ytourney: interrupted ...')."""
    import select
    import signal
    import subprocess
    import sys
    import time

    with subprocess.Popen([sys.executable, "-m", "ytourney", "play", "human", "random", "--board", "tri:4"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT) as child:
        seen = b""
        deadline = time.monotonic() + 60
        while not seen.endswith(b"to move: ") and time.monotonic() < deadline:
            if select.select([child.stdout], [], [], 1)[0]:
                seen += os.read(child.stdout.fileno(), 4096)
        child.send_signal(signal.SIGINT)
        rest, _ = child.communicate(timeout=60)
    assert seen.endswith(b"to move: "), seen
    assert rest.decode() == "\nytourney: interrupted by SIGINT; the game was not finished\n"
    assert child.returncode == 128 + signal.SIGINT
