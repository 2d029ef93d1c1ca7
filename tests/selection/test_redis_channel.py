"""The Redis channel on a real redis-server: keys that expire, a pick pushed (not polled), the waiter's claim,
answers that do not fit, Redis going away and coming back."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from channels import Channels
from eventually import eventually as waited_for
from handoff_helpers import OBJECTS, Ticks, Worker, opened
from redis_server import RedisServer

from scene_agent.errors import (
    BrokerUnavailableError,
    NobodyWaitingError,
    SessionAnsweredError,
    SessionExpiredError,
    SessionNotFoundError,
)
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.redis.backend import RedisBackend
from scene_agent.selection.redis.broker import RedisBroker, key
from scene_agent.selection.redis.scripts import CLAIM_TTL_MS
from scene_agent.selection.redis.waiter import waiter_of
from scene_agent.selection.session import RETAIN_AFTER_EXPIRY, now_utc

SETTLE_S = 10.0


CHANNELS = ("redis",)


@pytest.fixture
def redis_server(channels: Channels) -> RedisServer:
    """The channel's own redis-server (the tests stop and start it)."""
    assert channels.redis is not None
    return channels.redis


@pytest.fixture
def broker(channels: Channels) -> RedisBroker:
    """The channel's broker."""
    assert channels.broker is not None
    return channels.broker


def eventually(check: Callable[[], object], what: str, timeout: float = SETTLE_S) -> None:
    waited_for(check, what, timeout)


def test_a_sessions_keys_expire_an_hour_after_it_does(channel, redis_server):
    session = opened(channel, timeout=30)
    ttl_ms = redis_server.client().pttl(key("session", session.session_id))
    expected = (30 + RETAIN_AFTER_EXPIRY.total_seconds()) * 1000
    assert expected - 5000 < ttl_ms <= expected
    assert 0 < redis_server.client().pttl(key("view", session.view)) <= expected


def test_a_session_past_its_retention_is_gone_by_ttl(channel):
    # Expired an hour ago, less one second: its keys live one second more.
    session = opened(channel, timeout=30, age=30 + RETAIN_AFTER_EXPIRY.total_seconds() - 1)
    assert channel.status(session)[0] == "expired"
    eventually(lambda: channel.read_view(session.view or "") is None, "the view expires")
    with pytest.raises(SessionNotFoundError):
        channel.get(session.session_id)


def test_the_waiter_blocks_on_redis_instead_of_polling(channel, redis_server):
    session = opened(channel)
    pending = channel.watch(session)
    worker = Worker(pending.wait)
    spy = redis_server.client()
    # The process' listener sits in one BLPOP over its sessions' answer lists.
    eventually(lambda: any(c["cmd"] == "blpop" for c in spy.client_list()), "a client blocked in BLPOP")
    assert channel.someone_waits(session.session_id)
    channel.submit(session.session_id, ["0-1-2"])
    result = worker.result()
    assert (result.status, result.codes, result.answered_by) == ("confirmed", ["0-1-2"], "viewer")
    assert not channel.someone_waits(session.session_id)
    spy.close()


def test_a_session_nobody_waits_for_takes_no_answer(channel):
    session = opened(channel)
    with pytest.raises(NobodyWaitingError):
        channel.submit(session.session_id, ["0-1-1"])
    assert channel.outcome(session.session_id) is None


def test_the_claim_lapses_when_the_waiter_stops_renewing_it(channel, broker):
    session = opened(channel)
    broker.claim(session.session_id, b'{"token":"gone","place":"elsewhere"}')  # a waiter that then died
    assert channel.someone_waits(session.session_id)
    began = time.monotonic()
    eventually(lambda: not channel.someone_waits(session.session_id), "the claim lapses", CLAIM_TTL_MS / 1000 + 2)
    assert time.monotonic() - began <= CLAIM_TTL_MS / 1000 + 0.5


def test_a_long_wait_keeps_its_claim(channel):
    session = opened(channel, timeout=CLAIM_TTL_MS / 1000 * 2)
    pending = channel.watch(session)
    worker = Worker(pending.wait)
    deadline = time.monotonic() + CLAIM_TTL_MS / 1000 * 1.5  # past the claim's first time to live
    while time.monotonic() < deadline:
        assert channel.someone_waits(session.session_id)
    channel.submit(session.session_id, ["0-1-3"])
    assert worker.result().codes == ["0-1-3"]


def test_the_timeout_and_a_stop_close_the_session(channel):
    timed = opened(channel, timeout=0.5)
    result = channel.watch(timed).wait()
    assert result.status == "timeout" and channel.outcome(timed.session_id).status == "expired"
    with pytest.raises(SessionExpiredError):
        channel.submit(timed.session_id, ["0-1-1"])
    stopped = opened(channel)
    pending = channel.watch(stopped)
    worker = Worker(pending.wait)
    pending.cancel()
    assert (worker.result().status, worker.result().cancelled_by) == ("cancelled", "caller")
    assert channel.outcome(stopped.session_id).by == "caller"


