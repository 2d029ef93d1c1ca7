"""Answering a session (from the viewer, or in words): validate, then deliver the answer exactly once.

A delivery runs under the session's lock (claims.py) and in this order:

1. the outcome is written into the session's empty `<id>.outcome.json` (store.record_outcome; the first answer
   wins): the session is answered;
2. the selection file `viewer_selection_<id>.json` is written, which wakes the waiting agent (it takes the lock
   to look, so it reads once the delivery is done);
3. the outcome is appended to the outcome journal (journal.py), which is flushed to the disk for all the
   deliveries of the moment at once.

The answer is acknowledged only after step 3: the outcome is on the disk, in the journal, whence the next server
start writes its file again if a crash of the machine lost it (docs/selection-handoff.md, "Durability"). A step that
fails undoes the earlier ones (the outcome and the selection file removed, under the lock the waiter also takes to
look, so nobody has seen them) and raises SelectionNotDeliveredError: nothing is recorded, so a retry may succeed
once the obstacle is gone. A server that dies after step 1 has answered the session: the waiter finds the outcome
when the selection file wakes it, or when it next looks by itself (it looks every second, for this); a selection
file that nobody will read any more is removed at the next server start (`tidy_selection_files`). Every check runs
before anything is written, so a rejected request leaves no trace (but the session's empty lock file, which the
waiting agent has made already when it first looked); a session nobody waits for any more (claims.py) takes no
answer at all.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Literal

from scene_agent.errors import SelectionNotDeliveredError
from scene_agent.selection.journal import Appended
from scene_agent.selection.selection_file import (
    SelectionFile,
    answer_file,
    list_selection_files,
    read_selection_file,
    selection_path,
    write_selection_file,
)
from scene_agent.selection.session import (
    SelectionSession,
    SessionOutcome,
    UserAnswerBy,
    cancelled_outcome,
    confirmed_outcome,
    nobody_waiting,
)
from scene_agent.selection.store import SessionStore

log = logging.getLogger(__name__)

# The points between a delivery's steps, and who watches them pass: nobody in the product. A fault test adds a watcher
# that kills the process there, to prove that a delivery cut short is answered or undone (docs/selection-handoff.md,
# "Faults").
DeliveryStep = Literal["after_outcome", "after_selection_file"]
STEP_WATCHERS: list[Callable[[DeliveryStep], None]] = []

# The quick steps of the deliveries in this process (system calls that never wait for the disk) take turns; their
# fsyncs and lock waits run outside, side by side. Why taking turns is faster: docs/selection-handoff.md, "Throughput".
_QUICK_STEPS = threading.Lock()


def submit_selection(store: SessionStore, session_id: str, codes: list[str], *, by: UserAnswerBy = "viewer",
                     words: str | None = None) -> SelectionFile:
    """Confirm picks for a pending session (in the viewer, or in words): 404/409/410/422-style errors before any write."""
    return begin_submit(store, session_id, codes, by=by, words=words).finish()


def cancel_selection(store: SessionStore, session_id: str, *, by: UserAnswerBy = "viewer",
                     words: str | None = None) -> SelectionFile:
    """The user declined to pick (in the viewer, or in words): record it and tell the waiting agent through the file."""
    return begin_cancel(store, session_id, by=by, words=words).finish()


def begin_submit(store: SessionStore, session_id: str, codes: list[str], *, by: UserAnswerBy = "viewer",
                 words: str | None = None, wait: bool = True) -> Delivery:
    """submit_selection up to the journal's flush: `finish()` the result. With `wait=False`, BlockingIOError (nothing
    done) while someone else holds the session's lock."""
    session = store.get(session_id)
    return _begin(store, session, lambda: confirmed_outcome(session, codes, by=by, words=words), wait)


def begin_cancel(store: SessionStore, session_id: str, *, by: UserAnswerBy = "viewer", words: str | None = None,
                 wait: bool = True) -> Delivery:
    """cancel_selection up to the journal's flush, as begin_submit."""
    session = store.get(session_id)
    return _begin(store, session, lambda: cancelled_outcome(session, by=by, words=words), wait)


