"""A GTP transcript: every line to and from one engine, timed, as cutechess's debug output shows it.

A line reads `<ms> <direction><engine>: <text>`: the milliseconds since the transcript began, `>` for a line sent to
the engine and `<` for a line it wrote, then the line (`1250 <engine 'y': = e5`). Lines starting with `#` are notes
(the start, the end of the engine's output, a truncation). A file transcript stops writing after `limit` bytes, so a
flooding engine cannot fill the disk; the last MEMORY_LINES lines are always kept in memory for a fault's report.
"""

from __future__ import annotations

import collections
import time
from pathlib import Path
from typing import Any, TextIO

from ytourney.errors import ConfigError
from ytourney.games.record import utc_now
from ytourney.players.gtp.transport import Transport

TRANSCRIPT_BYTES = 1 << 20
"""Most bytes one transcript file holds (a note marks the cut)."""
LINE_CHARS = 2000
"""Longest line a transcript keeps whole (the rest is cut, with the count of characters left out)."""
MEMORY_LINES = 200
"""Lines kept in memory, the last ones, for a fault's report."""


class Transcript:
    """The timed exchange with one engine, kept in memory (its last lines) and, with a `path`, written to a file."""

    def __init__(self, engine: str, path: str | Path | None = None, limit: int = TRANSCRIPT_BYTES) -> None:
        self.engine = engine
        self.path = Path(path) if path is not None else None
        self.limit = limit
        self._begin = time.monotonic()
        self._written = 0
        self._lines: collections.deque[str] = collections.deque(maxlen=MEMORY_LINES)
        self._file: TextIO | None = None
        if self.path is not None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._file = self.path.open("w", encoding="utf-8", errors="replace")
            except OSError as err:
                raise ConfigError(f"cannot write the GTP transcript {str(self.path)!r}: {err.strerror or err}"
                                  ) from err
        self.note(f"GTP transcript of {engine}, started {utc_now()}")

    def sent(self, line: str) -> None:
        """A line sent to the engine."""
        self._add(f"{self._ms()} >{self.engine}: {_clipped(line)}")

    def received(self, line: str) -> None:
        """A line the engine wrote."""
        self._add(f"{self._ms()} <{self.engine}: {_clipped(line)}")

    def note(self, text: str) -> None:
        """A note of ours, not a line of the exchange."""
        self._add(f"# {text}")

    def tail(self, count: int = MEMORY_LINES) -> list[str]:
        """The last `count` lines."""
        return list(self._lines)[-count:]

    def close(self) -> None:
        """Close the file (the lines in memory stay)."""
        file, self._file = self._file, None
        if file is not None:
            file.close()

    def _ms(self) -> int:
        return int((time.monotonic() - self._begin) * 1000)

    def _add(self, line: str) -> None:
        self._lines.append(line)
        file = self._file
        if file is None:
            return
        size = len(line.encode("utf-8", "replace")) + 1
        try:
            if self._written + size > self.limit:
                file.write(f"# transcript cut: it reached its limit of {self.limit} bytes\n")
                self.close()
                return
            file.write(line + "\n")
            file.flush()
        except OSError:
            self.close()  # a full disk ends the transcript, never the game
            return
        self._written += size


def _clipped(line: str) -> str:
    if len(line) <= LINE_CHARS:
        return line
    return f"{line[:LINE_CHARS]}... ({len(line) - LINE_CHARS} more characters)"


class TranscribedTransport:
    """A transport whose lines also go to the current transcript (none: nothing is written)."""

    def __init__(self, transport: Transport, transcript: Transcript | None = None) -> None:
        self.inner = transport
        self.transcript = transcript

    @property
    def pid(self) -> int | None:
        """The engine's process id."""
        return self.inner.pid

    def send(self, line: str) -> None:
        """Send and transcribe."""
        if self.transcript is not None:
            self.transcript.sent(line)
        self.inner.send(line)

    def receive(self, timeout: float) -> str | None:
        """Receive and transcribe."""
        try:
            line = self.inner.receive(timeout)
        except TimeoutError:
            if self.transcript is not None and timeout > 0:
                self.transcript.note(f"no line within {timeout:.3f}s")
            raise
        if self.transcript is not None:
            if line is None:
                self.transcript.note("end of the engine's output")
            else:
                self.transcript.received(line)
        return line

    def exit_code(self) -> int | None:
        """Forwarded."""
        return self.inner.exit_code()

    def stderr_tail(self) -> list[str]:
        """Forwarded."""
        return self.inner.stderr_tail()

    def close(self, wait: float) -> None:
        """Forwarded."""
        self.inner.close(wait)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
