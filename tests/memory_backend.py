"""A third selection backend, in this process' memory, written only here: proof that SelectionBackend is all a
SelectionChannel needs (tests/selection/test_channel_contract.py runs the same rules over it, files and Redis)."""

from __future__ import annotations

import threading
from datetime import datetime

from scene_agent.config import Settings
from scene_agent.selection.backend import ChannelHealth, SelectionBackend, Verdict
from scene_agent.selection.pending import PendingSelection
from scene_agent.selection.session import SelectionSession, SessionOutcome
from scene_agent.selection.views import VIEW_NAME_RE, ViewManifest


class MemoryBackend(SelectionBackend):
    """Sessions, outcomes, waits and views in dicts under one lock; a recorded outcome wakes its waits at once."""

    kind = "memory"

    def __init__(self, settings: Settings):
        self.settings = settings
        self._lock = threading.Lock()
        self._sessions: dict[str, SelectionSession] = {}
        self._outcomes: dict[str, SessionOutcome] = {}
        self._views: dict[str, bytes] = {}
        self._waits: dict[str, list[MemoryWait]] = {}

    def describe(self) -> str:
        return "memory of this process"

    def health(self) -> ChannelHealth:
        return ChannelHealth("memory", "this process", True, "always answers")

    def create(self, session: SelectionSession, view: ViewManifest) -> bool:
        with self._lock:
            if session.session_id in self._sessions:
                return False
            self._sessions[session.session_id] = session
            self._views[view.view] = view.model_dump_json().encode()
            return True

    def get(self, session_id: str) -> SelectionSession | None:
        return self._sessions.get(session_id)

    def outcome(self, session_id: str) -> SessionOutcome | None:
        return self._outcomes.get(session_id)

    def someone_waits(self, session_id: str) -> bool:
        return bool(self._waits.get(session_id))

    def _refusal(self, session_id: str) -> Verdict | None:
        """With the lock held: why a write that needs an open, waited-for session may not happen now."""
        if session_id not in self._sessions:
            return "not_found"
        if session_id in self._outcomes:
            return "answered"
        if not self._waits.get(session_id):
            return "nobody_waiting"
        return None

    def record(self, session: SelectionSession, outcome: SessionOutcome) -> Verdict:
        with self._lock:
            refusal = self._refusal(session.session_id)
            if refusal is not None:
                return refusal
            self._outcomes[session.session_id] = outcome
            waits = list(self._waits.get(session.session_id, ()))
        for wait in waits:
            wait.wake()
        return "done"

    def extend(self, session: SelectionSession) -> Verdict:
        with self._lock:
            refusal = self._refusal(session.session_id)
            if refusal is not None:
                return refusal
            self._sessions[session.session_id] = session
            return "done"

    def watch(self, session: SelectionSession) -> PendingSelection:
        wait = MemoryWait(self, session)
        with self._lock:
            self._waits.setdefault(session.session_id, []).append(wait)
        return wait

    def write_view(self, view: ViewManifest) -> None:
        with self._lock:
            self._views[view.view] = view.model_dump_json().encode()

    def read_view(self, name: str) -> bytes | None:
        return self._views.get(name) if VIEW_NAME_RE.fullmatch(name) else None

    # -- what a MemoryWait asks of its backend ----------------------------------------------------------------

    def close_session(self, end: SessionOutcome) -> SessionOutcome:
        """Record `end` unless an outcome is recorded; the one that stands."""
        with self._lock:
            return self._outcomes.setdefault(end.session_id, end)

    def forget(self, wait: MemoryWait) -> None:
        with self._lock:
            waits = self._waits.get(wait.session.session_id, [])
            if wait in waits:
                waits.remove(wait)


class MemoryWait(PendingSelection):
    """A wait woken by MemoryBackend.record; it looks at the outcome itself."""

    def __init__(self, backend: MemoryBackend, session: SelectionSession):
        super().__init__(session)
        self._backend = backend

    def _outcome(self) -> SessionOutcome | None:
        return self._backend.outcome(self.session.session_id)

    def _record(self, end: SessionOutcome) -> SessionOutcome:
        return self._backend.close_session(end)

    def _stored_expiry(self) -> datetime | None:
        stored = self._backend.get(self.session.session_id)
        return None if stored is None else stored.expires_at

    def _finish(self) -> None:
        self._backend.forget(self)
