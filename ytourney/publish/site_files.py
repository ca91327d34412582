"""The site folder: files are staged in a hidden folder inside it and moved into place one by one, index last.

Every move is an atomic rename, so a reader (a browser, a web server) never sees a half-written page, and links of a
new page point to files already in place. Nothing is ever written or removed outside the site folder: manifest
entries that are absolute, hold `..` or pass through a symbolic link are ignored (links are never followed), and a
stale file is removed only when its content is still what a publish wrote (the manifest keeps a digest of each).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ytourney.errors import ReportError
from ytourney.safe_files import read_file

MANIFEST = ".ytourney-site"
"""File listing what a publish wrote (path and digest per line), so a later publish replaces exactly those files."""
MANIFEST_BYTES = 64 << 20
"""Largest site manifest read (one line per published file)."""
LOCK_SECONDS = 120.0
"""Longest wait for another publish into the same site folder to finish (then the publish is refused)."""
STAGING_PREFIX = ".ytourney-staging-"
"""Name prefix of the hidden folder inside the site where a publish writes before moving files into place."""


def digest(content: bytes) -> str:
    """Short content digest kept in the manifest."""
    return hashlib.blake2b(content, digest_size=16).hexdigest()


def safe_relative(entry: str) -> PurePosixPath | None:
    """A manifest entry as a plain relative path, or None when it is absolute, climbs with `..` or is odd."""
    if not entry or "\x00" in entry or "\\" in entry or entry.startswith("/"):
        return None
    parts = entry.split("/")
    if any(part in ("", ".", "..") for part in parts) or ":" in parts[0]:
        return None
    return PurePosixPath(entry)


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise ReportError(f"cannot inspect site file {str(path)!r}: {err.strerror or err}") from err


def contained_file(folder: Path, relative: PurePosixPath) -> Path | None:
    """folder/relative when it is a regular file reached through real folders only (no link followed), else None."""
    path = folder
    for index, part in enumerate(relative.parts):
        path = path / part
        info = _lstat(path)
        if info is None:
            return None
        last = index == len(relative.parts) - 1
        if last and not stat.S_ISREG(info.st_mode):
            return None
        if not last and not stat.S_ISDIR(info.st_mode):
            return None
    return path


@dataclass(frozen=True)
class ManifestEntry:
    """One file a publish wrote: its path inside the site and its content digest ('' in an old manifest)."""

    path: PurePosixPath
    digest: str


def read_manifest(folder: Path) -> dict[str, ManifestEntry] | None:
    """The manifest of an earlier publish (None when there is none, or it is not a plain file); bad entries dropped."""
    manifest = folder / MANIFEST
    info = _lstat(manifest)
    if info is None or not stat.S_ISREG(info.st_mode):
        return None
    try:
        raw = read_file(manifest, MANIFEST_BYTES, error=ReportError) or b""
    except OSError as err:
        raise ReportError(f"cannot read site manifest {str(manifest)!r}: {err.strerror or err}") from err
    try:
        if b"\0" in raw:
            raise ValueError("a zero byte")
        lines = raw.decode("utf-8").splitlines()
    except ValueError as err:  # binary: no manifest ytourney wrote, so no file in the folder is known to be ours
        raise ReportError(f"site manifest {str(manifest)!r} is binary, not the text list of files ytourney writes; "
                          "expected a site folder of ytourney: remove that file, or choose a new or empty folder"
                          ) from err
    entries = {}
    for line in lines:
        name, _, mark = line.partition("\t")
        relative = safe_relative(name.strip())
        if relative is not None and relative.parts[0] != MANIFEST and not relative.parts[0].startswith(STAGING_PREFIX):
            entries[str(relative)] = ManifestEntry(relative, mark.strip())
    return entries


def check_site_folder(out: str | os.PathLike[str]) -> dict[str, ManifestEntry]:
    """Files of an earlier publish in `out` (none for a new or empty folder); refuses a file or a foreign folder."""
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise ReportError(f"site output {str(folder)!r} is a file; expected a folder")
    previous = read_manifest(folder) if folder.is_dir() else None
    if previous is not None:
        return previous
    if folder.is_dir() and any(not p.name.startswith(STAGING_PREFIX) for p in folder.iterdir()):
        raise ReportError(
            f"site output {str(folder)!r} is not empty and holds no ytourney site; choose a new or empty folder"
        )
    return {}


def lock_site(folder: Path, wait: float) -> int:
    """Make the site folder and take its exclusive lock (a flock on the folder itself: no file is added), waiting
    at most `wait` seconds for another publish into it to finish; the descriptor holds the lock until closed."""
    if folder.exists() and not folder.is_dir():
        raise ReportError(f"site output {str(folder)!r} is a file; expected a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as err:
        raise ReportError(f"cannot write site folder {str(folder)!r}: {err.strerror or err}") from err
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                raise ReportError(f"site folder {str(folder)!r} is in use by another publish (waited {wait:g} s); "
                                  "try again when it has finished, or publish elsewhere") from None
            time.sleep(0.05)
        except OSError as err:
            os.close(fd)
            raise ReportError(f"cannot lock site folder {str(folder)!r}: {err.strerror or err}") from err


class SiteWriter:
    """Stages the files of one publish, then moves them into the site folder and removes the stale ones."""

    def __init__(self, out: str | os.PathLike[str], *, wait: float | None = None) -> None:
        self.folder = Path(out)
        self._lock = lock_site(self.folder, LOCK_SECONDS if wait is None else wait)
        try:
            self.previous = check_site_folder(self.folder)  # read under the lock: another publish may be midway
        except BaseException:
            self._unlock()
            raise
        try:
            for old in self.folder.glob(STAGING_PREFIX + "*"):  # left by a publish that was killed
                if stat.S_ISDIR(os.lstat(old).st_mode):
                    shutil.rmtree(old, ignore_errors=True)
            self.staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=self.folder))
        except OSError as err:
            self._unlock()
            raise ReportError(f"cannot write site folder {str(self.folder)!r}: {err.strerror or err}") from err
        self.written: dict[str, str] = {}
        self.staged: list[str] = []

    def text(self, relative: str, content: str) -> None:
        """Stage one file (skipped when the site already holds these very bytes from an earlier publish)."""
        path = safe_relative(relative)
        if path is None or str(path) in self.written:
            raise ReportError(f"site file name {relative!r} is not a new plain relative path")
        data = content.encode("utf-8")
        mark = digest(data)
        self.written[str(path)] = mark
        before = self.previous.get(str(path))
        if before is not None and before.digest == mark:
            current = contained_file(self.folder, path)
            if current is not None and current.stat().st_size == len(data):
                return
        target = self.staging / path
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        except OSError as err:
            raise ReportError(f"cannot write site file {str(self.folder / path)!r}: {err.strerror or err}") from err
        self.staged.append(str(path))

    def commit(self) -> tuple[Path, ...]:
        """Move the staged files into place (pages after their assets, index.html last), write the manifest and
        remove the stale files of the earlier publish; the staging folder goes in any case."""
        try:
            order = sorted(self.staged, key=lambda p: (p == "index.html", p.endswith(".html"), p))
            for relative in order:
                self._place(relative)
            lines = "".join(f"{p}\t{d}\n" for p, d in sorted(self.written.items()))
            (self.staging / MANIFEST).write_text(lines, encoding="utf-8")
            os.replace(self.staging / MANIFEST, self.folder / MANIFEST)
        except OSError as err:
            raise ReportError(f"cannot write site folder {str(self.folder)!r}: {err.strerror or err}") from err
        finally:
            shutil.rmtree(self.staging, ignore_errors=True)
        try:
            self._remove_stale()
        finally:
            self._unlock()
        return tuple(self.folder / p for p in sorted(self.written))

    def abandon(self) -> None:
        """Drop the staged files: the site stays as it was."""
        shutil.rmtree(self.staging, ignore_errors=True)
        self._unlock()

    def _unlock(self) -> None:
        fd, self._lock = self._lock, None
        if fd is not None:
            os.close(fd)  # closing the descriptor releases the flock

    def _place(self, relative: str) -> None:
        parts = PurePosixPath(relative).parts
        parent = self.folder
        for part in parts[:-1]:
            parent = parent / part
            info = _lstat(parent)
            if info is None:
                parent.mkdir()
            elif not stat.S_ISDIR(info.st_mode):
                raise ReportError(f"site path {str(parent)!r} is not a plain folder (a link or a file); remove it "
                                  "and publish again")
        target = parent / parts[-1]
        info = _lstat(target)
        if info is not None and stat.S_ISDIR(info.st_mode):
            raise ReportError(f"site path {str(target)!r} is a folder; expected a file the site can replace")
        os.replace(self.staging / relative, target)  # replaces a link itself, never what it points to

    def _remove_stale(self) -> None:
        for name, entry in self.previous.items():
            if name in self.written:
                continue
            path = contained_file(self.folder, entry.path)
            if path is None:
                continue
            try:
                if not entry.digest or digest(path.read_bytes()) != entry.digest:
                    continue  # no digest recorded, or changed since we wrote it: not known to be ours
                path.unlink()
            except OSError:
                continue
