"""Tests of `ytourney run` and `ytourney validate`: full runs, kill -9 and resume, Ctrl-C, locking, messages."""

from __future__ import annotations

import collections
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from gated_run import GATED, Gate

from ytourney.cli import main
from ytourney.tournament.store import load_records, stored_count

REPO = Path(__file__).resolve().parent.parent
FAKE = REPO / "tests" / "fake_engines" / "fake_gtp.py"


def write_config(tmp_path: Path, games: int = 4, board: str = "tri:7", extra: str = "", name: str = "cup",
                 players: str = "[{name: a, bot: random}, {name: b, bot: random}, {name: c, bot: random}]") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\nboard: {board}\nseed: 3\nschedule: {{games_per_pair: {games}}}\n{extra}"
                    f"players: {players}\n")
    return path


HELD = f"[{{name: a, bot: random}}, {{name: b, bot: random}}, {{name: c, bot: '{GATED}'}}]"
"""Three players, c held mid-game at the gate once past its free moves: such a run cannot end by itself."""


def start_run(config: Path, out: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "ytourney", "run", str(config), "--out", str(out), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=config.parent, env=env)


def wait_for_games(out: Path, process: subprocess.Popen, minimum: int = 1, timeout: float = 60.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"run ended early: {process.returncode} {process.stderr.read()}")
        if (out / "tournament.db").is_file():
            try:
                count = stored_count(out)
            except Exception:  # noqa: BLE001 - the store may be mid-creation
                count = 0
            if count >= minimum:
                return count
        time.sleep(0.02)
    pytest.fail("no game was stored in time")


def check_complete(out: Path, planned: int) -> None:
    with sqlite3.connect(out / "tournament.db") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        ids = [row[0] for row in conn.execute("SELECT id FROM games ORDER BY id")]
        assert conn.execute("SELECT COUNT(*) FROM moves").fetchone()[0] == planned
    assert ids == list(range(1, planned + 1))


def test_full_tournament_through_the_cli(tmp_path: Path) -> None:
    config = write_config(tmp_path, games=4)
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(tmp_path / "out"),
                                                       "--workers", "2"])
    assert result.exit_code == 0, result.stderr
    assert "12 of 12 games stored" in result.stderr
    assert "Ratings" in result.stdout or "rank" in result.stdout
    for name in ("a", "b", "c"):
        assert name in result.stdout
    records = load_records(tmp_path / "out")
    assert len(records) == 12
    first = collections.Counter(r.first for r in records)
    assert first == {"a": 4, "b": 4, "c": 4}
    record = records[0]
    assert record.to_dict()["tournament"] == "cup" and record.board == "tri:7" and record.moves
    assert record.winner_name in (record.black, record.white)
    check_complete(tmp_path / "out", 12)
    again = CliRunner().invoke(main, ["run", str(config), "--out", str(tmp_path / "out")])
    assert again.exit_code == 0
    assert "'cup' in " in again.stderr and "is complete: 12 of 12 games already stored" in again.stderr


def test_results_default_to_results_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = write_config(tmp_path, games=2)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["run", str(config), "--quiet", "--workers", "1"])
    assert result.exit_code == 0 and result.stderr == ""
    assert stored_count(tmp_path / "results" / "cup") == 6


def test_resume_flag_refuses_an_empty_folder(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(tmp_path / "x"), "--resume"])
    assert result.exit_code == 1 and "nothing to resume" in result.stderr


def test_changed_config_is_refused_with_the_differing_keys(tmp_path: Path) -> None:
    out = tmp_path / "out"
    runner = CliRunner()
    assert runner.invoke(main, ["run", str(write_config(tmp_path, games=2)), "--out", str(out), "-q"]).exit_code == 0
    changed = write_config(tmp_path, games=2, board="tri:8")
    result = runner.invoke(main, ["run", str(changed), "--out", str(out)])
    assert result.exit_code == 1
    assert "differs in: board" in result.stderr and "--out" in result.stderr and "Traceback" not in result.stderr


