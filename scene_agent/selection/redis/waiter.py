"""Waiting for picks through Redis: one listener thread per process and broker, one blocking pop over every wait.

The listener pops the answer lists of every session the process waits for (and its own wake list, pushed when
a wait begins or the last one ends) in one BLPOP, so an answer is pushed to the waiter the moment an API server
delivers it, wherever that server runs; no polling. About once a second it refreshes, in one pipelined round
trip, what marks the waits as alive: each session's waiting claim (which lapses CLAIM_TTL_MS after the process
stops refreshing it, however it died), the session itself and its view (put back if a Redis restart lost them,
so that pending sessions continue), and it looks up each session's recorded outcome, so that nothing is missed
if a push was lost. When Redis cannot be reached, the waits keep their deadlines, the listener retries with
backoff and takes up where it was when Redis answers again.

The Redis commands themselves are the broker's (broker.py, the one module that imports redis).
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Protocol

from pydantic import ValidationError

from scene_agent.errors import BrokerUnavailableError
from scene_agent.selection.backend import WaitRegistry
from scene_agent.selection.pending import PendingSelection
from scene_agent.selection.session import SelectionSession, SessionOutcome

log = logging.getLogger(__name__)

HEARTBEAT_S = 1.0
RETRY_MIN_S = 0.1
RETRY_MAX_S = 2.0


class Broker(Protocol):
    """The Redis operations a waiting process needs (RedisBroker in broker.py); each may raise BrokerUnavailableError."""

    where: str

    def claim(self, session_id: str, claim: bytes) -> None:
        """Set the session's waiting claim (with its time to live)."""

    def release(self, session_id: str, claim: bytes) -> None:
        """Remove the session's waiting claim if it is still this one."""

    def on_close(self, callback: Callable[[], None]) -> None:
        """Call `callback` when the broker closes."""

    def refresh(self, waits: Sequence[BrokeredSelection]) -> list[bytes | None]:
        """Renew every wait's claim, put back its session and view if missing; each one's recorded outcome."""

    def pop(self, keys: list[str], timeout: float) -> tuple[str, bytes] | None:
        """Block up to `timeout` s for the first item pushed on any of the lists."""

    def record(self, end: SessionOutcome, session: SelectionSession) -> SessionOutcome:
        """Record `end` unless an outcome is recorded already; the one that stands."""

    def session_expiry(self, session_id: str) -> datetime | None:
        """When the stored session expires now, or None."""

    def wake(self, key: str) -> None:
        """Push onto a wake list, so that a listener blocked on it returns."""

    def drain(self, key: str) -> None:
        """Empty a wake list."""

    def answer_key(self, session_id: str) -> str:
        """The list a delivery pushes the session's outcome onto."""

    def wake_key(self, token: str) -> str:
        """A listener's own wake list."""


class BrokeredSelection(PendingSelection):
    """A session waited for through Redis: the listener hands it the outcome an API server pushed."""

    def __init__(self, waiter: RedisWaiter, session: SelectionSession, claim: bytes, selection_file: Path,
                 view: bytes | None):
        super().__init__(session)
        self.claim = claim
        self.view = view  # put back with the session if Redis loses it
        self.path = selection_file  # where an API server on this machine also writes the answer
        self._waiter = waiter
        self._pushed: bytes | None = None
        self._registered = True

    @property
    def session_json(self) -> bytes:
        """The session as it is put back if Redis loses it (with the latest deadline this wait knows)."""
        return self.session.model_dump_json().encode()

    def receive(self, payload: bytes) -> None:
        """The outcome an API server delivered (listener thread)."""
        self._pushed = payload
        self.wake()

    def _outcome(self) -> SessionOutcome | None:
        payload = self._pushed
        if payload is None:
            return None
        try:
            outcome = SessionOutcome.model_validate_json(payload)
        except ValidationError as exc:
            log.warning("ignoring an answer to session %s that is not an outcome: %s", self.session.session_id, exc)
            self._pushed = None
            return None
        problems = [] if outcome.status != "confirmed" else self.session.check_picks([i.itemCode for i in outcome.selections])
        if outcome.session_id != self.session.session_id or problems:
            log.warning("ignoring an answer that does not fit session %s: %s", self.session.session_id,
                        "; ".join(problems) or f"it answers session {outcome.session_id}")
            self._pushed = None
            return None
        return outcome

    def _record(self, end: SessionOutcome) -> SessionOutcome:
        return self._waiter.broker.record(end, self.session)

    def _stored_expiry(self) -> datetime | None:
        return self._waiter.broker.session_expiry(self.session.session_id)

    def _finish(self) -> None:
        self._waiter.unregister(self)
        try:
            self.path.unlink(missing_ok=True)  # the copy an API server on this machine wrote, if it did
        except OSError as exc:
            log.warning("could not remove %s after the wait: %s", self.path, exc)


def claim_value(token: str, place: str) -> bytes:
    """What a waiting claim holds: which process waits (its token) and where its selection directory is."""
    return json.dumps({"token": token, "place": place}, separators=(",", ":")).encode()


def claim_place(claim: bytes | None) -> str | None:
    """The place a claim names, or None for no claim (or one this version cannot read)."""
    if claim is None:
        return None
    try:
        place = json.loads(claim).get("place")
    except (ValueError, AttributeError):
        return None
    return place if isinstance(place, str) else None


