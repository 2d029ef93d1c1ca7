"""`SessionStore`: selection sessions and their outcomes as files in the shared state directory.

A session is `sessions/<id>.json`, written once. Its outcome is `sessions/<id>.outcome.json`, made empty with
the session and written once, under the session's lock (claims.py), by whoever records the outcome first: of the
viewer's Confirm, its Cancel, the agent's Ctrl-C and the waiter's timeout exactly one wins, across processes and
server restarts.

Beside them: `<id>.waiting` and `<id>.lock` (see claims.py).
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, suppress
from datetime import datetime, timedelta
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from scene_agent.config import Settings
from scene_agent.errors import SessionAnsweredError, SessionNotFoundError
from scene_agent.fileio import (
    FileVersion,
    NotRegularFileError,
    StrPath,
    ensure_private_dir,
    file_version,
    flush_to_disk,
    read_regular_file,
    read_regular_file_version,
    write_atomic,
)
from scene_agent.selection.files.claims import WaitingClaim, session_lock, someone_waits
from scene_agent.selection.files.journal import OutcomeJournal
from scene_agent.selection.limits import MAX_TIMEOUT_S
from scene_agent.selection.selection_file import selection_path
from scene_agent.selection.session import (
    RETAIN_AFTER_EXPIRY,
    SelectionSession,
    SessionOutcome,
    check_open,
    check_session_id,
    now_utc,
    status_of,
)

log = logging.getLogger(__name__)

_Record = TypeVar("_Record", bound=BaseModel)

MAX_RECORD_BYTES = 1024 * 1024
# create() sweeps a directory at most this often per process: a sweep lists the whole directory.
SWEEP_EVERY_S = 60.0
_last_sweep: dict[Path, float] = {}
# The files a session has in the sessions directory, `<id><kind>`: the session, its outcome, the waiting claim and the
# lock (claims.py).
SESSION, OUTCOME, WAITING, LOCK = ".json", ".outcome.json", ".waiting", ".lock"
RECORDS = (SESSION, OUTCOME, WAITING, LOCK)
_sweep_lock = threading.Lock()
SESSIONS_KEPT = 4096  # sessions a store keeps parsed (see SessionStore.get): a few MB at most


class SessionStore:
    """Create, read and end selection sessions; both the agent and the API server use one of these."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.directory = settings.sessions_dir
        self.journal = OutcomeJournal(settings.state_dir / "outcomes")
        self._prefix = os.path.join(self.directory, "")
        # Sessions as last read, with the version of the file they were read from (see get).
        self._sessions: dict[str, tuple[FileVersion, SelectionSession]] = {}
        self._sessions_lock = threading.Lock()

    def _path(self, session_id: str, kind: str) -> str:
        """`<id><kind>` in the sessions directory, for one of RECORDS; the id checked first. A string: see StrPath."""
        return f"{self._prefix}{check_session_id(session_id)}{kind}"

    def record_outcome(self, session: SelectionSession, outcome: bytes, *, durable: bool = False) -> Callable[[], None]:
        """Record the session's outcome (`outcome`, its JSON) unless one is recorded (then raise as check_open does);
        hold the session's lock. Returns how to take it back. With `durable`, flushed to the disk; a delivery instead
        journals it (self.journal), which is.

        The empty file store.create() made gets the JSON in one write: a reader sees it empty (no outcome) or whole.
        A session without that file (its state directory made by an older version, say) gets a new file, complete
        before it is linked under its name, as a write_atomic(exclusive=True) would make it."""
        path = self._path(session.session_id, OUTCOME)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:
            try:
                write_atomic(path, outcome, exclusive=True, durable=durable)
            except FileExistsError:
                self._refuse_second(session)
                raise  # pragma: no cover - check_open always raises once an outcome exists
            return lambda: os.unlink(path)
        try:
            if os.fstat(fd).st_size:
                self._refuse_second(session)
                raise FileExistsError(errno.EEXIST, "an outcome is recorded already", path)  # pragma: no cover
            try:
                if os.pwrite(fd, outcome, 0) != len(outcome):
                    raise OSError(errno.ENOSPC, "the outcome was written only in part", path)
                if durable:
                    flush_to_disk(fd)
            except BaseException:
                os.ftruncate(fd, 0)
                raise
        finally:
            os.close(fd)
        return lambda: os.truncate(path, 0)

    def restore_outcomes(self) -> list[str]:
        """At server start: write again, whole and flushed, each journaled outcome whose file a crash of the machine
        lost (or left unreadable) while its session is still kept; the sessions restored."""
        last: dict[str, SessionOutcome] = {}
        for record in self.journal.records():
            try:
                outcome = SessionOutcome.model_validate_json(record)
            except ValidationError as exc:
                log.warning("skipped a journaled outcome that does not parse: %s", exc)
                continue
            last[outcome.session_id] = outcome  # the newest record of a session is the delivery that stood
        restored = []
        for session_id, outcome in last.items():
            if file_version(self._path(session_id, SESSION)) is None:
                continue  # swept meanwhile
            with self.locked(session_id):
                if self._read(self._path(session_id, OUTCOME), SessionOutcome, quiet=True) is None:
                    write_atomic(self._path(session_id, OUTCOME), outcome.model_dump_json().encode(), durable=True)
                    restored.append(session_id)
        if restored:
            log.warning("restored %d outcome(s) from the journal that a crash had lost", len(restored))
        return restored

    def claim_waiting(self, session_id: str) -> WaitingClaim:
        """Say that this process waits for the session's answer, until the claim is released or the process dies."""
        return WaitingClaim(self._path(session_id, WAITING))

    def someone_waits(self, session_id: str) -> bool:
        """Whether a live process holds a waiting claim on the session."""
        return someone_waits(self._path(session_id, WAITING))

    def locked(self, session_id: str, *, wait: bool = True) -> AbstractContextManager[None]:
        """The session's exclusive lock: held while its outcome or selection file changes, or while a waiter reads them
        (`wait=False`: BlockingIOError at once while someone else holds it)."""
        return session_lock(self._path(session_id, LOCK), wait=wait)

    def create(self, session: SelectionSession) -> SelectionSession:
        """Store a new session (its id must be new) and sweep out long-expired ones."""
        ensure_private_dir(self.directory)
        with _sweep_lock:
            due = time.monotonic() - _last_sweep.get(self.directory, -SWEEP_EVERY_S) >= SWEEP_EVERY_S
            if due:
                _last_sweep[self.directory] = time.monotonic()
        if due:
            self.sweep()
        try:
            # The outcome's file comes first, empty (no outcome yet): recording one then writes into it rather than
            # making a file while the user waits (record_outcome).
            os.close(os.open(self._path(session.session_id, OUTCOME),
                             os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600))
            write_atomic(self._path(session.session_id, SESSION), session.model_dump_json().encode(), exclusive=True)
        except FileExistsError:
            raise SessionAnsweredError(f"session {session.session_id} already exists") from None
        return session

    def replace(self, session: SelectionSession) -> SelectionSession:
        """Write a stored session's record again (more time to pick), flushed to disk; hold its lock."""
        write_atomic(self._path(session.session_id, SESSION), session.model_dump_json().encode(), durable=True)
        return session

    def get(self, session_id: str) -> SelectionSession:
        """The session with this id; UsageError for a malformed id, SessionNotFoundError if there is none."""
        path = self._path(session_id, SESSION)
        # A session file is only ever replaced whole (write_atomic), never changed in place: while it shows the version
        # it had when it was read (one lstat), what was parsed then is still what it holds.
        known = self._sessions.get(session_id)
        if known is not None and known[0] == file_version(path):
            return known[1]
        session = None
        try:
            read = read_regular_file_version(path, MAX_RECORD_BYTES)
            if read is not None:
                session = SelectionSession.model_validate_json(read[0])
                self._remember(session_id, read[1], session)
        except (NotRegularFileError, ValidationError, OSError) as exc:
            log.warning("ignoring unreadable session record %s: %s", path, exc)
        if session is None:
            raise SessionNotFoundError(f"no selection session {session_id}")
        return session

    def _remember(self, session_id: str, version: FileVersion, session: SelectionSession) -> None:
        with self._sessions_lock:
            if session_id not in self._sessions and len(self._sessions) >= SESSIONS_KEPT:
                del self._sessions[next(iter(self._sessions))]  # the one read longest ago
            self._sessions[session_id] = (version, session)

    def outcome(self, session_id: str) -> SessionOutcome | None:
        """How the session ended, or None while it has no recorded outcome."""
        path = self._path(session_id, OUTCOME)
        version = file_version(path)
        if version is not None and version[2] == 0:  # made empty with the session: none yet, told by one lstat
            return None
        return self._read(path, SessionOutcome)

    def _refuse_second(self, session: SelectionSession) -> None:
        """An outcome is recorded already: raise as the channel does (session.check_open)."""
        check_open(session, *status_of(session, self.outcome(session.session_id)))

    def close(self, outcome: SessionOutcome, session: SelectionSession | None = None) -> SessionOutcome:
        """Record the outcome (on the disk when this returns) if none is recorded yet; otherwise raise as check_open
        does. Hold the session's lock."""
        session = session or self.get(outcome.session_id)
        self.record_outcome(session, outcome.model_dump_json().encode(), durable=True)
        return outcome

    def sweep(self, now: datetime | None = None) -> list[str]:
        """Delete sessions (with outcome, view manifest and stray selection file) long past expiry."""
        cutoff = (now or now_utc()) - RETAIN_AFTER_EXPIRY
        # A session expires after its file was written, so files written after the cutoff need no parsing.
        written_before = (cutoff + timedelta(seconds=60)).timestamp()
        removed = []
        for path in self.directory.glob("*.json"):
            if path.name.endswith(OUTCOME):
                continue
            try:
                if path.stat().st_mtime > written_before:
                    continue
            except OSError:
                continue
            session = self._read(path, SelectionSession, quiet=True)
            if session is None or session.expires_at > cutoff:
                continue
            sid = session.session_id
            stale: list[StrPath] = [*(self._path(sid, kind) for kind in RECORDS),
                                    selection_path(self.settings.selection_dir, sid)]
            if session.view:
                stale.append(self.settings.views_dir / f"{session.view}.json")
            for p in stale:
                with suppress(FileNotFoundError):
                    os.unlink(p)
            removed.append(sid)
        # A session lasts at most MAX_TIMEOUT_S: a journal segment last written that long before the cutoff names only
        # sessions swept by now (journal.py).
        self.journal.sweep(cutoff.timestamp() - MAX_TIMEOUT_S)
        return removed

    def _read(self, path: StrPath, model: type[_Record], quiet: bool = False) -> _Record | None:
        try:
            data = read_regular_file(path, MAX_RECORD_BYTES)
            return None if not data else model.model_validate_json(data)  # an empty outcome file: none yet
        except (NotRegularFileError, ValidationError, OSError) as exc:
            if not quiet:
                log.warning("ignoring unreadable session record %s: %s", path, exc)
            return None
