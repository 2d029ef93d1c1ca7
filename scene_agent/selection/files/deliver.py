"""Delivering an answer on this machine (the file backend's `record`): exactly once, or not at all.

The channel has checked the request (channel.py); a delivery runs under the session's lock (claims.py) and in this order:

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
file that nobody will read any more is removed at the next server start (`tidy_selection_files`). What must hold
at the moment of writing (no outcome yet, someone waits: claims.py) is checked under the lock before anything is
written, so a refused request leaves no trace (but the session's empty lock file, which the waiting agent has made
already when it first looked).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Literal

from scene_agent.errors import SelectionNotDeliveredError
from scene_agent.selection.backend import Verdict
from scene_agent.selection.files.journal import Appended
from scene_agent.selection.files.store import SessionStore
from scene_agent.selection.selection_file import (
    answer_file,
    list_selection_files,
    read_selection_file,
    selection_path,
    write_selection_file,
)
from scene_agent.selection.session import SelectionSession, SessionOutcome

log = logging.getLogger(__name__)

# The points between a delivery's steps, and who watches them pass: nobody in the product. A fault test adds a watcher
# that kills the process there, to prove that a delivery cut short is answered or undone (docs/selection-handoff.md,
# "Faults").
DeliveryStep = Literal["after_outcome", "after_selection_file"]
STEP_WATCHERS: list[Callable[[DeliveryStep], None]] = []

# The quick steps of the deliveries in this process (system calls that never wait for the disk) take turns; their
# fsyncs and lock waits run outside, side by side. Why taking turns is faster: docs/selection-handoff.md, "Throughput".
_QUICK_STEPS = threading.Lock()


def deliver(store: SessionStore, session: SelectionSession, outcome: SessionOutcome) -> Verdict:
    """Record the user's answer (a pick or a refusal) and write the selection file, once: `done` when it is on the
    disk, or why nothing was written. SelectionNotDeliveredError (everything undone) when the disk refused."""
    begun = begin(store, session, outcome)
    return begun if isinstance(begun, str) else begun.finish()


def begin(store: SessionStore, session: SelectionSession, outcome: SessionOutcome, *, wait: bool = True
          ) -> Delivery | Verdict:
    """deliver up to the journal's flush: `finish()` the Delivery. With `wait=False`, BlockingIOError (nothing done)
    while someone else holds the session's lock."""
    sid = session.session_id
    written: list[Callable[[], None]] = []  # how to take back what this delivery wrote so far, if a later step fails
    lock = ExitStack()  # released by Delivery.finish, or here if a step fails
    lock.enter_context(store.locked(sid, wait=wait))
    try:
        with _QUICK_STEPS:
            # Under the lock, where nobody else can answer meanwhile: an outcome recorded, nobody waiting, in this
            # order (the channel checked the rest); nothing is written before both pass.
            if store.outcome(sid) is not None:
                lock.close()
                return "answered"
            if not store.someone_waits(sid):
                lock.close()
                return "nobody_waiting"
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
    return Delivery(lock, written, appended, sid)


class Delivery:
    """An answer recorded but not acknowledged yet: the session's lock is held and the outcome is in the journal, not
    yet flushed. `finish()` flushes it (deliveries begun one after the other share the flush) and lets the lock go."""

    def __init__(self, lock: ExitStack, written: list[Callable[[], None]], appended: Appended, session_id: str):
        self._lock = lock
        self._written = written
        self._appended = appended
        self.session_id = session_id

    def finish(self) -> Verdict:
        """`done`, once the answer is on the disk; SelectionNotDeliveredError (everything undone) when it may not be."""
        with self._lock:
            try:
                self._appended.flush()
            except OSError as exc:
                _undo(self._written)
                raise _undelivered_error(self.session_id, exc) from None
            except BaseException:
                _undo(self._written)
                raise
        return "done"


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
