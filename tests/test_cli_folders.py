"""The CLI at the edges of results folders: one clear line and exit 1 for every broken folder, store or output."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main

CONFIG = "name: {name}\nboard: tri:5\nseed: 3\nschedule: {{games_per_pair: {games}}}\nplayers: [a, b]\n"


def write_config(folder: Path, name: str = "cup", games: int = 2) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(CONFIG.format(name=name, games=games).replace("[a, b]", "[{name: a, bot: random}, "
                                                                            "{name: b, bot: random}]"))
    return path


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.fixture
def results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A finished two-game tournament in results/cup/ under a fresh working folder."""
    monkeypatch.chdir(tmp_path)
    config = write_config(tmp_path)
    code, output = invoke("run", str(config), "-q")
    assert code == 0, output
    return tmp_path / "results" / "cup"


READERS = [
    ["ratings", "results/cup"], ["crosstable", "results/cup"], ["handicap", "results/cup"],
    ["export", "results/cup"], ["publish", "results/cup", "--out", "site"], ["run", "cup.yaml", "-q"],
    ["validate", "cup.yaml", "--no-start"],
]


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_every_reader_refuses_a_store_of_a_newer_ytourney(results: Path, command: list[str]) -> None:
    with sqlite3.connect(results / "tournament.db") as conn:
        conn.execute("PRAGMA user_version=99")
    code, output = invoke(*command)
    assert code == 1
    assert "schema version 99, written by a newer ytourney" in output and "Traceback" not in output


@pytest.mark.parametrize("command", [["run", "cup.yaml", "-q"], ["ratings", "results/cup"]], ids=lambda c: c[0])
def test_a_store_missing_a_column_is_one_clear_line(results: Path, command: list[str]) -> None:
    with sqlite3.connect(results / "tournament.db") as conn:
        conn.execute("ALTER TABLE games DROP COLUMN reason")
    code, output = invoke(*command)
    assert code == 1 and output.startswith("Error: ") and output.count("\n") == 1
    assert "reason" in output and "use --out" in output


def test_a_symlinked_lock_is_refused_by_run(results: Path, tmp_path: Path) -> None:
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    (results / "run.lock").unlink()
    (results / "run.lock").symlink_to(victim)
    code, output = invoke("run", "cup.yaml", "-q")
    assert code == 1 and "is a symbolic link" in output
    assert victim.read_text() == "keep me\n"


@pytest.mark.parametrize("made", ["empty", "half"])
def test_a_run_killed_while_creating_its_store_is_resumed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          made: str) -> None:
    monkeypatch.chdir(tmp_path)
    config = write_config(tmp_path)
    folder = tmp_path / "results" / "cup"
    folder.mkdir(parents=True)
    if made == "empty":
        (folder / "tournament.db").touch()
    else:
        with sqlite3.connect(folder / "tournament.db") as conn:
            conn.execute("PRAGMA journal_mode=WAL")
    assert invoke("validate", str(config), "--no-start")[0] == 0
    code, output = invoke("run", str(config), "-q", "--resume")
    assert code == 1 and "nothing to resume" in output  # no tournament was ever stored there
    code, output = invoke("run", str(config), "-q")
    assert code == 0 and "2 games rated" in output


def test_another_configs_folder_gets_only_the_refusal(results: Path, tmp_path: Path) -> None:
    other = write_config(tmp_path, name="other", games=4)
    code, output = invoke("run", str(other), "--out", "results/cup")
    assert code == 1
    assert "different config" in output and "already stored" not in output and "complete" not in output


def test_stdout_to_a_full_device_is_one_clear_line(results: Path, tmp_path: Path) -> None:
    for command in (["ratings", "results/cup"], ["export", "results/cup"], ["run", "cup.yaml", "-q"]):
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", "ytourney", *command], stdout=full, stderr=subprocess.PIPE,
                                  text=True, cwd=tmp_path)
        assert done.returncode == 1, command
        assert done.stderr == "Error: cannot write output: no space left on device\n", done.stderr


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN"])
def test_play_refuses_a_move_time_that_is_not_finite(value: str) -> None:
    result = CliRunner().invoke(main, ["play", "random", "random", "--board", "tri:4", "--move-seconds", value])
    assert result.exit_code == 1 and "--move-seconds" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("command", ["validate", "run"])
def test_a_huge_plan_is_refused_by_validate_and_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    command: str) -> None:
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "huge.yaml"
    config.write_text("name: huge\nschedule: {games_per_pair: 1000000}\nplayers: ["
                      + ", ".join(f"{{name: p{i}, bot: random}}" for i in range(200)) + "]\n")
    code, output = invoke(command, str(config))
    assert code == 1 and "plan 19,900,000,000 games; expected at most 1,000,000" in output
    assert not (tmp_path / "results").exists()


def test_odd_games_per_pair_is_warned_by_validate_and_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = write_config(tmp_path, games=3)
    for command in (["validate", str(config), "--no-start"], ["run", str(config), "-q"], ["run", str(config)]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 0
        if "-q" in command or command[0] == "run" and "already stored" in result.stderr:
            assert "odd" not in result.stderr  # quiet, or a rerun of a finished tournament: said once already
        else:
            assert "warning: schedule.games_per_pair 3 is odd" in result.stderr and " over " in result.stderr


def mount_tmpfs(folder: Path, options: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
                                           capture_output=True).returncode != 0:
        pytest.skip("needs root allowed to mount a tmpfs")


def test_a_full_disk_says_so_and_the_run_resumes_once_space_is_freed(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    mount_tmpfs(disk, "size=160k")
    try:
        config = write_config(tmp_path, name="full", games=200)
        args = [sys.executable, "-m", "ytourney", "run", str(config), "--out", str(disk / "r"), "-q", "--workers", "1"]
        full = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, timeout=120)
        assert full.returncode == 1 and "Traceback" not in full.stderr
        assert "disk full; free some space and run the same command again" in full.stderr
        assert "cannot rollback" not in full.stderr and full.stderr.count("\n") == 1
        subprocess.run(["mount", "-o", "remount,size=16m", str(disk)], check=True)
        resumed = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, timeout=300)
        assert resumed.returncode == 0, resumed.stderr
        conn = sqlite3.connect(disk / "r" / "tournament.db")
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert [r[0] for r in conn.execute("SELECT id FROM games ORDER BY id")] == list(range(1, 201))
        finally:
            conn.close()
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def test_a_read_only_results_folder_is_one_clear_line(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    if os.geteuid() == 0:
        mount_tmpfs(folder, "size=64k,ro")
    else:
        folder.mkdir()
        folder.chmod(0o555)
    try:
        config = write_config(tmp_path)
        code, output = invoke("run", str(config), "--out", str(folder), "-q")
        assert code == 1 and output.count("\n") == 1
        assert "not writable; use --out to write to a writable folder" in output
    finally:
        if os.geteuid() == 0:
            subprocess.run(["umount", str(folder)], check=False)
        else:
            folder.chmod(0o755)
