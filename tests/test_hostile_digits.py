"""Numbers are ASCII digits only (issue 36, messages that point the wrong way): Python's int(), float(), str.isdigit()
and a regex's \\d take other scripts' digits ('１', '١', '²'), so 'tri:１１' was a board and '² name' a GTP id. Every
place a number is read from text refuses them in one line naming the character: board specs (in every game), --rule
values, Click's number options (every one of every command), bot options, config values, `--set` paths, GTP ids,
sizes, numbers and rule values of `ytourney gtp`, and the id of an engine's answer to our GTP client.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from ytourney.boards.board import parse_board
from ytourney.cli import main
from ytourney.cli.group import AsciiFloat, AsciiInt
from ytourney.errors import BoardSpecError, EngineProtocolError
from ytourney.games.registry import game_names, get_game
from ytourney.players.bots.random_bot import RandomBot
from ytourney.players.gtp.client import GtpClient
from ytourney.players.gtp.server import GtpServer

pytestmark = pytest.mark.usefixtures("memory_cap")  # tests/conftest.py: a regression fails, the machine lives

FOREIGN = ["１１", "١١", "११", "¹¹", "1１", "٣"]
"""Full-width, Arabic-Indic, Devanagari, superscript, mixed with ASCII, a lone Arabic-Indic three."""


def refusal(tmp_path: Path, *args: str, players: tuple[str, ...] = ("a=random", "b=random")) -> str:
    """The one error line of a `match` refused before it writes anything."""
    result = CliRunner().invoke(main, ["match", *players, "--out", str(tmp_path / "m"), "-q", *args])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), lines
    assert not (tmp_path / "m").exists()
    return lines[0]


@pytest.mark.parametrize("digits", FOREIGN)
@pytest.mark.parametrize("family", ["tri", "hex"])
def test_a_board_spec_takes_ascii_digits_only(family: str, digits: str) -> None:
    with pytest.raises(BoardSpecError, match="is no ASCII digit; expected digits 0-9"):
        parse_board(f"{family}:{digits}")


@pytest.mark.parametrize("game", game_names())
def test_every_game_refuses_a_board_of_foreign_digits(tmp_path: Path, game: str) -> None:
    default = get_game(game).default_board
    family = "hex" if default.startswith("hex") else "tri"
    line = refusal(tmp_path, "--game", game, "--board", f"{family}:１１")
    if default == "kadon":  # a game of the kadon board alone reads no number from a board spec
        assert line.endswith(f"--board: board '{family}:１１' is not a board of {game}; expected kadon"), line
    else:
        assert "--board" in line and "'１' (U+FF11) is no ASCII digit; expected digits 0-9" in line, line


@pytest.mark.parametrize("game", game_names())
def test_every_games_number_rules_take_ascii_digits_only(tmp_path: Path, game: str) -> None:
    numbers = [key for key, option in get_game(game).rule_options.items() if option.type in (int, float)]
    for key in numbers:
        line = refusal(tmp_path, "--game", game, "--rule", f"{key}=١٠٠")
        assert f"{key}='١٠٠': '١' (U+0661) is no ASCII digit" in line, line


def number_options() -> list[tuple[str, click.Parameter]]:
    """Every option and argument of every command whose type reads a number."""
    found = []
    for name, command in main.commands.items():
        for param in command.params:
            if isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType)):
                found.append((name, param))
    return found


def test_every_number_option_of_every_command_reads_ascii_digits_only() -> None:
    options = number_options()
    assert len(options) > 10
    loose = [f"{name} {param.name}" for name, param in options if not isinstance(param.type, (AsciiInt, AsciiFloat))]
    assert loose == []  # click's INT and FLOAT (and int() and float()) take '١'


@pytest.mark.parametrize("args", [["--games-per-pair", "١"], ["--seed", "１"], ["--move-seconds", "٠.5"],
                                  ["--no-pie", "--random-plies", "²"], ["--workers", "٢"],
                                  ["--publish", "site", "--publish-every", "６０"]])
def test_number_options_refuse_foreign_digits(tmp_path: Path, args: list[str]) -> None:
    line = refusal(tmp_path, *args)
    assert f"Invalid value for '{args[-2]}'" in line and "is no ASCII digit; expected digits 0-9" in line, line


@pytest.mark.parametrize("spec", ["a=mcts:playouts=１０", "a=mcts:c=٠.5", "a=mcts:playouts=1٠"])
def test_bot_options_take_ascii_digits_only(tmp_path: Path, spec: str) -> None:
    line = refusal(tmp_path, players=(spec, "b=random"))
    assert "of bot 'mcts'" in line and "is no ASCII digit" in line, line


def test_a_config_number_written_in_foreign_digits_says_why(tmp_path: Path) -> None:
    line = refusal(tmp_path, "--set", "schedule.games_per_pair=٤")
    assert "schedule.games_per_pair: expected a whole number; found str '٤' ('٤' (U+0664) is no ASCII digit" in line
    line = refusal(tmp_path, "--set", "players[٠].name=x")
    assert "--set 'players[٠].name=x': expected KEY.PATH=VALUE" in line, line


@pytest.mark.parametrize("digits", FOREIGN)
def test_gtp_ids_are_ascii_digits_only(digits: str) -> None:
    server = GtpServer(RandomBot(seed=1), "tri:5", game=get_game("y"))
    answer = server.handle(f"{digits} name")
    assert answer is not None and not answer.startswith(f"={digits}") and not answer.startswith(f"?{digits}")
    assert answer == "? unknown command\n\n"
    assert server.handle("12 name") == "=12 ytourney-random\n\n"


@pytest.mark.parametrize("game", game_names())
def test_ytourney_gtp_reads_numbers_in_ascii_digits_only(game: str) -> None:
    played = get_game(game)
    server = GtpServer(RandomBot(seed=1), game=played)
    before = server.rules
    assert server.handle("boardsize １１") == "? unacceptable size\n\n"
    assert server.handle("komi ٠.5") == "? komi '٠.5' is not a number\n\n"
    assert server.handle("time_left b ١٠ 0").startswith("? ")
    for key, option in played.rule_options.items():
        if option.type in (int, float):
            answer = server.handle(f"ytourney-rules {key}=١٠٠")
            assert answer == f"? bad rule '{key}=١٠٠': '١' (U+0661) is no ASCII digit; expected digits 0-9\n\n"
    assert server.rules == before


class Answers:
    """A transport that answers every command with the given lines."""

    pid = None

    def __init__(self, *lines: str) -> None:
        self.script = lines
        self.lines: deque[str] = deque()

    def send(self, line: str) -> None:
        self.lines.extend(self.script)

    def receive(self, timeout: float) -> str | None:
        if self.lines:
            return self.lines.popleft()
        raise TimeoutError

    def exit_code(self) -> int | None:
        return None

    def stderr_tail(self) -> list[str]:
        return []


@pytest.mark.parametrize("answer", ["=² a1", "?١ illegal", "=１２ a1", "=٣"])
def test_an_engine_answer_with_a_foreign_digit_id_is_a_protocol_fault(answer: str) -> None:
    client = GtpClient(Answers(answer, ""), "engine 'e'", chatter_lines=5)
    with pytest.raises(EngineProtocolError, match="is not ASCII digits"):
        client.command("genmove b", 5.0)


def test_chatter_that_merely_starts_with_an_equals_sign_is_still_chatter() -> None:
    client = GtpClient(Answers("==== search ====", "= a1", ""), "engine 'e'", chatter_lines=5)
    response = client.command("genmove b", 5.0)
    assert response.ok and response.text == "a1"
