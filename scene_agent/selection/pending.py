"""`PendingSelection`: one session being waited for, the same loop on every selection channel.

`wait()` runs in one thread; `cancel()` may be called from any other (a Stop button, Ctrl-C, SIGTERM). The
wait ends on the user's answer, on a cancel (closed as cancelled by the caller) or at the session's deadline
(closed as expired), each recorded as the session's one outcome: if the user's answer was recorded first, that
answer is the result. A channel supplies how to look for the outcome, how to record one, and what to let go.

The user may ask for more time (the viewer's "more time": the stored session gets a later deadline). The wait
looks at the stored deadline when its own comes, and each time it reports progress, and carries on to the new
one; progress then counts down from it.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from datetime import datetime
from typing import Literal

from scene_agent.errors import SceneAgentError
from scene_agent.selection.result import Progress, SelectionResult, ended_result
from scene_agent.selection.session import SelectionSession, SessionOutcome, now_utc

log = logging.getLogger(__name__)
WAIT_CANCELLED = "the wait was cancelled"  # the reason of a cancel that gave none


class PendingSelection(ABC):
    """One session being waited for. `wait()` in one thread; `cancel()` from any other."""

    def __init__(self, session: SelectionSession):
        self.session = session
        self.poll_interval: float | None = None  # set when this wait has to look by itself, every so often
        self.look_every: float | None = None  # how often a wait woken by events looks by itself all the same
        self._changed = threading.Event()
        self._cancelled = False
        self._cancel_reason = WAIT_CANCELLED
        self._started = time.monotonic()
        self._deadline = self._started + session.seconds_left()

    @property
    def seconds_left(self) -> float:
        """Seconds until this wait ends by itself."""
        return max(0.0, self._deadline - time.monotonic())

    def cancel(self, reason: str | None = None) -> None:
        """Stop waiting: the session is closed as cancelled by the caller (unless an answer won the race); `reason`
        says why ("the server is shutting down"), for the people told."""
        if reason:
            self._cancel_reason = reason
        self._cancelled = True
        self._changed.set()

    def release(self) -> None:
        """Stop waiting without recording anything: the claim is let go, so the session, still open, takes no answer
        (nobody waits). For a process that only stands in for a waiting agent (a benchmark); idempotent."""
        self._finish()

    def wake(self) -> None:
        """Look again now (something may have arrived); any thread."""
        self._changed.set()

    def wait(self, on_progress: Progress | None = None, progress_every: float = 1.0) -> SelectionResult:
        """Block until the answer, a cancel or the timeout; `on_progress(seconds_left)` is called as time passes.

        After an interruption (KeyboardInterrupt), `cancel()` then `wait()` again closes the session cleanly.
        """
        try:
            return self._wait(on_progress, progress_every)
        finally:
            self._finish()

    def _wait(self, on_progress: Progress | None, progress_every: float) -> SelectionResult:
        next_progress = time.monotonic()
        while True:
            self._changed.clear()  # before the check, so a wake-up during the check is not lost
            if self._cancelled:
                return self._close("cancelled", by="caller", reason=self._cancel_reason)
            outcome = self._outcome()
            if outcome is not None:
                return self._ended(outcome)
            now = time.monotonic()
            if now >= self._deadline and not self._given_more_time():
                return self._close("expired", by="waiter", reason=f"no answer within {self.session.timeout:g} s")
            if on_progress is not None and now >= next_progress:
                self._given_more_time()
                on_progress(max(0.0, self._deadline - now))
                next_progress = now + progress_every
            pause = self._deadline - now
            if on_progress is not None:
                pause = min(pause, max(0.0, next_progress - now))
            for every in (self.poll_interval, self.look_every):
                if every is not None:
                    pause = min(pause, every)
            self._changed.wait(pause)

    def _given_more_time(self) -> bool:
        """Move the deadline to the stored session's, if the user was given more time; True when it moved."""
        try:
            stored = self._stored_expiry()
        except (SceneAgentError, OSError) as exc:  # unreadable for a moment: the deadline stays
            log.info("could not read the deadline of session %s: %s", self.session.session_id, exc)
            return False
        if stored is None or stored <= self.session.expires_at:
            return False
        self._deadline += (stored - self.session.expires_at).total_seconds()
        self.session = self.session.model_copy(update={
            "expires_at": stored, "timeout": round((stored - self.session.created_at).total_seconds(), 3)})
        return True

    def _ended(self, outcome: SessionOutcome) -> SelectionResult:
        return ended_result(outcome, time.monotonic() - self._started)

    def _close(self, status: Literal["cancelled", "expired"], *, by: Literal["caller", "waiter"], reason: str) -> SelectionResult:
        """End the session ourselves; if the user's answer got there first, that answer is the result."""
        end = SessionOutcome(session_id=self.session.session_id, status=status, by=by, reason=reason, at=now_utc())
        try:
            return self._ended(self._record(end))
        except (SceneAgentError, OSError) as exc:  # the state directory cleaned away, the broker gone meanwhile
            log.warning("could not record that session %s ended (%s): %s", self.session.session_id, status, exc)
            return self._ended(end)

    @abstractmethod
    def _outcome(self) -> SessionOutcome | None:
        """The session's outcome once one is recorded; None while there is none (never raises for what it finds)."""

    @abstractmethod
    def _record(self, end: SessionOutcome) -> SessionOutcome:
        """Record `end` as the session's outcome unless one is recorded already; the outcome that stands."""

    @abstractmethod
    def _stored_expiry(self) -> datetime | None:
        """When the stored session expires now (later than `session.expires_at` once more time was given)."""

    @abstractmethod
    def _finish(self) -> None:
        """The wait is over: stop being woken for it and let go of the waiting claim (idempotent)."""
