"""Waiting for a selection: one watchdog observer per process, polling when the observer cannot start.

This is the one module that imports watchdog. A `SelectionWaiter` watches the *directories* that
waiting sessions' selection files appear in and wakes the waiter whose file name an event names;
each `WatchedSelection` then looks itself, so the observer thread never blocks.

A waiting session holds a waiting claim (claims.py) from `watch()` until its wait ends, so that the API
server refuses answers nobody would receive. What counts is the outcome the API server recorded, read
under the session's lock (deliver.py): the selection file wakes the waiter and is removed, but a file
nobody recorded (planted in a shared /tmp, or left by a delivery that was rolled back) is ignored, and
a file that cannot be read or removed is reported in the log while the wait goes on.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Literal

from watchdog.events import FileClosedEvent, FileCreatedEvent, FileMovedEvent, FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver, ObservedWatch

from scene_agent.fileio import ensure_private_dir
from scene_agent.selection.backend import WaitRegistry
from scene_agent.selection.files.store import SessionStore
from scene_agent.selection.pending import PendingSelection
from scene_agent.selection.selection_file import selection_path
from scene_agent.selection.session import SelectionSession, SessionOutcome

log = logging.getLogger(__name__)

Backend = Literal["watchdog", "polling"]
DEFAULT_POLL_INTERVAL_S = 0.1
LOOK_EVERY_S = 1.0  # a wait woken by events still looks this often by itself (WatchedSelection)
# Events that can mean "the file is now complete": linked or renamed into place, or closed after writing.
# Not every write (IN_MODIFY): in a busy /tmp that would wake the observer for each write of every file.
_EVENTS = [FileMovedEvent, FileCreatedEvent, FileClosedEvent]


class _Wakeup(FileSystemEventHandler):
    """Forwards file events in watched directories to the waiter by file name."""

    def __init__(self, waiter: SelectionWaiter):
        self._waiter = waiter

    def on_any_event(self, event: FileSystemEvent) -> None:
        path = event.dest_path or event.src_path
        self._waiter._poke(os.path.basename(os.fsdecode(path)))


class WatchedSelection(PendingSelection):
    """A session waited for on the file channel: woken by the observer (or polling) when its selection file appears."""

    def __init__(self, waiter: SelectionWaiter, session: SelectionSession, store: SessionStore):
        super().__init__(session)
        # A server that died between recording the outcome and writing the file sends no event: look now and then.
        self.look_every = LOOK_EVERY_S
        self.store = store
        self.path = selection_path(store.settings.selection_dir, session.session_id)
        self._waiter = waiter
        self._registered = True
        self._ignored_file = False
        # Claimed before anyone is shown the session, released when the wait ends (or the process dies).
        self._claim = store.claim_waiting(session.session_id)
        with store.locked(session.session_id):  # its lock file made now, not by the first answer to take it
            pass

    def _finish(self) -> None:
        self._waiter._unregister(self)
        self._claim.release()

    def _record(self, end: SessionOutcome) -> SessionOutcome:
        return self._look(end) or end

    def _stored_expiry(self) -> datetime | None:
        return self.store.get(self.session.session_id).expires_at

    def _look(self, end: SessionOutcome | None = None) -> SessionOutcome | None:
        """Under the session's lock: the recorded outcome, its file removed; with none yet, `end` is recorded when
        given, else a stray file there is reported."""
        with self.store.locked(self.session.session_id):
            outcome = self.store.outcome(self.session.session_id)
            if outcome is None and end is not None:
                return self.store.close(end, self.session)
            if outcome is None:
                self._ignore_file()
            else:
                self._consume()
            return outcome

    def _outcome(self) -> SessionOutcome | None:
        try:
            return self._look()
        except OSError as exc:  # the state directory unreadable for a moment, say: look again later
            log.warning("could not look for the answer to session %s: %s", self.session.session_id, exc)
            return None

    def _ignore_file(self) -> None:
        """A selection file with no recorded answer behind it is not an answer: say so once, and keep waiting."""
        if not self._ignored_file and os.path.lexists(self.path):
            self._ignored_file = True
            log.warning("ignoring %s: no answer was recorded for session %s (a stray or planted file)",
                        self.path, self.session.session_id)

    def _consume(self) -> None:
        try:
            self.path.unlink(missing_ok=True)
        except OSError as exc:  # a directory squatting the name, a foreign file in a sticky /tmp
            log.warning("could not remove %s after reading the answer: %s", self.path, exc)


class SelectionWaiter:
    """Serves every waiting session of a process with one watchdog observer (started while anyone waits)."""

    def __init__(self, backend: Backend = "watchdog", poll_interval: float = DEFAULT_POLL_INTERVAL_S,
                 observer_factory: Callable[[], BaseObserver] = Observer):
        self.backend: Backend = backend
        self.poll_interval = poll_interval
        self._observer_factory = observer_factory
        self._lock = threading.Lock()
        self._observer: BaseObserver | None = None
        self._watches: dict[Path, tuple[ObservedWatch, int]] = {}
        self._pending: WaitRegistry[WatchedSelection] = WaitRegistry()  # by selection file name

    @property
    def waiting(self) -> int:
        """How many sessions are being waited for."""
        return len(self._pending)

    def watch(self, session: SelectionSession, store: SessionStore) -> WatchedSelection:
        """Start watching for a session's answer; call `wait()` on the result (the file is checked there first)."""
        directory = ensure_private_dir(store.settings.selection_dir)  # before the claim: a failure here holds nothing
        pending = WatchedSelection(self, session, store)
        with self._lock:
            self._pending.add(pending.path.name, pending)
            if self.backend == "watchdog" and self._watch_directory(directory):
                return pending
        pending.poll_interval = self.poll_interval
        return pending

    def close(self) -> None:
        """Stop the observer now (waits in progress fall back to polling)."""
        with self._lock:
            observer, self._observer = self._observer, None
            self._watches.clear()
            for pending in self._pending.all():
                pending.poll_interval = self.poll_interval
                pending.wake()  # a wait asleep until its deadline must start polling now
        self._stop(observer)

    def _watch_directory(self, directory: Path) -> bool:
        """Schedule `directory` (called with the lock held); False when watchdog cannot serve it."""
        try:
            if self._observer is None:
                observer = self._observer_factory()
                observer.start()
                self._observer = observer
            watch, count = self._watches.get(directory, (None, 0))
            if watch is None:
                watch = self._observer.schedule(_Wakeup(self), str(directory), event_filter=_EVENTS)
            self._watches[directory] = (watch, count + 1)
            return True
        except OSError as exc:
            # e.g. the inotify instance or watch limit is reached: polling still works.
            log.warning("file watching unavailable (%s); polling every %.2f s instead", exc, self.poll_interval)
            if self._observer is not None and not self._watches:
                observer, self._observer = self._observer, None
                threading.Thread(target=self._stop, args=(observer,), daemon=True).start()
            self.backend = "polling"
            return False

    def _unregister(self, pending: WatchedSelection) -> None:
        observer = None
        with self._lock:
            if not pending._registered:
                return
            pending._registered = False
            self._pending.remove(pending.path.name, pending)
            if pending.poll_interval is None:
                directory = pending.path.parent
                watch, count = self._watches.get(directory, (None, 0))
                if watch is not None and count > 1:
                    self._watches[directory] = (watch, count - 1)
                elif watch is not None:
                    del self._watches[directory]
                    if self._observer is not None:
                        self._observer.unschedule(watch)
                if not self._watches:
                    observer, self._observer = self._observer, None
        if observer is not None:
            # Stopped outside the lock (its thread may be delivering a poke) and off this thread, so that
            # the waiter's caller gets its answer without paying for the join.
            threading.Thread(target=self._stop, args=(observer,), name="selection-observer-stop", daemon=True).start()

    def _poke(self, name: str) -> None:
        for pending in self._pending.of(name):
            pending.wake()

    @staticmethod
    def _stop(observer: BaseObserver | None) -> None:
        if observer is not None:
            observer.stop()
            observer.join()


_defaults: dict[Backend, SelectionWaiter] = {}
_default_lock = threading.Lock()


def default_waiter(backend: Backend = "watchdog") -> SelectionWaiter:
    """The process-wide waiter for this way of waiting (Settings.selection_watch), created on first use. A watchdog
    waiter that had to fall back to polling stays the one asked for as watchdog."""
    with _default_lock:
        waiter = _defaults.get(backend)
        if waiter is None:
            waiter = _defaults[backend] = SelectionWaiter(backend=backend)
        return waiter
