"""Hostile openings (issue 36, messages that point the wrong way): random plies or opening lines with the pie rule
or a handicap are blamed on the option or key that asks for them (`--random-plies`, `schedule.openings.file`), in
every game; an opening file that is a device, a FIFO, a folder, binary, too large or unreadable is named as such,
not as 'not found'. Each is one line, exit 1, under a memory cap, and nothing is written.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.games.registry import game_names, get_game
from ytourney.tournament.config_openings import OPENINGS_BYTES

pytestmark = pytest.mark.usefixtures("memory_cap")  # tests/conftest.py: a regression fails, the machine lives

PIE_GAMES = [name for name in game_names() if get_game(name).has_pie]


def refusal(tmp_path: Path, *args: str) -> str:
    """The one error line of a `match` that must be refused before it writes anything."""
    before = set(tmp_path.iterdir())
    result = CliRunner().invoke(main, ["match", "a=random", "b=random", "--out", str(tmp_path / "m"), "-q", *args])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ytourney match: "), lines
    assert set(tmp_path.iterdir()) == before
    return lines[0]


@pytest.mark.parametrize("game", PIE_GAMES)
def test_random_plies_with_the_pie_blame_random_plies_in_every_game(tmp_path: Path, game: str) -> None:
    line = refusal(tmp_path, "--game", game, "--pie", "--random-plies", "2")
    assert line == ("Error: ytourney match: --random-plies: random plies are for games without the pie rule; "
                    "give --no-pie")


@pytest.mark.parametrize("game", PIE_GAMES)
def test_opening_lines_with_the_pie_blame_openings_in_every_game(tmp_path: Path, game: str) -> None:
    lines = tmp_path / "lines.txt"
    lines.write_text("# no line needs reading: the pie refuses first\n")
    line = refusal(tmp_path, "--game", game, "--pie", "--openings", str(lines))
    assert line == ("Error: ytourney match: --openings: opening lines are for games without the pie rule; "
                    "give --no-pie")


def test_random_plies_with_a_handicap_blame_random_plies(tmp_path: Path) -> None:
    line = refusal(tmp_path, "--no-pie", "--handicap", "auto", "--random-plies", "2")
    assert line == "Error: ytourney match: --random-plies: random plies are for even games; leave out --handicap"


@pytest.mark.parametrize("game", PIE_GAMES)
def test_a_config_names_its_own_openings_key(tmp_path: Path, game: str) -> None:
    for key, value, what in (("random_plies", "2", "random plies"), ("file", "lines.txt", "opening lines")):
        config = tmp_path / f"{key}.yaml"
        config.write_text(f"name: x\ngame: {game}\nrules: {{pie: true}}\nschedule: {{openings: {{{key}: {value}}}}}\n"
                          "players: [random, {name: r2, bot: random}]\n")
        result = CliRunner().invoke(main, ["run", str(config), "--out", str(tmp_path / "out"), "-q"])
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        assert result.output.strip() == (f"Error: {config}: schedule.openings.{key}: {what} are for games without "
                                         "the pie rule; set rules.pie: false")
        assert not (tmp_path / "out").exists()


def binary_file(folder: Path) -> Path:
    path = folder / "binary.txt"
    path.write_bytes(b"a1 b2\n\x00\x01\xff")
    return path


def fifo(folder: Path) -> Path:
    path = folder / "fifo"
    os.mkfifo(path)
    return path


def too_large(folder: Path) -> Path:
    path = folder / "big.txt"
    with path.open("wb") as sparse:
        sparse.truncate(OPENINGS_BYTES + 1)
    return path


@pytest.mark.parametrize(("make", "words"), [
    (lambda folder: Path("/dev/zero"), "'/dev/zero' is a character device; expected an existing regular file"),
    (fifo, "is a FIFO; expected an existing regular file"),
    (lambda folder: folder, "is a folder; expected an existing regular file"),
    (binary_file, "is not an openings file: byte 6 is binary (a NUL byte); expected UTF-8 text"),
    (too_large, f"is too large: {OPENINGS_BYTES + 1} bytes; expected at most {OPENINGS_BYTES}"),
])
def test_an_opening_file_that_is_no_file_of_lines_says_what_it_is(tmp_path: Path, make, words: str) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    line = refusal(tmp_path, "--no-pie", "--openings", str(make(inputs)))
    assert line.startswith("Error: ytourney match: --openings: opening file ") and words in line, line
    assert "not found" not in line


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file of mode 000")
def test_an_unreadable_opening_file_is_named_unreadable(tmp_path: Path) -> None:
    locked = tmp_path / "locked.txt"
    locked.write_text("a1\n")
    locked.chmod(0)
    line = refusal(tmp_path, "--no-pie", "--openings", str(locked))
    assert "opening file" in line and "cannot be read: Permission denied" in line, line
