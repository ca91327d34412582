#!/usr/bin/env python3
"""A scriptable fake GTP engine for tests: plays the first empty cell, or misbehaves in one chosen way.

Faults (`--fault NAME`, triggered on the `--after`-th genmove; `--once FILE` faults only while FILE does not exist,
then creates it, so a restarted engine behaves):
  die-at-start   exit with code 3 before reading anything (stderr: "fatal: cannot load weights")
  die            exit with code 1 instead of answering genmove (stderr says why)
  hang           never answer genmove
  hang-hard      never answer genmove and ignore SIGTERM (only SIGKILL ends it)
  slow           answer genmove after --delay seconds
  garbage        answer genmove with a line that is not GTP
  not-a-cell     answer genmove with "= hello world"
  off-board      answer genmove with a cell outside the board
  occupied       answer genmove with the first occupied cell
  unsolicited    answer genmove twice (the second answer comes unasked)
  double-late    answer genmove twice, the second answer --delay seconds later (read as the next command's)
  double-play    answer every play twice, the second answer --delay seconds later
  bad-swap       answer genmove with "swap" where no swap is possible
  refuse-genmove answer genmove with "? not now"
  refuse-play    answer play with "? illegal move"
  resign         answer genmove with "resign"
  pass           answer genmove with "pass"
  empty          answer genmove with an empty "=" (no move)
  binary         answer genmove with NUL and other bytes that are no text
  no-blank       answer genmove without the empty line that ends a response
  wrong-color    answer genmove with a colour and a cell ("= white c1"), not a bare cell
Other options: --swap (answer "swap" to a genmove that can take the pie), --log FILE (append every command),
--spawn-child FILE (start a sleeping child in our process group and write its pid to FILE), --time-commands (know
time_settings/time_left), --strict-colors (refuse play/genmove for a colour that is not to move, as engines that
track turns do; stones alternate b, w, b, ... and a swap changes nothing).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fault", default="none")
    parser.add_argument("--after", type=int, default=1)
    parser.add_argument("--once")
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--swap", action="store_true")
    parser.add_argument("--log")
    parser.add_argument("--spawn-child")
    parser.add_argument("--time-commands", action="store_true")
    parser.add_argument("--strict-colors", action="store_true")
    options = parser.parse_args()

    fault = options.fault
    if options.once:
        if os.path.exists(options.once):
            fault = "none"
        elif fault != "none":
            with open(options.once, "w", encoding="utf-8") as marker:
                marker.write("faulted\n")
    if fault == "die-at-start":
        sys.stderr.write("fatal: cannot load weights\n")
        return 3
    if fault == "hang-hard":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if options.spawn_child:
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        with open(options.spawn_child, "w", encoding="utf-8") as handle:
            handle.write(str(child.pid))

    size = 11
    stones: list[str] = []
    genmoves = 0
    known = {"protocol_version", "name", "version", "known_command", "list_commands", "quit", "boardsize",
             "clear_board", "play", "genmove"}
    if options.time_commands:
        known |= {"time_settings", "time_left"}

    def reply(text: str = "", ok: bool = True, end: str = "\n\n") -> None:
        sys.stdout.write(("=" if ok else "?") + (" " + text if text else "") + end)
        sys.stdout.flush()

    for line in sys.stdin:
        if options.log:
            with open(options.log, "a", encoding="utf-8") as log:
                log.write(line)
        words = line.split()
        if not words:
            continue
        command, args = words[0], words[1:]
        if command == "quit":
            reply()
            return 0
        if command == "name":
            reply("fake")
        elif command == "version":
            reply("1.0")
        elif command == "protocol_version":
            reply("2")
        elif command == "known_command":
            reply("true" if args and args[0] in known else "false")
        elif command == "list_commands":
            reply("\n".join(sorted(known)))
        elif command == "boardsize":
            size = int(args[0])
            stones.clear()
            reply()
        elif command == "clear_board":
            stones.clear()
            reply()
        elif command in ("play", "genmove") and options.strict_colors and args[0][0] != "bw"[len(stones) % 2]:
            reply(f"wrong colour: {'black' if len(stones) % 2 == 0 else 'white'} is to move", ok=False)
        elif command == "play":
            if fault == "refuse-play":
                reply("illegal move", ok=False)
                continue
            if args[1].lower() != "swap":
                stones.append(args[1].lower())
            reply()
            if fault == "double-play":
                time.sleep(options.delay)
                reply()
        elif command == "genmove":
            genmoves += 1
            active = fault if genmoves >= options.after else "none"
            if active != "none" and options.once:
                fault = "none"  # faulted once: behave from now on, in this process and in the next
            if active == "die":
                sys.stderr.write("segmentation fault (pretend)\n")
                sys.stderr.flush()
                return 1
            if active in ("hang", "hang-hard"):
                time.sleep(3600)
            if active == "slow":
                time.sleep(options.delay)
            if options.swap and len(stones) == 1 and active == "none":
                reply("swap")
                continue
            empty = [f"{chr(97 + x)}{y + 1}" for y in range(size) for x in range(size - y)]
            move = next(cell for cell in empty if cell not in stones)
            answers = {
                "garbage": "I am thinking...\n\n",
                "not-a-cell": "= hello world\n\n",
                "off-board": f"= {chr(97 + size)}{size + 1}\n\n",
                "occupied": f"= {stones[0] if stones else move}\n\n",
                "unsolicited": f"= {move}\n\n= {move}\n\n",
                "bad-swap": "= swap\n\n",
                "refuse-genmove": "? not now\n\n",
                "resign": "= resign\n\n",
                "pass": "= pass\n\n",
                "empty": "=\n\n",
                "binary": "= \x00\x01\xff\xfe\n\n",
                "no-blank": f"= {move}\n",
                "wrong-color": f"= white {move}\n\n",
            }
            if active in answers:
                sys.stdout.write(answers[active])
                sys.stdout.flush()
                if active == "unsolicited":
                    stones.append(move)
                continue
            if active == "double-late":
                stones.append(move)
                reply(move)
                time.sleep(options.delay)
                reply(move)
                continue
            stones.append(move)
            reply(move)
        elif command in known or command == "set":
            reply()
        else:
            reply("unknown command", ok=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
