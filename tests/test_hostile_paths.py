"""Hostile paths and links: every file ytourney writes refuses a planted link, and odd characters in paths work.

Classes covered (issue 24): writes through symbolic links (match.yaml, import's config.yaml, gtp-logs/ and its
transcripts, export --out), FIFOs and devices at an output path or an SGF input (which may also be UTF-16 or
carry a BOM), SQLite URIs of paths holding '#', '?' and every other printable character, refusals that write
nothing (a failed import into an empty folder, `match --out` into another tournament's folder).
"""

from __future__ import annotations

import os
import string
import sys
import time
from pathlib import Path

import pytest

from ytourney.errors import ReportError, StoreError
from ytourney.safe_files import open_file, read_file, write_file
from ytourney.tournament.store import load_records
from cli_run import invoke

pytestmark = pytest.mark.usefixtures("memory_cap")  # tests/conftest.py: a regression fails, the machine lives

FAKE = Path(__file__).resolve().parent / "fake_engines" / "fake_gtp.py"
CONFIG = ("name: {name}\nboard: tri:5\nseed: 3\nworkers: 1\nschedule: {{games_per_pair: 2}}\n"
          "players: [{{name: a, bot: random}}, {{name: b, bot: random}}]\n")


def config(tmp_path: Path, name: str = "cup") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(CONFIG.format(name=name))
    return path


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A user file that a planted link points to: it must never change."""
    path = tmp_path / "precious.txt"
    path.write_text("keep me\n")
    return path


# --- the helper ------------------------------------------------------------------------------------------------


def test_the_helper_refuses_links_below_the_root_and_non_regular_files(tmp_path: Path, victim: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "link").symlink_to(victim)
    (root / "dir-link").symlink_to(tmp_path)
    os.mkfifo(root / "fifo")
    for path, message in ((root / "link", "is a symbolic link"), (root / "dir-link" / "x", "is a symbolic link"),
                          (root / "fifo", "is a FIFO")):
        for mode in ("w", "a", "x"):
            with pytest.raises(StoreError, match=message if mode != "x" or "link" in message else "FIFO|exists"):
                write_file(path, "x", mode, root=root, error=StoreError)
    with pytest.raises(ReportError, match="is a FIFO"):
        read_file(root / "fifo", 100, error=ReportError)  # refused at once: opened without blocking
    with pytest.raises(ReportError, match="character device"):
        read_file("/dev/zero", 100, error=ReportError)
    with pytest.raises(ReportError, match="expected at most 4"):
        write_file(root / "big", "12345", root=root, error=ReportError)
        read_file(root / "big", 4, error=ReportError)
    assert victim.read_text() == "keep me\n" and not (tmp_path / "x").exists()
    assert read_file(root / "missing", 10, error=StoreError) is None
    write_file(root / "a" / "b" / "new.txt", "new", root=root, error=StoreError)
    assert (root / "a" / "b" / "new.txt").read_text() == "new"
    with pytest.raises(StoreError, match="exists already"):
        write_file(root / "a" / "b" / "new.txt", "again", "x", root=root, error=StoreError)
    os.close(open_file(root / "a" / "b" / "new.txt", "w", root=root, error=StoreError))
    assert (root / "a" / "b" / "new.txt").read_text() == ""


# --- match.yaml ------------------------------------------------------------------------------------------------


def test_match_refuses_a_link_at_match_yaml(tmp_path: Path, victim: Path) -> None:
    out = tmp_path / "m"
    out.mkdir()
    (out / "match.yaml").symlink_to(victim)
    result = invoke("match", "random", "heuristic", "--board", "tri:4", "--out", str(out), "-q")
    assert result.exit_code == 1 and "is a symbolic link" in result.output, result.output
    assert victim.read_text() == "keep me\n" and not (out / "tournament.db").exists()


def test_match_into_another_tournaments_folder_writes_nothing_there(tmp_path: Path) -> None:
    out = tmp_path / "other"
    assert invoke("run", str(config(tmp_path)), "--out", str(out), "-q").exit_code == 0
    before = sorted(os.listdir(out))
    result = invoke("match", "random", "heuristic", "--board", "tri:4", "--out", str(out), "-q")
    assert result.exit_code == 1 and "with a different config" in result.output, result.output
    assert sorted(os.listdir(out)) == before and not (out / "match.yaml").exists()
    assert len(load_records(out)) == 2


# --- import ----------------------------------------------------------------------------------------------------


@pytest.fixture
def sgf(tmp_path: Path) -> Path:
    """Two games of a finished tournament exported as SGF files."""
    out = tmp_path / "played"
    assert invoke("run", str(config(tmp_path)), "--out", str(out), "-q").exit_code == 0
    folder = tmp_path / "sgf"
    assert invoke("export", str(out), "--format", "sgf", "--out", str(folder)).exit_code == 0
    return folder


def test_import_refuses_a_link_at_config_yaml_and_writes_nothing(tmp_path: Path, sgf: Path, victim: Path) -> None:
    out = tmp_path / "imported"
    out.mkdir()
    (out / "config.yaml").symlink_to(victim)
    result = invoke("import", str(sgf), "--out", str(out))
    assert result.exit_code == 1 and "config.yaml" in result.output, result.output
    assert sorted(os.listdir(out)) == ["config.yaml"] and victim.read_text() == "keep me\n"


def test_a_failed_import_into_an_empty_folder_leaves_it_empty(tmp_path: Path, sgf: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import ytourney.publish.imports as imports

    def refuse(*args: object, **kwargs: object) -> None:
        raise StoreError("disk full (simulated)")

    out = tmp_path / "empty"
    out.mkdir()
    monkeypatch.setattr(imports, "write_file", refuse)
    result = invoke("import", str(sgf), "--out", str(out))
    assert result.exit_code == 1 and "disk full (simulated)" in result.output
    assert os.listdir(out) == []
    monkeypatch.undo()
    assert invoke("import", str(sgf), "--out", str(out)).exit_code == 0
    assert sorted(os.listdir(out))[:1] == ["config.yaml"] and len(load_records(out)) == 2


# --- GTP transcripts -------------------------------------------------------------------------------------------


def engine_config(tmp_path: Path, log: str = "") -> Path:
    path = tmp_path / "engine.yaml"
    path.write_text("name: eng\nboard: tri:5\nseed: 3\nworkers: 1\ntime: {move_seconds: 2.0}\n"
                    "schedule: {games_per_pair: 2}\n"
                    f"players: [{{name: rnd, bot: random}}, {{name: fake, gtp: {{command: ['{sys.executable}', "
                    f"'{FAKE}']{log}}}}}]\n")
    return path


def test_a_link_at_the_results_gtp_logs_folder_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "gtp-logs").symlink_to(elsewhere)
    result = invoke("run", str(engine_config(tmp_path, ", log: true")), "--out", str(out), "-q")
    assert result.exit_code == 1 and "gtp-logs" in result.output and "symbolic link" in result.output, result.output
    assert os.listdir(elsewhere) == []


def test_a_link_at_a_transcript_file_is_never_written_through(tmp_path: Path, victim: Path) -> None:
    logs = tmp_path / "logs"
    (logs / "fake").mkdir(parents=True)
    (logs / "fake" / "game-00001-second.log").symlink_to(victim)
    out = tmp_path / "out"
    result = invoke("run", str(engine_config(tmp_path)), "--out", str(out), "--gtp-log", str(logs), "-q")
    assert result.exit_code == 0, result.output
    assert victim.read_text() == "keep me\n"
    assert (logs / "fake" / "game-00002-first.log").read_text().startswith("# GTP transcript")
    assert len(load_records(out)) == 2  # the game whose transcript was refused is played all the same


# --- export --out ----------------------------------------------------------------------------------------------


def test_export_refuses_a_link_a_fifo_and_a_linked_game_file(tmp_path: Path, victim: Path) -> None:
    out = tmp_path / "played"
    assert invoke("run", str(config(tmp_path)), "--out", str(out), "-q").exit_code == 0
    (tmp_path / "games.pgn").symlink_to(victim)
    result = invoke("export", str(out), "--format", "pgn", "--out", str(tmp_path / "games.pgn"))
    assert result.exit_code == 1 and "is a symbolic link" in result.output
    os.mkfifo(tmp_path / "fifo.jsonl")
    begin = time.monotonic()
    result = invoke("export", str(out), "--format", "jsonl", "--out", str(tmp_path / "fifo.jsonl"))
    assert result.exit_code == 1 and "FIFO" in result.output and time.monotonic() - begin < 10
    folder = tmp_path / "sgf"
    assert invoke("export", str(out), "--format", "sgf", "--out", str(folder)).exit_code == 0
    first = sorted(folder.iterdir())[0]
    first.unlink()
    first.symlink_to(victim)
    result = invoke("export", str(out), "--format", "sgf", "--out", str(folder))
    assert result.exit_code == 1 and "is a symbolic link" in result.output
    assert victim.read_text() == "keep me\n"


# --- every printable character in a path -------------------------------------------------------------------


def test_a_results_path_with_every_printable_character_works(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    monkeypatch.chdir(tmp_path)
    odd = "".join(c for c in string.printable if c not in "/\t\n\r\x0b\x0c")
    assert "#" in odd and "?" in odd and "%" in odd
    out = tmp_path / odd / "r?#%20x"
    assert invoke("run", str(config(tmp_path)), "--out", str(out), "-q").exit_code == 0
    for command in (["ratings", str(out), "--format", "json"], ["crosstable", str(out)], ["handicap", str(out)],
                    ["export", str(out)], ["publish", str(out), "--out", str(tmp_path / "site")]):
        result = invoke(*command)
        assert result.exit_code == 0, (command, result.output)
    assert '"games": 2' in invoke("ratings", str(out), "--format", "json").output
    assert len(invoke("export", str(out)).output.splitlines()) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([odd, "cup.yaml", "site"])  # no stray file


def test_import_reads_utf16_and_a_bom_and_names_a_fifo(tmp_path: Path, sgf: Path) -> None:
    first, second = sorted(sgf.iterdir())
    first.write_bytes(first.read_text(encoding="utf-8").encode("utf-16"))
    second.write_bytes(b"\xef\xbb\xbf" + second.read_bytes())
    assert invoke("import", str(sgf), "--out", str(tmp_path / "imported")).exit_code == 0
    assert len(load_records(tmp_path / "imported")) == 2
    os.mkfifo(tmp_path / "pipe.sgf")
    result = invoke("import", str(tmp_path / "pipe.sgf"), "--out", str(tmp_path / "other"))
    assert result.exit_code == 1 and "is a FIFO" in result.output and not (tmp_path / "other").exists()
