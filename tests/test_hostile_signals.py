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


def start_long_match(tmp_path: Path, games: int = 4) -> tuple[subprocess.Popen[str], list[str]]:
    # games played out to the connection (no resign adjudication) at 20,000 playouts a move: about 2 s each here,
    # so the signal always lands mid-run, even on a faster machine
    args = ["match", "a=mcts:playouts=20000", "b=mcts:playouts=20000", "--board", "tri:9", "--games-per-pair",
            str(games), "--resign", "off", "--workers", "2", "--out", str(tmp_path / "out")]
    process = ytourney(*args, cwd=tmp_path)
    deadline = time.monotonic() + 60
    while not (tmp_path / "out" / "tournament.db").is_file() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)
    assert process.poll() is None
    return process, args


@pytest.mark.parametrize("second", [None, 0.1, 0.3])
def test_ctrl_c_then_sigterm_says_what_ctrl_c_alone_says_and_resume_is_exact(tmp_path: Path,
                                                                             second: float | None) -> None:
    process, args = start_long_match(tmp_path)
    process.send_signal(signal.SIGINT)
    if second is not None:
        time.sleep(second)
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "ytourney: interrupted by SIGINT:" in stderr and "to continue, run the same command again" in stderr
    before = stored(tmp_path / "out")
    rerun = ytourney(*args, "--resume", cwd=tmp_path)
    _, stderr = rerun.communicate(timeout=300)
    assert rerun.returncode == 0, stderr
    assert stored(tmp_path / "out") == [1, 2, 3, 4] and set(before) <= {1, 2, 3, 4}


def test_a_sigterm_from_outside_still_stops_the_run(tmp_path: Path) -> None:
    process, _ = start_long_match(tmp_path, games=8)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 143, stderr
    assert "ytourney: interrupted by SIGTERM:" in stderr
