"""`RedisChannel`: the selection hand-off across machines, through Redis (`SCENE_AGENT_BROKER=redis://host:port/db`).

The one module that imports redis (redis-py). Every key is under `scene-agent:`:

| key | holds | lives until |
|---|---|---|
| `session:<id>` | the SelectionSession (JSON) | RETAIN_AFTER_EXPIRY after the session expires |
| `outcome:<id>` | the SessionOutcome, set once: the first answer wins | same |
| `answer:<id>` | a list the delivery pushes the outcome onto; the waiter pops it | same |
| `waiting:<id>` | the waiting process' claim `{token, place}`, renewed every second | CLAIM_TTL_MS after its last renewal |
| `view:<name>` | a view manifest (JSON) | a selection's: with its session; a plain view's: VIEW_TTL_S |
| `wake:<token>` | a waiting process' own list, pushed to take up new sessions at once | WAKE_TTL_MS |

A delivery (a pick or a cancel) is one Lua script, atomic on the server: the session exists, has no outcome,
someone waits → the outcome is set and pushed; otherwise nothing changes and the script says why (404, 409,
410). So exactly one answer wins across any number of API servers, and a 200 means the outcome is in Redis and
on its way to the waiter. When the waiting process' selection directory is this server's (same machine, same
directory: the claim's `place`), the server also writes the selection file first, as the file channel does.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import redis
from pydantic import BaseModel, ValidationError
from redis.backoff import NoBackoff
from redis.retry import Retry

from scene_agent.config import Settings, redact_url
from scene_agent.errors import (
    BrokerUnavailableError,
    NobodyWaitingError,
    SelectionNotDeliveredError,
    SessionAnsweredError,
    SessionNotFoundError,
)
from scene_agent.selection.channel import ChannelHealth, SelectionChannel
from scene_agent.selection.redis_waiter import BrokeredSelection, RedisWaiter, claim_place
from scene_agent.selection.selection_file import SelectionFile, answer_file, selection_path, write_selection_file
from scene_agent.selection.session import (
    SelectionSession,
    SessionOutcome,
    UserAnswerBy,
    cancelled_outcome,
    check_session_id,
    confirmed_outcome,
    extended,
)
from scene_agent.selection.store import RETAIN_AFTER_EXPIRY
from scene_agent.selection.views import VIEW_NAME_RE, ViewManifest

log = logging.getLogger(__name__)

PREFIX = "scene-agent:"
CLAIM_TTL_MS = 3000  # a waiter that stops renewing (killed, cut off) stops counting as waiting after this
VIEW_TTL_S = 7 * 24 * 3600
WAKE_TTL_MS = 60_000
CONNECT_TIMEOUT_S = 2.0  # Redis away: a clear error after this, never a hang
COMMAND_TIMEOUT_S = 5.0  # longer than any blocking pop (redis_waiter.HEARTBEAT_S)
# Connections per process: a thread that finds them all busy waits for one (up to COMMAND_TIMEOUT_S) rather than
# failing; each command holds one for a round trip, the listener one for good.
MAX_CONNECTIONS = 64
MAX_HELD_VIEWS = 1024

_Record = TypeVar("_Record", bound=BaseModel)

# KEYS: session, outcome, waiting, answer. ARGV: the outcome (JSON), when its keys expire (ms since the epoch).
_DELIVER = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {'not_found'} end
local prior = redis.call('GET', KEYS[2])
if prior then return {'answered', prior} end
if redis.call('EXISTS', KEYS[3]) == 0 then return {'nobody_waiting'} end
redis.call('SET', KEYS[2], ARGV[1], 'PXAT', ARGV[2])
redis.call('RPUSH', KEYS[4], ARGV[1])
redis.call('PEXPIREAT', KEYS[4], ARGV[2])
return {'delivered'}
"""
# KEYS: session, outcome, waiting, view. ARGV: the session with its new deadline (JSON), when its keys expire now.
_EXTEND = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {'not_found'} end
if redis.call('EXISTS', KEYS[2]) == 1 then return {'answered'} end
if redis.call('EXISTS', KEYS[3]) == 0 then return {'nobody_waiting'} end
redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2])
if redis.call('EXISTS', KEYS[4]) == 1 then redis.call('PEXPIREAT', KEYS[4], ARGV[2]) end
return {'extended'}
"""
# KEYS: outcome. ARGV: the outcome, expiry. The outcome recorded before, or nil when this one is now recorded.
_RECORD = """
local prior = redis.call('GET', KEYS[1])
if prior then return prior end
redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2])
return false
"""
# KEYS: waiting. ARGV: the claim. Removed only while it is still this claim.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def key(kind: str, name: str) -> str:
    """`scene-agent:<kind>:<name>`."""
    return f"{PREFIX}{kind}:{name}"


def _expiry_ms(session: SelectionSession) -> int:
    """When a session's keys expire: RETAIN_AFTER_EXPIRY after the session does (late answers get 409/410, not 404)."""
    return int((session.expires_at + RETAIN_AFTER_EXPIRY).timestamp() * 1000)


