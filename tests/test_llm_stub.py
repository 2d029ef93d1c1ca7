"""The LLM stub server, driven by the real `openai` client."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import openai
import pytest
from http_client import call as http_call
from llm_stub import LLMStub, call, error, text, tool_calls

TOOLS = [{"type": "function", "function": {
    "name": "find", "description": "Find objects.",
    "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}}]


@pytest.fixture
def client_for() -> Iterator[Any]:
    """Makes real openai clients for a stub and closes them afterwards."""
    clients: list[openai.OpenAI] = []

    def make(stub: LLMStub) -> openai.OpenAI:
        clients.append(openai.OpenAI(base_url=stub.base_url, api_key="test-key", max_retries=0, timeout=10))
        return clients[-1]

    yield make
    for client in clients:
        client.close()


def ask(client: openai.OpenAI, *messages: dict[str, Any], **kwargs: Any) -> Any:
    """One chat completion for these messages."""
    return client.chat.completions.create(model="test-model", messages=list(messages), **kwargs)


USER = {"role": "user", "content": "find a chair"}


def test_text_reply(client_for) -> None:
    with LLMStub(text("final answer")) as stub:
        completion = ask(client_for(stub), USER)
    assert completion.object == "chat.completion" and completion.model == "test-model"
    choice = completion.choices[0]
    assert (choice.message.role, choice.message.content, choice.message.tool_calls) == ("assistant", "final answer", None)
    assert choice.finish_reason == "stop"
    assert completion.usage is not None and completion.usage.total_tokens > 0
    assert stub.remaining == 0


def test_parallel_tool_calls_round_trip_arguments(client_for) -> None:
    with LLMStub(tool_calls(call("find", {"query": "chair"}), call("color", {"code": "0-3-2", "rgb": [1, 2, 3]})),
                 tool_calls(call("find", {"query": "sofa"}))) as stub:
        client = client_for(stub)
        first, second = ask(client, USER, tools=TOOLS), ask(client, USER, tools=TOOLS)
    assert first.choices[0].finish_reason == "tool_calls"
    calls = first.choices[0].message.tool_calls
    assert [(c.id, c.type, c.function.name) for c in calls] == [("call_1", "function", "find"), ("call_2", "function", "color")]
    assert [json.loads(c.function.arguments) for c in calls] == [{"query": "chair"}, {"code": "0-3-2", "rgb": [1, 2, 3]}]
    assert second.choices[0].message.tool_calls[0].id == "call_3"  # unique across the stub's lifetime
    assert first.id != second.id


def test_malformed_arguments_arrive_raw(client_for) -> None:
    with LLMStub(tool_calls(call("find", raw='{"query": '))) as stub:
        completion = ask(client_for(stub), USER, tools=TOOLS)
    assert completion.choices[0].message.tool_calls[0].function.arguments == '{"query": '


def test_error_reply_raises(client_for) -> None:
    with LLMStub(error(500, "upstream exploded"), error(429, "slow down", code="rate_limit_exceeded")) as stub:
        client = client_for(stub)
        with pytest.raises(openai.InternalServerError) as server_error:
            ask(client, USER)
        with pytest.raises(openai.RateLimitError) as rate_error:
            ask(client, USER)
    assert server_error.value.status_code == 500 and "upstream exploded" in server_error.value.message
    assert server_error.value.body == {"message": "upstream exploded", "type": "server_error", "param": None, "code": None}
    assert rate_error.value.code == "rate_limit_exceeded"


def test_script_exhaustion_fails_loudly(client_for) -> None:
    with LLMStub(text("only one")) as stub:
        client = client_for(stub)
        ask(client, USER)
        with pytest.raises(openai.InternalServerError, match="script ran out"):
            ask(client, USER)
    assert len(stub.requests) == 2


def test_streaming_is_refused(client_for) -> None:
    with LLMStub(text("unused")) as stub:
        with pytest.raises(openai.BadRequestError, match="streaming"):
            ask(client_for(stub), USER, stream=True)
        assert stub.remaining == 1


def test_callable_reply_sees_tool_results(client_for) -> None:
    def echo(request: dict[str, Any]) -> Any:
        results = [m for m in request["messages"] if m["role"] == "tool"]
        return text(" | ".join(f"{m['tool_call_id']}={m['content']}" for m in results))

    with LLMStub(tool_calls(call("find", {"query": "chair"})), echo) as stub:
        client = client_for(stub)
        first = ask(client, USER, tools=TOOLS)
        tool_call = first.choices[0].message.tool_calls[0]
        history = [USER, first.choices[0].message.model_dump(exclude_none=True),
                   {"role": "tool", "tool_call_id": tool_call.id, "content": "0-1-1"}]
        second = ask(client, *history, tools=TOOLS)
    assert second.choices[0].message.content == "call_1=0-1-1"
    assert stub.requests[1]["messages"][1]["tool_calls"][0]["id"] == "call_1"


def test_failing_callable_reply_fails_the_test_on_exit(client_for) -> None:
    def strict(request: dict[str, Any]) -> Any:
        assert request["messages"][-1]["role"] == "tool", "expected a tool result"
        return text("unreachable")

    with (pytest.raises(AssertionError, match="reply function raised"), LLMStub(strict) as stub,
          pytest.raises(openai.InternalServerError, match="expected a tool result")):
        ask(client_for(stub), USER)


def test_requests_and_headers_are_recorded(client_for) -> None:
    with LLMStub(text("ok")) as stub:
        ask(client_for(stub), {"role": "system", "content": "be brief"}, USER, tools=TOOLS, temperature=0)
    (body,) = stub.requests
    assert body["model"] == "test-model" and body["temperature"] == 0
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert [t["function"]["name"] for t in body["tools"]] == ["find"]
    assert body["tools"][0]["function"]["parameters"]["required"] == ["query"]
    assert stub.headers[0]["authorization"] == "Bearer test-key"


def test_models_listing_and_unknown_paths(client_for) -> None:
    with LLMStub(model="stub-model") as stub:
        assert [m.id for m in client_for(stub).models.list()] == ["stub-model"]
        reply = http_call("GET", f"{stub.base_url}/nope")
    assert reply.status == 404 and reply.json()["error"]["type"] == "invalid_request_error"


def test_stops_its_threads() -> None:
    before = set(threading.enumerate())
    with LLMStub(text("ok")) as stub, openai.OpenAI(base_url=stub.base_url, api_key="k", max_retries=0, timeout=10) as client:
        ask(client, USER)
    assert set(threading.enumerate()) - before == set()


def test_rejects_non_replies() -> None:
    with pytest.raises(TypeError, match="not a scripted reply"):
        LLMStub("plain string")
