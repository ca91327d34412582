"""Hostile GTP: what a controller sends to `ytourney gtp`, and engines that answer one command twice.

Classes covered (issue 24): server input that is binary, holds NUL bytes or non-ASCII words, a command line of
megabytes with no newline (skipped in bounded pieces), numbers of thousands of digits or beyond any clock in
boardsize, time_settings, time_left, kgs-time_settings, y_param and komi (each one `?` line, the server stays up
and `quit` ends it with exit 0, in seconds, under a memory cap); board specs of thousands of digits anywhere (one
BoardSpecError); an engine that answers a command twice, whether the second answer comes at once, late (read as
the answer to the next `play`) or after a `play` (read as an empty genmove answer): it loses by protocol and the
reason blames the double answer, not the cell or the rows dialect.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ytourney.boards.board import parse_board
from ytourney.errors import BoardSpecError
from ytourney.games.record import Termination
from ytourney.games.registry import get_game
from ytourney.players.bots.random_bot import RandomBot
from ytourney.players.clock import TimeControl
from ytourney.players.gtp.engine import GtpBot
from ytourney.players.gtp.server import MAX_COMMAND_CHARS
from ytourney.players.gtp.settings import GtpSettings
from ytourney.tournament.match import Seat, play_game

pytestmark = pytest.mark.usefixtures("memory_cap")  # tests/conftest.py: a regression fails, the machine lives

FAKE = Path(__file__).resolve().parent / "fake_engines" / "fake_gtp.py"
DIGITS = "9" * 5000

# (the line sent, a part of its one response)
HOSTILE_INPUT = [
    (b"\xff\xfe\x00\x80 genmove b", "? unknown command"),
    (b"name\x00", "= ytourney-random"),
    (b"pl\xc3\xa4y b a1", "? unknown command"),
    (b"play b " + b"a" * (8 * MAX_COMMAND_CHARS), f"? command longer than {MAX_COMMAND_CHARS} characters"),
    (b"boardsize " + DIGITS.encode(), "? unacceptable size"),
    (b"boardsize tri:" + DIGITS.encode(), "? unacceptable size"),
    (b"time_settings 1e308 0 0", "? main time '1e308' must be a number from 0 to 1e+07"),
    (b"time_settings 10 1 " + DIGITS.encode(), "? stone count '99999999999999999999' is not a whole number"),
    (b"time_left b inf 0", "? time 'inf' must be a number from 0 to 1e+07"),
    (b"time_left b nan 0", "? time 'nan' must be a number from 0 to 1e+07"),
    (b"kgs-time_settings byoyomi 1e300 1e300 1", "? main time '1e300' must be a number"),
    (b"y_param max_time 1e400", "? max_time '1e400' must be a number"),
    (b"komi " + DIGITS.encode(), "? komi '99999999999999999999' must be a number"),
    (b"genmove b", "= "),  # still up, and the clock was never set to a value it cannot hold
    (b"name", "= ytourney-random"),
]


def test_hostile_server_input_gets_one_error_line_each_and_the_server_stays_up() -> None:
    stdin = b"".join(line + b"\n" for line, _ in HOSTILE_INPUT) + b"quit\n"
    begin = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "ytourney", "gtp", "random", "--board", "tri:5", "--seed", "1"],
                          input=stdin, capture_output=True, timeout=60, check=False)
    assert time.monotonic() - begin < 30
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr[-500:]
    responses = done.stdout.decode("utf-8", "replace").split("\n\n")
    assert responses[-1] == "" and responses[-2] == "="  # quit, then nothing
    for (line, expected), response in zip(HOSTILE_INPUT, responses, strict=False):
        assert response.startswith(expected) and "\n" not in response, (line[:40], response[:200])
        assert "internal error" not in response and len(response) < 300
    assert len(responses) == len(HOSTILE_INPUT) + 2


@pytest.mark.parametrize("spec", ["tri:" + DIGITS, "hex:" + DIGITS, "x" * 100_000])
def test_board_specs_of_thousands_of_digits_are_one_short_line(spec: str) -> None:
    with pytest.raises(BoardSpecError) as info:
        parse_board(spec)
    assert len(str(info.value)) < 300 and "\n" not in str(info.value)


@pytest.mark.parametrize(("fault", "reason"), [
    ("unsolicited", "wrote '= a1' without being asked, a second answer to 'genmove w' \\(GTP gives one response per "
                    "command\\)"),
    ("double-late", "answered 'genmove w' twice: 'a1' came as the answer to 'play b [a-e][1-5]', which answers "
                    "nothing \\(GTP gives one response per command\\)"),
    ("double-play", "answered 'play b [a-e][1-5]' twice: its second, empty answer came as the answer to "
                    "'genmove w' \\(GTP gives one response per command\\)"),
])
def test_an_engine_that_answers_twice_is_blamed_for_the_double_answer(fault: str, reason: str) -> None:
    settings = GtpSettings(command=(sys.executable, str(FAKE), "--fault", fault, "--delay", "0.1"), game=get_game("y"))
    bot = GtpBot(settings)
    try:
        record = play_game([Seat("random", RandomBot(seed=1)), Seat("engine", bot)], get_game("y"), "tri:5",
                           time_control=TimeControl(move_seconds=2.0))
    finally:
        bot.close()
    assert record.termination is Termination.PROTOCOL and record.winner_name == "random"
    assert re.fullmatch(f"engine 'fake_gtp.py' {reason}", record.reason), record.reason
    assert "cell" not in record.reason and "rows" not in record.reason
