#!/usr/bin/env python3
"""A fake GTP engine that first leaves a daemon behind the hard way: double fork, setsid, and an exec with an empty
environment (so no mark in its environment and no session of ours), its pid written to argv[1]; then it runs
fake_gtp.py."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

DAEMON = ("import os, sys, time\nopen(sys.argv[1], 'a').write(f'{os.getpid()}\\n')\n"
          "while True:\n    time.sleep(1)\n")


def daemons() -> int:
    """How many daemons have written their pid so far."""
    try:
        with open(sys.argv[1]) as pids:
            return len(pids.read().split())
    except OSError:
        return 0


before = daemons()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for fd in (0, 1, 2):
            os.close(fd)
        os.execve(sys.executable, [sys.executable, "-c", DAEMON, sys.argv[1], "ytourney-test-daemon"], {})
    os._exit(0)
os.wait()
deadline = time.monotonic() + 10
while time.monotonic() < deadline and daemons() <= before:
    time.sleep(0.01)  # the daemon is up (and has written its pid) before the engine answers anything
engine = Path(__file__).with_name("fake_gtp.py")
os.execv(sys.executable, [sys.executable, str(engine)])
