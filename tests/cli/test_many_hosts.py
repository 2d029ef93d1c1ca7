"""Past one machine: API servers and agents that share nothing but Redis (SCENE_AGENT_BROKER).

Each "host" is a set of directories of its own (state and selection), as another machine or container would
have; the processes are real (`scene-agent serve`, `scene-agent vis --select`), and so is Redis.
"""

from __future__ import annotations

import json
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from cli_proc import CliProcess, Spawner, agent_env, http, submit
from eventually import eventually as waited_for
from redis_server import RedisServer
from sse_client import SSEStream
from vis_helpers import CHAIRS, chair, finish

from scene_agent.config import Settings
from scene_agent.scene.loader import load_scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.redis.backend import RedisBackend
from scene_agent.selection.redis.broker import CLAIM_TTL_MS, RedisBroker
from scene_agent.selection.selection_file import selection_path
from scene_agent.tools.visualize import VisualizeInput, open_view

SETTLE_S = 15.0


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    return redis_server.url


def host(tmp_path: Path, name: str, broker: str) -> dict[str, str]:
    """The environment of one host: directories of its own, the shared broker."""
    return agent_env(tmp_path / name) | {"SCENE_AGENT_BROKER": broker}


def settings_of(env: dict[str, str]) -> Settings:
    return Settings(state_dir=Path(env["SCENE_AGENT_STATE_DIR"]), selection_dir=Path(env["SCENE_AGENT_SELECTION_DIR"]),
                    viewer_url=env["SCENE_AGENT_VIEWER_URL"], broker=env["SCENE_AGENT_BROKER"])


def serve(spawn: Spawner, scene: Path, env: dict[str, str]) -> tuple[CliProcess, str]:
    """`scene-agent serve` on a free port with this host's environment; (process, origin)."""
    process = spawn("serve", "--port", "0", "--json", "--scene", str(scene), env=env)
    said = process.json_line()
    assert said["channel"]["kind"] == "redis" and said["channel"]["reachable"] is True
    return process, said["url"].rstrip("/")


def select(spawn: Spawner, scene: Path, env: dict[str, str], timeout: str = "60") -> tuple[CliProcess, dict]:
    """`vis CHAIRS --select --json` on this host, once it has printed its VisOutput."""
    process = spawn("vis", *CHAIRS, "--select", "--json", "--timeout", timeout, "--scene", str(scene), env=env)
    return process, process.json_line()


def eventually(check: Callable[[], object], what: str, timeout: float = SETTLE_S) -> None:
    waited_for(check, what, timeout)


def both_at_once(session_id: str, *answers: tuple[str, str]) -> dict[str, tuple[int, dict]]:
    """Post each (origin, code) pick for the session from its own thread, released together; the replies by origin."""
    start = threading.Barrier(len(answers))
    replies: dict[str, tuple[int, dict]] = {}

    def send(origin: str, code: str) -> None:
        start.wait(5)
        replies[origin] = submit(origin, session_id, code)

    senders = [threading.Thread(target=send, args=answer) for answer in answers]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join(30)
    return replies


@pytest.fixture
def two_servers(tmp_path: Path, small_scene_path: Path, spawn: Spawner, redis_url: str) -> Iterator[tuple[str, str]]:
    """Servers A and B on hosts of their own, sharing only Redis: their origins."""
    _, a = serve(spawn, small_scene_path, host(tmp_path, "a", redis_url))
    _, b = serve(spawn, small_scene_path, host(tmp_path, "b", redis_url))
    yield a, b


