"""Where GTP lines go and come from: an engine subprocess in its own session, every read bounded by a deadline."""

from __future__ import annotations

import collections
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Protocol

from ytourney.errors import (
    EngineCrashError,
    EngineProtocolError,
)
from ytourney.players.gtp.reaper import (
    become_subreaper,
    engine_ended,
    engine_environment,
    engine_started,
    mark_descendants,
)
from ytourney.players.gtp.settings import GtpSettings
from ytourney.players.untrusted import limit_engine

# --- transports: where GTP lines go and come from ----------------------------------------------------------------

STDERR_LINES = 20
TERM_SECONDS = 0.5  # between SIGTERM and SIGKILL when ending an engine's process group
_LINE_LIMIT = 1 << 16
ANSWER_BYTES = 1 << 20
"""Most bytes of engine output read and not yet consumed: past it (one answer that long, a line without end, a flood)
the engine commits a protocol fault."""
_OVERFLOW = "\0overflow"  # queued once output passes ANSWER_BYTES


class Transport(Protocol):
    """A line channel to one engine; `receive` never waits past its timeout."""

    pid: int | None

    def send(self, line: str) -> None:
        """Write one command line; raise EngineCrashError when the engine can no longer read."""

    def receive(self, timeout: float) -> str | None:
        """The next output line without its newline, None at end of output; TimeoutError after `timeout` seconds."""

    def exit_code(self) -> int | None:
        """The engine's exit status once it has ended (negative: killed by that signal), else None."""

    def stderr_tail(self) -> list[str]:
        """The last lines the engine wrote to stderr."""

    def close(self, wait: float) -> None:
        """End the engine: give it `wait` seconds to exit after end of input, then terminate, then kill."""


def _prepare_engine() -> None:
    """Run in the new engine process before exec: mark it for containment and cap its memory."""
    mark_descendants()
    limit_engine()


STDERR_SETTLE_SECONDS = 0.25
"""How long the stderr tail of an engine that has exited waits for its last lines (a daemon it left holding the
pipe open costs no more than this)."""


