"""Answering a session (from the viewer, or in words): validate, then deliver the answer exactly once.

A delivery runs under the session's lock (claims.py) and in this order:

1. the delivery note (`<id>.delivering.json`: the outcome about to be recorded), its data flushed to the disk
   before it gets its name;
2. the selection file `viewer_selection_<id>.json`, which wakes the waiting agent;
3. the outcome: the note is linked as `<id>.outcome.json` (exclusively: the first answer wins) and unlinked as a
   note, then the directory is flushed to the disk (an fsync shared with the deliveries of the moment).

The answer is acknowledged only after step 3: the outcome is on the disk, whole (docs/selection-handoff.md,
"Durability"). A step that fails undoes the earlier ones and raises
SelectionNotDeliveredError: nothing is recorded, so a retry may succeed once the obstacle is gone. A
process that dies between the steps leaves the note: the waiter (which reads under the same lock) or the
next server start completes the delivery while someone waits, and rolls it back otherwise
(`settle_delivery`). Every check runs before anything is written, so a rejected request leaves no trace (but the
session's empty lock file, which the waiting agent has made already when it first looked);
a session nobody waits for any more (claims.py) takes no answer at all.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Callable

from scene_agent.errors import NobodyWaitingError, SelectionNotDeliveredError
from scene_agent.fileio import StagedFile
from scene_agent.selection.selection_file import (
    SelectionFile,
    answer_file,
    read_selection_file,
    selection_path,
    write_selection_file,
)
from scene_agent.selection.session import SelectionSession, SessionOutcome, UserAnswerBy, cancelled_outcome, confirmed_outcome
from scene_agent.selection.store import SessionStore

log = logging.getLogger(__name__)

# The points between the steps where a test can make the serving process die (Settings.crash_at).
CRASH_POINTS = ("after_note", "after_selection_file")

# The quick steps of the deliveries in this process (system calls that never wait for the disk) take turns; their
# fsyncs and lock waits run outside, side by side. Why taking turns is faster: docs/selection-handoff.md, "Throughput".
_QUICK_STEPS = threading.Lock()


def submit_selection(store: SessionStore, session_id: str, codes: list[str], *, by: UserAnswerBy = "viewer",
                     words: str | None = None) -> SelectionFile:
    """Confirm picks for a pending session (in the viewer, or in words): 404/409/410/422-style errors before any write."""
    session = store.get(session_id)
    return _deliver(store, session, lambda: confirmed_outcome(session, codes, by=by, words=words))


def cancel_selection(store: SessionStore, session_id: str, *, by: UserAnswerBy = "viewer",
                     words: str | None = None) -> SelectionFile:
    """The user declined to pick (in the viewer, or in words): record it and tell the waiting agent through the file."""
    session = store.get(session_id)
    return _deliver(store, session, lambda: cancelled_outcome(session, by=by, words=words))


def _deliver(store: SessionStore, session: SelectionSession, make_outcome: Callable[[], SessionOutcome]) -> SelectionFile:
    sid = session.session_id
    with store.locked(sid):
        with _QUICK_STEPS:
            # Under the lock, where nobody else can answer meanwhile: ended (409/410), picks that do not fit (422),
            # nobody waiting (410), in this order; nothing is written before all of them pass.
            store.check_open(session)
            outcome = make_outcome()
            if not store.someone_waits(sid):
                raise NobodyWaitingError(f"nobody is waiting for the answer to selection session {sid} any more "
                                         "(the program that asked has stopped); nothing was recorded")
            answer = answer_file(outcome)
            try:
                note = store.stage_delivery(outcome)
            except OSError as exc:
                raise _undelivered_error(sid, exc) from None
        try:
            note.flush()  # outside the turns, so that the fsyncs of several deliveries overlap
            with _QUICK_STEPS:
                note.place()
                _crash_point(store, "after_note")
                write_selection_file(store.settings.selection_dir, answer)
                _crash_point(store, "after_selection_file")
                store.finish_delivery(outcome, session)
            store.flush_directory()  # one fsync for the deliveries that recorded theirs meanwhile (group commit)
        except OSError as exc:
            _roll_back(store, sid, note)
            raise _undelivered_error(sid, exc) from None
        except BaseException:
            _roll_back(store, sid, note)
            raise
    return answer


def _undelivered_error(session_id: str, exc: OSError) -> SelectionNotDeliveredError:
    log.warning("could not deliver the answer to session %s: %s", session_id, exc)
    reason = exc.strerror or type(exc).__name__
    return SelectionNotDeliveredError(f"the answer could not be written where the waiting program reads it ({reason}); "
                                      "nothing was recorded, so it can be sent again")


def _roll_back(store: SessionStore, session_id: str, staged: StagedFile | None = None) -> None:
    """Undo a delivery that did not record its outcome: the selection file (if it is ours) and the note go."""
    if staged is not None:
        staged.discard()
    if store.outcome(session_id) is not None:
        store.end_delivery(session_id)
        return
    path = selection_path(store.settings.selection_dir, session_id)
    try:
        if read_selection_file(path, store.get(session_id)) is not None:
            path.unlink()
    except Exception as exc:  # noqa: BLE001 - an unreadable or foreign file there is not ours to remove
        log.info("left %s in place while rolling back: %s", path, exc)
    try:
        store.end_delivery(session_id)
    except OSError as exc:
        log.warning("could not remove the delivery note of session %s: %s", session_id, exc)


def settle_delivery(store: SessionStore, session_id: str) -> SessionOutcome | None:
    """With the session's lock held: finish a delivery its process left half done, or undo it.

    Completed (selection file written if missing, outcome recorded) while someone waits for the answer,
    rolled back otherwise. Returns the session's outcome afterwards (None when there is none).
    """
    outcome = store.outcome(session_id)
    note = store.delivery(session_id)
    if note is None:
        return outcome
    if outcome is not None or not store.someone_waits(session_id):
        _roll_back(store, session_id)
        return store.outcome(session_id)
    try:
        path = selection_path(store.settings.selection_dir, session_id)
        if not path.exists():
            write_selection_file(store.settings.selection_dir, answer_file(note))
        store.close(note)
        store.end_delivery(session_id)
        log.info("completed the delivery to session %s that its process left half done", session_id)
    except Exception as exc:  # noqa: BLE001 - the session stays as it was; the next look tries again
        log.warning("could not complete the delivery to session %s: %s", session_id, exc)
    return store.outcome(session_id)


def recover_deliveries(store: SessionStore) -> list[str]:
    """At server start: settle every delivery a previous server left half done; returns the sessions settled."""
    settled = []
    for session_id in store.deliveries():
        try:
            with store.locked(session_id):
                settle_delivery(store, session_id)
            settled.append(session_id)
        except OSError as exc:
            log.warning("could not settle the delivery to session %s: %s", session_id, exc)
    return settled


def _crash_point(store: SessionStore, point: str) -> None:
    """Die here, as kill -9 would, when the settings say so (fault tests only; never set in normal use)."""
    if store.settings.crash_at == point:
        os.kill(os.getpid(), signal.SIGKILL)
