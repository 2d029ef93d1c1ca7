"""Who waits for a session, and who may answer it now: two advisory locks (flock) beside the session's record.

- `<id>.waiting`: the process that waits for the answer holds a *shared* lock on it for as long as it waits
  (`WaitingClaim`). The kernel drops the lock when that process dies, however it dies (Ctrl-C, SIGTERM,
  kill -9, a crash), so `someone_waits` is never fooled by a dead waiter: a submit to a session nobody
  waits for is refused and writes nothing.
- `<id>.lock`: whoever changes the session's outcome or its selection file holds an *exclusive* lock on it
  (`session_lock`): the API server while it delivers an answer, the waiter while it reads one or closes the
  session. So nobody ever sees a delivery half done, and two answers never interleave.

flock locks belong to an open file, not to a process: two threads (or an API server and an agent in one
process) that open the file separately exclude each other just as two processes do. Both files are empty
and live in the private state directory; `SessionStore.sweep` removes them with the session.
"""

from __future__ import annotations

import errno
import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from scene_agent.fileio import StrPath, ensure_private_dir


def _open(path: StrPath, create: bool) -> int | None:
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | (os.O_CREAT if create else 0)
    try:
        return os.open(path, flags, 0o600)
    except FileNotFoundError:
        if not create:
            return None
    ensure_private_dir(Path(os.path.dirname(path)))  # the sessions directory itself was missing: made now, owner-only
    return os.open(path, flags, 0o600)


class WaitingClaim:
    """A shared lock on `path` while a process waits for the session's answer; `release()` (or exit) ends it."""

    def __init__(self, path: StrPath):
        self.path = path
        fd = _open(path, create=True)
        assert fd is not None  # created if missing
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
        except OSError:
            os.close(fd)
            raise
        self._fd: int | None = fd

    def release(self) -> None:
        """Stop claiming (idempotent); the file stays for the sweep, so that a late submit still finds it unlocked."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # closing the only descriptor of the open file drops its lock

    def __enter__(self) -> WaitingClaim:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def someone_waits(path: StrPath) -> bool:
    """True while some process holds a WaitingClaim on `path`."""
    fd = _open(path, create=False)
    if fd is None:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            return True
        raise
    finally:
        os.close(fd)
    return False


@contextmanager
def session_lock(path: StrPath, *, wait: bool = True) -> Iterator[None]:
    """Hold the exclusive lock on `path` (created if missing) for the block; waits for the current holder, or with
    `wait=False` raises BlockingIOError at once while someone holds it."""
    fd = _open(path, create=True)
    assert fd is not None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield
    finally:
        os.close(fd)
