#!/usr/bin/env python3
"""A fake GTP engine that answers every command with an empty success, and genmove with an endless line."""

from __future__ import annotations

import sys


def main() -> int:
    for line in sys.stdin:
        command = line.strip()
        if command.startswith("genmove"):
            chunk = b"x" * 65536
            while True:  # never a newline: the reader must cap what it holds
                sys.stdout.buffer.write(chunk)
        sys.stdout.write("= \n\n")
        sys.stdout.flush()
        if command == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