def _raw(value: bytes | str) -> bytes:
    return value if isinstance(value, bytes) else value.encode()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def machine_place(selection_dir: Path) -> str:
    """This machine and selection directory: an API server writes the selection file only where the waiter's is."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        boot = ""
    return f"{socket.gethostname()}|{boot}|{os.path.realpath(selection_dir)}"


class RedisBroker:
    """One Redis (its connection pool) and the process' waiter on it; shared by every channel on that URL."""

    _shared: ClassVar[dict[str, RedisBroker]] = {}
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, url: str):
        self.url = url
        self.where = redact_url(url)
        # One try more on a dropped connection (a pooled one that Redis closed when it restarted), no backoff:
        # an unreachable Redis is reported within CONNECT_TIMEOUT_S.
        pool = redis.BlockingConnectionPool.from_url(
            url, max_connections=MAX_CONNECTIONS, timeout=COMMAND_TIMEOUT_S, socket_connect_timeout=CONNECT_TIMEOUT_S,
            socket_timeout=COMMAND_TIMEOUT_S, retry=Retry(NoBackoff(), 1), client_name="scene-agent")
        self.client: redis.Redis = redis.Redis(connection_pool=pool)
        self._deliver_script = self.client.register_script(_DELIVER)
        self._record_script = self.client.register_script(_RECORD)
        self._release_script = self.client.register_script(_RELEASE)
        self._extend_script = self.client.register_script(_EXTEND)
        self.waiter = RedisWaiter(self)

    @classmethod
    def shared(cls, url: str) -> RedisBroker:
        """The process-wide broker for this URL (one pool, one listener thread)."""
        with cls._shared_lock:
            broker = cls._shared.get(url)
            if broker is None:
                broker = cls._shared[url] = cls(url)
            return broker

    def close(self) -> None:
        """Stop the listener, then close the pool's connections (tests, benchmarks)."""
        self.waiter.close()
        self.client.close()
        self.client.connection_pool.disconnect()

    @contextmanager
    def reach(self, doing: str) -> Iterator[None]:
        """Redis errors as BrokerUnavailableError naming the broker and what was being done."""
        try:
            yield
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            raise BrokerUnavailableError(f"the selection broker {self.where} is not reachable while {doing} "
                                         f"({exc}); try again when it is back") from None
        except redis.ResponseError as exc:  # NOAUTH, READONLY replica, OOM, a script Redis refused
            raise BrokerUnavailableError(f"the selection broker {self.where} refused {doing}: {exc}") from None

    # -- what redis_waiter.RedisWaiter needs (the Broker protocol) ---------------------------------------

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

    def refresh(self, waits: list[BrokeredSelection]) -> list[bytes | None]:
        with self.reach("renewing the waiting claims"):
            pipe = self.client.pipeline(transaction=False)
            for pending in waits:
                session = pending.session
                expiry = _expiry_ms(session)
                pipe.set(key("waiting", session.session_id), pending.claim, px=CLAIM_TTL_MS)
                pipe.set(key("session", session.session_id), pending.session_json, pxat=expiry, nx=True)
                if pending.view is not None and session.view:
                    pipe.set(key("view", session.view), pending.view, pxat=expiry, nx=True)
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
                                 args=[end.model_dump_json(), _expiry_ms(session)])
        return end if prior is None else SessionOutcome.model_validate_json(prior)

    def deliver(self, session: SelectionSession, outcome: SessionOutcome) -> str:
        """Run the delivery script: 'delivered', or why not ('not_found', 'answered', 'nobody_waiting')."""
        sid = session.session_id
        with self.reach(f"answering selection session {sid}"):
            verdict = self._deliver_script(keys=[key("session", sid), key("outcome", sid), key("waiting", sid),
                                                 key("answer", sid)],
                                           args=[outcome.model_dump_json(), _expiry_ms(session)])
        return _text(verdict[0])

    def extend(self, session: SelectionSession) -> str:
        """Store the session with its new deadline if it is still open and waited for: 'extended', or why not."""
        sid = session.session_id
        with self.reach(f"adding time to selection session {sid}"):
            verdict = self._extend_script(keys=[key("session", sid), key("outcome", sid), key("waiting", sid),
                                                key("view", session.view or f"select-{sid}")],
                                          args=[session.model_dump_json(), _expiry_ms(session)])
        return _text(verdict[0])

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


