"""The example game on docs/games/yvy.md is replayed from its seed: the command it names plays exactly the moves and
the result the page shows."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from ytourney.cli import main

PAGE = Path(__file__).resolve().parents[3] / "docs" / "games" / "yvy.md"


def test_the_example_game_reproduces_from_its_seed() -> None:
    text = PAGE.read_text(encoding="utf-8")
    command = re.search(r"Example game \(`ytourney (play [^`]+)`\)", text)
    block = re.search(r"```\n(.*?)```", text[command.end():], re.S) if command else None
    assert command is not None and block is not None
    shown = block.group(1)
    played = CliRunner().invoke(main, shlex.split(command.group(1)))
    assert played.exit_code == 0, played.output
    moves = [line for line in shown.splitlines() if line.startswith("moves:")]
    result = [line for line in shown.splitlines() if line.startswith("result:")]
    assert moves and result
    assert moves[0] in played.output.splitlines()
    assert result[0] in played.output.splitlines()
    board = shown.splitlines()[:11]  # the final board, as the page draws it
    lines = played.output.splitlines()
    start = lines.index(board[0])
    assert lines[start:start + len(board)] == board
