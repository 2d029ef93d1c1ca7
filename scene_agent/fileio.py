"""Small files written whole or not at all, and read without following planted symlinks."""

from __future__ import annotations

import errno
import os
import random
import re
import stat
import threading
import time
from contextlib import suppress
from pathlib import Path

# Paths of the hot paths (a pick's delivery) may be plain strings: building Path objects costs more than the system calls.
StrPath = str | os.PathLike[str]


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


# Cleared only by disable_fsync_for_benchmark: a benchmark's own server process, to show what durability costs.
_fsync_enabled = True


def flush_to_disk(fd: int) -> None:
    """fsync: the open file's data (or a directory's entries) are on the disk when this returns."""
    if _fsync_enabled:
        os.fsync(fd)


def disable_fsync_for_benchmark() -> None:
    """Developer-only, for this process: every fsync becomes a no-op (what `bench api` measures durability against)."""
    global _fsync_enabled
    _fsync_enabled = False


class StagedFile:
    """`data` written whole to a new temp file beside `path`, not yet under that name; the file stays open until placed.

    `flush()` puts the data on the disk (fsync) and may run while other work goes on; `place()` gives
    it its name; `discard()` removes it. A temp file left by a process that died is swept at the next
    server start (api_server/app.py: _tidy_state).
    """

    def __init__(self, path: StrPath, data: bytes, mode: int = 0o600):
        self.path = path
        directory, name = os.path.split(path)
        for _ in range(100):
            tmp = os.path.join(directory, f".{name}.{random.getrandbits(32):08x}.tmp")
            try:  # O_EXCL and O_NOFOLLOW: never a file or link someone planted at the name
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
                break
            except FileExistsError:
                continue  # taken (another writer's, or planted): draw another name
        else:
            raise FileExistsError(errno.EEXIST, "no free temp file name", str(path))
        self.temp: str | None = tmp
        self._fd: int | None = fd
        try:
            if mode != 0o600:
                os.fchmod(fd, mode)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        except BaseException:
            self.discard()
            raise

    def flush(self) -> None:
        """fsync the data: after a crash of the machine, a name given to this file never shows it half written."""
        if self._fd is None:
            raise ValueError(f"{self.path} was placed or discarded already")
        flush_to_disk(self._fd)

    def place(self, *, exclusive: bool = False) -> None:
        """Give the file its name: rename, replacing whatever is there (a planted symlink is replaced, not followed);
        with `exclusive`, link, and FileExistsError (the temp file discarded) when the name is taken."""
        tmp = self._close()
        if tmp is None:
            raise ValueError(f"{self.path} was placed or discarded already")
        try:
            if exclusive:
                os.link(tmp, self.path)
            else:
                os.rename(tmp, self.path)
                self.temp = None
        finally:
            self.discard()

    def discard(self) -> None:
        """Remove the temp file, unless it was renamed into place (idempotent)."""
        tmp = self._close()
        self.temp = None
        if tmp is not None:
            with suppress(FileNotFoundError):
                os.unlink(tmp)

    def _close(self) -> str | None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)
        return self.temp


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


def move_exclusive(source: StrPath, target: StrPath) -> None:
    """Give the file at `source` the free name `target` in the same directory, and drop `source`.

    FileExistsError, and nothing changed, when `target` exists: the first writer wins, as with
    write_atomic(exclusive=True). A process that dies in between leaves both names. Nothing is
    flushed: sync_directory(the directory) does, once the file's data is on the disk.
    """
    os.link(source, target)
    os.unlink(source)


def sync_directory(directory: StrPath) -> None:
    """Flush a directory's entries (a file linked, renamed or removed in it) to the disk.

    Threads of this process that ask for the same directory at once share one fsync (group commit):
    an fsync covers every caller that asked before it started, since each asks only once its own
    change is made; whoever asks while one runs waits for the next, which the first of them starts.
    """
    key = os.path.abspath(directory)
    with _directory_syncs_lock:
        group = _directory_syncs.get(key)
        if group is None:
            group = _directory_syncs[key] = _DirectorySync(key)
    group.sync()


class _DirectorySync:
    """The fsyncs of one directory, shared by the callers that ask at the same time."""

    def __init__(self, directory: str):
        self.directory = directory
        self._changed = threading.Condition(threading.Lock())
        self._asked = 0  # callers so far, numbered from 1
        self._covered = 0  # callers up to this number are on the disk
        self._running = False
        # Callers (after, up to] whose changes a failed fsync covered: never told they are on the disk, even once a later
        # fsync succeeds (after a failed write-back the kernel may have dropped their changes).
        self._failed: list[tuple[int, int, OSError]] = []

    def sync(self) -> None:
        with self._changed:
            self._asked += 1
            ticket = self._asked
            while self._running:
                self._changed.wait()
            for after, upto, error in self._failed:
                if after < ticket <= upto:
                    raise OSError(error.errno, error.strerror, self.directory)
            if self._covered >= ticket:
                return
            self._running = True
            upto = self._asked  # all of these asked before this fsync starts: their changes are in the directory
        failure: OSError | None = None
        try:
            fd = os.open(self.directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                flush_to_disk(fd)
            finally:
                os.close(fd)
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


_directory_syncs: dict[str, _DirectorySync] = {}
_directory_syncs_lock = threading.Lock()


class NotRegularFileError(OSError):
    """A symlink, directory or device sits where a regular file was expected."""


# (device, inode, size, modified ns, changed ns) of a regular file. write_atomic makes a new file each time and never
# writes one in place, so while a name shows the same version its content is the same: a reader may keep what it
# parsed (SessionStore does) and check the version, one lstat, instead of reading the file again.
FileVersion = tuple[int, int, int, int, int]


def _version(info: os.stat_result) -> FileVersion:
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def file_version(path: StrPath) -> FileVersion | None:
    """The version of the regular file at `path` (None when there is none, or something else sits there)."""
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return _version(info) if stat.S_ISREG(info.st_mode) else None


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
        return b"".join(chunks), _version(info)
    finally:
        os.close(fd)
