"""Runs held mid-game until the test lets them go (the fake plugin `fake_plugins/gated.py`): a signal or a kill
"during the run" lands during the run by construction, not because the games were slow enough on this machine."""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

GATED = f"{Path(__file__).resolve().parent / 'fake_plugins' / 'gated.py'}:Gated"
"""The spec of the held bot."""


@dataclass(frozen=True)
class Gate:
    """The files through which a test holds the Gated bots of its runs and lets them go."""

    folder: Path

    def env(self, free_moves: int = 0) -> dict[str, str]:
        """The environment of a run whose Gated bots are held past their process's first `free_moves` moves."""
        (self.folder / "held").mkdir(parents=True, exist_ok=True)
        return {**os.environ, "YTOURNEY_TEST_GATE": str(self.folder / "open"),
                "YTOURNEY_TEST_HELD": str(self.folder / "held"), "YTOURNEY_TEST_FREE_MOVES": str(free_moves)}

    def held(self) -> int:
        """How many processes have a Gated bot waiting (or that waited) at the gate."""
        return len(list((self.folder / "held").iterdir()))

    def wait_held(self, process: subprocess.Popen, processes: int = 1, timeout: float = 120.0) -> None:
        """Return once `processes` processes of the run are held mid-game; fail if the run ends first."""
        deadline = time.monotonic() + timeout
        while self.held() < processes:
            if process.poll() is not None:
                pytest.fail(f"the run ended ({process.returncode}) before {processes} of its games were held")
            if time.monotonic() > deadline:
                pytest.fail(f"{processes} held games not seen within {timeout:g} s (saw {self.held()})")
            time.sleep(0.02)

    def open(self) -> None:
        """Let every held bot, and every later one, play."""
        (self.folder / "open").touch()

    def release(self, process: subprocess.Popen) -> None:
        """Open the gate and kill the run if it is still going (a test's `finally`: no run outlives its test)."""
        self.open()
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)
