"""The files of a results folder that a run writes outside SQLite: the run lock, opened safely.

Nothing here follows a symlink at a file's name: a `run.lock` or store file that is a link (planted, or left by a
copy) is refused instead of having its target emptied or written. Failures name the file and how to fix them
(a read-only folder, a full disk).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from pathlib import Path

from ytourney.errors import StoreError, StoreLockedError

LOCK_NAME = "run.lock"
SQLITE_SUFFIXES = ("", "-wal", "-shm", "-journal")
"""The suffixes of an SQLite database's files: the database, its WAL, shared memory and rollback journal."""

_HELD_LOCKS: set[int] = set()
"""Descriptors of run locks held by this process."""


def _drop_inherited_locks() -> None:
    """In a forked child (a worker), close the inherited lock descriptors: only the run's own process holds the
    lock, so it dies with that process even if a worker outlives it for a moment."""
    for fd in list(_HELD_LOCKS):
        with contextlib.suppress(OSError):
            os.close(fd)  # closing a duplicate never releases the parent's flock
    _HELD_LOCKS.clear()


os.register_at_fork(after_in_child=_drop_inherited_locks)


def _refusal(action: str, path: Path, err: OSError) -> StoreError:
    """A StoreError for a failed file operation, naming the file and saying how to fix the common causes."""
    if err.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        advice = "the results folder is not writable; use --out to write to a writable folder"
    elif err.errno in (errno.ENOSPC, errno.EDQUOT):
        advice = "disk full; free some space and run the same command again to resume"
    else:
        advice = err.strerror or str(err)
    return StoreError(f"cannot {action} {str(path)!r}: {advice}")


def _link_refusal(path: Path) -> StoreError:
    return StoreError(f"{str(path)!r} is a symbolic link; ytourney never writes through a link: remove it or use "
                      "--out to write elsewhere")


def open_in_folder(path: Path) -> int:
    """Open (or create) a regular file of a results folder for writing, never following a symlink at its name."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise _link_refusal(path) from err
        raise _refusal("open", path, err) from err
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise StoreError(f"{str(path)!r} is not a regular file; remove it or use --out to write elsewhere")
    return fd


def refuse_links(path: Path) -> None:
    """Refuse a store whose database or journal files are symlinks (SQLite would write through them)."""
    for suffix in SQLITE_SUFFIXES:
        candidate = path.with_name(path.name + suffix)
        if candidate.is_symlink():
            raise _link_refusal(candidate)
    if path.exists() and not path.is_file():
        raise StoreError(f"{str(path)!r} is not a regular file; remove it or use --out to write elsewhere")


class RunLock:
    """An exclusive flock on `<out>/run.lock`; released when closed or when the owning process dies."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock or raise StoreLockedError naming the holder's pid."""
        fd = open_in_folder(self.path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise StoreLockedError(
                f"results folder {str(self.path.parent)!r} is in use by another run (pid {holder}); "
                "wait for it to finish or stop it, or use --out to write elsewhere"
            ) from None
        except OSError as err:
            os.close(fd)
            raise StoreError(f"cannot lock results folder {str(self.path.parent)!r}: {err}") from err
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        except OSError as err:
            os.close(fd)
            raise _refusal("write", self.path, err) from err
        self._fd = fd
        _HELD_LOCKS.add(fd)

    def release(self) -> None:
        """Drop the lock (the file stays; an unlocked file means nobody holds it)."""
        if self._fd is not None:
            _HELD_LOCKS.discard(self._fd)
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None
