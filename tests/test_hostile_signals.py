"""Players cannot signal the run: a plugin's SIGTERM or SIGINT to its host's parent (the run), from the worker,
from a detached grandchild or to its process group, is ignored and noted, and the run stores every game; a signal
from outside still stops the run, and Ctrl-C then SIGTERM says what Ctrl-C alone says. Each run is a child process:
a gate that failed would end it, never the test session."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gated_run import GATED, Gate

pytestmark = [pytest.mark.usefixtures("memory_cap"),
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sender check needs Linux")]

HOSTILE = Path(__file__).resolve().parent / "fake_plugins" / "hostile.py"


def stored(folder: Path) -> list[int]:
    with sqlite3.connect(folder / "tournament.db") as db:
        return sorted(row[0] for row in db.execute("SELECT id FROM games"))


def ytourney(*args: str, env: dict[str, str] | None = None, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "ytourney", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=cwd, env={**os.environ, **(env or {})})


@pytest.mark.parametrize("how", ["parent", "detached", "group"])
@pytest.mark.parametrize("name", ["TERM", "INT"])
def test_a_plugin_signalling_the_run_is_ignored_and_every_game_is_stored(tmp_path: Path, how: str,
                                                                         name: str) -> None:
    config = tmp_path / "sig.yaml"
    config.write_text("name: sig\nboard: tri:4\nseed: 3\nschedule: {games_per_pair: 4}\n"
                      f"players: [{{name: good, bot: random}}, {{name: bad, bot: '{HOSTILE}:SignalsTheRun'}}]\n")
    env = {"YTOURNEY_TEST_ONCE": str(tmp_path / "sent"), "YTOURNEY_TEST_HOW": how, "YTOURNEY_TEST_SIGNAL": name}
    process = ytourney("run", str(config), "--out", str(tmp_path / "out"), "--workers", "2", env=env, cwd=tmp_path)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr
    assert (tmp_path / "sent").exists()  # the plugin did send it
    assert stored(tmp_path / "out") == [1, 2, 3, 4]
    if how != "group":  # killpg(0) reaches only the worker's own group now: the run never hears of it
        assert f"ignored SIG{name} from process" in stderr and "which a player of this run started" in stderr
    assert "Traceback" not in stderr


def start_held_match(tmp_path: Path, free_moves: int = 0) -> tuple[subprocess.Popen[str], list[str], Gate]:
    """A match whose Gated seat holds each worker in a game once past `free_moves` moves: signalled after that,
    the run is mid-game by construction (its games once ended before a signal sent 1 s in, on a fast machine)."""
    gate = Gate(tmp_path / "gate")
    args = ["match", f"a={GATED}", "b=random", "--board", "tri:5", "--games-per-pair", "4", "--workers", "2",
            "--out", str(tmp_path / "out")]
    process = subprocess.Popen([sys.executable, "-m", "ytourney", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=gate.env(free_moves))
    return process, args, gate


@pytest.mark.parametrize("second", [None, 0.1, 0.3])
def test_ctrl_c_then_sigterm_says_what_ctrl_c_alone_says_and_resume_is_exact(tmp_path: Path,
                                                                             second: float | None) -> None:
    # a Gated bot makes at most 8 moves in a game on tri:5, so a worker is held only in its second game, and its
    # first (a chunk of its own: workers start with one game each) is reported by then
    process, args, gate = start_held_match(tmp_path, free_moves=8)
    try:
        gate.wait_held(process)
        deadline = time.monotonic() + 60
        while not stored(tmp_path / "out") and time.monotonic() < deadline:
            time.sleep(0.02)
        process.send_signal(signal.SIGINT)
        if second is not None:
            time.sleep(second)
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
    finally:
        gate.release(process)
    assert process.returncode == 130, stderr
    assert "ytourney: interrupted by SIGINT:" in stderr and "to continue, run the same command again" in stderr
    before = stored(tmp_path / "out")
    assert before and set(before) < {1, 2, 3, 4}  # the held game was abandoned
    rerun = subprocess.run([sys.executable, "-m", "ytourney", *args, "--resume"], capture_output=True, text=True,
                           cwd=tmp_path, env=gate.env(), timeout=300, check=False)
    assert rerun.returncode == 0, rerun.stderr
    assert stored(tmp_path / "out") == [1, 2, 3, 4]


def test_a_sigterm_from_outside_still_stops_the_run(tmp_path: Path) -> None:
    process, _, gate = start_held_match(tmp_path)
    try:
        gate.wait_held(process)
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
    finally:
        gate.release(process)
    assert process.returncode == 143, stderr
    assert "ytourney: interrupted by SIGTERM:" in stderr