class Delivery:
    """An answer recorded but not acknowledged yet: the session's lock is held and the outcome is in the journal, not
    yet flushed. `finish()` flushes it (deliveries begun one after the other share the flush) and lets the lock go."""

    def __init__(self, lock: ExitStack, written: list[Callable[[], None]], appended: Appended, answer: SelectionFile,
                 session_id: str):
        self._lock = lock
        self._written = written
        self._appended = appended
        self.answer = answer
        self.session_id = session_id

    def finish(self) -> SelectionFile:
        """The answer, once it is on the disk; SelectionNotDeliveredError (everything undone) when it may not be."""
        with self._lock:
            try:
                self._appended.flush()
            except OSError as exc:
                _undo(self._written)
                raise _undelivered_error(self.session_id, exc) from None
            except BaseException:
                _undo(self._written)
                raise
        return self.answer


def _begin(store: SessionStore, session: SelectionSession, make_outcome: Callable[[], SessionOutcome],
           wait: bool) -> Delivery:
    sid = session.session_id
    written: list[Callable[[], None]] = []  # how to take back what this delivery wrote so far, if a later step fails
    lock = ExitStack()  # released by Delivery.finish, or here if a step fails
    lock.enter_context(store.locked(sid, wait=wait))
    try:
        with _QUICK_STEPS:
            # Under the lock, where nobody else can answer meanwhile: ended (409/410), picks that do not fit (422),
            # nobody waiting (410), in this order; nothing is written before all of them pass.
            store.check_open(session)
            outcome = make_outcome()
            if not store.someone_waits(sid):
                raise nobody_waiting(sid)
            answer = answer_file(outcome)
            record = outcome.model_dump_json().encode()
            written.append(store.record_outcome(session, record))
            _passed("after_outcome")
            written.append(_remover(write_selection_file(store.settings.selection_dir, answer)))
            _passed("after_selection_file")
            appended = store.journal.write(record)
    except OSError as exc:
        _undo(written)
        lock.close()
        raise _undelivered_error(sid, exc) from None
    except BaseException:
        _undo(written)
        lock.close()
        raise
    return Delivery(lock, written, appended, answer, sid)


def _undelivered_error(session_id: str, exc: OSError) -> SelectionNotDeliveredError:
    log.warning("could not deliver the answer to session %s: %s", session_id, exc)
    reason = exc.strerror or type(exc).__name__
    return SelectionNotDeliveredError(f"the answer could not be written where the waiting program reads it ({reason}); "
                                      "nothing was recorded, so it can be sent again")


def _remover(path: Path) -> Callable[[], None]:
    return lambda: path.unlink()


def _undo(written: list[Callable[[], None]]) -> None:
    """Undo a delivery that cannot be acknowledged: what it wrote is taken back, newest first (the lock is still held,
    so nobody has read it)."""
    for take_back in reversed(written):
        try:
            take_back()
        except FileNotFoundError:
            continue
        except OSError as exc:  # the outcome stays recorded: the waiter gets it, a retry gets 409
            log.warning("could not take back what a failed delivery wrote: %s", exc)


def tidy_selection_files(store: SessionStore) -> list[str]:
    """At server start: remove the selection files of answered sessions nobody waits for any more (left by a server that
    died between writing one and its waiter reading it); the sessions tidied."""
    tidied = []
    for session_id in list_selection_files(store.settings.selection_dir):
        try:
            with store.locked(session_id):
                if store.outcome(session_id) is None or store.someone_waits(session_id):
                    continue
                path = selection_path(store.settings.selection_dir, session_id)
                if read_selection_file(path, store.get(session_id)) is not None:
                    path.unlink()
                    tidied.append(session_id)
        except Exception as exc:  # noqa: BLE001 - not ours, or unreadable: left in place
            log.info("left the selection file of session %s in place: %s", session_id, exc)
    return tidied


def _passed(step: DeliveryStep) -> None:
    for watcher in STEP_WATCHERS:
        watcher(step)
