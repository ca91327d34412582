"""Containment of engine processes: the process that starts engines adopts their orphans and ends them.

A process group alone does not hold an engine: a child that double-forks and calls setsid leaves it. On Linux the
process that starts engines becomes a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so such a grandchild is
re-parented to it instead of to init; `reap_orphans` then kills and reaps every adopted child that carries the mark
every engine gets in its environment (ENGINE_MARK, inherited by what it starts) or sits in an engine's session, never
a live engine nor a process of ours (workers, Ray's processes: they carry no mark).
A cgroup would hold them too, but needs a delegated cgroup tree that containers and desktops often lack.

An engine can leave its session and clear its environment, so every process whose descendants we must end carries
a second mark it cannot drop: a lower hard limit of RLIMIT_RTTIME (CPU time under real-time scheduling, which no
engine uses) than the process that reaps. Any process may lower a hard limit, none but root may raise it again,
and children inherit it; so whatever an engine or a plugin starts, however it detaches, is marked. Engines get it
when they start (`mark_descendants` in the new process), workers mark themselves (what their plugins fork or spawn
inherits it; the parent protects its live workers with `keep`), and plugin code run in a process that cannot be
marked (the main process, checking players) marks what it forks through an at-fork hook (`plugin_code`).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import resource
import signal
import sys
import time
from collections.abc import Iterator

PR_SET_CHILD_SUBREAPER = 36
REAP_ROUNDS = 20
"""Most rounds of one reap (each finds the children of the orphans the last one killed)."""
ENGINE_MARK = "YTOURNEY_ENGINE"
"""Set in every engine's environment: what carries it and is adopted by us was started by an engine."""

MARK_LIMIT = getattr(resource, "RLIMIT_RTTIME", None)
"""The limit whose lowered hard value marks a process whose descendants are ended (None: not on this system)."""
MARK_VALUE = 1 << 62
"""The hard limit (microseconds, practically unlimited) a mark sets under an unlimited parent."""
_LIMIT_LINE = b"Max realtime timeout"

_live: set[int] = set()  # engines (and workers, see keep) this process runs now
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
                atexit.register(_at_exit)
            _subreaper = os.getpid()


def mark_descendants() -> None:
    """Mark this process, and so everything it will start: lower its hard RLIMIT_RTTIME below its parent's (run in
    a new engine before exec, in a worker as it starts, in a child forked by plugin code)."""
    if MARK_LIMIT is None:
        return
    with contextlib.suppress(OSError, ValueError):
        soft, hard = resource.getrlimit(MARK_LIMIT)
        lowered = MARK_VALUE if hard == resource.RLIM_INFINITY else max(0, hard - 1)
        resource.setrlimit(MARK_LIMIT, (lowered if soft == resource.RLIM_INFINITY else min(soft, lowered), lowered))


def _hard_limit(pid: int) -> int | None:
    """The hard RLIMIT_RTTIME of process `pid` (RLIM_INFINITY when unlimited), None when unknown."""
    try:
        with open(f"/proc/{pid}/limits", "rb") as limits:
            for line in limits:
                if line.startswith(_LIMIT_LINE):
                    hard = line[len(_LIMIT_LINE):].split()[1]
                    return resource.RLIM_INFINITY if hard == b"unlimited" else int(hard)
    except (OSError, IndexError, ValueError):
        return None
    return None


def _below_us(pid: int) -> bool:
    """Whether `pid` carries a lower hard RLIMIT_RTTIME than this process: something we started marked it."""
    if MARK_LIMIT is None:
        return False
    theirs = _hard_limit(pid)
    if theirs is None:
        return False
    ours = resource.getrlimit(MARK_LIMIT)[1]
    if ours == resource.RLIM_INFINITY:
        return theirs != resource.RLIM_INFINITY
    return theirs != resource.RLIM_INFINITY and theirs < ours


def started_by_us(pid: int) -> bool:
    """Whether process `pid` is one this process's workers, engines or plugins started (however it detached): it
    carries the mark it cannot drop. False for this process, for one gone, and for every other process."""
    return pid > 0 and pid != os.getpid() and _below_us(pid)


def keep(pid: int) -> None:
    """Never end this child while it runs (a worker that marked itself), until `release`."""
    _live.add(pid)


def release(pid: int) -> None:
    """The child kept by `keep` is gone or going."""
    _live.discard(pid)


_plugin_depth = 0  # > 0 while plugin code runs in this process


def _mark_plugin_fork() -> None:
    if _plugin_depth:
        mark_descendants()


os.register_at_fork(after_in_child=_mark_plugin_fork)


@contextlib.contextmanager
def plugin_code() -> Iterator[None]:
    """Plugin code runs inside: what it forks is marked, and what it left running is ended after it."""
    global _plugin_depth
    become_subreaper()
    before = {pid for pid, _ in _children()} if not _plugin_depth else set()
    _plugin_depth += 1
    try:
        yield
    finally:
        _plugin_depth -= 1
        if not _plugin_depth:
            for pid, _ in _children():  # what it spawned without forking (subprocess), exited or not
                if pid not in before and pid not in _live:
                    _end(pid)
            reap_orphans()


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
    if _below_us(pid):
        return True
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


def _end(pid: int) -> None:
    """Kill and reap one child."""
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.waitpid(pid, 0)


def _at_exit() -> None:
    """At exit nothing we started survives: engines still running (one abandoned mid-call) end with their group."""
    if _subreaper != os.getpid():
        return
    for pid in sorted(_live & _sessions):
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)
        _live.discard(pid)
    reap_orphans()


def reap_orphans() -> None:
    """Kill and reap adopted children left by engines and plugins: marked ones, or members of an engine's session.
    Rounds repeat while some are found: a killed orphan's own children come to us next."""
    if _subreaper != os.getpid():
        return
    for _ in range(REAP_ROUNDS):
        found = False
        for pid, session in _children():
            if pid in _live or not (session in _sessions or _marked(pid)):
                continue
            found = True
            _end(pid)
        if not found:
            return
        time.sleep(0.01)
