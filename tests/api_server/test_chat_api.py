"""The web chat over HTTP with the offline planner: runs, their event streams, selections, stop, conversations."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from chat_helpers import ask, events_until, run_events, start
from file_answers import file_channel
from http_client import call
from sse_client import SSEStream, read_run

from api_server.serve import BackgroundServer
from scene_agent.config import Settings
from scene_agent.selection.files.store import SessionStore

ChatServer = Callable[..., BackgroundServer]


def test_a_clear_question_streams_its_tool_calls_then_the_final_answer(chat_server: ChatServer) -> None:
    server = chat_server()
    started, events = ask(server.url, "how many chairs are there?")
    assert started["events_url"] == f"/api/runs/{started['run_id']}/events"
    types = [e["type"] for e in events]
    assert types[0] == "tool_call_start" and types[-1] == "final"
    start_event, result = events[0], next(e for e in events if e["type"] == "tool_call_result")
    assert start_event["tool_name"] == result["tool_name"] == "find" and start_event["id"] == result["id"]
    assert events[-1]["status"] == "answered"
    assert "3 chairs in the kitchen 0-1 (0-1-1, 0-1-2, 0-1-3)" in events[-1]["answer"]
    state = call("GET", f"{server.url}/api/runs/{started['run_id']}").json()
    assert state["status"] == "finished" and state["events"] == len(events) and state["final"]["status"] == "answered"
    assert state["message"] == "how many chairs are there?" and state["conversation_id"] == started["conversation_id"]


def test_event_ids_count_from_one_and_a_reader_resumes_after_the_last_it_saw(chat_server: ChatServer) -> None:
    server = chat_server()
    started, events = ask(server.url, "what's the volume of each chair in the kitchen?")
    url = f"{server.url}/api/runs/{started['run_id']}/events"
    with SSEStream(url) as stream:
        ids = [e.id for e in stream if e.name == "message"]
        assert stream.retry_ms == 1000
    assert ids == [str(i) for i in range(1, len(events) + 1)]
    with SSEStream(url, last_event_id="2") as stream:
        resumed = [e for e in stream if e.name == "message"]
    assert [e.id for e in resumed] == ids[2:] and [e.json() for e in resumed] == events[2:]
    after_all, ended = read_run(f"{url}?after={len(events)}")
    assert after_all == [] and ended
    after_two, _ = read_run(f"{url}?after=2")
    assert [e.json() for e in after_two] == events[2:]


def test_the_headers_keep_proxies_and_caches_from_holding_events(chat_server: ChatServer) -> None:
    server = chat_server()
    started = start(server.url, "how many beds are there?")
    with SSEStream(f"{server.url}/api/runs/{started['run_id']}/events") as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        assert stream.headers["Cache-Control"] == "no-store" and stream.headers["X-Accel-Buffering"] == "no"
        list(stream)


def test_an_ambiguous_question_waits_for_the_pick_then_answers_about_it(chat_server: ChatServer, settings: Settings) -> None:
    server = chat_server()
    started = start(server.url, "what's the color of the chair?")
    with SSEStream(f"{server.url}/api/runs/{started['run_id']}/events") as stream:
        _, required = events_until(stream, "selection_required")
        assert len(required["candidates"]) > 1 and "selectionMode=true" in required["viewer_url"]
        assert call("GET", f"{server.url}/api/runs/{started['run_id']}").json()["status"] == "running"
        pick = required["candidates"][1]
        reply = call("POST", f"{server.url}/api/submit-selection",
                     {"session_id": required["session_id"], "selections": [{"itemCode": pick}]})
        assert reply.status == 200, reply.body
        rest = [e.json() for e in stream if e.name == "message"]
    received = next(e for e in rest if e["type"] == "selection_received")
    assert received["codes"] == [pick] and received["session_id"] == required["session_id"]
    color = next(e for e in rest if e["type"] == "tool_call_result" and e["tool_name"] == "color")
    assert color["result"]["code"] == pick and color["result"]["clusters"][0]["hex"].startswith("#")
    final = rest[-1]
    assert final["type"] == "final" and final["status"] == "answered" and final["codes"] == [pick]
    assert not list(settings.selection_dir.glob("viewer_selection_*.json")), "the selection file is consumed"


def test_stop_cancels_the_selection_the_run_waits_on(chat_server: ChatServer) -> None:
    server = chat_server()
    started = start(server.url, "what's the color of the chair?")
    run_url = f"{server.url}/api/runs/{started['run_id']}"
    with SSEStream(f"{run_url}/events") as stream:
        _, required = events_until(stream, "selection_required")
        stopped = call("POST", f"{run_url}/stop")
        assert stopped.status == 200 and stopped.json()["run_id"] == started["run_id"]
        rest = [e.json() for e in stream if e.name == "message"]
    cancelled = next(e for e in rest if e["type"] == "selection_cancelled")
    assert cancelled["cancelled_by"] == "caller" and rest[-1]["status"] == "cancelled"
    session = call("GET", f"{server.url}/api/sessions/{required['session_id']}").json()
    assert session["status"] == "cancelled"
    late = call("POST", f"{server.url}/api/submit-selection",
                {"session_id": required["session_id"], "selections": [{"itemCode": required["candidates"][0]}]})
    assert late.status == 409
    again = call("POST", f"{run_url}/stop")
    assert again.status == 200 and again.json()["status"] == "finished"


def test_a_selection_nobody_makes_times_out_and_the_run_says_so(chat_server: ChatServer) -> None:
    server = chat_server(CHAT_SELECTION_TIMEOUT=1.0)
    _, events = ask(server.url, "what's the color of the chair?")
    assert "selection_timeout" in [e["type"] for e in events]
    assert events[-1]["type"] == "final" and events[-1]["status"] == "timeout"


def test_a_conversation_keeps_its_turns_and_what_was_asked(chat_server: ChatServer) -> None:
    server = chat_server()
    first, _ = ask(server.url, "how many chairs are there?")
    conversation_id = first["conversation_id"]
    second = start(server.url, "what's the color of the bed in the guest bedroom?", conversation_id)
    assert second["conversation_id"] == conversation_id and second["run_id"] != first["run_id"]
    run_events(server.url, second["run_id"])
    state = call("GET", f"{server.url}/api/conversations/{conversation_id}").json()
    assert [t["query"] for t in state["turns"]] == ["how many chairs are there?",
                                                    "what's the color of the bed in the guest bedroom?"]
    assert state["turns"][1]["codes"] == ["1-2-1"] and state["running"] is None
    other, _ = ask(server.url, "how many beds are there?")
    assert other["conversation_id"] != conversation_id


def test_picks_are_recorded_in_the_conversation(chat_server: ChatServer) -> None:
    server = chat_server()
    started = start(server.url, "what's the color of the chair?")
    with SSEStream(f"{server.url}/api/runs/{started['run_id']}/events") as stream:
        _, required = events_until(stream, "selection_required")
        call("POST", f"{server.url}/api/submit-selection",
             {"session_id": required["session_id"], "selections": [{"itemCode": required["candidates"][0]}]})
        list(stream)
    asked = call("GET", f"{server.url}/api/conversations/{started['conversation_id']}").json()["asked"]
    assert [(a["type"], a["status"], a["answer"]) for a in asked] == [("SELECTION", "ANSWERED", [required["candidates"][0]])]


def test_one_run_at_a_time_per_conversation(chat_server: ChatServer) -> None:
    server = chat_server()
    first = start(server.url, "how big is the sofa?")
    with SSEStream(f"{server.url}/api/runs/{first['run_id']}/events") as stream:
        next(iter(stream))  # running now (the volume of 13 k points takes a moment)
        busy = call("POST", f"{server.url}/api/chat", {"message": "how many beds?", "conversation_id": first["conversation_id"]})
        if busy.status != 202:  # the run may already be done on a fast machine; then the turn simply starts
            assert busy.status == 409 and busy.json()["error"] == "run_in_progress"
            assert first["run_id"] in busy.json()["message"]
        list(stream)


def test_while_a_pick_waits_a_message_answers_it_in_words(chat_server: ChatServer) -> None:
    server = chat_server()
    first = start(server.url, "what's the color of the chair?")
    with SSEStream(f"{server.url}/api/runs/{first['run_id']}/events") as stream:
        _, required = events_until(stream, "selection_required")
        wrong = call("POST", f"{server.url}/api/chat", {"message": "how many beds?", "conversation_id": first["conversation_id"]})
        assert wrong.status == 422 and wrong.json()["error"] == "words_not_understood"
        assert "1-1-1" in wrong.json()["message"] and required["candidates"][0] in wrong.json()["message"]
        state = call("GET", f"{server.url}/api/conversations/{first['conversation_id']}").json()
        assert state["running"] == first["run_id"]  # still waiting for the pick
        picked = call("POST", f"{server.url}/api/chat", {"message": "the office chair", "conversation_id": first["conversation_id"]})
        assert picked.status == 200, picked.body
        body = picked.json()
        assert (body["status"], body["codes"], body["said"], body["run_id"]) == ("confirmed", ["1-3-2"], "the office chair",
                                                                                 first["run_id"])
        rest = list(stream)
    received = next(json.loads(e.data) for e in rest if e.name == "message" and '"selection_received"' in e.data)
    assert received["codes"] == ["1-3-2"] and received["words"] == "the office chair"
    final = json.loads([e.data for e in rest if '"final"' in e.data][-1])
    assert final["status"] == "answered" and final["codes"] == ["1-3-2"]
    again = call("POST", f"{server.url}/api/submit-selection",
                 {"session_id": required["session_id"], "selections": [{"itemCode": "1-3-2"}]})
    assert again.status == 409 and "in words" in again.json()["message"]


def test_a_not_found_question_ends_not_found(chat_server: ChatServer) -> None:
    server = chat_server()
    _, events = ask(server.url, "what's the color of the piano?")
    assert events[-1]["status"] == "not_found" and "piano" in events[-1]["answer"]


def test_server_shutdown_ends_waiting_runs_as_cancelled(small_scene_path: Path, settings: Settings, tmp_path: Path,
                                                       offline: None) -> None:
    from api_server.app import create_app

    app = create_app({"SCENE_PATH": str(small_scene_path), "SETTINGS": settings, "VIEWER_DIST": str(tmp_path / "dist")})
    server = BackgroundServer(app).__enter__()
    started = start(server.url, "what's the color of the chair?")
    run = app.extensions["scene_agent.chat"].run(started["run_id"])
    with SSEStream(f"{server.url}/api/runs/{started['run_id']}/events") as stream:
        _, required = events_until(stream, "selection_required")
    server.close()
    assert run.control.stopped.is_set()
    run_final = run.events_after(0, timeout=10)
    assert run_final[1] and run.final is not None and run.final.status == "cancelled"
    store = SessionStore(settings)
    assert file_channel(store).status(store.get(required["session_id"]))[0] == "cancelled"


def test_a_shutdown_during_a_pick_is_said_as_such_not_as_a_cancel(small_scene_path: Path, settings: Settings,
                                                                  tmp_path: Path, offline: None) -> None:
    from api_server.app import create_app

    app = create_app({"SCENE_PATH": str(small_scene_path), "SETTINGS": settings, "VIEWER_DIST": str(tmp_path / "dist")})
    server = BackgroundServer(app).__enter__()
    started = start(server.url, "what's the color of the chair?")
    run = app.extensions["scene_agent.chat"].run(started["run_id"])
    with SSEStream(f"{server.url}/api/runs/{started['run_id']}/events") as stream:
        events_until(stream, "selection_required")
    server.close()
    events, _ = run.events_after(0, timeout=10)
    [cancelled] = [e for _, data in events if (e := json.loads(data))["type"] == "selection_cancelled"]
    assert (cancelled["cancelled_by"], cancelled["reason"]) == ("caller", "stopped because the server is shutting down")
    assert run.final is not None and run.final.answer.startswith(
        "The selection was cancelled (stopped because the server is shutting down), so I did not answer.")


def test_words_meant_for_a_pick_are_refused_when_none_waits(chat_server: ChatServer) -> None:
    server = chat_server()
    started, events = ask(server.url, "how big is the sofa?")
    assert events[-1]["status"] == "answered"
    late = call("POST", f"{server.url}/api/chat", {"message": "the red one", "conversation_id": started["conversation_id"],
                                                   "answers_pick": True})
    assert late.status == 409 and late.json()["error"] == "no_pick_waiting"
    state = call("GET", f"{server.url}/api/conversations/{started['conversation_id']}").json()
    assert [t["query"] for t in state["turns"]] == ["how big is the sofa?"]  # no run was started with the words