class ProcessTransport:
    """An engine subprocess in its own session; reader threads feed queues so no read blocks without a deadline."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self._process = process
        self.pid: int | None = process.pid
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._reaped: int | None = None
        self._unread = 0  # bytes queued and not yet received
        self._unread_lock = threading.Lock()
        self._threads = [
            threading.Thread(target=self._read_stdout, name=f"gtp-stdout-{process.pid}", daemon=True),
            threading.Thread(target=self._read_stderr, name=f"gtp-stderr-{process.pid}", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    @classmethod
    def start(cls, settings: GtpSettings) -> ProcessTransport:
        """Start the engine from its argv (no shell) in a new session; EngineCrashError if it cannot start."""
        become_subreaper()
        try:
            process = subprocess.Popen(
                list(settings.command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=settings.cwd,
                env=engine_environment(settings.environment),
                start_new_session=True,
                preexec_fn=_prepare_engine,  # a mark no descendant can drop, however it detaches; the memory cap
            )
        except OSError as err:
            raise EngineCrashError(
                f"engine {settings.display_name!r} could not start {shlex.join(settings.command)!r}: "
                f"{err.strerror or err}"
            ) from err
        engine_started(process.pid)
        return cls(process)

    def _read_stdout(self) -> None:
        """Queue stdout line by line; past ANSWER_BYTES unread (a line without end, a flood) queue the overflow
        mark and stop reading, so the engine blocks on its pipe instead of growing this process."""
        stream = self._process.stdout
        partial = b""
        try:
            while stream is not None:
                raw = stream.readline(_LINE_LIMIT)
                if not raw:
                    break
                partial += raw
                if not raw.endswith(b"\n") and len(partial) <= ANSWER_BYTES:
                    continue
                line, partial = partial.decode("utf-8", "replace").rstrip("\r\n"), b""
                with self._unread_lock:
                    self._unread += len(line) + 1
                    overflow = self._unread > ANSWER_BYTES
                if overflow:
                    self._lines.put(_OVERFLOW)
                    return
                self._lines.put(line)
        except (OSError, ValueError):
            pass  # the pipe was closed under us: report end of output like a normal end
        self._lines.put(None)

    def _read_stderr(self) -> None:
        stream = self._process.stderr
        try:
            while stream is not None:
                raw = stream.readline(_LINE_LIMIT)
                if not raw:
                    break
                text = raw.decode("utf-8", "replace").rstrip("\r\n")
                if text.strip():
                    self._stderr.append(text)
        except (OSError, ValueError):
            pass

    def send(self, line: str) -> None:
        """Write one line to the engine's stdin."""
        stdin = self._process.stdin
        try:
            if stdin is None:
                raise BrokenPipeError("no stdin")
            stdin.write(line.encode("utf-8") + b"\n")
            stdin.flush()
        except (OSError, ValueError) as err:
            raise EngineCrashError(f"cannot write {line!r} to the engine: {err}") from err

    def receive(self, timeout: float) -> str | None:
        """The next stdout line within `timeout` seconds; EngineProtocolError past ANSWER_BYTES of unread output."""
        try:
            line = self._lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            raise TimeoutError(f"no output within {timeout:.3f}s") from None
        if line is _OVERFLOW:
            self._lines.put(_OVERFLOW)  # every later read fails the same way
            raise EngineProtocolError(f"engine wrote more than {ANSWER_BYTES} bytes of output without an answer "
                                      "being read (a line without end, or a flood)")
        if line is not None:
            with self._unread_lock:
                self._unread -= len(line) + 1
        return line

    def exit_code(self) -> int | None:
        """Exit status without reaping, so the process group id stays reserved until `close`."""
        if self._reaped is not None:
            return self._reaped
        try:
            info = os.waitid(os.P_PID, self._process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return self._process.returncode
        if info is None:
            return None
        return -info.si_status if info.si_code in (os.CLD_KILLED, os.CLD_DUMPED) else info.si_status

    def stderr_tail(self) -> list[str]:
        """The last lines of the engine's stderr; once the engine has exited, what it wrote last is waited for a
        moment (its reader thread may not have read it yet when the exit is noticed)."""
        if self.exit_code() is not None:
            self._threads[1].join(STDERR_SETTLE_SECONDS)
        return list(self._stderr)

    def close(self, wait: float) -> None:
        """End of input, then TERM to the whole process group, KILL to whatever is left, then reap.

        The KILL and the reaping run even when the polite part is interrupted (the referee's deadline alarm raises
        into whatever code is running, and a TERM-deaf engine keeps the polite part busy for TERM_SECONDS): an
        engine is never left running because its close was cut short."""
        if self._reaped is not None:
            return
        try:
            self._end_politely(wait)
        finally:
            self._end_forcibly()

    def _end_politely(self, wait: float) -> None:
        process = self._process
        if process.stdin is not None:
            try:
                process.stdin.close()
            except OSError:
                pass
        self._wait_exit(wait)
        # Until the leader is reaped its pid still names this process group, so signalling the group is safe.
        self._signal_group(signal.SIGTERM)
        deadline = time.monotonic() + TERM_SECONDS
        if self._wait_exit(TERM_SECONDS):
            self._reap(0.0)
            while self._group_alive() and time.monotonic() < deadline:
                time.sleep(0.01)  # children of the engine still ending

    def _end_forcibly(self) -> None:
        """KILL what is left of the group first (one syscall, before anything can interrupt it), then reap."""
        process = self._process
        if self._reaped is None or self._group_alive():
            self._signal_group(signal.SIGKILL)
        engine_ended(process.pid)  # reaps it with what it left (its session), before any later interruption
        self._reap(5.0)
        for thread in self._threads:
            thread.join(timeout=1.0)
        if not any(thread.is_alive() for thread in self._threads):
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    stream.close()

    def _signal_group(self, sig: signal.Signals) -> None:
        try:
            os.killpg(self._process.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass  # the group is already empty

    def _group_alive(self) -> bool:
        try:
            os.killpg(self._process.pid, 0)
        except (ProcessLookupError, PermissionError):
            return False
        return True

    def _reap(self, timeout: float) -> None:
        if self._reaped is not None:
            return
        try:
            self._reaped = self._process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass

    def _wait_exit(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while self.exit_code() is None:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.005)
        return True


TransportFactory = Callable[[GtpSettings], Transport]