def test_an_answer_pushed_by_someone_else_that_does_not_fit_is_ignored(channel, redis_server):
    session = opened(channel)
    pending = channel.watch(session)
    worker = Worker(pending.wait)
    forged = {"session_id": session.session_id, "status": "confirmed", "by": "viewer",
              "selections": [{"itemCode": "9-9-9", "type": "object", "label": "chair"}], "at": now_utc().isoformat()}
    spy = redis_server.client()
    spy.rpush(key("answer", session.session_id), json.dumps(forged), b"not json")
    spy.close()
    eventually(lambda: not redis_server.client().exists(key("answer", session.session_id)), "the listener took them")
    assert worker.alive()
    channel.submit(session.session_id, ["0-1-1"])
    assert worker.result().codes == ["0-1-1"]


def test_a_second_answer_from_another_server_is_refused(channel, settings, redis_server, broker, tmp_path: Path):
    other = SelectionChannel(RedisBackend(replace(settings, broker=redis_server.url, selection_dir=tmp_path / "other-host"), broker))
    session = opened(channel)
    pending = channel.watch(session)
    other.submit(session.session_id, ["0-1-2"])
    with pytest.raises(SessionAnsweredError, match="already confirmed in the viewer"):
        channel.submit(session.session_id, ["0-1-3"])
    assert pending.wait().codes == ["0-1-2"]


def test_redis_away_is_a_clear_error_that_names_it(channel, redis_server):
    session = opened(channel)
    redis_server.stop()
    began = time.monotonic()
    for attempt in (lambda: channel.get(session.session_id), lambda: opened(channel),
                    lambda: channel.submit(session.session_id, ["0-1-1"]), lambda: channel.watch(session)):
        with pytest.raises(BrokerUnavailableError, match=redis_server.url):
            attempt()
    assert time.monotonic() - began < SETTLE_S
    health = channel.health()
    assert (health.kind, health.reachable) == ("redis", False) and redis_server.url in health.message


def test_a_wait_rides_out_a_redis_restart_that_lost_everything(channel, redis_server):
    session = opened(channel, timeout=60)
    pending = channel.watch(session)
    worker = Worker(pending.wait)
    redis_server.stop()
    redis_server.start()  # empty: nothing was kept
    eventually(lambda: channel.someone_waits(session.session_id), "the waiter claims its session again")
    eventually(lambda: channel.read_view(session.view or "") is not None, "the waiter puts the view back")
    assert channel.get(session.session_id) == session
    channel.submit(session.session_id, ["0-1-4"])
    assert worker.result().codes == ["0-1-4"]


def test_with_an_append_only_file_a_pick_survives_a_redis_restart(settings, tmp_path: Path):
    server = RedisServer(tmp_path / "aof", persistent=True).start()
    broker = RedisBroker(server.url)
    try:
        channel = SelectionChannel(RedisBackend(replace(settings, broker=server.url), broker))
        assert "appendonly on" in channel.health().message
        session = opened(channel)
        claim = b'{"token":"t","place":"elsewhere"}'
        broker.claim(session.session_id, claim)  # the waiter is elsewhere, between two looks
        channel.submit(session.session_id, ["0-1-2"])
        server.kill()  # kill -9 right after the 200
        server.start()
        assert channel.outcome(session.session_id).selections[0].itemCode == "0-1-2"
        pending = channel.watch(session)
        assert pending.wait().codes == ["0-1-2"]
    finally:
        broker.close()
        server.stop()


def test_one_listener_serves_every_wait_of_the_process(channel, broker):
    sessions = [opened(channel) for _ in range(50)]
    waits = [channel.watch(s) for s in sessions]
    workers = [Worker(p.wait) for p in waits]
    listeners = [t for t in threading.enumerate() if t.name == "selection-broker"]
    assert len(listeners) == 1 and waiter_of(broker).waiting == 50
    for i, session in enumerate(reversed(sessions)):
        channel.submit(session.session_id, [list(OBJECTS)[i % 4]])
    for i, (session, worker) in enumerate(zip(reversed(sessions), reversed(workers), strict=True)):
        result = worker.result()
        assert (result.session_id, result.codes) == (session.session_id, [list(OBJECTS)[i % 4]])


def test_progress_is_reported_while_waiting(channel):
    session = opened(channel, timeout=30)
    pending = channel.watch(session)
    ticks = Ticks()
    worker = Worker(lambda: pending.wait(on_progress=ticks, progress_every=0.2))
    ticks.wait_for(3)
    assert ticks.values[0] > ticks.values[2] and 25 < ticks.values[2] <= 30
    channel.cancel(session.session_id)
    assert (worker.result().status, worker.result().cancelled_by) == ("cancelled", "viewer")
