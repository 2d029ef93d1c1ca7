"""Answering a session from the viewer: validate, record the outcome, then write the selection file.

The API server calls these; every check runs before anything is written, so a rejected request
leaves no trace.
"""

from __future__ import annotations

from typing import Literal

from scene_agent.errors import InvalidSelectionError
from scene_agent.selection.selection_file import SelectionFile, write_selection_file
from scene_agent.selection.session import SessionOutcome, now_utc
from scene_agent.selection.store import SessionStore


def submit_selection(store: SessionStore, session_id: str, codes: list[str], *, by: Literal["viewer", "words"] = "viewer",
                     words: str | None = None) -> SelectionFile:
    """Confirm picks for a pending session (in the viewer, or in words): 404/409/410/422-style errors before any write."""
    session = store.get(session_id)
    store.check_open(session)
    problems = session.check_picks(codes)
    if problems:
        raise InvalidSelectionError("; ".join(problems))
    picked = [session.picked(code) for code in codes]
    now = now_utc()
    store.close(SessionOutcome(session_id=session_id, status="confirmed", by=by, words=words, selections=picked, at=now),
                session)
    answer = SelectionFile(session_id=session_id, status="confirmed", selections=picked, submitted_at=now)
    write_selection_file(store.settings.selection_dir, answer)
    return answer


def cancel_selection(store: SessionStore, session_id: str, *, by: Literal["viewer", "words"] = "viewer",
                     words: str | None = None) -> SelectionFile:
    """The user declined to pick (in the viewer, or in words): record it and tell the waiting agent through the file."""
    session = store.get(session_id)
    store.check_open(session)
    now = now_utc()
    store.close(SessionOutcome(session_id=session_id, status="cancelled", by=by, words=words, at=now), session)
    answer = SelectionFile(session_id=session_id, status="cancelled", selections=[], submitted_at=now)
    write_selection_file(store.settings.selection_dir, answer)
    return answer
