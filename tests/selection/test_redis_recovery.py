"""Redis going away never makes a live wait look dead: on a real redis-server, frozen longer than a claim lives,
restarted with and without its data, a pick for a session whose waiter lives is answered (and delivered) or refused
as "recovering" (503: send it again), never as not found (404) or as nobody waiting (410); a retry is delivered. Only
when every waiter really is gone are picks refused, after a bounded grace."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from eventually import eventually
from handoff_helpers import Worker, opened
from redis_server import RedisServer
from tcp_proxy import TcpProxy

from scene_agent.errors import (
    BrokerUnavailableError,
    NobodyWaitingError,
    SelectionRecoveringError,
    SessionAnsweredError,
    SessionNotFoundError,
)
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.redis.backend import RedisBackend
from scene_agent.selection.redis.broker import RedisBroker, key
from scene_agent.selection.redis.scripts import CLAIM_TTL_MS, OUTAGE_KEYS, RECOVERY_MS

PICKERS = 6
CODES = ["0-1-1", "0-1-2", "0-1-3"]
RETRY_FOR_S = 15.0

CHANNELS = ("redis",)

Outcome = str  # "done", or the class name of the error a pick got


def attempt(pick: Callable[[], object]) -> Outcome:
    try:
        pick()
    except (SelectionRecoveringError, BrokerUnavailableError, NobodyWaitingError, SessionNotFoundError,
            SessionAnsweredError) as exc:
        return type(exc).__name__
    return "done"


def until_done(channel: SelectionChannel, session_id: str, codes: list[str]) -> list[Outcome]:
    """Send a pick again, as the viewer does after a 503, until it is delivered; every answer it got. A 409 after a
    503 means the first send was recorded after all (a reply that timed out): it is, with these codes."""
    seen: list[Outcome] = []

    def delivered() -> bool:
        seen.append(attempt(lambda: (channel.get(session_id), channel.submit(session_id, codes))))
        assert seen[-1] in ("done", "SelectionRecoveringError", "BrokerUnavailableError", "SessionAnsweredError"), seen
        if seen[-1] == "SessionAnsweredError":
            outcome = channel.outcome(session_id)
            assert outcome is not None and [i.itemCode for i in outcome.selections] == codes, outcome
            return True
        return seen[-1] == "done"

    eventually(delivered, "the pick is delivered", RETRY_FOR_S)
    return seen


def pulse_stamped(server: RedisServer) -> None:
    """Once the waiter of this process has stamped its pulse (renewed its claims at least once)."""
    spy = server.client()
    try:
        eventually(lambda: spy.get(OUTAGE_KEYS[0]) is not None, "the waiter has stamped its pulse", RETRY_FOR_S)
    finally:
        spy.close()


def waiting_sessions(channel: SelectionChannel, n: int) -> list[tuple[str, Worker]]:
    """n sessions, each waited for (one listener in this process renews their claims and stamps the pulse)."""
    sessions = [opened(channel, timeout=60) for _ in range(n)]
    workers = [(s.session_id, Worker(channel.watch(s).wait)) for s in sessions]
    return workers


def test_picks_sent_while_redis_is_frozen_longer_than_a_claim_lives_are_never_refused(channel, channels):
    server = channels.redis
    waits = waiting_sessions(channel, PICKERS)
    pulse_stamped(server)
    server.pause()
    try:  # picks sent during the freeze wait in Redis' queue (or time out); the claims lapse meanwhile
        during = [Worker(lambda sid=sid, k=k: attempt(lambda: channel.submit(sid, [CODES[k % 3]])))
                  for k, (sid, _) in enumerate(waits)]
        for worker in during:
            worker.thread.join((CLAIM_TTL_MS + 1500) / 1000 / len(during))
    finally:
        server.resume()
    first = [worker.result() for worker in during]
    assert set(first) <= {"done", "SelectionRecoveringError", "BrokerUnavailableError"}, first
    for k, (sid, waiter) in enumerate(waits):
        if first[k] != "done":
            until_done(channel, sid, [CODES[k % 3]])
        assert waiter.result().codes == [CODES[k % 3]]


@pytest.mark.parametrize("persistent", [False, True], ids=["no persistence", "append-only file"])
def test_picks_right_after_a_redis_restart_are_never_refused(settings, tmp_path: Path, persistent: bool):
    server = RedisServer(tmp_path / "redis", persistent=persistent).start()
    broker = RedisBroker(server.url)
    try:
        channel = SelectionChannel(RedisBackend(replace(settings, broker=server.url), broker))
        assert channel.health().reachable  # as `serve` does at start: the server knows which Redis it talks to
        waits = waiting_sessions(channel, PICKERS)
        server.stop()
        server.start()  # without persistence, empty: every session and claim is gone until the waiter puts them back
        # Picks sent before the waiter has put its sessions back are answered 503 (SelectionRecoveringError), never
        # refused: until_done fails on a 404 or 410. Whether the first pick comes before the waiter is back is the
        # threads' race (a loaded machine lets the waiter win), so either is fine; no pick is ever lost.
        for k, (sid, waiter) in enumerate(waits):
            until_done(channel, sid, [CODES[k % 3]])
            assert waiter.result().codes == [CODES[k % 3]]
    finally:
        broker.close()
        server.stop()


def test_picks_while_the_waiter_is_cut_off_from_redis_are_recovering_and_delivered_when_it_is_back(
        channel, channels, settings, tmp_path: Path):
    server = channels.redis
    proxy = TcpProxy(server.port)  # the waiting process reaches Redis through it; the API server directly
    far = RedisBroker(f"redis://127.0.0.1:{proxy.port}/0")
    spy = server.client()
    try:
        agents = SelectionChannel(RedisBackend(replace(settings, broker=far.url, selection_dir=tmp_path / "agents"), far))
        waits = waiting_sessions(agents, PICKERS)
        pulse_stamped(server)
        proxy.cut()
        eventually(lambda: not any(spy.exists(key("waiting", sid)) for sid, _ in waits), "the claims lapse",
                   RETRY_FOR_S)
        first = [attempt(lambda sid=sid: channel.submit(sid, ["0-1-2"])) for sid, _ in waits]
        assert first == ["SelectionRecoveringError"] * PICKERS  # not "nobody is waiting": it may be coming back
        assert all(channel.someone_waits(sid) for sid, _ in waits)  # so the viewer does not end the pick either
        proxy.mend()
        for sid, waiter in waits:
            until_done(channel, sid, ["0-1-2"])
            assert waiter.result().codes == ["0-1-2"]
    finally:
        spy.close()
        far.close()
        proxy.close()


def test_when_every_waiter_is_gone_picks_are_refused_after_a_bounded_grace(channel, channels):
    ended = opened(channel)
    pending = channel.watch(ended)  # a waiter that stamps the pulse, then ends
    waited = Worker(pending.wait)
    pulse_stamped(channels.redis)
    pending.cancel()
    waited.result()
    orphan = opened(channel)
    channels.broker.claim(orphan.session_id, b'{"token":"gone","place":"elsewhere"}')  # then its process died
    spy = channels.redis.client()
    try:
        eventually(lambda: not spy.exists(key("waiting", orphan.session_id)), "the claim lapses", RETRY_FOR_S)
    finally:
        spy.close()
    seen: list[Outcome] = []
    eventually(lambda: seen.append(attempt(lambda: channel.submit(orphan.session_id, ["0-1-1"]))) or
               seen[-1] == "NobodyWaitingError", "the pick is refused", RECOVERY_MS / 1000 + 3)
    assert seen[0] == "SelectionRecoveringError" and set(seen) <= {"SelectionRecoveringError", "NobodyWaitingError"}, seen
    # a grace (the quiet might have been Redis' own), then the refusal
    assert channel.outcome(orphan.session_id) is None  # nothing was recorded meanwhile
