#!/usr/bin/env python3
"""A fake GTP engine that first leaves a daemon behind (double fork + setsid, pid written to argv[1]), then runs
fake_gtp.py: a process group alone cannot end that daemon."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        with open(sys.argv[1], "a") as out:
            out.write(f"{os.getpid()}\n")
        for fd in (0, 1, 2):
            os.close(fd)
        while True:
            time.sleep(1)
    os._exit(0)
os.wait()
engine = Path(__file__).with_name("fake_gtp.py")
os.execv(sys.executable, [sys.executable, str(engine)])
