"""Hostile live files (`--pgn-out`, `--jsonl-out`): foreign files, links, devices, cuts at every byte, sharing.

Classes covered (issue 24): `--pgn-out EXISTING` on a file ytourney did not write (refused untouched, never
truncated), live files aimed at links, FIFOs and devices (refused at once, nothing read without bound), two
tournaments sharing one live file (entries keyed by tournament and id), a live file cut mid-game and resumed (the
last two games cut at every byte offset give back exactly the full file).
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from ytourney.errors import ReportError
from ytourney.publish.export import ExportFormat, open_feed
from ytourney.tournament.store import load_info, load_records
from cli_run import invoke

pytestmark = pytest.mark.usefixtures("memory_cap")  # tests/conftest.py: a regression fails, the machine lives

CONFIG = ("name: {name}\nboard: tri:4\nseed: {seed}\nworkers: 1\nschedule: {{games_per_pair: {games}}}\n"
          "players: [{{name: ä-{name}, bot: random}}, {{name: \"b é\", bot: random}}]\n")


def config(tmp_path: Path, name: str = "cup", games: int = 4, seed: int = 3) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(CONFIG.format(name=name, games=games, seed=seed), encoding="utf-8")
    return path


@pytest.mark.parametrize("option", ["--pgn-out", "--jsonl-out"])
@pytest.mark.parametrize("content", [
    "# my notes\n\nkeep these lines\n\nand these\n",
    "no blank line and no newline at the end",
    '[Event "other tool"]\n[Site "lichess"]\n\n1. e4 1-0\n\n',
    "name: cup\nboard: tri:4\n",
    '{"not": "a game"}\n',
    "\x00\xff binary",
])
def test_a_foreign_file_is_refused_untouched(tmp_path: Path, option: str, content: str) -> None:
    target = tmp_path / "target.txt"
    target.write_text(content, encoding="latin-1")
    before = target.read_bytes()
    out = tmp_path / "out"
    result = invoke("run", str(config(tmp_path)), "--out", str(out), "-q", option, str(target))
    assert result.exit_code == 1 and "written by ytourney" in result.output and "untouched" in result.output, \
        result.output
    assert target.read_bytes() == before and not out.exists()


def test_the_runs_own_config_as_pgn_out_is_refused_untouched(tmp_path: Path) -> None:
    path = config(tmp_path)
    before = path.read_bytes()
    result = invoke("run", str(path), "--out", str(tmp_path / "out"), "-q", "--pgn-out", str(path))
    assert result.exit_code == 1 and path.read_bytes() == before


@pytest.mark.parametrize("option", ["--pgn-out", "--jsonl-out"])
@pytest.mark.parametrize("target", ["/dev/zero", "/dev/urandom", "/dev/full", "fifo", "link"])
def test_devices_fifos_and_links_are_refused_at_once(tmp_path: Path, option: str, target: str) -> None:
    victim = tmp_path / "victim.pgn"
    victim.write_text("")
    if target == "fifo":
        os.mkfifo(tmp_path / "fifo")
    elif target == "link":
        (tmp_path / "link").symlink_to(victim)
    path = target if target.startswith("/") else str(tmp_path / target)
    begin = time.monotonic()
    result = invoke("run", str(config(tmp_path)), "--out", str(tmp_path / "out"), "-q", option, path)
    assert result.exit_code == 1 and time.monotonic() - begin < 20, result.output
    assert any(word in result.output for word in ("device", "FIFO", "symbolic link")), result.output
    assert victim.read_text() == "" and not (tmp_path / "out").exists()


@pytest.mark.parametrize("option", ["--pgn-out", "--jsonl-out"])
@pytest.mark.parametrize("name", ["tournament.db-wal", "run.lock"])
def test_a_file_of_the_results_store_is_never_a_live_file(tmp_path: Path, option: str, name: str) -> None:
    out = tmp_path / "out"
    assert invoke("run", str(config(tmp_path, games=2)), "--out", str(out), "-q").exit_code == 0
    target = out / name
    target.touch()  # empty between runs: its content alone would pass it as a new file
    result = invoke("run", str(config(tmp_path, games=4)), "--out", str(out), "-q", option, str(target))
    assert result.exit_code == 1 and "is named like a file of a results store; expected another name" in \
        result.output, result.output
    assert target.read_bytes() == b"" and len(load_records(out)) == 2


def test_two_tournaments_share_one_live_file(tmp_path: Path) -> None:
    pgn, jsonl = tmp_path / "all.pgn", tmp_path / "all.jsonl"
    for name in ("one", "two"):
        result = invoke("run", str(config(tmp_path, name)), "--out", str(tmp_path / name), "-q",
                        "--pgn-out", str(pgn), "--jsonl-out", str(jsonl))
        assert result.exit_code == 0, result.output
    events = re.findall(r'\[Event "(\w+)"\]\n(?:.*\n)*?\[GameId "(\d+)"\]', pgn.read_text())
    expected = [(name, str(i)) for name in ("one", "two") for i in range(1, 5)]
    assert events == expected
    assert len(jsonl.read_text().splitlines()) == 8
    again = invoke("run", str(config(tmp_path, "one")), "--out", str(tmp_path / "one"), "-q", "--pgn-out", str(pgn))
    assert again.exit_code == 0 and len(re.findall(r"\[GameId", pgn.read_text())) == 8  # nothing doubled


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A stored tournament of six games with non-ASCII names (a cut may fall inside a character)."""
    tmp_path = tmp_path_factory.mktemp("stored")
    out = tmp_path / "out"
    assert invoke("run", str(config(tmp_path, games=6, seed=11)), "--out", str(out), "-q").exit_code == 0
    return out, load_info(out).config_hash


