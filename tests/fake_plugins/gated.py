"""A fake plugin whose games end only when the test lets them: a run is mid-game, by construction, for as long as
the test needs (to signal or kill it there), however fast or slow the machine is."""

from __future__ import annotations

import os
import time
from pathlib import Path

from ytourney.players import BaseBot

WAIT_SECONDS = 120.0
"""How long a held move waits for the gate before it plays anyway (a test that never opens it still ends)."""

_played = 0  # moves this process has made: its first YTOURNEY_TEST_FREE_MOVES are not held


class Gated(BaseBot):
    """Plays the first empty cell. Past its process's first YTOURNEY_TEST_FREE_MOVES moves (default 0), each move
    makes the file <pid> in the folder YTOURNEY_TEST_HELD (a test sees which worker is held in a game) and waits
    until the file YTOURNEY_TEST_GATE exists."""

    def move(self, state, limit):  # noqa: ANN001, ANN201 - a plugin as users write them
        global _played
        _played += 1
        gate = Path(os.environ["YTOURNEY_TEST_GATE"])
        if _played > int(os.environ.get("YTOURNEY_TEST_FREE_MOVES", "0")) and not gate.exists():
            Path(os.environ["YTOURNEY_TEST_HELD"], str(os.getpid())).touch()
            deadline = time.monotonic() + WAIT_SECONDS
            while not gate.exists() and time.monotonic() < deadline:
                time.sleep(0.02)
        return state.empty_cells()[0]
