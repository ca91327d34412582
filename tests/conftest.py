"""Suite-wide checks: no process started by a test outlives the test session."""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections.abc import Iterator

import pytest

SESSION_MARK = "YTOURNEY_TEST_SESSION"


def _survivors(token: bytes) -> list[int]:
    """Live processes other than us whose environment carries this session's mark (inherited from the suite)."""
    found = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        pid = int(name)
        if pid == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as environ:
                if token not in environ.read().split(b"\0"):
                    continue
            with open(f"/proc/{pid}/stat", "rb") as stat:
                if stat.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    continue
        except OSError:
            continue
        found.append(pid)
    return found


@pytest.fixture(scope="session", autouse=True)
def no_process_outlives_the_suite() -> Iterator[None]:
    """Everything the tests start (engines, workers, their children) inherits a mark; at the end none may be alive.
    Survivors are killed, so a failure here never leaks them into the machine, and named."""
    if not os.path.isdir("/proc/self"):
        yield
        return
    value = uuid.uuid4().hex
    os.environ[SESSION_MARK] = value
    token = f"{SESSION_MARK}={value}".encode()
    yield
    deadline = time.monotonic() + 5.0
    while (left := _survivors(token)) and time.monotonic() < deadline:
        time.sleep(0.1)
    described = []
    for pid in left:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
            described.append(f"{pid}: {command}")
            os.kill(pid, signal.SIGKILL)
        except OSError:
            continue
    assert not described, "processes outlived the test session:\n" + "\n".join(described)
