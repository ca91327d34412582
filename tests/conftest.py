"""Suite-wide checks: no process started by a test outlives the test session; hostile tests run under a memory cap."""

from __future__ import annotations

import os
import resource
import signal
import time
import uuid
from collections.abc import Iterator

import pytest

SESSION_MARK = "YTOURNEY_TEST_SESSION"
MEMORY_CAP = 1 << 30
"""Bytes of address space a test under `memory_cap` may add to what the test process already uses."""


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


def _address_space() -> int:
    """Bytes of address space this process uses now (its virtual size)."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


@pytest.fixture
def memory_cap() -> Iterator[None]:
    """Caps the address space (RLIMIT_AS) at today's size plus MEMORY_CAP while the test runs: a hostile input that
    makes ytourney allocate without bound fails the test with MemoryError instead of exhausting the machine.
    Processes the test starts inherit the cap. The hostile test modules use it for every test (`pytestmark`)."""
    if not os.path.isfile("/proc/self/statm"):
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = _address_space() + MEMORY_CAP
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
