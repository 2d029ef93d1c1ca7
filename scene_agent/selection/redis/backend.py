"""`RedisBackend`: the selection hand-off across machines, through Redis (`SCENE_AGENT_BROKER=redis://host:port/db`).

Sessions, outcomes, picks and views live in Redis under the keys broker.py lists; any API server answers
any session. A 200 means the outcome is in Redis and on its way to the waiter. When the waiting process'
selection directory is this server's (same machine, same directory: the claim's `place`), the server also writes
the selection file first, as the file backend does.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from scene_agent.config import Settings
from scene_agent.errors import BrokerUnavailableError, SelectionNotDeliveredError
from scene_agent.selection.backend import ChannelHealth, SelectionBackend, Verdict
from scene_agent.selection.redis.broker import VIEW_TTL_S, RedisBroker, expiry_ms, key, machine_place
from scene_agent.selection.redis.waiter import BrokeredSelection, claim_place, waiter_of
from scene_agent.selection.selection_file import SelectionFile, answer_file, selection_path, write_selection_file
from scene_agent.selection.session import SelectionSession, SessionOutcome, recovering
from scene_agent.selection.views import VIEW_NAME_RE, ViewManifest

log = logging.getLogger(__name__)

MAX_HELD_VIEWS = 1024
# Answers of this process to the same session take turns around its selection file (striped: a lock per bucket).
_ANSWERING = tuple(threading.Lock() for _ in range(64))

_Record = TypeVar("_Record", bound=BaseModel)


class RedisBackend(SelectionBackend):
    """Sessions, outcomes, picks and views in Redis: any API server answers any session, wherever the agent waits."""

    kind = "redis"

    def __init__(self, settings: Settings, broker: RedisBroker | None = None):
        if not settings.broker:
            raise ValueError("RedisBackend needs settings.broker (SCENE_AGENT_BROKER)")
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
            with self.broker.reach("checking its health"):
                began = time.perf_counter()
                self.broker.client.ping()
                latency = (time.perf_counter() - began) * 1000
                info: dict[str, Any] = (self.broker.client.info("server") | self.broker.client.info("persistence")
                                        | self.broker.client.info("replication"))
                self.broker.saw_instance(info)
        except BrokerUnavailableError as exc:
            return ChannelHealth("redis", self.broker.where, False, exc.message)
        answers = f"Redis {info.get('redis_version', '?')} answers in {latency:.1f} ms"
        replicas, wanted = int(info.get("connected_slaves", 0)), self.broker.address.min_replicas
        if wanted > replicas:
            return ChannelHealth("redis", self.broker.where, False,
                                 f"{answers}, but {replicas} replica(s) are connected and a pick must reach {wanted} "
                                 "(min_replicas): every pick is refused until enough are back", round(latency, 2))
        aof = "appendonly on" if info.get("aof_enabled") else "appendonly off"
        if wanted:
            durable = (f"{aof}; a pick is acknowledged once it is on the primary and {wanted} of its {replicas} "
                       "replica(s): losing the primary loses no acknowledged pick")
            return ChannelHealth("redis", self.broker.where, True, f"{answers}; {durable}", round(latency, 2))
        crash = "a crash of this Redis" if info.get("aof_enabled") else "a restart of this Redis"
        risk = (f"no replica must have a pick before it is acknowledged (min_replicas=0): {crash} loses a pick not yet "
                "received (waiting agents put their sessions back)")
        return ChannelHealth("redis", self.broker.where, True, f"{answers}; {aof}; {risk}", round(latency, 2), warning=risk)

    # -- the agent's side ---------------------------------------------------------------------------------

    def create(self, session: SelectionSession, view: ViewManifest) -> bool:
        expiry = expiry_ms(session)
        view_json = view.model_dump_json().encode()
        with self.broker.reach(f"creating selection session {session.session_id}"):
            pipe = self.broker.client.pipeline(transaction=True)
            pipe.set(key("session", session.session_id), session.model_dump_json(), pxat=expiry, nx=True)
            pipe.set(key("view", view.view), view_json, pxat=expiry)
            created, _ = pipe.execute()
        if not created:
            return False
        self._views[session.session_id] = view_json
        while len(self._views) > MAX_HELD_VIEWS:
            self._views.popitem(last=False)
        return True

    def watch(self, session: SelectionSession) -> BrokeredSelection:
        view = self._views.pop(session.session_id, None)
        return waiter_of(self.broker).watch(session, self.place, selection_path(self.settings.selection_dir, session.session_id),
                                        view)

    def settle(self, timeout_s: float) -> bool:
        """Each `watch` pushes onto the listener's wake list and the listener takes those one BLPOP at a time
        (waiter.py), so a thousand watches keep it busy a while after they have returned: until the list is empty."""
        wake_key = self.broker.wake_key(waiter_of(self.broker).token)
        deadline = time.monotonic() + timeout_s
        with self.broker.reach("waiting for the selection listener"):
            while self.broker.client.llen(wake_key) > 0:  # each look is a round trip to Redis
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.005)
        return True

    def write_view(self, view: ViewManifest) -> None:
        with self.broker.reach(f"storing view {view.view}"):
            self.broker.client.set(key("view", view.view), view.model_dump_json(), ex=VIEW_TTL_S)

    # -- the API server's side ----------------------------------------------------------------------------

    def read_view(self, name: str) -> bytes | None:
        if not VIEW_NAME_RE.fullmatch(name):
            return None
        return self.broker.get(key("view", name), f"reading view {name}")

    def _read(self, kind: str, session_id: str, model: type[_Record]) -> _Record | None:
        data = self.broker.get(key(kind, session_id), f"reading selection session {session_id}")
        if data is None:
            return None
        try:
            return model.model_validate_json(data)
        except ValidationError as exc:
            log.warning("ignoring an unreadable %s record of session %s in %s: %s", kind, session_id, self.broker.where, exc)
            return None

    def get(self, session_id: str) -> SelectionSession | None:
        session = self._read("session", session_id, SelectionSession)
        if session is None and self.broker.recovering(f"reading selection session {session_id}"):
            raise recovering(session_id)  # its waiter may only not have put it back yet
        return session

    def outcome(self, session_id: str) -> SessionOutcome | None:
        return self._read("outcome", session_id, SessionOutcome)

    def someone_waits(self, session_id: str) -> bool:
        """Whether the claim is there; while Redis may just have been away, a missing one may only not be back yet,
        so the pick goes on (the viewer would end it as abandoned)."""
        doing = f"reading selection session {session_id}"
        with self.broker.reach(doing):
            if self.broker.client.exists(key("waiting", session_id)):
                return True
        return self.broker.recovering(doing)

    def record(self, session: SelectionSession, outcome: SessionOutcome) -> Verdict:
        sid = session.session_id
        claim = self.broker.get(key("waiting", sid), f"answering selection session {sid}")
        if claim is None or claim_place(claim) != self.place:  # the script says why not, when it is not done
            return self.broker.record_answer(session, outcome)
        # The selection file goes first, where the waiter reads it. Answers to one session in this process take
        # turns, and one that finds an outcome leaves the file alone: it may be the winner's.
        with _ANSWERING[hash(sid) % len(_ANSWERING)]:
            if self.outcome(sid) is not None:
                return "answered"
            written = self._write_local_file(answer_file(outcome))
            if written is None:
                return "answered"
            try:
                verdict = self.broker.record_answer(session, outcome)
            except BaseException:
                self._remove_local_file(written)
                raise
            if verdict != "done":
                self._remove_local_file(written)
            return verdict

    def extend(self, session: SelectionSession) -> Verdict:
        return self.broker.extend(session)

    def _write_local_file(self, answer: SelectionFile) -> tuple[Path, bytes] | None:
        """The selection file, where the waiting process reads its directory too (same machine and directory); None
        when it could not be written because another server's answer got there first (recorded meanwhile)."""
        try:
            path = write_selection_file(self.settings.selection_dir, answer)
            return path, path.read_bytes()
        except OSError as exc:
            if self.outcome(answer.session_id) is not None:  # another server on this machine raced us, and won
                return None
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

