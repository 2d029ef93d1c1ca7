"""Small files written whole or not at all, and read without following planted symlinks."""

from __future__ import annotations

import errno
import logging
import os
import random
import re
import stat
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

# Paths of the hot paths (a pick's delivery) may be plain strings: building Path objects costs more than the system calls.
StrPath = str | os.PathLike[str]

log = logging.getLogger(__name__)


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


def flush_to_disk(fd: int, *, data_only: bool = False) -> None:
    """fsync: the open file's data (or a directory's entries) are on the disk when this returns; with `data_only`,
    fdatasync (the data, and of the file's metadata only what reading the data needs, such as its size)."""
    (os.fdatasync if data_only else os.fsync)(fd)


# Unnamed files (O_TMPFILE) need the file system's support and /proc to be linked by name; elsewhere, named temp files.
_UNNAMED_FILES = hasattr(os, "O_TMPFILE") and os.path.isdir("/proc/self/fd")


class StagedFile:
    """`data` written whole to a new file in the directory of `path`, not yet under that name; open until placed.

    `flush()` puts the data on the disk (fsync) and may run while other work goes on; `place()` gives
    it its name; `discard()` drops it. Where the file system can, the file has no name at all until
    `place()` links it (O_TMPFILE): one change to the directory instead of a create and a rename, and
    nothing left behind by a process that dies before placing it. Elsewhere it is a temp file beside
    `path`, which the next server start sweeps if its process died (api_server/app.py: _tidy_state).
    """

    def __init__(self, path: StrPath, data: bytes, mode: int = 0o600):
        self.path = path
        self.temp: str | None = None  # the temp file's name, when it has one (no unnamed files here)
        self._fd: int | None = None
        directory = os.path.dirname(path) or "."
        try:
            self._fd = _open_unnamed(directory) if _UNNAMED_FILES else None
            if self._fd is None:
                self.temp, self._fd = _open_temp(directory, os.path.basename(path))
            if mode != 0o600:
                os.fchmod(self._fd, mode)
            view = memoryview(data)
            while view:
                view = view[os.write(self._fd, view):]
        except BaseException:
            self.discard()
            raise

    def flush(self) -> None:
        """fsync the data: after a crash of the machine, a name given to this file never shows it half written."""
        if self._fd is None:
            raise ValueError(f"{self.path} was placed or discarded already")
        flush_to_disk(self._fd)

    def place(self, *, exclusive: bool = False) -> None:
        """Give the file its name, replacing whatever is there (a planted symlink is replaced, not followed);
        with `exclusive`, FileExistsError (the file dropped) when the name is taken."""
        if self._fd is None:
            raise ValueError(f"{self.path} was placed or discarded already")
        try:
            if self.temp is None:
                self._link_unnamed(exclusive)
            elif exclusive:
                os.link(self.temp, self.path)
            else:
                os.rename(self.temp, self.path)
                self.temp = None
        finally:
            self.discard()

    def _link_unnamed(self, exclusive: bool) -> None:
        # linkat(AT_SYMLINK_FOLLOW) of the descriptor's /proc link names the unnamed file (open(2), O_TMPFILE). Giving
        # os.link a src_dir_fd is what makes it call linkat with that flag; the kernel ignores it for an absolute path.
        source = f"/proc/self/fd/{self._fd}"
        try:
            os.link(source, self.path, src_dir_fd=self._fd)
        except FileExistsError:
            if exclusive:
                raise
            directory, name = os.path.split(self.path)
            temp = os.path.join(directory, _free_temp_name(name))
            os.link(source, temp, src_dir_fd=self._fd)  # under a name of its own, then over the one taken
            try:
                os.rename(temp, self.path)
            except BaseException:
                with suppress(FileNotFoundError):
                    os.unlink(temp)
                raise

    def discard(self) -> None:
        """Drop the file, unless it was placed (idempotent)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)
        temp, self.temp = self.temp, None
        if temp is not None:
            with suppress(FileNotFoundError):
                os.unlink(temp)


def move_directory_aside(path: StrPath) -> bool:
    """A directory standing at a file's name (planted, or left by a tool) would block that file for good: it is
    renamed out of the way (kept, with what it holds, under a hidden name beside it) and a warning says where.
    Whether there was one."""
    try:
        if not stat.S_ISDIR(os.lstat(path).st_mode):
            return False
    except FileNotFoundError:
        return False
    directory, name = os.path.split(path)
    aside = os.path.join(directory, f".{name}.{random.getrandbits(32):08x}.in-the-way")
    os.rename(path, aside)
    log.warning("a directory stood where the file %s goes; it was moved to %s", path, aside)
    return True


def _open_unnamed(directory: str) -> int | None:
    """An unnamed file in `directory`, or None when its file system makes none (then a temp file is used)."""
    try:
        return os.open(directory, os.O_TMPFILE | os.O_WRONLY | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        if exc.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
            return None
        raise


def _free_temp_name(name: str) -> str:
    return f".{name}.{random.getrandbits(32):08x}.tmp"


def _open_temp(directory: str, name: str) -> tuple[str, int]:
    """A new temp file beside `name` (O_EXCL and O_NOFOLLOW: never a file or link someone planted there)."""
    for _ in range(100):
        tmp = os.path.join(directory, _free_temp_name(name))
        try:
            return tmp, os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except FileExistsError:
            continue  # taken (another writer's, or planted): draw another name
    raise FileExistsError(errno.EEXIST, "no free temp file name", os.path.join(directory, name))


def write_atomic(path: StrPath, data: bytes, *, mode: int = 0o600, exclusive: bool = False, durable: bool = False) -> None:
    """Write through a temp file in the same directory, then rename (or link, when `exclusive`).

    The temp file is created with O_EXCL, so nothing planted at its name is followed; rename
    replaces a planted symlink at `path` rather than writing through it. With `exclusive`, an
    existing `path` raises FileExistsError and is left untouched: the first writer wins. With
    `durable`, the data and then the directory entry are flushed to the disk before returning, so
    that what a caller acknowledges survives a crash of the machine. Any failure leaves no temp file.
    """
    staged = StagedFile(path, data, mode)
    try:
        if durable:
            staged.flush()
        staged.place(exclusive=exclusive)
    finally:
        staged.discard()
    if durable:
        sync_directory(os.path.dirname(path))


def sync_directory(directory: StrPath) -> None:
    """Flush a directory's entries (a file linked, renamed or removed in it) to the disk.

    Threads of this process that ask for the same directory at once share one fsync (GroupFlush).
    """
    key = os.path.abspath(directory)
    with _directory_syncs_lock:
        group = _directory_syncs.get(key)
        if group is None:
            group = _directory_syncs[key] = GroupFlush(key, lambda: _fsync_path(key))
    group.sync()


def _fsync_path(path: str) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        flush_to_disk(fd)
    finally:
        os.close(fd)


class GroupFlush:
    """One flush (an fsync) shared by the threads that ask for it at the same time: group commit.

    A flush covers every caller that asked before it started, since each asks only once its own change
    is made; whoever asks while one runs waits for the next, which the first of them starts. `what`
    names the flushed file in errors.
    """

    def __init__(self, what: str, flush: Callable[[], None]):
        self.what = what
        self._flush = flush
        self._changed = threading.Condition(threading.Lock())
        self._asked = 0  # callers so far, numbered from 1
        self._covered = 0  # callers up to this number are on the disk
        self._running = False
        # Callers (after, up to] whose changes a failed flush covered: never told they are on the disk, even once a later
        # flush succeeds (after a failed write-back the kernel may have dropped their changes).
        self._failed: list[tuple[int, int, OSError]] = []

    def ticket(self) -> int:
        """Say that a change was made (now, before this call): sync(ticket) returns once a flush covered it."""
        with self._changed:
            self._asked += 1
            return self._asked

    def sync(self, ticket: int | None = None) -> None:
        """Return once a flush that started after the change was made has succeeded (after this call, without a
        `ticket`); OSError if the one covering it failed."""
        with self._changed:
            if ticket is None:
                self._asked += 1
                ticket = self._asked
            while self._running:
                self._changed.wait()
            for after, upto, error in self._failed:
                if after < ticket <= upto:
                    raise OSError(error.errno, error.strerror, self.what)
            if self._covered >= ticket:
                return
            self._running = True
            upto = self._asked  # all of these asked before this flush starts: their changes are made
        failure: OSError | None = None
        try:
            self._flush()
        except OSError as exc:
            failure = exc
        with self._changed:
            self._running = False
            if failure is None:
                self._covered = max(self._covered, upto)
            else:
                self._failed = [*self._failed[-63:], (self._covered, upto, failure)]
            self._changed.notify_all()
        if failure is not None:
            raise failure


_directory_syncs: dict[str, GroupFlush] = {}
_directory_syncs_lock = threading.Lock()


class NotRegularFileError(OSError):
    """A symlink, directory or device sits where a regular file was expected."""


# (device, inode, size, modified ns, changed ns) of a regular file. write_atomic makes a new file each time and never
# writes one in place, so while a name shows the same version its content is the same: a reader may keep what it
# parsed (SessionStore does) and check the version, one lstat, instead of reading the file again.
FileVersion = tuple[int, int, int, int, int]


def version_of(info: os.stat_result) -> FileVersion:
    """The version a stat result shows (device, inode, size, modified and changed ns)."""
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def file_version(path: StrPath) -> FileVersion | None:
    """The version of the regular file at `path` (None when there is none, or something else sits there)."""
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return version_of(info) if stat.S_ISREG(info.st_mode) else None


def read_regular_file(path: StrPath, limit: int) -> bytes | None:
    """The bytes of a regular file (at most `limit`), None when it does not exist; never follows a symlink."""
    read = read_regular_file_version(path, limit)
    return None if read is None else read[0]


def read_regular_file_version(path: StrPath, limit: int) -> tuple[bytes, FileVersion] | None:
    """As read_regular_file, with the version of the file the bytes were read from (see FileVersion)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotRegularFileError(errno.ELOOP, "is a symbolic link", str(path)) from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFileError(errno.EINVAL, "is not a regular file", str(path))
        chunks = []
        left = limit + 1
        while left > 0:
            # One more byte than the file holds: a short read is the end of a regular file, so one read usually does.
            asked = min(left, max(info.st_size + 1, 4096))
            chunk = os.read(fd, asked)
            chunks.append(chunk)
            left -= len(chunk)
            if len(chunk) < asked:
                break
        return b"".join(chunks), version_of(info)
    finally:
        os.close(fd)
