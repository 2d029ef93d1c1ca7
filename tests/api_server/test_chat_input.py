"""The web chat refuses bad input with a clear error and starts nothing; event streams are bounded."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from chat_helpers import ask, events_until, start
from http_client import call
from sse_client import SSEStream, read_run

from api_server.serve import BackgroundServer

ChatServer = Callable[..., BackgroundServer]
ZEROS = "0" * 32


@pytest.mark.parametrize(("body", "needle"), [
    ({}, "message: Field required"),
    ({"message": ""}, "message: String should have at least 1 character"),
    ({"message": "   "}, "message: must not be blank"),
    ({"message": 42}, "message: Input should be a valid string"),
    ({"message": "hi", "conversation_id": "../../etc"}, "conversation_id: String should match pattern"),
    ({"message": "hi", "extra": 1}, "extra: Extra inputs are not permitted"),
    ({"message": "x" * 4001}, "message: String should have at most 4000 characters"),
])
def test_a_bad_chat_body_is_400_and_names_the_field(chat_server: ChatServer, body: dict, needle: str) -> None:
    server = chat_server()
    reply = call("POST", f"{server.url}/api/chat", body)
    assert reply.status == 400 and reply.json()["error"] == "bad_usage"
    assert needle in reply.json()["message"]
    assert server.app.extensions["scene_agent.chat"]._runs == {}, "nothing started"


def test_not_json_is_415_malformed_json_400_and_an_oversized_body_413(chat_server: ChatServer) -> None:
    server = chat_server()
    assert call("POST", f"{server.url}/api/chat", raw=b"message=hi",
                headers={"Content-Type": "application/x-www-form-urlencoded"}).status == 415
    assert call("POST", f"{server.url}/api/chat", raw=b'{"message": ', headers={"Content-Type": "application/json"}).status == 400
    big = call("POST", f"{server.url}/api/chat", raw=b'{"message": "' + b"x" * 70_000 + b'"}',
               headers={"Content-Type": "application/json"})
    assert big.status == 413 and "larger than" in big.json()["message"]


def test_unknown_and_malformed_ids(chat_server: ChatServer) -> None:
    server = chat_server()
    unknown = call("POST", f"{server.url}/api/chat", {"message": "hi", "conversation_id": ZEROS})
    assert unknown.status == 404 and unknown.json()["error"] == "conversation_not_found"
    assert "leaving conversation_id out" in unknown.json()["message"]
    for path, code in [(f"/api/runs/{ZEROS}", "run_not_found"), (f"/api/runs/{ZEROS}/events", "run_not_found"),
                       (f"/api/conversations/{ZEROS}", "conversation_not_found")]:
        reply = call("GET", server.url + path)
        assert (reply.status, reply.json()["error"]) == (404, code), path
    assert call("POST", f"{server.url}/api/runs/{ZEROS}/stop").status == 404
    for path in ["/api/runs/XYZ", "/api/runs/..%2F..%2Fetc/events", "/api/conversations/abc", f"/api/runs/{ZEROS.upper()}"]:
        reply = call("GET", server.url + path)
        assert reply.status in (400, 404) and "error" in reply.json(), path
    assert call("GET", f"{server.url}/api/runs/{'g' * 32}").json()["message"].startswith("a run id is 32 lowercase hex")


def test_a_bad_resume_point_is_400(chat_server: ChatServer) -> None:
    server = chat_server()
    started, _ = ask(server.url, "how many beds are there?")
    url = f"{server.url}/api/runs/{started['run_id']}/events"
    with SSEStream(url, last_event_id="-1") as stream:
        assert stream.status == 400 and b"event number" in stream.body()
    with SSEStream(f"{url}?after=abc") as stream:
        assert stream.status == 400


def test_streams_beyond_the_limit_get_503_until_one_closes(chat_server: ChatServer) -> None:
    server = chat_server(MAX_EVENT_STREAMS=1)
    started = start(server.url, "what's the color of the chair?")
    url = f"{server.url}/api/runs/{started['run_id']}/events"
    first = SSEStream(url)
    events_until(first, "selection_required")
    with SSEStream(url) as second:
        assert second.status == 503 and b"event streams are open" in second.body()
    call("POST", f"{server.url}/api/runs/{started['run_id']}/stop")
    list(first)  # the run ends, the server ends the stream and frees its slot
    first.close()
    events, ended = read_run(url)
    assert ended and events[-1].json()["status"] == "cancelled"


def test_a_stream_that_lasts_too_long_ends_and_the_reader_resumes_where_it_was(chat_server: ChatServer) -> None:
    server = chat_server(SSE_MAX_S=0.5, SSE_KEEPALIVE_S=0.2)
    started = start(server.url, "what's the color of the chair?")
    url = f"{server.url}/api/runs/{started['run_id']}/events"
    with SSEStream(url) as stream:
        before, required = events_until(stream, "selection_required")
        after = list(stream)  # ends after SSE_MAX_S without `event: end`: the run is still waiting for the pick
    assert after == [] and "keepalive" in stream.comments
    seen = before[-1].id
    call("POST", f"{server.url}/api/submit-selection",
         {"session_id": required["session_id"], "selections": [{"itemCode": required["candidates"][0]}]})
    resumed, reconnects = [], 0
    while not resumed or resumed[-1].json()["type"] != "final":  # as EventSource does: reconnect from the last id
        more, ended = read_run(url, last_event_id=resumed[-1].id if resumed else seen)
        resumed += more
        reconnects += 1
        assert reconnects < 100
    assert ended
    assert [int(e.id) for e in resumed] == list(range(int(seen) + 1, int(seen) + 1 + len(resumed))), "none lost, none twice"
    assert resumed[0].json()["type"] == "selection_received"
    assert resumed[-1].json()["type"] == "final" and resumed[-1].json()["status"] == "answered"
