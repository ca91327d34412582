"""Containment of engine processes: the process that starts engines adopts their orphans and ends them.

A process group alone does not hold an engine: a child that double-forks and calls setsid leaves it. On Linux the
process that starts engines becomes a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so such a grandchild is
re-parented to it instead of to init; `reap_orphans` then kills and reaps every adopted child that carries the mark
every engine gets in its environment (ENGINE_MARK, inherited by what it starts) or sits in an engine's session, never
a live engine nor a process of ours (workers, Ray's processes: they carry no mark).
A cgroup would hold them too, but needs a delegated cgroup tree that containers and desktops often lack.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import signal
import sys

PR_SET_CHILD_SUBREAPER = 36
ENGINE_MARK = "YTOURNEY_ENGINE"
"""Set in every engine's environment: what carries it and is adopted by us was started by an engine."""

_live: set[int] = set()  # engines this process runs now
_sessions: set[int] = set()  # sessions of every engine this process started
_subreaper = 0  # pid of the process that became a subreaper (the flag is not inherited by a fork)


def become_subreaper() -> None:
    """Adopt the orphans of the engines this process starts (Linux only; elsewhere nothing happens)."""
    global _subreaper
    # a ytourney started by an engine inherits its mark: dropped, so our own workers never count as engine orphans
    os.environ.pop(ENGINE_MARK, None)
    if _subreaper == os.getpid() or not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0:
            if not _subreaper:
                atexit.register(reap_orphans)
            _subreaper = os.getpid()


def engine_started(pid: int) -> None:
    """Note an engine started in its own session (its pid names the session)."""
    _live.add(pid)
    _sessions.add(pid)


def engine_ended(pid: int) -> None:
    """Note an engine ended, then end whatever it left behind."""
    _live.discard(pid)
    reap_orphans()


def engine_environment(environment: dict[str, str] | None) -> dict[str, str]:
    """The environment to start an engine with: `environment` (else ours) plus the engine mark."""
    return {**(os.environ if environment is None else environment), ENGINE_MARK: str(os.getpid())}


def _marked(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            return f"{ENGINE_MARK}=".encode() in environ.read()
    except OSError:
        return False


def _children() -> list[tuple[int, int]]:
    """(pid, session) of this process's children, from /proc."""
    me = os.getpid()
    found = []
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as stat:
                    fields = stat.read().rsplit(b")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == me:
                found.append((int(entry.name), int(fields[3])))
    return found


def reap_orphans() -> None:
    """Kill and reap adopted children left by engines: marked ones, or members of an engine's session."""
    if _subreaper != os.getpid():
        return
    for pid, session in _children():
        if pid in _live or not (session in _sessions or _marked(pid)):
            continue
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.waitpid(pid, 0)
