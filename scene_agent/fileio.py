"""Small files written whole or not at all, and read without following planted symlinks."""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
import time
from pathlib import Path


def ensure_private_dir(path: Path) -> Path:
    """Create a directory (and missing parents) readable by its owner only, whatever the umask, if it is missing."""
    missing: list[Path] = []
    probe = path
    while not os.path.lexists(probe) and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for directory in reversed(missing):
        try:
            directory.mkdir(mode=0o700)
        except FileExistsError:
            continue  # made meanwhile by another process: theirs to set
        os.chmod(directory, 0o700)  # mkdir's mode is masked by the umask
    if not path.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "is not a directory", str(path))
    return path


def tighten_private_dir(path: Path) -> bool:
    """Make an existing directory of ours owner-only if group or others may use it; True when it was changed."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return False
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or not info.st_mode & 0o077:
        return False
    os.chmod(path, 0o700)
    return True


_TEMP_NAME = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")  # write_atomic's temp files: .<name>.<8 random>.tmp


def sweep_temp_files(directory: Path, older_than_s: float, prefix: str = ".") -> list[str]:
    """Remove write_atomic's temp files left by a crash: ours, regular, named `<prefix>…`, older than `older_than_s`."""
    removed: list[str] = []
    cutoff = time.time() - older_than_s
    try:
        entries = list(os.scandir(directory))
    except (FileNotFoundError, NotADirectoryError):
        return removed
    for entry in entries:
        if not (entry.name.startswith(prefix) and _TEMP_NAME.match(entry.name)):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid() and info.st_mtime < cutoff:
                os.unlink(entry.path)
                removed.append(entry.name)
        except FileNotFoundError:
            continue
    return removed


def write_atomic(path: Path, data: bytes, *, mode: int = 0o600, exclusive: bool = False, durable: bool = False) -> None:
    """Write through a temp file in the same directory, then rename (or link, when `exclusive`).

    The temp file is created with O_EXCL, so nothing planted at its name is followed; rename
    replaces a planted symlink at `path` rather than writing through it. With `exclusive`, an
    existing `path` raises FileExistsError and is left untouched: the first writer wins. With
    `durable`, the data and then the directory entry are flushed to the disk before returning, so
    that what a caller acknowledges survives a crash of the machine. Any failure leaves no temp file.
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if mode != 0o600:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        if exclusive:
            os.link(tmp, path)
        else:
            os.rename(tmp, path)
    finally:
        if exclusive or os.path.lexists(tmp):
            Path(tmp).unlink(missing_ok=True)
    if durable:
        sync_directory(path.parent)


def sync_directory(directory: Path) -> None:
    """Flush a directory's entries (a file linked, renamed or removed in it) to the disk."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class NotRegularFileError(OSError):
    """A symlink, directory or device sits where a regular file was expected."""


def read_regular_file(path: Path, limit: int) -> bytes | None:
    """The bytes of a regular file (at most `limit`), None when it does not exist; never follows a symlink."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotRegularFileError(errno.ELOOP, "is a symbolic link", str(path)) from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFileError(errno.EINVAL, "is not a regular file", str(path))
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(limit + 1)
    finally:
        os.close(fd)