def test_bad_config_is_a_clean_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("name: x\nplayers: [random, randon]\n")
    for command in ("run", "validate"):
        result = CliRunner().invoke(main, [command, str(path)])
        assert result.exit_code == 1 and "players[1].bot: unknown bot 'randon'" in result.stderr
        assert "Traceback" not in result.stderr


def test_validate_prints_a_summary_and_starts_engines(tmp_path: Path) -> None:
    players = (f"[{{name: a, bot: random}}, {{name: e, gtp: {{command: ['{sys.executable}', '{FAKE}']}}}}, "
               "{name: m, bot: 'mcts:playouts=50'}]")
    config = write_config(tmp_path, games=6, players=players)
    result = CliRunner().invoke(main, ["validate", str(config)])
    assert result.exit_code == 0, result.output
    assert "round-robin: 3 pairs x 6 games = 18 games" in result.stdout
    assert "ok, engine started" in result.stdout and result.stdout.rstrip().endswith("ok")
    broken = write_config(tmp_path, name="broken", players="[{name: a, bot: random}, "
                                                           "{name: e, gtp: {command: [no-such-engine-xyz]}}]")
    result = CliRunner().invoke(main, ["validate", str(broken)])
    assert result.exit_code == 1 and "PROBLEM" in result.stdout and "not found on PATH" in result.stdout


def test_validate_without_starting_still_checks_an_engine_against_the_board(tmp_path: Path) -> None:
    engine = f"{{name: e, gtp: {{command: ['{sys.executable}', '{FAKE}'], rows: flipped}}}}"
    config = write_config(tmp_path, board="kadon", players=f"[{{name: a, bot: random}}, {engine}]")
    result = CliRunner().invoke(main, ["validate", str(config), "--no-start"])
    assert result.exit_code == 1 and "PROBLEM" in result.stdout and "cannot play board 'kadon'" in result.stdout
    fine = write_config(tmp_path, name="fine", players=f"[{{name: a, bot: random}}, {engine}]")
    assert CliRunner().invoke(main, ["validate", str(fine), "--no-start"]).exit_code == 0


def test_shipped_gtp_config_validates_from_another_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["validate", str(REPO / "configs" / "gtp.yaml")])
    assert result.exit_code == 0, result.output


def test_kill_minus_nine_then_rerun_completes_exactly(tmp_path: Path) -> None:
    config = write_config(tmp_path, games=1000, board="tri:11", players=HELD)  # 3000 planned games
    out = tmp_path / "out"
    gate = Gate(tmp_path / "gate")
    # c makes at least 9 moves in each of its 2000 games: with 6000 free moves a worker, the run cannot finish
    # before the kill, which lands at a random point while games stream in (or once both workers are held)
    process = start_run(config, out, "--workers", "2", "--quiet", env=gate.env(free_moves=6000))
    try:
        wait_for_games(out, process, minimum=random.randint(1, 100))
        time.sleep(random.random() * 0.2)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    before = stored_count(out)
    assert 0 < before < 3000
    gate.open()
    rerun = subprocess.run([sys.executable, "-m", "ytourney", "run", str(config), "--out", str(out)],
                           capture_output=True, text=True, timeout=300, cwd=tmp_path, check=False, env=gate.env())
    assert rerun.returncode == 0, rerun.stderr
    assert f"{before} of 3000 games already stored" in rerun.stderr
    check_complete(out, 3000)


def test_second_concurrent_run_is_refused(tmp_path: Path) -> None:
    config = write_config(tmp_path, games=2, players=HELD)
    out = tmp_path / "out"
    gate = Gate(tmp_path / "gate")
    process = start_run(config, out, "--workers", "1", "--quiet", env=gate.env())
    try:
        gate.wait_held(process)  # the run is mid-game until the gate opens, however long the second one takes
        second = subprocess.run([sys.executable, "-m", "ytourney", "run", str(config), "--out", str(out)],
                                capture_output=True, text=True, timeout=60, check=False)
        assert second.returncode == 1
        assert f"in use by another run (pid {process.pid})" in second.stderr
    finally:
        gate.release(process)


