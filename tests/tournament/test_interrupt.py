"""Ctrl-C and SIGTERM during a run: the games in progress are dropped at once, the run ends with RunInterrupted."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gated_run import GATED, Gate
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
    # both games are in progress by construction, one held at the gate (this test opens it only after the run),
    # the other in a search of 10^8 playouts (games of mcts at 1 s a move once stood in for that: its search
    # stops early when its choice is settled, and resign adjudication ends such games, so on a fast machine they
    # could end before the signal); only abandoning them ends the run in time
    gate = Gate(tmp_path / "gate")
    config = tmp_path / "long.yaml"
    config.write_text("name: long\nboard: tri:9\nseed: 3\nworkers: 2\nschedule: {games_per_pair: 2}\n"
                      f"players: [{{name: a, bot: '{GATED}'}}, {{name: b, bot: 'mcts:playouts=100000000'}}]\n")
    out = tmp_path / "out"
    process = subprocess.Popen([sys.executable, "-m", "ytourney", "run", str(config), "--out", str(out), "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                               env=gate.env())
    try:
        gate.wait_held(process)  # a game each went to both workers at once: neither can end by itself
        process.send_signal(signal.SIGINT)
        begin = time.monotonic()
        _, stderr = process.communicate(timeout=60)
        seconds = time.monotonic() - begin
    finally:
        gate.release(process)
    assert process.returncode == 130, stderr
    assert "interrupted by SIGINT: 0 of 2 games" in stderr and "Traceback" not in stderr
    assert seconds < ABANDON_SECONDS + 3.0 < STOP_SECONDS, seconds