def test_a_pick_sent_to_the_server_that_did_not_show_it_reaches_the_agent(tmp_path, small_scene_path, spawn, redis_url,
                                                                           two_servers):
    a, b = two_servers
    agent_host = host(tmp_path, "agent", redis_url) | {"SCENE_AGENT_VIEWER_URL": a + "/"}
    process, vis = select(spawn, small_scene_path, agent_host)
    sid = vis["session_id"]
    for origin in (a, b):  # any server answers for any session, and serves its view
        state = http("GET", f"{origin}/api/sessions/{sid}")[1]
        assert (state["status"], state["waiting"], state["candidates"]) == ("pending", True, list(CHAIRS))
        assert http("GET", f"{origin}/manifests/{vis['view']}.json")[1]["session_id"] == sid
    assert submit(b, sid, "0-1-2")[0] == 200
    status, result = finish(process)
    assert status == 0, "".join(process.stderr)
    assert (result["status"], result["selections"]) == ("confirmed", [chair("0-1-2")])
    assert "Redis at redis://127.0.0.1:" in "".join(process.stderr)  # the agent says which channel it waits on
    assert http("GET", f"{a}/api/sessions/{sid}")[1]["status"] == "confirmed"
    for name in ("a", "b", "agent"):  # no machine shares a selection directory with the agent: no file anywhere
        assert not selection_path(tmp_path / name / "selections", sid).exists()


def test_two_servers_answering_one_session_at_once_exactly_one_wins(tmp_path, small_scene_path, spawn, redis_url, two_servers):
    a, b = two_servers
    scene = load_scene(small_scene_path)
    settings = settings_of(host(tmp_path, "agent", redis_url))
    broker = RedisBroker(redis_url)
    channel = SelectionChannel(RedisBackend(settings, broker))
    try:
        for round_ in range(20):
            _, session = open_view(scene, VisualizeInput(codes=list(CHAIRS), selection_mode=True), settings, channel)
            assert session is not None
            pending = channel.watch(session)
            replies = both_at_once(session.session_id, (a, "0-1-1"), (b, "0-1-3"))
            result = pending.wait()
            statuses = sorted(status for status, _ in replies.values())
            assert statuses == [200, 409], (round_, replies)
            winner = "0-1-1" if replies[a][0] == 200 else "0-1-3"
            loser = replies[b] if winner == "0-1-1" else replies[a]
            assert loser[1]["error"] == "already_answered"
            assert (result.status, result.codes) == ("confirmed", [winner])
    finally:
        broker.close()


def test_the_selection_file_is_written_where_the_agent_reads_its_directory(tmp_path, small_scene_path, spawn, redis_url,
                                                                           two_servers):
    a, b = two_servers
    scene = load_scene(small_scene_path)
    settings = settings_of(host(tmp_path, "a", redis_url))  # this test's agent lives on host A
    broker = RedisBroker(redis_url)
    channel = SelectionChannel(RedisBackend(settings, broker))
    try:
        answers = {}
        for origin in (a, b):
            _, session = open_view(scene, VisualizeInput(codes=list(CHAIRS), selection_mode=True), settings, channel)
            assert session is not None
            pending = channel.watch(session)
            assert submit(origin, session.session_id, "0-1-1")[0] == 200
            path = selection_path(settings.selection_dir, session.session_id)
            answers[origin] = path.exists()
            assert pending.wait().codes == ["0-1-1"]
            assert not path.exists()  # consumed by the waiter, as on one machine
        assert answers == {a: True, b: False}  # A shares the agent's directory; B is elsewhere
    finally:
        broker.close()


def test_a_killed_agent_takes_no_pick_on_any_server(tmp_path, small_scene_path, spawn, redis_url, two_servers):
    a, b = two_servers
    process, vis = select(spawn, small_scene_path, host(tmp_path, "agent", redis_url))
    sid = vis["session_id"]
    assert http("GET", f"{b}/api/sessions/{sid}")[1]["waiting"] is True
    process.proc.kill()
    process.proc.wait(10)
    # Its claim lapses CLAIM_TTL_MS after its last renewal, however it died.
    eventually(lambda: http("GET", f"{b}/api/sessions/{sid}")[1]["waiting"] is False, "the claim lapses",
               timeout=CLAIM_TTL_MS / 1000 + SETTLE_S)
    code, body = submit(a, sid, "0-1-1")
    assert (code, body["error"]) == (410, "nobody_waiting")
    assert http("GET", f"{b}/api/sessions/{sid}")[1]["status"] == "pending"  # nothing recorded


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_closes_the_session_on_every_server(tmp_path, small_scene_path, spawn, redis_url, two_servers, signum):
    a, b = two_servers
    process, vis = select(spawn, small_scene_path, host(tmp_path, "agent", redis_url))
    process.proc.send_signal(signum)
    status, result = finish(process)
    assert status == 1 and (result["status"], result["cancelled_by"]) == ("cancelled", "caller")
    for origin in (a, b):
        state = http("GET", f"{origin}/api/sessions/{vis['session_id']}")[1]
        assert (state["status"], state["waiting"]) == ("cancelled", False)


