"""`RedisBroker`: one Redis (its connection pool, the Lua scripts that keep answers atomic) for the selection channel.

The one module that imports redis (redis-py); backend.py builds the Redis backend on it. Every key is
under `scene-agent:`:

| key | holds | lives until |
|---|---|---|
| `session:<id>` | the SelectionSession (JSON) | RETAIN_AFTER_EXPIRY after the session expires |
| `outcome:<id>` | the SessionOutcome, set once: the first answer wins | same |
| `answer:<id>` | a list the delivery pushes the outcome onto; the waiter pops it | same |
| `waiting:<id>` | the waiting process' claim `{token, place}`, renewed every second | CLAIM_TTL_MS after its last renewal |
| `view:<name>` | a view manifest (JSON) | a selection's: with its session; a plain view's: VIEW_TTL_S |
| `wake:<token>` | a waiting process' own list, pushed to take up new sessions at once | WAKE_TTL_MS |
| `pulse` | when a waiting process last renewed its claims (Redis' clock, ms) | for good |
| `quiet`, `recovering` | the last quiet (no renewals) given its grace; that grace | a day; RECOVERY_MS |

A delivery (a pick or a cancel) is one Lua script, atomic on the server: the session exists, has no outcome,
someone waits → the outcome is set and pushed; otherwise nothing changes and the script says why (404, 409,
410, or 503 while Redis may just have been away: scripts.py). So exactly one answer wins across any number of API
servers.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar, Protocol

import redis
from pydantic import ValidationError
from redis.backoff import NoBackoff
from redis.retry import Retry
from redis.sentinel import MasterNotFoundError, Sentinel

from scene_agent.config import redact_url
from scene_agent.errors import BrokerUnavailableError, SelectionNotDeliveredError
from scene_agent.selection.backend import Verdict, verdict_of
from scene_agent.selection.redis.address import parse_broker
from scene_agent.selection.redis.scripts import (
    ANSWER,
    CLAIM_TTL_MS,
    EXTEND,
    OUTAGE_KEYS,
    PREFIX,
    PULSE,
    RECORD,
    RECOVERING,
    RECOVERY_MS,
    RELEASE,
)
from scene_agent.selection.session import RETAIN_AFTER_EXPIRY, SelectionSession, SessionOutcome, selection_view

VIEW_TTL_S = 7 * 24 * 3600
WAKE_TTL_MS = 60_000
CONNECT_TIMEOUT_S = 2.0  # Redis away: a clear error after this, never a hang
COMMAND_TIMEOUT_S = 5.0  # longer than any blocking pop (waiter.HEARTBEAT_S)
# Connections per process: a thread that finds them all busy waits for one (up to COMMAND_TIMEOUT_S) rather than
# failing; each command holds one for a round trip, the listener one for good.
MAX_CONNECTIONS = 64

class HeldWait(Protocol):
    """What a wait holds in Redis and renews (waiter.BrokeredSelection)."""

    session: SelectionSession
    claim: bytes
    view: bytes | None

    @property
    def session_json(self) -> bytes: ...


def key(kind: str, name: str) -> str:
    """`scene-agent:<kind>:<name>`."""
    return f"{PREFIX}{kind}:{name}"


def expiry_ms(session: SelectionSession) -> int:
    """When a session's keys expire: RETAIN_AFTER_EXPIRY after the session does (late answers get 409/410, not 404)."""
    return int((session.expires_at + RETAIN_AFTER_EXPIRY).timestamp() * 1000)


def _raw(value: bytes | str) -> bytes:
    return value if isinstance(value, bytes) else value.encode()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _verdict(value: bytes | str) -> Verdict:
    verdict = verdict_of(_text(value))
    if verdict is None:
        raise BrokerUnavailableError(f"the selection broker answered {_text(value)[:40]!r}, which this version does not "
                                     "know")
    return verdict


