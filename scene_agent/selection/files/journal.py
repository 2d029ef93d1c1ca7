"""The outcome journal: the answers the API server acknowledged, appended to a log that is flushed for many at once.

A delivery (deliver.py) names the session's outcome file without flushing it, appends the outcome to the journal
and acknowledges the answer once the journal is on the disk. Appends running at the same time in one process
share one fdatasync (fileio.GroupFlush), so a busy server flushes far less often than it answers. After a crash of
the machine, an outcome file that had not reached the disk yet is written again from the journal at the next
server start (`OutcomeJournal.records`, used by SessionStore.restore_outcomes), before anyone is served.

Layout: `<state>/outcomes/<ns>-<pid>.log`, one segment per process at a time, a new one every SEGMENT_S or
SEGMENT_BYTES. A record is `\\x1e<crc32 hex> <outcome JSON>\\n`, written with one append: a record torn by a
crash (or a full disk) fails its checksum and is skipped, and the next record still begins at its separator
(JSON never holds a raw \\x1e). A session lasts at most MAX_TIMEOUT_S and is swept RETAIN_AFTER_EXPIRY after it
ends, so a segment last written longer ago than both names only swept sessions: SessionStore.sweep deletes it.
"""

from __future__ import annotations

import errno
import functools
import logging
import os
import re
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

from scene_agent.fileio import GroupFlush, ensure_private_dir, flush_to_disk

log = logging.getLogger(__name__)

SEGMENT_S = 600.0
SEGMENT_BYTES = 4 * 1024 * 1024
SEPARATOR = b"\x1e"
_SEGMENT_NAME = re.compile(r"^[0-9]+-[0-9]+\.log$")
_RECORD = re.compile(rb"^([0-9a-f]{8}) (\{.*\})\n$", re.DOTALL)


class _Segment:
    """One open segment file, with its group flush; closed once retired and no append uses it any more."""

    def __init__(self, path: Path):
        self.path = path
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        self.flush = GroupFlush(str(path), functools.partial(flush_to_disk, self.fd, data_only=True))
        self.opened = time.monotonic()
        self.written = 0
        self.users = 0
        self.retired = False

    def close(self) -> None:
        os.close(self.fd)


class OutcomeJournal:
    """The outcome journal of one state directory, as this process appends to it (thread-safe)."""

    def __init__(self, directory: Path):
        self.directory = directory
        self._lock = threading.Lock()
        self._current: _Segment | None = None

    def append(self, record: bytes) -> None:
        """Append one record (an outcome's JSON) and return once it is on the disk; OSError when it may not be."""
        self.write(record).flush()

    def write(self, record: bytes) -> Appended:
        """Append one record, not yet flushed: `flush()` the result (a flush covers every record written before it
        started, so records written one after the other and then flushed share one fdatasync)."""
        line = frame(record)
        segment = self._take()
        try:
            written = os.write(segment.fd, line)
            segment.written += written
            if written != len(line):  # a full disk: the torn record fails its checksum; the next append starts afresh
                with self._lock:
                    self._retire(segment)
                raise OSError(errno.ENOSPC, "the outcome journal was written only in part", str(segment.path))
        except BaseException:
            self._give_back(segment)
            raise
        return Appended(self, segment, segment.flush.ticket())

    def _give_back(self, segment: _Segment) -> None:
        with self._lock:
            segment.users -= 1
            if segment.retired and segment.users == 0:
                segment.close()

    def _take(self) -> _Segment:
        """The segment to append to (a new one when there is none, or it is full or old), held until given back."""
        with self._lock:
            segment = self._current
            if segment is None or segment.written >= SEGMENT_BYTES or time.monotonic() - segment.opened >= SEGMENT_S:
                ensure_private_dir(self.directory)
                fresh = _Segment(self.directory / f"{time.time_ns()}-{os.getpid()}.log")
                if segment is not None:
                    self._retire(segment)
                segment = self._current = fresh
            segment.users += 1
            return segment

    def _retire(self, segment: _Segment) -> None:
        """With the lock held: no more appends go to `segment`; it is closed once its last append is done."""
        if segment is self._current:
            self._current = None
        if not segment.retired:
            segment.retired = True
            if segment.users == 0:
                segment.close()

    def close(self) -> None:
        """Stop appending to the current segment (the next append opens a new one)."""
        with self._lock:
            if self._current is not None:
                self._retire(self._current)

    def segments(self) -> list[Path]:
        """The segment files, oldest first."""
        try:
            names = os.listdir(self.directory)
        except (FileNotFoundError, NotADirectoryError):
            return []
        return sorted((self.directory / n for n in names if _SEGMENT_NAME.match(n)),
                      key=lambda p: int(p.name.split("-")[0]))

    def records(self) -> Iterator[bytes]:
        """Every whole record in every segment, oldest first (torn ones are skipped, and counted in the log)."""
        for path in self.segments():
            try:
                data = path.read_bytes()
            except OSError as exc:
                log.warning("could not read the outcome journal %s: %s", path, exc)
                continue
            torn = 0
            for chunk in data.split(SEPARATOR)[1:]:
                record = unframe(chunk)
                if record is None:
                    torn += 1
                else:
                    yield record
            if torn:
                log.warning("skipped %d torn record(s) in the outcome journal %s", torn, path)

    def sweep(self, written_before: float) -> list[str]:
        """Delete the segments last written before `written_before` (a time.time()); not this process's current one."""
        removed = []
        with self._lock:
            current = self._current.path if self._current is not None else None
        for path in self.segments():
            try:
                if path != current and path.stat().st_mtime < written_before:
                    path.unlink()
                    removed.append(path.name)
            except FileNotFoundError:
                continue
        return removed


class Appended:
    """A record written to the journal, on the disk once `flush()` returns (OSError when it may not be)."""

    def __init__(self, journal: OutcomeJournal, segment: _Segment, ticket: int):
        self._journal = journal
        self._segment: _Segment | None = segment
        self._ticket = ticket  # a flush that starts after it was taken covers the record

    def flush(self) -> None:
        segment, self._segment = self._segment, None
        if segment is None:
            raise ValueError("flushed already")
        try:
            segment.flush.sync(self._ticket)
        finally:
            self._journal._give_back(segment)


def frame(record: bytes) -> bytes:
    """`record` as one journal line: separator, checksum, the record, a newline."""
    return b"%s%08x %s\n" % (SEPARATOR, zlib.crc32(record), record)


def unframe(chunk: bytes) -> bytes | None:
    """The record in a chunk between separators, or None when it is torn (incomplete, or its checksum fails)."""
    match = _RECORD.match(chunk)
    if match is None or int(match.group(1), 16) != zlib.crc32(match.group(2)):
        return None
    return match.group(2)
