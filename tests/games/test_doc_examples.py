"""The example games on the rules pages are replayed from their seeds: the command each page names prints exactly
the board, players, moves and result the page shows."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main

PAGES = Path(__file__).resolve().parents[2] / "docs" / "games"
EXAMPLE = re.compile(r"Example game[ ,(]+`ytourney (play [^`]+)`[^\n]*\n\n```\n(.*?)```", re.S)


@pytest.mark.parametrize("page", ["tetra", "quinta", "sexta", "singularity"])
def test_the_example_game_reproduces_from_its_seed(page: str) -> None:
    found = EXAMPLE.search((PAGES / f"{page}.md").read_text(encoding="utf-8"))
    assert found is not None, f"{page}.md names no example game"
    shown = found.group(2).splitlines()
    played = CliRunner().invoke(main, shlex.split(found.group(1)))
    assert played.exit_code == 0, played.output
    lines = played.output.splitlines()
    assert shown[0] in lines
    start = lines.index(shown[0])
    assert lines[start:start + len(shown)] == shown
