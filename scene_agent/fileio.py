"""Small files written whole or not at all, and read without following planted symlinks."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path


def ensure_private_dir(path: Path) -> Path:
    """Create a directory (and parents) readable by its owner only, if it is missing."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def write_atomic(path: Path, data: bytes, *, mode: int = 0o600, exclusive: bool = False) -> None:
    """Write through a temp file in the same directory, then rename (or link, when `exclusive`).

    The temp file is created with O_EXCL, so nothing planted at its name is followed; rename
    replaces a planted symlink at `path` rather than writing through it. With `exclusive`, an
    existing `path` raises FileExistsError and is left untouched: the first writer wins.
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if mode != 0o600:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        if exclusive:
            os.link(tmp, path)
        else:
            os.rename(tmp, path)
    finally:
        if exclusive or os.path.lexists(tmp):
            Path(tmp).unlink(missing_ok=True)


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
