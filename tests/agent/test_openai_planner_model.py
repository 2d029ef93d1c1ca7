"""The OpenAI planner's model server: its errors end the run, and decide asks it (rules as fallback)."""

from __future__ import annotations

import json
import socket
from typing import Any

import pytest
from llm_stub import LLMStub, call, error, text, tool_calls
from planner_helpers import types

from scene_agent.agent.disambiguation import Decision, decide, rules_decision
from scene_agent.agent.llm import ModelError
from scene_agent.tools.find import find


def asked(decision: Decision) -> tuple[bool, str | None, bool]:
    """(needs_selection, prompt, multiple): what the viewer is asked, if anything."""
    return decision.needs_selection, decision.prompt, decision.multiple


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# (i) model server errors end the run with a final error


def test_model_server_down(ask) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    result = ask(url, "colour of the sofa?")
    assert types(result) == ["final"] and result.status == "error"
    assert "could not reach the model server" in result.answer and url in result.answer


@pytest.mark.parametrize(("replies", "expected"), [
    ([error(401, "Incorrect API key provided", code="invalid_api_key")], ["rejected OPENAI_API_KEY", "Incorrect API key"]),
    ([error(404, "The model `stub-model` does not exist", code="model_not_found")], ["SCENE_AGENT_MODEL", "stub-model"]),
    ([error(500, "upstream exploded")] * 2, ["answered 500", "upstream exploded"]),
])
def test_model_server_errors(ask, replies, expected) -> None:
    with LLMStub(*replies) as stub:
        result = ask(stub, "colour of the sofa?")
    assert result.status == "error" and types(result) == ["final"]
    assert stub.base_url in result.answer
    for part in expected:
        assert part in result.answer


def test_model_error_names_the_server(planners) -> None:
    with LLMStub(error(401, "bad key")) as stub:
        model = planners(stub.base_url).model
        with pytest.raises(ModelError) as raised:
            model.complete([{"role": "user", "content": "hi"}], [])
    assert raised.value.code == "model_error" and stub.base_url in raised.value.message
    assert "tools" not in stub.requests[0]  # an empty tool list is not sent


# (k) decide asks the model, with the rules as fallback


def test_disambiguation_uses_the_models_json(scene, planners) -> None:
    chairs = find(scene, "chair").candidates
    reply = '```json\n{"needs_selection": true, "multiple": true, "prompt": "Pick the chairs to compare"}\n```'
    with LLMStub(text(reply), text(reply)) as stub:
        model = planners(stub.base_url).decide_model()
        decision = decide("what colour is the chair?", chairs, model)
        assert asked(decide("what colour is the chair?", chairs, model)) == (True, "Pick the chairs to compare", True)
    assert (decision.decided_by, decision.needs_selection, decision.multiple) == ("model", True, True)
    system, user = stub.requests[0]["messages"]
    assert "JSON" in system["content"] and json.loads(user["content"])["query"] == "what colour is the chair?"
    assert "tools" not in stub.requests[0]


@pytest.mark.parametrize("replies", [[text("I would ask the user, I think.")], [text('{"needs_selection": "maybe"}')],
                                     [error(500, "down")] * 2, [error(401, "bad key")]])
def test_disambiguation_falls_back_to_the_rules(scene, planners, replies) -> None:
    chairs = find(scene, "chair").candidates
    with LLMStub(*replies) as stub:
        decision = decide("what colour is the chair?", chairs, planners(stub.base_url).decide_model())
    assert decision.decided_by == "rules"
    assert asked(decision) == asked(rules_decision("what colour is the chair?", chairs))


def test_find_asks_the_model_whether_to_ask(ask) -> None:
    def sees_the_decision(request: dict[str, Any]) -> Any:
        observation = json.loads(request["messages"][-1]["content"])
        assert observation["disambiguation"]["decided_by"] == "model"
        assert observation["disambiguation"]["needs_selection"] is False
        return text("All the chairs: " + ", ".join(c["code"] for c in observation["candidates"]))

    with LLMStub(tool_calls(call("find", {"query": "chair"})), text('{"needs_selection": false, "multiple": false}'),
                 sees_the_decision) as stub:
        result = ask(stub, "where is the chair?")
    assert stub.requests[1]["messages"][0]["content"].startswith("You decide whether")
    assert result.status == "answered" and result.answer.startswith("All the chairs: 0-1-1, 0-1-2, 0-1-3")
