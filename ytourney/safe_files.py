"""Files written without following symbolic links: the one helper every file ytourney writes goes through.

A file is opened with O_NOFOLLOW, so a link planted at its name is refused and its target never opened; it is created
with O_EXCL where it must be new; and the folders between a trusted `root` (a folder the user named) and the file
are walked with folder descriptors, each opened with O_NOFOLLOW | O_DIRECTORY, so a link planted anywhere below the
root is refused instead of followed. Only regular files are written or read: a FIFO, a device or a folder at the
name is refused (opened without blocking, so a FIFO nobody reads never hangs us). Every refusal is one line naming
the path, raised as the caller's own error class.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from ytourney.errors import YTourneyError

ErrorClass = Callable[[str], YTourneyError]
"""How a caller's refusals are raised (StoreError, ReportError, ConfigError...): called with the message."""

_OPEN_FLAGS = {
    "r": os.O_RDONLY,
    "w": os.O_WRONLY | os.O_CREAT,  # truncated after the file is known to be a regular one
    "a": os.O_WRONLY | os.O_CREAT | os.O_APPEND,
    "x": os.O_WRONLY | os.O_CREAT | os.O_EXCL,
}
_KINDS = {stat.S_IFDIR: "a folder", stat.S_IFIFO: "a FIFO", stat.S_IFCHR: "a character device",
          stat.S_IFBLK: "a block device", stat.S_IFSOCK: "a socket", stat.S_IFLNK: "a symbolic link"}


def kind_of(mode: int) -> str:
    """What a file mode names, in words ('a FIFO', 'a character device'...)."""
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def link_refusal(path: str | os.PathLike[str]) -> str:
    """The message refusing a symbolic link at `path`."""
    return (f"{str(path)!r} is a symbolic link; ytourney never writes through a link: remove it or write "
            "elsewhere")


def _oserror(action: str, path: str | os.PathLike[str], err: OSError) -> str:
    return f"cannot {action} {str(path)!r}: {err.strerror or err}"


def _split(path: Path, root: Path | None, error: ErrorClass) -> tuple[Path, tuple[str, ...], str]:
    """(root, folders below it, file name) of `path`; without a root, its own folder is the root."""
    if root is None:
        return path.parent, (), path.name
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        raise error(f"{str(path)!r} is not inside {str(root)!r}") from None
    if not parts or ".." in parts:
        raise error(f"{str(path)!r} is not a file inside {str(root)!r}")
    return root, parts[:-1], parts[-1]


def open_folder(root: str | os.PathLike[str], parts: Sequence[str] = (), *, create: bool,
                error: ErrorClass) -> int:
    """A descriptor of root/parts..., made when `create`; the root may be reached through links (the user named
    it), every part below it may not. Refuses a link or a non-folder at any part."""
    top = Path(root)
    try:
        if create:
            top.mkdir(parents=True, exist_ok=True)
        fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as err:
        if os.path.lexists(top) and not os.path.isdir(top):
            raise error(f"{str(top)!r} is not a folder; expected a folder or a new path") from err
        raise error(_oserror("make the folder" if create else "open the folder", top, err)) from err
    where = top
    for part in parts:
        where = where / part
        try:
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o777, dir_fd=fd)
            inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
        except OSError as err:
            link = err.errno == errno.ELOOP or _is_link(part, fd)
            os.close(fd)
            if link:
                raise error(link_refusal(where)) from err
            if err.errno == errno.ENOTDIR:
                raise error(f"{str(where)!r} is not a folder; remove it or write elsewhere") from err
            raise error(_oserror("open the folder", where, err)) from err
        os.close(fd)
        fd = inner
    return fd


def _is_link(name: str, dir_fd: int) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(name, dir_fd=dir_fd).st_mode)
    except (OSError, ValueError):
        return False


def open_file(path: str | os.PathLike[str], mode: str = "w", *, root: str | os.PathLike[str] | None = None,
              error: ErrorClass) -> int:
    """A descriptor of the regular file at `path`, opened for `mode`: 'r' read, 'w' write from empty, 'a' append,
    'x' create a new file (an existing one is refused). Folders below `root` are made when writing; a link at any
    name below the root, or anything but a regular file at `path`, is refused. FileNotFoundError for 'r' on a
    missing file."""
    target = Path(path)
    top, parts, name = _split(target, None if root is None else Path(root), error)
    folder = open_folder(top, parts, create=mode != "r", error=error)
    try:
        try:
            fd = os.open(name, _OPEN_FLAGS[mode] | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o644,
                         dir_fd=folder)
        except FileNotFoundError:
            if mode == "r":
                raise
            missing = FileNotFoundError(errno.ENOENT, "no such folder, or one that takes no new file")
            raise error(_oserror("create", target, missing)) from None
        except OSError as err:
            if err.errno == errno.ELOOP or _is_link(name, folder):
                raise error(link_refusal(target)) from err
            if err.errno == errno.EEXIST:
                raise error(f"{str(target)!r} exists already; ytourney only creates it new: remove it or write "
                            "elsewhere") from err
            if err.errno in (errno.EISDIR, errno.ENXIO, errno.ENODEV):
                kind = "a folder" if err.errno == errno.EISDIR else "a FIFO or device"
                raise error(f"{str(target)!r} is {kind}; expected a regular file or a new path") from err
            raise error(_oserror("open", target, err)) from err
    finally:
        os.close(folder)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{str(target)!r} is {kind_of(info.st_mode)}; expected a regular file or a new path")
        if mode == "w":
            os.ftruncate(fd, 0)
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    except OSError as err:
        os.close(fd)
        raise error(_oserror("write", target, err)) from err
    except BaseException:
        os.close(fd)
        raise
    return fd


def write_file(path: str | os.PathLike[str], data: str | bytes, mode: str = "w", *,
               root: str | os.PathLike[str] | None = None, error: ErrorClass) -> None:
    """Write `data` (text is UTF-8) to the regular file at `path` ('w' replaces its content, 'x' only creates, 'a'
    appends), never through a link (see open_file)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd = open_file(path, mode, root=root, error=error)
    try:
        view = memoryview(raw)
        while view:
            view = view[os.write(fd, view):]
    except OSError as err:
        raise error(_oserror("write", path, err)) from err
    finally:
        os.close(fd)


def read_file(path: str | os.PathLike[str], limit: int, *, root: str | os.PathLike[str] | None = None,
              error: ErrorClass) -> bytes | None:
    """The bytes of the regular file at `path` (None when there is none), refusing a link, a FIFO, a device or a
    file over `limit` bytes: a read is always bounded."""
    try:
        fd = open_file(path, "r", root=root, error=error)
    except FileNotFoundError:
        return None
    try:
        size = os.fstat(fd).st_size
        if size > limit:
            raise error(f"{str(path)!r} holds {size} bytes; expected at most {limit}")
        chunks = []
        left = size
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError as err:
        raise error(_oserror("read", path, err)) from err
    finally:
        os.close(fd)


def text_file(path: str | os.PathLike[str], mode: str = "w", *, root: str | os.PathLike[str] | None = None,
              error: ErrorClass, encoding: str = "utf-8", errors: str = "strict") -> TextIO:
    """open_file as a text file object the caller closes."""
    fd = open_file(path, mode, root=root, error=error)
    return os.fdopen(fd, "a" if mode == "a" else "w", encoding=encoding, errors=errors)
