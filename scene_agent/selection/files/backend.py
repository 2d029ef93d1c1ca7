"""`FileBackend`: the selection hand-off on one machine, through the state directory and the selection file.

Sessions and outcomes are files in the state directory (store.py), an answer is delivered as the selection
file `viewer_selection_<id>.json` (deliver.py), and the waiting agent is woken by a watchdog event on it, or by
polling when the observer cannot start (waiter.py). The agent and the API server must share both directories.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from scene_agent.config import Settings
from scene_agent.errors import SessionAnsweredError, SessionNotFoundError
from scene_agent.fileio import ensure_private_dir
from scene_agent.selection.backend import ChannelHealth, SelectionBackend, Verdict
from scene_agent.selection.files.deliver import deliver, tidy_selection_files
from scene_agent.selection.files.store import SessionStore
from scene_agent.selection.files.waiter import SelectionWaiter, default_waiter
from scene_agent.selection.pending import PendingSelection
from scene_agent.selection.session import SelectionSession, SessionOutcome
from scene_agent.selection.views import ViewManifest, read_view, write_view

if TYPE_CHECKING:
    from scene_agent.selection.files.deliverer import Deliverer


WHY_NOT_WRITABLE = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is used up",
                    errno.EROFS: "the file system is read-only", errno.EACCES: "permission denied"}
PROBE_BYTES = 4096  # a page: a disk with less room than this cannot take a session either


def _probe_write(directory: Path) -> None:
    """Write a page into `directory`, sync it, remove it; raises OSError when it cannot."""
    handle, name = tempfile.mkstemp(prefix=".health-", dir=directory)
    try:
        os.write(handle, b"\0" * PROBE_BYTES)
        os.fsync(handle)
    finally:
        os.close(handle)
        os.unlink(name)


class FileBackend(SelectionBackend):
    """Sessions in the state directory, picks as selection files, waits woken by watchdog (or polling)."""

    kind = "file"

    def __init__(self, settings: Settings, waiter: SelectionWaiter | None = None, *,
                 child: Sequence[str] | None = None, store: SessionStore | None = None):
        """`waiter`: the process-wide one unless given; `child`: how `deliver_in_child` starts the delivery process
        (deliverer.CHILD unless given); `store`: a store of these settings to share."""
        self.settings = settings
        self.store = store or SessionStore(settings)
        self._waiter = waiter
        self._child = child
        self._deliverer: Deliverer | None = None

    def deliver_in_child(self) -> None:
        """From now on, answers are recorded in a process of their own (deliverer.py): what a busy server wants."""
        if self._deliverer is None:
            from scene_agent.selection.files.deliverer import CHILD, Deliverer  # here: only `serve` needs it

            self._deliverer = Deliverer(self.settings, self._child or CHILD)

    def close(self) -> None:
        deliverer, self._deliverer = self._deliverer, None
        if deliverer is not None:
            deliverer.close()

    @property
    def waiter(self) -> SelectionWaiter:
        """The waiter given, else the process-wide one (one observer per process)."""
        return self._waiter or default_waiter(self.settings.selection_watch)

    def describe(self) -> str:
        watch = self._waiter.backend if self._waiter else self.settings.selection_watch
        return (f"files on this machine: sessions in {self.settings.sessions_dir}, picks in "
                f"{self.settings.selection_dir} ({watch})")

    def health(self) -> ChannelHealth:
        """Whether picks can be recorded now: a probe file written, synced and removed in each directory (a full
        disk or a read-only one lets the directory be listed, and even an empty file be made)."""
        where = f"{self.settings.state_dir} + {self.settings.selection_dir}"
        for directory in (self.settings.sessions_dir, self.settings.selection_dir):
            try:
                ensure_private_dir(directory)
                _probe_write(directory)
            except OSError as exc:
                why = WHY_NOT_WRITABLE.get(exc.errno or 0, exc.strerror or str(exc))
                return ChannelHealth("file", where, False, f"cannot write in {directory}: {why}")
        return ChannelHealth("file", where, True, "the state and selection directories take writes")

    def create(self, session: SelectionSession, view: ViewManifest) -> bool:
        try:
            self.store.create(session)
        except SessionAnsweredError:  # the id is taken
            return False
        write_view(self.settings.views_dir, view)
        return True

    def get(self, session_id: str) -> SelectionSession | None:
        try:
            return self.store.get(session_id)
        except SessionNotFoundError:
            return None

    def outcome(self, session_id: str) -> SessionOutcome | None:
        return self.store.outcome(session_id)

    def someone_waits(self, session_id: str) -> bool:
        return self.store.someone_waits(session_id)

    def record(self, session: SelectionSession, outcome: SessionOutcome) -> Verdict:
        if self._deliverer is not None:
            return self._deliverer.record(outcome)
        return deliver(self.store, session, outcome)

    def extend(self, session: SelectionSession) -> Verdict:
        with self.store.locked(session.session_id):  # the waiter closes a session under this lock too
            if self.store.outcome(session.session_id) is not None:
                return "answered"
            if not self.store.someone_waits(session.session_id):
                return "nobody_waiting"
            self.store.replace(session)
            return "done"

    def watch(self, session: SelectionSession) -> PendingSelection:
        return self.waiter.watch(session, self.store)

    def write_view(self, view: ViewManifest) -> None:
        write_view(self.settings.views_dir, view)

    def read_view(self, name: str) -> bytes | None:
        return read_view(self.settings.views_dir, name)

    def recover(self) -> list[str]:
        restored = self.store.restore_outcomes()
        return sorted({*restored, *tidy_selection_files(self.store)})
