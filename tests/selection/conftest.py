"""Shared fixtures for the selection hand-off: settings and a store in tmp_path, a session factory, a waiter."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from handoff_helpers import OBJECTS, join_new_threads

from scene_agent.config import Settings
from scene_agent.selection.files.claims import WaitingClaim
from scene_agent.selection.files.store import SessionStore
from scene_agent.selection.files.waiter import SelectionWaiter
from scene_agent.selection.session import SelectionSession


@pytest.fixture
def store(settings: Settings) -> SessionStore:
    """A real store on disk."""
    return SessionStore(settings)


MakeSession = Callable[..., SelectionSession]


@pytest.fixture
def make_session(store: SessionStore) -> Iterator[MakeSession]:
    """Create and store a session over OBJECTS (or given labels); `age` backdates it by that many seconds.

    The test holds a waiting claim on it (as a waiting agent would) unless `waiting=False`, until it ends.
    """
    claims: list[WaitingClaim] = []

    def make(labels: dict[str, str] | None = None, *, multiple: bool = False, timeout: float = 30.0,
             age: float = 0.0, view: str | None = None, save: bool = True, waiting: bool = True) -> SelectionSession:
        labels = dict(labels or OBJECTS)
        session = SelectionSession.create(list(labels), labels, "Which one?", scene_id="test",
                                          multiple=multiple, timeout=timeout, view=view)
        if age:
            shift = timedelta(seconds=age)
            session = session.model_copy(update={"created_at": session.created_at - shift,
                                                 "expires_at": session.expires_at - shift})
        if not save:
            return session
        store.create(session)
        if age:  # the record is as old as the session claims (sweep skips young files unread)
            path = store.directory / f"{session.session_id}.json"
            os.utime(path, (session.created_at.timestamp(), session.created_at.timestamp()))
        if waiting:
            claims.append(store.claim_waiting(session.session_id))
        return session

    yield make
    for claim in claims:
        claim.release()


@pytest.fixture
def no_leaked_threads() -> Iterator[None]:
    """Fail the test if threads it started (observers, emitters, waits) outlive it."""
    before = set(threading.enumerate())
    yield
    assert join_new_threads(before) == []


@pytest.fixture(params=["watchdog", "polling"])
def waiter(request: pytest.FixtureRequest, no_leaked_threads: None) -> Iterator[SelectionWaiter]:
    """A SelectionWaiter of each backend; closed after the test, which must leave no thread behind."""
    waiter = SelectionWaiter(backend=request.param, poll_interval=0.05)
    yield waiter
    waiter.close()