class RedisChannel(SelectionChannel):
    """Sessions, outcomes, picks and views in Redis: any API server answers any session, wherever the agent waits."""

    kind = "redis"

    def __init__(self, settings: Settings, broker: RedisBroker | None = None):
        if not settings.broker:
            raise ValueError("RedisChannel needs settings.broker (SCENE_AGENT_BROKER)")
        self.settings = settings
        self.broker = broker or RedisBroker.shared(settings.broker)
        self.place = machine_place(settings.selection_dir)
        # The views of the sessions this process opened, until it waits for them (the waiter puts them back if
        # Redis loses them); at most MAX_HELD_VIEWS, for sessions opened and never waited for.
        self._views: OrderedDict[str, bytes] = OrderedDict()

    def describe(self) -> str:
        return f"Redis at {self.broker.where}"

    def health(self) -> ChannelHealth:
        try:
            began = time.perf_counter()
            self.broker.client.ping()
            latency = (time.perf_counter() - began) * 1000
            info: dict[str, Any] = self.broker.client.info("server") | self.broker.client.info("persistence")
        except (redis.ConnectionError, redis.TimeoutError, redis.ResponseError) as exc:
            return ChannelHealth("redis", self.broker.where, False, f"the selection broker {self.broker.where} is not "
                                                                    f"reachable ({exc})")
        durable = ("appendonly on: picks survive a Redis restart" if info.get("aof_enabled")
                   else "appendonly off: a pick not yet received is lost if Redis restarts (waiting agents put "
                        "their sessions back)")
        return ChannelHealth("redis", self.broker.where, True,
                             f"Redis {info.get('redis_version', '?')} answers in {latency:.1f} ms; {durable}",
                             round(latency, 2))

    # -- the agent's side ---------------------------------------------------------------------------------

    def open(self, session: SelectionSession, view: ViewManifest) -> SelectionSession:
        expiry = _expiry_ms(session)
        view_json = view.model_dump_json().encode()
        with self.broker.reach(f"creating selection session {session.session_id}"):
            pipe = self.broker.client.pipeline(transaction=True)
            pipe.set(key("session", session.session_id), session.model_dump_json(), pxat=expiry, nx=True)
            pipe.set(key("view", view.view), view_json, pxat=expiry)
            created, _ = pipe.execute()
        if not created:
            raise SessionAnsweredError(f"session {session.session_id} already exists")
        self._views[session.session_id] = view_json
        while len(self._views) > MAX_HELD_VIEWS:
            self._views.popitem(last=False)
        return session

    def watch(self, session: SelectionSession) -> BrokeredSelection:
        view = self._views.pop(session.session_id, None)
        return self.broker.waiter.watch(session, self.place, selection_path(self.settings.selection_dir, session.session_id),
                                        view)

    def write_view(self, view: ViewManifest) -> None:
        with self.broker.reach(f"storing view {view.view}"):
            self.broker.client.set(key("view", view.view), view.model_dump_json(), ex=VIEW_TTL_S)

    # -- the API server's side ----------------------------------------------------------------------------

    def read_view(self, name: str) -> bytes | None:
        if not VIEW_NAME_RE.fullmatch(name):
            return None
        return self.broker.get(key("view", name), f"reading view {name}")

    def _read(self, kind: str, session_id: str, model: type[_Record]) -> _Record | None:
        data = self.broker.get(key(kind, check_session_id(session_id)), f"reading selection session {session_id}")
        if data is None:
            return None
        try:
            return model.model_validate_json(data)
        except ValidationError as exc:
            log.warning("ignoring an unreadable %s record of session %s in %s: %s", kind, session_id, self.broker.where, exc)
            return None

    def get(self, session_id: str) -> SelectionSession:
        session = self._read("session", session_id, SelectionSession)
        if session is None:
            raise SessionNotFoundError(f"no selection session {session_id}")
        return session

    def outcome(self, session_id: str) -> SessionOutcome | None:
        return self._read("outcome", session_id, SessionOutcome)

    def someone_waits(self, session_id: str) -> bool:
        with self.broker.reach(f"reading selection session {session_id}"):
            return bool(self.broker.client.exists(key("waiting", check_session_id(session_id))))

    def submit(self, session_id: str, codes: list[str], *, by: UserAnswerBy = "viewer",
               words: str | None = None) -> SelectionFile:
        session = self.get(session_id)
        self.check_open(session)
        return self._deliver(session, confirmed_outcome(session, codes, by=by, words=words))

    def cancel(self, session_id: str, *, by: UserAnswerBy = "viewer", words: str | None = None) -> SelectionFile:
        session = self.get(session_id)
        self.check_open(session)
        return self._deliver(session, cancelled_outcome(session, by=by, words=words))

    def _deliver(self, session: SelectionSession, outcome: SessionOutcome) -> SelectionFile:
        sid = session.session_id
        answer = answer_file(outcome)
        claim = self.broker.get(key("waiting", sid), f"answering selection session {sid}")
        if claim is None:
            raise self._nobody(sid)
        written = self._write_local_file(answer) if claim_place(claim) == self.place else None
        try:
            verdict = self.broker.deliver(session, outcome)
        except BaseException:
            self._remove_local_file(written)
            raise
        if verdict == "delivered":
            return answer
        self._remove_local_file(written)
        if verdict == "answered":
            self.check_open(session)  # raises 409 (or 410 after the expiry) naming who answered
        if verdict == "nobody_waiting":
            raise self._nobody(sid)
        raise SessionNotFoundError(f"no selection session {sid}")

    def extend(self, session_id: str, seconds: float) -> SelectionSession:
        session = self.get(session_id)
        self.check_open(session)
        longer = extended(session, seconds)
        verdict = self.broker.extend(longer)
        if verdict == "extended":
            return longer
        if verdict == "answered":
            self.check_open(session)
        if verdict == "nobody_waiting":
            raise self._nobody(session_id)
        raise SessionNotFoundError(f"no selection session {session_id}")

    @staticmethod
    def _nobody(session_id: str) -> NobodyWaitingError:
        return NobodyWaitingError(f"nobody is waiting for the answer to selection session {session_id} any more "
                                  "(the program that asked has stopped); nothing was recorded")

    def _write_local_file(self, answer: SelectionFile) -> tuple[Path, bytes] | None:
        """The selection file, where the waiting process reads its directory too (same machine and directory)."""
        try:
            path = write_selection_file(self.settings.selection_dir, answer)
            return path, path.read_bytes()
        except OSError as exc:
            log.warning("could not write the selection file of session %s: %s", answer.session_id, exc)
            reason = exc.strerror or type(exc).__name__
            raise SelectionNotDeliveredError(f"the answer could not be written where the waiting program reads it "
                                             f"({reason}); nothing was recorded, so it can be sent again") from None

    @staticmethod
    def _remove_local_file(written: tuple[Path, bytes] | None) -> None:
        """Undo our selection file, unless another answer replaced it meanwhile."""
        if written is None:
            return
        path, data = written
        try:
            if path.read_bytes() == data:
                path.unlink()
        except OSError as exc:
            log.info("left %s in place while undoing a delivery: %s", path, exc)

