"""Ctrl-C and SIGTERM during a run: the games in progress are dropped at once, the run ends with RunInterrupted."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from list_executor import ListExecutor, write_cup_config

from ytourney.errors import RunInterrupted
from ytourney.tournament.config import load_config
from ytourney.tournament.executor import ABANDON_SECONDS, STOP_SECONDS, GameOutcome
from ytourney.tournament.run import Runner
from ytourney.tournament.store import stored_count


class Busy(ListExecutor):
    """An executor whose games never finish; it sends this process SIGINT while a game is in progress, and again
    while it is being shut down when asked to."""

    capacity = 2

    def __init__(self, signal_in_shutdown: bool) -> None:
        super().__init__()
        self.signal_in_shutdown = signal_in_shutdown
        self.shutdowns: list[bool] = []

    def results(self, timeout: float) -> list[GameOutcome]:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)  # the handler runs here
        return []

    def shutdown(self, abandon: bool = False) -> None:
        self.shutdowns.append(abandon)
        if self.signal_in_shutdown:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.01)
        super().shutdown(abandon)


@pytest.mark.parametrize("signal_in_shutdown", [False, True])
def test_ctrl_c_abandons_the_games_in_progress_and_a_second_one_is_only_noted(
        tmp_path: Path, signal_in_shutdown: bool) -> None:
    executor = Busy(signal_in_shutdown)
    runner = Runner(load_config(write_cup_config(tmp_path)), tmp_path / "out", workers=1,
                    executor_factory=lambda context, workers: executor)
    try:
        with pytest.raises(RunInterrupted, match="interrupted by SIGINT: 0 of 2 games") as caught:
            runner.run()
    except KeyboardInterrupt:  # pragma: no cover - the defect this guards against
        pytest.fail("a Ctrl-C during the shutdown escaped the run as KeyboardInterrupt")
    assert caught.value.signal_number == signal.SIGINT
    assert executor.shutdowns == [True]  # dropped at once, not waited for as at the end of a run
    assert stored_count(tmp_path / "out") == 0


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_ends_a_run_of_long_games_without_waiting_for_them(tmp_path: Path) -> None:
    config = tmp_path / "long.yaml"
    config.write_text("name: long\nboard: tri:9\nseed: 3\nworkers: 2\ntime: {move_seconds: 1.0}\n"
                      "schedule: {games_per_pair: 2}\nplayers: [{name: a, bot: mcts}, {name: b, bot: mcts}]\n")
    out = tmp_path / "out"
    process = subprocess.Popen([sys.executable, "-m", "ytourney", "run", str(config), "--out", str(out), "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        while not (out / "tournament.db").is_file() and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        time.sleep(2.0)  # both workers are in a game of at least 17 moves of 1 s
        assert process.poll() is None
        process.send_signal(signal.SIGINT)
        begin = time.monotonic()
        _, stderr = process.communicate(timeout=60)
        seconds = time.monotonic() - begin
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, stderr
    assert "interrupted by SIGINT: 0 of 2 games" in stderr and "Traceback" not in stderr
    assert seconds < ABANDON_SECONDS + 3.0 < STOP_SECONDS, seconds