@pytest.mark.parametrize("fmt", [ExportFormat.PGN, ExportFormat.JSONL])
def test_a_file_cut_at_every_byte_of_its_last_two_games_is_resumed_exactly(
        tmp_path: Path, stored: tuple[Path, str], fmt: ExportFormat) -> None:
    out, digest = stored
    full_path = tmp_path / f"full.{fmt.value}"
    open_feed(full_path, fmt, out, digest).close()
    full = full_path.read_bytes()
    assert len(load_records(out)) == 6
    separator = b"\n\n[Event" if fmt is ExportFormat.PGN else b"\n{"
    starts = [m.start() + (2 if fmt is ExportFormat.PGN else 1) for m in re.finditer(re.escape(separator), full)]
    begin = starts[-2]  # the second last game starts here
    assert full[begin:].count(b"GameId" if fmt is ExportFormat.PGN else b'"id"') == 2
    cut = tmp_path / f"cut.{fmt.value}"
    for offset in range(begin, len(full) + 1):
        cut.write_bytes(full[:offset])
        open_feed(cut, fmt, out, digest).close()
        assert cut.read_bytes() == full, offset


def test_a_cut_entry_is_never_kept_as_a_game_without_moves(tmp_path: Path, stored: tuple[Path, str]) -> None:
    out, digest = stored
    full_path = tmp_path / "full.pgn"
    open_feed(full_path, ExportFormat.PGN, out, digest).close()
    text = full_path.read_text(encoding="utf-8")
    tags_end = text.rfind("\n\n", 0, len(text) - 2) + 2  # just after the last game's tags
    broken = tmp_path / "broken.pgn"
    broken.write_text(text[:tags_end] + "\n", encoding="utf-8")  # tags and a blank line: no moves at all
    with pytest.raises(ReportError, match="not a PGN game written by ytourney"):
        open_feed(broken, ExportFormat.PGN, out, digest)
    broken.write_text(text[:tags_end], encoding="utf-8")  # cut right after the tags: dropped and rewritten
    open_feed(broken, ExportFormat.PGN, out, digest).close()
    assert broken.read_text(encoding="utf-8") == text