def machine_place(selection_dir: Path) -> str:
    """This machine and selection directory: an API server writes the selection file only where the waiter's is."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        boot = ""
    return f"{socket.gethostname()}|{boot}|{os.path.realpath(selection_dir)}"


class RedisBroker:
    """One Redis (its connection pool); shared by every channel on that URL (waiter.waiter_of gives its listener)."""

    _shared: ClassVar[dict[str, RedisBroker]] = {}
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, url: str):
        self.url = url
        self.where = redact_url(url)
        self.address = parse_broker(url, self.where)
        # One try more on a dropped connection (a pooled one that Redis closed when it restarted), no backoff:
        # an unreachable Redis is reported within CONNECT_TIMEOUT_S.
        options = {"socket_connect_timeout": CONNECT_TIMEOUT_S, "socket_timeout": COMMAND_TIMEOUT_S,
                   "retry": Retry(NoBackoff(), 1), "client_name": "scene-agent"}
        self.client: redis.Redis
        if self.address.sentinel:  # the primary Sentinel names, looked up again for each new connection
            timeouts = {"socket_connect_timeout": CONNECT_TIMEOUT_S, "socket_timeout": CONNECT_TIMEOUT_S}
            sentinels = Sentinel(list(self.address.sentinels), sentinel_kwargs=timeouts)  # type: ignore[no-untyped-call]
            self.client = sentinels.master_for(  # type: ignore[no-untyped-call]
                self.address.service, db=self.address.db, username=self.address.username,
                password=self.address.password, **options)
        else:
            assert self.address.redis_url is not None
            pool = redis.BlockingConnectionPool.from_url(self.address.redis_url, max_connections=MAX_CONNECTIONS,
                                                         timeout=COMMAND_TIMEOUT_S, **options)
            self.client = redis.Redis(connection_pool=pool)
        self._answer_script = self.client.register_script(ANSWER)
        self._record_script = self.client.register_script(RECORD)
        self._release_script = self.client.register_script(RELEASE)
        self._extend_script = self.client.register_script(EXTEND)
        self._recovering_script = self.client.register_script(RECOVERING)
        self._pulse_script = self.client.register_script(PULSE)
        self._on_close: list[Callable[[], None]] = []
        self._instance: str | None = None  # the Redis instance (run_id) this process last saw
        self._restarted_at = 0.0  # when it saw that instance start (time.monotonic), if it saw another one before
        self._instance_lock = threading.Lock()

    @classmethod
    def shared(cls, url: str) -> RedisBroker:
        """The process-wide broker for this URL (one pool; one listener thread, waiter.waiter_of)."""
        with cls._shared_lock:
            broker = cls._shared.get(url)
            if broker is None:
                broker = cls._shared[url] = cls(url)
            return broker

    def on_close(self, callback: Callable[[], None]) -> None:
        """Call `callback` when the broker closes, before its connections do (the listener of waiter.py stops)."""
        self._on_close.append(callback)

    def close(self) -> None:
        """Stop what runs on the broker (its listener), then close the pool's connections (tests, benchmarks)."""
        callbacks, self._on_close = self._on_close, []
        for callback in callbacks:
            callback()
        self.client.close()
        self.client.connection_pool.disconnect()

    @contextmanager
    def reach(self, doing: str) -> Iterator[None]:
        """Redis errors as BrokerUnavailableError naming the broker and what was being done."""
        try:
            yield
            if self._instance is None:  # once: which Redis this is, to know it when it has restarted
                with suppress(redis.RedisError):  # what was asked is done: this look may fail on its own
                    self.saw_instance(self.client.info("server"))
        except redis.TimeoutError as exc:
            if "connecting" in str(exc).lower():  # redis-py's "Timeout connecting to server": nothing was sent
                raise BrokerUnavailableError(f"the selection broker {self.where} is not reachable while {doing} "
                                             f"({exc}); try again when it is back") from None
            # sent, and no reply: Redis may have done it (a stall, say)
            raise BrokerUnavailableError(f"the selection broker {self.where} did not answer in time while {doing} "
                                         f"({exc}); it may have been done: try again (an answer then refused as "
                                         "already given was this one)") from None
        except redis.ConnectionError as exc:
            raise BrokerUnavailableError(f"the selection broker {self.where} is not reachable while {doing} "
                                         f"({self._why(exc)}); try again when it is back") from None
        except redis.ResponseError as exc:  # NOAUTH, READONLY replica, OOM, a script Redis refused
            raise BrokerUnavailableError(f"the selection broker {self.where} refused {doing}: {exc}") from None

    def _why(self, exc: redis.ConnectionError) -> str:
        """A connection error in a few words (redis-py's Sentinel errors spell out every client they tried)."""
        if isinstance(exc, MasterNotFoundError):
            return f"no Sentinel names a primary for {self.address.service!r} now"
        text = str(exc)
        return text if len(text) <= 200 else text[:200] + "…"

    # -- what waiter.RedisWaiter needs (the Broker protocol) ---------------------------------------

    def answer_key(self, session_id: str) -> str:
        return key("answer", session_id)

    def wake_key(self, token: str) -> str:
        return key("wake", token)

    def claim(self, session_id: str, claim: bytes) -> None:
        with self.reach(f"claiming session {session_id}"):
            self.client.set(key("waiting", session_id), claim, px=CLAIM_TTL_MS)

    def release(self, session_id: str, claim: bytes) -> None:
        with self.reach(f"releasing session {session_id}"):
            self._release_script(keys=[key("waiting", session_id)], args=[claim])

    def refresh(self, waits: Sequence[HeldWait]) -> list[bytes | None]:
        with self.reach("renewing the waiting claims"):
            pipe = self.client.pipeline(transaction=False)
            for pending in waits:
                session = pending.session
                expiry = expiry_ms(session)
                pipe.set(key("waiting", session.session_id), pending.claim, px=CLAIM_TTL_MS)
                pipe.set(key("session", session.session_id), pending.session_json, pxat=expiry, nx=True)
                if pending.view is not None and session.view:
                    pipe.set(key("view", session.view), pending.view, pxat=expiry, nx=True)
            self._pulse_script(keys=OUTAGE_KEYS[:1], client=pipe)  # a waiting process is alive (scripts.py: OUTAGE)
            pipe.mget([key("outcome", p.session.session_id) for p in waits])
            outcomes: list[bytes | None] = pipe.execute()[-1]
        return outcomes

    def pop(self, keys: list[str], timeout: float) -> tuple[str, bytes] | None:
        with self.reach("waiting for answers"):
            popped = self.client.blpop(keys, timeout=timeout)
        return None if popped is None else (_text(popped[0]), _raw(popped[1]))

    def get(self, name: str, doing: str) -> bytes | None:
        """The value at `name`, or None."""
        with self.reach(doing):
            value = self.client.get(name)
        return None if value is None else _raw(value)

    def record(self, end: SessionOutcome, session: SelectionSession) -> SessionOutcome:
        with self.reach(f"recording how session {session.session_id} ended"):
            prior = self._record_script(keys=[key("outcome", session.session_id)],
                                 args=[end.model_dump_json(), expiry_ms(session)])
        return end if prior is None else SessionOutcome.model_validate_json(prior)

    def record_answer(self, session: SelectionSession, outcome: SessionOutcome) -> Verdict:
        """Run the answer script: 'done', or why not ('not_found', 'answered', 'nobody_waiting', 'recovering')."""
        sid = session.session_id
        with self.reach(f"answering selection session {sid}"):
            verdict = self._answer_script(keys=[key("session", sid), key("outcome", sid), key("waiting", sid),
                                                 key("answer", sid), *OUTAGE_KEYS],
                                           args=[outcome.model_dump_json(), expiry_ms(session)])
            done = self._unless_restarted(_verdict(verdict[0]))
            if done == "done":
                self._on_replicas(f"session {sid}")
            return done

    def extend(self, session: SelectionSession) -> Verdict:
        """Store the session with its new deadline if it is still open and waited for: 'done', or why not."""
        sid = session.session_id
        with self.reach(f"adding time to selection session {sid}"):
            verdict = self._extend_script(keys=[key("session", sid), key("outcome", sid), key("waiting", sid),
                                                key("view", session.view or selection_view(sid)), *OUTAGE_KEYS],
                                          args=[session.model_dump_json(), expiry_ms(session)])
            return self._unless_restarted(_verdict(verdict[0]))

    def recovering(self, doing: str) -> bool:
        """Whether Redis may just have been away, so that what is missing may only not be back yet (scripts.py: OUTAGE)."""
        with self.reach(doing):
            return bool(self._recovering_script(keys=OUTAGE_KEYS)) or self.restarted_lately()

    def saw_instance(self, info: dict[str, Any]) -> None:
        """Note which Redis instance answers (INFO server): one other than before started `uptime_in_seconds` ago."""
        run_id = info.get("run_id")
        if not isinstance(run_id, str):
            return
        with self._instance_lock:
            if self._instance is not None and run_id != self._instance:
                self._restarted_at = time.monotonic() - float(info.get("uptime_in_seconds", 0))
            self._instance = run_id

    def _on_replicas(self, what: str) -> None:
        """Once an answer is on the primary: wait until `min_replicas` replicas have it too (WAIT), or say that it
        may yet be lost (a 503 whose retry gets 409 when it was kept)."""
        wanted = self.address.min_replicas
        if not wanted:
            return
        acknowledged = int(self.client.wait(wanted, self.address.wait_ms))
        if acknowledged < wanted:
            raise SelectionNotDeliveredError(
                f"the answer to {what} is on the selection broker's primary, but {acknowledged} of the {wanted} "
                f"replica(s) it must reach had it after {self.address.wait_ms} ms, so losing the primary now would "
                "lose it: send it again (a 409 then means it was kept)")

    def _unless_restarted(self, verdict: Verdict) -> Verdict:
        """A refusal for what is missing is 'recovering' while Redis has just restarted (the script cannot tell)."""
        if verdict in ("not_found", "nobody_waiting") and self.restarted_lately():
            return "recovering"
        return verdict

    def restarted_lately(self) -> bool:
        """Whether Redis is another instance than before (restarted, its data perhaps lost) since less than
        RECOVERY_MS: its waiters may not have put their sessions and claims back yet."""
        self.saw_instance(self.client.info("server"))
        with self._instance_lock:
            return bool(self._restarted_at) and time.monotonic() - self._restarted_at < RECOVERY_MS / 1000

    def session_expiry(self, session_id: str) -> datetime | None:
        """When the stored session expires now (it may have been given more time), or None."""
        data = self.get(key("session", session_id), f"reading selection session {session_id}")
        if data is None:
            return None
        try:
            return SelectionSession.model_validate_json(data).expires_at
        except ValidationError:
            return None

    def wake(self, wake_key: str) -> None:
        with self.reach("waking a listener"):
            pipe = self.client.pipeline(transaction=False)
            pipe.rpush(wake_key, b"1")
            pipe.pexpire(wake_key, WAKE_TTL_MS)
            pipe.execute()

    def drain(self, wake_key: str) -> None:
        with self.reach("waking a listener"):
            self.client.delete(wake_key)