def test_ctrl_c_exits_130_with_the_resume_hint_and_keeps_the_store(tmp_path: Path) -> None:
    config = write_config(tmp_path, games=4, players=HELD)
    out = tmp_path / "out"
    gate = Gate(tmp_path / "gate")
    # c makes at most 14 moves in a game on tri:7: a worker's first game (a chunk of its own) is played out and
    # stored before c holds that worker in its second
    process = start_run(config, out, "--workers", "2", "--jsonl-out", "live games.jsonl", env=gate.env(14))
    try:
        gate.wait_held(process)
        wait_for_games(out, process)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    finally:
        gate.release(process)
    assert process.returncode == 130, stderr
    assert "interrupted by SIGINT" in stderr and "to continue, run the same command again" in stderr
    assert (f"to continue, run the same command again: ytourney run {config} --workers 2 --out {out} "
            "--jsonl-out 'live games.jsonl' (or add --resume)") in stderr
    assert "Traceback" not in stderr
    stored = stored_count(out)
    assert 0 < stored < 12
    with sqlite3.connect(out / "tournament.db") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    records = load_records(out)
    assert len({r.id for r in records}) == len(records) == stored
    # the lock was released: a new run may open the folder at once
    from ytourney.tournament.config import load_config
    from ytourney.tournament.run import open_store

    open_store(load_config(config), out).close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="parent-death signal is Linux-only")
def test_workers_die_with_a_killed_run(tmp_path: Path) -> None:
    config = write_config(tmp_path, games=2, players=HELD)
    out = tmp_path / "out"
    gate = Gate(tmp_path / "gate")
    process = start_run(config, out, "--workers", "2", "--quiet", env=gate.env())
    try:
        gate.wait_held(process, processes=2)  # both workers mid-game, in plugin code, when the run is killed
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
        assert len(children) >= 2
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    try:  # the held workers die of their parent's death, not by being let go
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() and _alive(int(pid))
                                                  for pid in children):
            time.sleep(0.05)
        assert not any(_alive(int(pid)) for pid in children)
    finally:
        gate.open()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_no_stale_lock_after_kill(tmp_path: Path) -> None:
    config = write_config(tmp_path, games=2, players=HELD)
    out = tmp_path / "out"
    gate = Gate(tmp_path / "gate")
    process = start_run(config, out, "--workers", "1", "--quiet", env=gate.env())
    try:
        gate.wait_held(process)  # killed mid-run, by construction: the lock is still held then
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        gate.open()
    from ytourney.tournament.config import load_config
    from ytourney.tournament.run import open_store

    open_store(load_config(config), out).close()


def test_validate_warns_when_the_results_folder_holds_another_config(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["run", str(write_config(tmp_path, games=2)), "-q"]).exit_code == 0
    grown = runner.invoke(main, ["validate", str(write_config(tmp_path, games=4)), "--no-start"])
    assert grown.exit_code == 0 and "different config" not in grown.stdout  # more games per pair grow the run
    result = runner.invoke(main, ["validate", str(write_config(tmp_path, games=4, board="tri:6")), "--no-start"])
    assert result.exit_code == 0
    assert "(6 of 12 games already stored)" in result.stdout
    assert "holds a run of a different config (differs in: board, schedule.games_per_pair)" in result.stdout


def test_the_resume_hint_repeats_every_option_given() -> None:
    from ytourney.cli.command_line import command_line
    from ytourney.cli.runs import match_command, run

    ctx = run.make_context("run", ["cup.yaml", "--pgn-out", "g.pgn", "--set", "seed=3", "--set", "board=tri:5",
                                   "--backend", "ray", "-q", "--elo", "--rating-interval", "5"])
    assert command_line(ctx) == ("ytourney run cup.yaml --quiet --set seed=3 --set board=tri:5 --pgn-out g.pgn "
                                 "--rating-interval 5 --elo --backend ray")
    ctx = match_command.make_context("match", ["random", "gtp:e=/opt/y --x;rows=flipped", "--no-pie",
                                               "--games-per-pair", "40", "--board", "tri:9"])
    assert command_line(ctx) == ("ytourney match random 'gtp:e=/opt/y --x;rows=flipped' --games-per-pair 40 "
                                 "--board tri:9 --no-pie")
