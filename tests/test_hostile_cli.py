"""Hostile command-line specs: the `--sprt` spec, `--publish-every`, bot specs and boards given on the command line.

Classes covered (issue 24): duplicate `--sprt` keys (Elo and win-probability forms), `--sprt` values that are nan,
overflow to infinity or run to thousands of digits, `--publish-every` nan, inf, -inf and 1e400, a `--board` and a
bot-spec option of thousands of digits, a bot-spec option given twice. Each is one clear error line (exit 1, or Click's usage exit 2 for an option
of the wrong type), with no traceback, in seconds, under a memory cap, and nothing is written. YAML alias bombs in
`--set` values and engine-spec values are covered in tests/tournament/test_config_hostile.py.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main

pytestmark = pytest.mark.usefixtures("memory_cap")  # tests/conftest.py: a regression fails, the machine lives

DIGITS = "9" * 5000


@pytest.mark.parametrize(("args", "message"), [
    (["--sprt", "elo0=0,elo1=5,elo1=9"], "--sprt 'elo0=0,elo1=5,elo1=9' names 'elo1' twice; expected each key once"),
    (["--sprt", "p0=0.4,p1=0.6,alpha=0.1,alpha=0.2"], "names 'alpha' twice; expected each key once"),
    (["--sprt", "elo0=0, elo1=5,elo0=1"], "names 'elo0' twice"),
    (["--sprt", "elo0=0,elo1=nan"], "--sprt: expected a number; found"),
    (["--sprt", "elo0=0,elo1=1e400"], "--sprt: expected a number; found float inf"),
    (["--sprt", f"elo0=0,elo1={DIGITS}"], "a value cannot be read (exceeds the limit (4300 digits)"),
    (["--publish", "site", "--publish-every", "nan"], "--publish-every nan: expected a finite number of seconds >= 1"),
    (["--publish", "site", "--publish-every", "inf"], "--publish-every inf: expected a finite number of seconds >= 1"),
    (["--publish", "site", "--publish-every", "1e400"], "--publish-every inf: expected a finite number"),
    (["--publish", "site", "--publish-every", "-inf"], "-inf is not in the range x>=1.0"),
    (["--board", f"tri:{DIGITS}"], "board size of 5000 digits in 'tri:9999"),
])
def test_hostile_option_values_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    begin = time.monotonic()
    result = CliRunner().invoke(main, ["match", "a=random", "b=random", "--out", str(tmp_path / "m"), "-q", *args])
    assert time.monotonic() - begin < 20
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1 and message in result.output, result.output
    assert "Traceback" not in result.output
    assert [line for line in result.output.splitlines() if line.startswith("Error")] == \
        [next(line for line in result.output.splitlines() if message in line)]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("spec", [f"a=mcts:playouts={DIGITS}", "a=mcts:playouts=nan", "a=mcts:c=inf",
                                  "a=mcts:playouts=99999999999999999999999"])
def test_hostile_bot_spec_values_are_one_line(tmp_path: Path, spec: str) -> None:
    result = CliRunner().invoke(main, ["match", spec, "b=random", "--out", str(tmp_path / "m"), "-q"])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1 and "option" in result.output and "mcts" in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_bot_spec_option_given_twice_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["match", "a=mcts:playouts=5,playouts=6", "b=random",
                                       "--out", str(tmp_path / "m"), "-q"])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert result.output.strip() == ("Error: ytourney match: player 1 ('a=mcts:playouts=5,playouts=6') bot: option "
                                     "'playouts' of bot 'mcts' is given twice in 'mcts:playouts=5,playouts=6'; "
                                     "give it once")
    assert list(tmp_path.iterdir()) == []


def test_running_out_of_memory_anywhere_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under `ulimit -v`, solve's fallback to the pure-Python kernel could itself run out of memory in its setup:
    a MemoryError traceback. Any command that runs out of memory says so in one line, exit 1."""
    from ytourney.games.solitaire import kernel

    def no_memory(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(kernel.PyKernel, "__init__", no_memory)
    result = CliRunner().invoke(main, ["solve", "supply-line", "--kernel", "python"])
    assert result.exit_code == 1 and not isinstance(result.exception, MemoryError)
    assert result.output.splitlines() == [
        "Error: ytourney solve ran out of memory (a memory limit such as ulimit -v?); allow it more memory"]