class RedisWaiter:
    """Every session one process waits for on one broker: one listener thread, started while anyone waits."""

    def __init__(self, broker: Broker):
        self.broker = broker
        self.token = secrets.token_hex(8)
        self._wake_key = broker.wake_key(self.token)
        self._lock = threading.Lock()
        # Held while claims are renewed, and while one is released: a renewal never brings back a released claim.
        self._renewing = threading.Lock()
        self._kick = threading.Event()  # ends the listener's pause between retries
        self._pending: WaitRegistry[BrokeredSelection] = WaitRegistry()  # by session id
        self._thread: threading.Thread | None = None
        self._reachable = True
        self._closing = False

    @property
    def waiting(self) -> int:
        """How many sessions are being waited for."""
        with self._lock:
            return len(self._pending)

    def watch(self, session: SelectionSession, place: str, selection_file: Path, view: bytes | None) -> BrokeredSelection:
        """Claim the session and listen for its answer; BrokerUnavailableError (nothing held) when Redis is away."""
        claim = claim_value(self.token, place)
        self.broker.claim(session.session_id, claim)
        pending = BrokeredSelection(self, session, claim, selection_file, view)
        with self._lock:
            self._pending.add(session.session_id, pending)
            start = self._thread is None
            if start:
                self._thread = threading.Thread(target=self._listen, name="selection-broker", daemon=True)
                self._thread.start()
        if not start:
            self._nudge()  # the listener is blocked on the keys it had: take this session's up now
        return pending

    def unregister(self, pending: BrokeredSelection) -> None:
        """The wait is over: forget it, and let go of its claim unless another wait here holds the same session."""
        sid = pending.session.session_id
        with self._lock:
            if not pending._registered:
                return
            pending._registered = False
            alone = self._pending.remove(sid, pending)
            last = not self._pending
        if alone:
            with self._renewing:
                try:
                    self.broker.release(sid, pending.claim)
                except BrokerUnavailableError as exc:  # it lapses by itself
                    log.info("could not release the claim on session %s: %s", sid, exc)
        if last:
            self._kick.set()
            self._nudge()

    def close(self, timeout: float = 10.0) -> None:
        """Stop listening (the broker is about to close): the listener thread ends; waits still going on are left to
        their deadlines."""
        with self._lock:
            self._closing = True
            thread = self._thread
        self._kick.set()
        self._nudge()
        if thread is not None:
            thread.join(timeout)

    def _nudge(self) -> None:
        try:
            self.broker.wake(self._wake_key)
        except BrokerUnavailableError:
            self._kick.set()  # the listener is between retries; it looks again at once

    def _waits(self) -> list[BrokeredSelection] | None:
        """Every wait now; None (and the listener ends) when there is none."""
        with self._lock:
            if not self._pending or self._closing:
                self._thread = None
                return None
            return self._pending.all()

    def _renew(self) -> None:
        """Renew the claims of the waits still going on (their sessions and views put back if missing)."""
        with self._renewing:
            with self._lock:
                waits = self._pending.all()
            outcomes = self.broker.refresh(waits) if waits else []
        for pending, payload in zip(waits, outcomes, strict=True):
            if payload is not None:
                pending.receive(payload)

    def _listen(self) -> None:
        next_beat = 0.0
        delay = RETRY_MIN_S
        while (waits := self._waits()) is not None:
            try:
                if time.monotonic() >= next_beat:
                    self._renew()
                    next_beat = time.monotonic() + HEARTBEAT_S
                    self._back_again()
                # The wake list last: BLPOP takes the first non-empty list named, so answers go before wake-ups.
                keys = [*dict.fromkeys(self.broker.answer_key(p.session.session_id) for p in waits), self._wake_key]
                popped = self.broker.pop(keys, max(0.01, next_beat - time.monotonic()))
                if popped is not None and popped[0] == self._wake_key:
                    # One look at the registered waits serves every wake-up queued so far: the rest are dropped.
                    self.broker.drain(self._wake_key)
            except Exception as exc:  # the listener must outlive anything Redis does; each error is logged
                if not isinstance(exc, BrokerUnavailableError):
                    log.exception("the selection listener on %s failed; it starts again", self.broker.where)
                    exc = BrokerUnavailableError(f"the selection listener on {self.broker.where} failed ({exc!r})")
                self._away(exc, len(waits))
                self._kick.wait(delay)
                self._kick.clear()
                delay = min(2 * delay, RETRY_MAX_S)
                next_beat = 0.0  # claims and sessions first, when it answers again
                continue
            delay = RETRY_MIN_S
            if popped is not None and popped[0] != self._wake_key:
                sid = popped[0].rsplit(":", 1)[-1]
                with self._lock:
                    group = self._pending.of(sid)
                for pending in group:
                    pending.receive(popped[1])

    def _away(self, exc: BrokerUnavailableError, waits: int) -> None:
        if self._reachable:
            self._reachable = False
            log.warning("%s; %d waiting session(s) keep their time and continue when it answers again", exc, waits)

    def _back_again(self) -> None:
        if not self._reachable:
            self._reachable = True
            log.warning("the selection broker %s answers again; the waiting sessions continue", self.broker.where)


_waiters: dict[Broker, RedisWaiter] = {}  # by the broker itself (its identity), until it closes
_waiters_lock = threading.Lock()


def waiter_of(broker: Broker) -> RedisWaiter:
    """The one waiter (one listener thread) of this process on this broker, made on first use and stopped when the
    broker closes."""
    with _waiters_lock:
        waiter = _waiters.get(broker)
        if waiter is None:
            waiter = _waiters[broker] = RedisWaiter(broker)
            broker.on_close(lambda: _stop(broker))
        return waiter


def _stop(broker: Broker) -> None:
    with _waiters_lock:
        waiter = _waiters.pop(broker, None)
    if waiter is not None:
        waiter.close()
