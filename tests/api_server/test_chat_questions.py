"""Question dialogs in the web chat: the model (an OpenAI-compatible stub server) asks, the browser answers over HTTP."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from chat_helpers import events_until, start
from http_client import call
from llm_stub import LLMStub, text, tool_calls
from llm_stub import call as tool
from sse_client import SSEStream

from api_server.serve import BackgroundServer

ChatServer = Callable[..., BackgroundServer]
UNITS = {"header": "Units", "question": "Metric or imperial?", "options": ["metric", "imperial"]}
ROOMS = {"header": "Rooms", "question": "Which rooms matter?", "options": ["kitchen", "study", "bedroom"], "multiple": True}
NOTE = {"header": "Note", "question": "Anything else?"}


def tool_result(stub: LLMStub, request_index: int) -> dict[str, Any]:
    """What the model was told a tool returned, in its request number `request_index`."""
    message = next(m for m in reversed(stub.requests[request_index]["messages"]) if m["role"] == "tool")
    return json.loads(message["content"])


def open_question(server: BackgroundServer, *questions: dict[str, Any]) -> tuple[SSEStream, dict[str, Any], dict[str, Any]]:
    """Start a run whose model asks `questions`; the open stream, the run, and the `question` event."""
    started = start(server.url, "how big is the sofa?")
    stream = SSEStream(f"{server.url}/api/runs/{started['run_id']}/events")
    _, question = events_until(stream, "question")
    return stream, started, question


def rest_of(stream: SSEStream) -> list[dict[str, Any]]:
    """The remaining events of an open stream."""
    with stream:
        return [e.json() for e in stream if e.name == "message"]


def answer(server: BackgroundServer, question_id: str, answers: list[dict[str, Any]], verb: str = "answer") -> Any:
    return call("POST", f"{server.url}/api/questions/{question_id}/{verb}", {"answers": answers})


def test_a_question_is_answered_in_the_browser_and_the_model_gets_the_answer(chat_server: ChatServer, model: Any) -> None:
    stub = model(tool_calls(tool("question", {"questions": [UNITS]})), text("The sofa is 1.6 m³ (metric)."))
    server = chat_server()
    stream, started, question = open_question(server, UNITS)
    assert question["questions"][0]["options"] == ["metric", "imperial"] and question["timeout"] > 0
    reply = answer(server, question["question_id"], [{"question_index": 0, "selected": [0]}])
    assert reply.status == 200, reply.body
    assert reply.json() == {"question_id": question["question_id"], "status": "answered", "answers": [
        {"question_index": 0, "header": "Units", "answer": "metric", "selected": [0], "free_text": False}]}
    events = rest_of(stream)
    assert [e["status"] for e in events if e["type"] == "question_answered"] == ["answered"]
    assert events[-1]["status"] == "answered" and events[-1]["answer"] == "The sofa is 1.6 m³ (metric)."
    assert tool_result(stub, 1)["summary"] == "Units: metric" and tool_result(stub, 1)["cancelled"] is False
    asked = call("GET", f"{server.url}/api/conversations/{started['conversation_id']}").json()["asked"]
    assert [(a["type"], a["status"], a["answer"]) for a in asked] == [("CHOICE", "ANSWERED", "metric")]


def test_a_batch_is_answered_at_once_with_options_several_options_and_own_words(chat_server: ChatServer, model: Any) -> None:
    stub = model(tool_calls(tool("question", {"questions": [UNITS, ROOMS, NOTE]})), text("Noted."))
    server = chat_server()
    stream, _, question = open_question(server)
    reply = answer(server, question["question_id"], [
        {"question_index": 2, "text": "  be quick  "}, {"question_index": 0, "selected": [1]},
        {"question_index": 1, "selected": [0, 2]}])
    assert reply.status == 200, reply.body
    assert [a["answer"] for a in reply.json()["answers"]] == ["imperial", ["kitchen", "bedroom"], "be quick"]
    assert reply.json()["answers"][2]["free_text"] is True
    assert rest_of(stream)[-1]["status"] == "answered"
    assert tool_result(stub, 1)["summary"] == "Units: imperial; Rooms: kitchen, bedroom; Note: be quick"


@pytest.mark.parametrize(("answers", "needle"), [
    ([{"question_index": 0, "selected": [0]}], "no answer for question(s) 1, 2"),
    ([{"question_index": 0, "selected": [0, 1]}, {"question_index": 1, "selected": [0]},
      {"question_index": 2, "text": "x"}], "question 0 (Units): choose one option, not 2"),
    ([{"question_index": 0, "selected": [5]}, {"question_index": 1, "selected": [0]},
      {"question_index": 2, "text": "x"}], "question 0 (Units): option index out of range"),
    ([{"question_index": 0, "text": "metres"}, {"question_index": 1, "selected": [0]},
      {"question_index": 2, "text": "x"}], "question 0 (Units): choose among the options"),
    ([{"question_index": 0, "selected": [0]}, {"question_index": 1, "selected": []},
      {"question_index": 2, "text": "x"}], "question 1 (Rooms): choose an option"),
    ([{"question_index": 0, "selected": [0]}, {"question_index": 1, "selected": [0]},
      {"question_index": 2, "text": "  "}], "question 2 (Note): choose an option or write an answer"),
    ([{"question_index": 7, "selected": [0]}], "question_index 7: there are only 3 question(s)"),
    ([{"question_index": 0, "selected": [0]}, {"question_index": 0, "selected": [1]}], "question_index 0: answered twice"),
])
def test_answers_that_do_not_fit_are_422_and_the_question_stays_open(chat_server: ChatServer, model: Any,
                                                                    answers: list, needle: str) -> None:
    model(tool_calls(tool("question", {"questions": [UNITS, ROOMS, NOTE]})), text("Noted."))
    server = chat_server()
    stream, _, question = open_question(server)
    reply = answer(server, question["question_id"], answers)
    assert reply.status == 422 and reply.json()["error"] == "invalid_answer" and needle in reply.json()["message"]
    good = answer(server, question["question_id"], [{"question_index": 0, "selected": [0]},
                                                    {"question_index": 1, "selected": [1]},
                                                    {"question_index": 2, "text": "no"}])
    assert good.status == 200
    assert rest_of(stream)[-1]["status"] == "answered"


def test_bad_bodies_and_unknown_questions(chat_server: ChatServer, model: Any) -> None:
    model(tool_calls(tool("question", {"questions": [UNITS]})), text("ok"))
    server = chat_server()
    stream, started, question = open_question(server)
    url = f"{server.url}/api/questions/{question['question_id']}/answer"
    assert call("POST", url, {"answers": [{"question_index": -1}]}).status == 400
    assert call("POST", url, {"answers": "metric"}).status == 400
    assert call("POST", url, {"answers": [], "more": 1}).status == 400
    assert call("POST", url, raw=b"metric", headers={"Content-Type": "text/plain"}).status == 415
    unknown = answer(server, "0" * 32, [{"question_index": 0, "selected": [0]}])
    assert unknown.status == 404 and unknown.json()["error"] == "question_not_found"
    assert answer(server, "not-an-id", []).status == 400
    call("POST", f"{server.url}/api/runs/{started['run_id']}/stop")
    assert rest_of(stream)[-1]["status"] == "cancelled"


def test_cancel_keeps_the_answers_given_so_far(chat_server: ChatServer, model: Any) -> None:
    stub = model(tool_calls(tool("question", {"questions": [UNITS, ROOMS]})), text("I will assume metric."))
    server = chat_server()
    stream, _, question = open_question(server)
    reply = answer(server, question["question_id"], [{"question_index": 0, "selected": [0]}], verb="cancel")
    assert reply.status == 200 and reply.json()["status"] == "cancelled"
    events = rest_of(stream)
    ended = next(e for e in events if e["type"] == "question_answered")
    assert ended["status"] == "cancelled" and [a["answer"] for a in ended["answers"]] == ["metric"]
    result = tool_result(stub, 1)
    assert result["cancelled"] is True and [a["answer"] for a in result["answers"]] == ["metric"]
    late = answer(server, question["question_id"], [{"question_index": 0, "selected": [0]},
                                                    {"question_index": 1, "selected": [0]}])
    assert late.status == 409 and late.json()["error"] == "question_ended"


def test_an_unanswered_question_times_out_and_a_late_answer_is_409(chat_server: ChatServer, model: Any) -> None:
    stub = model(tool_calls(tool("question", {"questions": [UNITS]})), text("No answer; I used metric."))
    server = chat_server(CHAT_QUESTION_TIMEOUT=0.5)
    stream, _, question = open_question(server)
    events = rest_of(stream)
    assert [e["status"] for e in events if e["type"] == "question_answered"] == ["timeout"]
    error = next(e for e in events if e["type"] == "tool_call_error")
    assert error["tool_name"] == "question" and error["status"] == "timeout"
    assert tool_result(stub, 1)["error"] == "question_timeout"
    late = answer(server, question["question_id"], [{"question_index": 0, "selected": [0]}])
    assert late.status == 409 and "timeout" in late.json()["message"]


def test_stop_cancels_the_question_the_run_waits_on(chat_server: ChatServer, model: Any) -> None:
    model(tool_calls(tool("question", {"questions": [UNITS]})), text("unused"))
    server = chat_server()
    stream, started, question = open_question(server)
    call("POST", f"{server.url}/api/runs/{started['run_id']}/stop")
    events = rest_of(stream)
    assert [e["status"] for e in events if e["type"] == "question_answered"] == ["cancelled"]
    assert events[-1]["status"] == "cancelled"
    assert answer(server, question["question_id"], [{"question_index": 0, "selected": [0]}]).status == 409