def test_a_server_killed_mid_session_is_replaced_and_the_pick_arrives(tmp_path, small_scene_path, spawn, redis_url):
    a_host = host(tmp_path, "a", redis_url)
    first, _ = serve(spawn, small_scene_path, a_host)
    process, vis = select(spawn, small_scene_path, host(tmp_path, "agent", redis_url))
    first.proc.kill()
    first.proc.wait(10)
    _, restarted = serve(spawn, small_scene_path, a_host)
    assert submit(restarted, vis["session_id"], "0-1-3")[0] == 200
    status, result = finish(process)
    assert (status, result["selections"]) == (0, [chair("0-1-3")])


def test_redis_restarting_mid_session_answers_503_then_the_session_continues(tmp_path, small_scene_path, spawn,
                                                                             redis_server, two_servers):
    a, b = two_servers
    process, vis = select(spawn, small_scene_path, host(tmp_path, "agent", redis_server.url))
    sid = vis["session_id"]
    redis_server.stop()  # keeps nothing on disk: every key is lost
    code, body = http("GET", f"{b}/api/sessions/{sid}")
    assert (code, body["error"]) == (503, "broker_unavailable")
    assert redis_server.url in body["message"]
    code, body = submit(a, sid, "0-1-1")
    assert (code, body["error"]) == (503, "broker_unavailable")
    code, health = http("GET", f"{a}/api/health")
    assert (code, health["status"], health["channel"]["reachable"]) == (503, "unavailable", False)
    redis_server.start()
    # The waiting agent puts its session (and view) back as soon as Redis answers again.
    eventually(lambda: http("GET", f"{b}/api/sessions/{sid}")[0] == 200, "the session is back")
    assert http("GET", f"{a}/manifests/{vis['view']}.json")[0] == 200
    eventually(lambda: http("GET", f"{b}/api/sessions/{sid}")[1]["waiting"], "the claim is back")
    assert submit(b, sid, "0-1-2")[0] == 200
    status, result = finish(process)
    assert (status, result["selections"]) == (0, [chair("0-1-2")])
    assert http("GET", f"{a}/api/health")[0] == 200


def test_redis_down_at_session_creation_is_a_clear_error_at_once(tmp_path, small_scene_path, spawn, redis_server):
    redis_server.stop()
    began = time.monotonic()
    process = spawn("vis", *CHAIRS, "--select", "--json", "--scene", str(small_scene_path),
                    env=host(tmp_path, "agent", redis_server.url))
    status = process.finish()
    assert status == 1
    assert time.monotonic() - began < SETTLE_S  # never a hang
    said = json.loads("".join(process.stdout))
    assert said["error"] == "broker_unavailable" and redis_server.url in said["message"], said
    assert not (tmp_path / "agent" / "state").exists() or not any((tmp_path / "agent" / "state").rglob("*.json"))


def test_a_web_chat_on_one_server_gets_the_pick_posted_to_the_other(tmp_path, small_scene_path, spawn, two_servers):
    a, b = two_servers
    started = http("POST", f"{a}/api/chat", {"message": "what's the color of the chair in the kitchen?"})[1]
    with SSEStream(f"{a}{started['events_url']}") as stream:
        required = next(e.json() for e in stream if e.name == "message" and e.json()["type"] == "selection_required")
        assert required["channel"].startswith("Redis at redis://127.0.0.1:")
        assert http("GET", f"{b}/api/sessions/{required['session_id']}")[1]["waiting"] is True
        assert submit(b, required["session_id"], "0-1-2")[0] == 200
        final = next(e.json() for e in stream if e.name == "message" and e.json()["type"] == "final")
    assert (final["status"], final["codes"]) == ("answered", ["0-1-2"])
