"""A fake plugin that starts processes and leaves them: a detached daemon (double fork, setsid, an exec with an
empty environment), a plain subprocess, and a child that exits at once and is never waited for. Their pids go to
the file named by YTOURNEY_TEST_PIDS."""

from __future__ import annotations

import os
import subprocess
import sys

from ytourney.players import BaseBot

DAEMON = ("import os, sys, time\nopen(sys.argv[1], 'a').write(f'{os.getpid()}\\n')\n"
          "while True:\n    time.sleep(1)\n")


class Forking(BaseBot):
    """Plays the first empty cell; every new game leaves three processes behind."""

    name = "forking"

    def new_game(self, board, rules, color):  # noqa: ANN001, ANN201 - a plugin as users write them
        super().new_game(board, rules, color)
        pids = os.environ["YTOURNEY_TEST_PIDS"]
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execve(sys.executable, [sys.executable, "-c", DAEMON, pids, "ytourney-test-daemon"], {})
            os._exit(0)
        child = subprocess.Popen([sys.executable, "-c", DAEMON, pids, "ytourney-test-daemon"])
        with open(pids, "a") as out:
            out.write(f"{child.pid}\n")
        quick = os.fork()
        if quick == 0:
            os._exit(0)
        with open(pids, "a") as out:
            out.write(f"{quick}\n")

    def move(self, state, limit):  # noqa: ANN001, ANN201
        return state.empty_cells()[0]
