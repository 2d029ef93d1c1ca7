"""Redis run highly available (a primary, a replica, three Sentinels; SCENE_AGENT_BROKER=redis+sentinel://…): the
channel follows a failover by itself, and a pick is acknowledged only once a replica has it too, so a primary killed
(kill -9) while eight threads pick loses no acknowledged pick, answers no session twice, and refuses none falsely
(never "not found" or "nobody waiting"); the agents get every pick."""

from __future__ import annotations

import shutil
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from handoff_helpers import Worker, opened

from scene_agent.errors import (
    BrokerUnavailableError,
    NobodyWaitingError,
    SelectionNotDeliveredError,
    SelectionRecoveringError,
    SessionAnsweredError,
    SessionNotFoundError,
)
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.redis.backend import RedisBackend
from scene_agent.selection.redis.broker import RedisBroker
from scene_bench.sentinel_set import SentinelSet

PICKERS = 8
SESSIONS = 48
CODES = ["0-1-1", "0-1-2", "0-1-3"]
RETRY_PAUSE_S = 0.05  # a client's pause before it sends a pick again after a 503, as the viewer's (shorter)
PICKING_FOR_S = 60.0


@pytest.fixture
def sentinels(tmp_path: Path) -> Iterator[SentinelSet]:
    ha = SentinelSet(shutil.which("redis-server") or "/usr/bin/redis-server", tmp_path).start()
    yield ha
    ha.stop()


def test_a_primary_killed_while_eight_threads_pick_loses_no_acknowledged_pick(settings, tmp_path: Path,
                                                                              sentinels: SentinelSet) -> None:
    agent_broker, api_broker = RedisBroker(sentinels.url), RedisBroker(sentinels.url)  # two processes' worth
    try:
        agents = SelectionChannel(RedisBackend(replace(settings, broker=sentinels.url,
                                                       selection_dir=tmp_path / "agents"), agent_broker))
        api = SelectionChannel(RedisBackend(replace(settings, broker=sentinels.url), api_broker))
        health = api.health()
        assert health.reachable and health.warning is None, health
        assert "once it is on the primary and 1 of its 1 replica(s)" in health.message
        sessions = [opened(agents, timeout=120) for _ in range(SESSIONS)]
        waits = {s.session_id: Worker(agents.watch(s).wait) for s in sessions}
        acknowledged: dict[str, str] = {}
        seen: Counter[str] = Counter()
        lock = threading.Lock()
        killed = threading.Event()
        killed_port: list[int] = []
        pause = threading.Event()  # never set: its wait is the pause between two sends

        def pick(k: int) -> None:
            for i, session in enumerate(sessions[k::PICKERS]):
                sid, code = session.session_id, CODES[(k + i) % len(CODES)]
                while True:
                    try:
                        api.submit(sid, [code])
                        outcome = "done"
                    except SessionAnsweredError:  # an earlier send whose reply was lost went through: it is ours
                        recorded = api.outcome(sid)
                        assert recorded is not None and [s.itemCode for s in recorded.selections] == [code]
                        outcome = "answered"
                    except (BrokerUnavailableError, SelectionRecoveringError, SelectionNotDeliveredError,
                            NobodyWaitingError, SessionNotFoundError) as exc:
                        with lock:
                            seen[type(exc).__name__] += 1
                        pause.wait(RETRY_PAUSE_S)
                        continue
                    with lock:
                        seen[outcome] += 1
                        acknowledged[sid] = code
                        if len(acknowledged) == SESSIONS // 3 and not killed.is_set():
                            killed.set()
                            killed_port.append(sentinels.kill_primary())  # kill -9, a third of the way through
                    break

        pickers = [Worker(lambda k=k: pick(k)) for k in range(PICKERS)]
        for picker in pickers:
            picker.result(PICKING_FOR_S)
        assert killed.is_set() and sentinels.primary_port() not in (None, *killed_port)  # it failed over
        assert len(acknowledged) == SESSIONS
        for sid, code in acknowledged.items():  # nothing acknowledged was lost; each session answered once
            assert waits[sid].result().codes == [code], sid
        assert seen["NobodyWaitingError"] == 0 and seen["SessionNotFoundError"] == 0, seen  # no false refusal
        print(f"failover under picking: {dict(seen)}")
    finally:
        api_broker.close()
        agent_broker.close()
