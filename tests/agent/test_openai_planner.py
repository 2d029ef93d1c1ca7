"""The OpenAI planner's loop against the LLM stub server: tool calls and observations, step limits, the prompt and pieces."""

from __future__ import annotations

import json

import pytest
from llm_stub import LLMStub, call, text, tool_calls
from planner_helpers import of, tool_messages, types

from scene_agent.agent.control import RunControl
from scene_agent.agent.events import Final, Message, ToolCallError, ToolCallResult, ToolCallStart
from scene_agent.agent.llm import parse_json_object
from scene_agent.agent.openai_planner import observation_text, system_prompt
from scene_agent.agent.scene_agent import SceneAgent
from scene_agent.tools.find import find

TOOL_NAMES = ["find", "visualize", "color", "volume", "measure", "question"]


# (a) find → color → answer


def test_find_then_color_then_answer(ask) -> None:
    with LLMStub(tool_calls(call("find", {"query": "sofa"})), tool_calls(call("color", {"code": "0-2-1"})),
                 text("The sofa 0-2-1 is grey.")) as stub:
        result = ask(stub, "what colour is the sofa?")
    assert types(result) == ["tool_call_start", "tool_call_result", "tool_call_start", "tool_call_result", "final"]
    starts, results = of(result, ToolCallStart), of(result, ToolCallResult)
    assert [(s.tool_name, r.tool_name) for s, r in zip(starts, results, strict=True)] == [("find", "find"), ("color", "color")]
    assert [s.id for s in starts] == [r.id for r in results] and starts[0].id != starts[1].id
    assert starts[0].args == '{"query": "sofa"}' and results[0].result.candidates[0].code == "0-2-1"
    assert (result.status, result.answer, result.codes) == ("answered", "The sofa 0-2-1 is grey.", ["0-2-1"])

    first, second, third = stub.requests
    assert first["model"] == "stub-model" and "stream" not in first and "parallel_tool_calls" not in first
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    assert first["messages"][1]["content"] == "what colour is the sofa?"
    assert [t["function"]["name"] for t in first["tools"]] == TOOL_NAMES
    for tool in first["tools"]:
        assert tool["type"] == "function" and tool["function"]["parameters"]["type"] == "object"
        assert tool["function"]["description"]
    assert "$ref" not in json.dumps(first["tools"]) and "$defs" not in json.dumps(first["tools"])
    assert first["tools"][0]["function"]["parameters"]["required"] == ["query"]

    assistant, tool = second["messages"][-2:]
    assert assistant["role"] == "assistant" and assistant["tool_calls"][0]["id"] == "call_1"
    assert assistant["tool_calls"][0]["function"] == {"name": "find", "arguments": '{"query": "sofa"}'}
    assert tool["tool_call_id"] == "call_1" and json.loads(tool["content"])["candidates"][0]["code"] == "0-2-1"
    assert third["messages"][-1]["tool_call_id"] == "call_2"
    assert json.loads(third["messages"][-1]["content"])["code"] == "0-2-1"


def test_text_beside_tool_calls_is_said(ask) -> None:
    with LLMStub(tool_calls(call("find", {"query": "sofa"}), content="Looking for the sofa."), text("Found it: 0-2-1.")) as stub:
        result = ask(stub, "where is the sofa?")
    assert types(result)[0] == "message" and of(result, Message)[0].text == "Looking for the sofa."
    assert stub.requests[1]["messages"][2]["content"] == "Looking for the sofa."


# (b) parallel calls in one step


def test_parallel_calls_in_one_step(ask) -> None:
    step = tool_calls(call("color", {"code": "0-1-1"}), call("volume", {"code": "0-1-1"}),
                      call("color", {"code": "0-2-1"}), call("volume", {"code": "0-2-1"}))
    with LLMStub(step, text("Compared.")) as stub:
        result = ask(stub, "compare the colour and size of 0-1-1 and 0-2-1")
    starts, results = of(result, ToolCallStart), of(result, ToolCallResult)
    assert len(starts) == len(results) == 4 and not of(result, ToolCallError)
    assert len({s.id for s in starts}) == 4 and {s.id for s in starts} == {r.id for r in results}
    position = {(e.type, e.id): i for i, e in enumerate(result.events) if hasattr(e, "id")}
    assert all(position[("tool_call_start", s.id)] < position[("tool_call_result", s.id)] for s in starts)
    assert sorted((r.tool_name, r.result.code) for r in results) == [("color", "0-1-1"), ("color", "0-2-1"),
                                                                      ("volume", "0-1-1"), ("volume", "0-2-1")]
    assert (result.status, result.codes) == ("answered", ["0-1-1", "0-2-1"])
    replies = tool_messages(stub.requests[1])
    assert [m["tool_call_id"] for m in replies] == ["call_1", "call_2", "call_3", "call_4"]
    assert [("volume_m3" in json.loads(m["content"]), json.loads(m["content"])["code"]) for m in replies] == [
        (False, "0-1-1"), (True, "0-1-1"), (False, "0-2-1"), (True, "0-2-1")]


# (c)–(g), first part: the model's mistakes, as observations


def test_malformed_arguments_become_an_observation(ask) -> None:
    with LLMStub(tool_calls(call("color", raw='{"code": ')), text("Sorry, let me answer anyway.")) as stub:
        result = ask(stub, "colour of 0-1-1?")
    (failure,) = of(result, ToolCallError)
    assert (failure.tool_name, failure.args, failure.error.code) == ("color", '{"code": ', "invalid_arguments")
    (tool,) = tool_messages(stub.requests[1])
    assert tool["tool_call_id"] == "call_1"
    assert json.loads(tool["content"])["error"] == "invalid_arguments"
    assert (result.status, result.answer) == ("answered", "Sorry, let me answer anyway.")


def test_unknown_tool_names_the_tools(ask) -> None:
    with LLMStub(tool_calls(call("paint", {"code": "0-1-1"})), text("I cannot paint.")) as stub:
        result = ask(stub, "paint 0-1-1 red")
    (failure,) = of(result, ToolCallError)
    assert (failure.tool_name, failure.error.code) == ("paint", "unknown_tool")
    assert "find, visualize, color, volume, measure, question" in failure.error.message
    assert json.loads(tool_messages(stub.requests[1])[0]["content"])["error"] == "unknown_tool"
    assert result.status == "answered"


# (h) step limit, stop, empty answer


def test_step_limit(ask) -> None:
    with LLMStub(*[tool_calls(call("find", {"query": "sofa"}))] * 12) as stub:
        result = ask(stub, "loop forever")
    assert len(stub.requests) == 12 and stub.remaining == 0
    assert result.status == "error" and "step limit" in result.answer and types(result)[-1] == "final"


def test_smaller_step_limit(ask) -> None:
    with LLMStub(*[tool_calls(call("volume", {"code": "0-2-1"}))] * 3) as stub:
        result = ask(stub, "loop", max_steps=3)
    assert (result.status, result.codes, len(stub.requests)) == ("error", ["0-2-1"], 3)


def test_a_stopped_run_calls_no_model(scene, settings, planners) -> None:
    control = RunControl()
    control.stop("stopped by the user")
    with LLMStub(text("unused")) as stub:
        result = SceneAgent(scene, settings, planners(stub.base_url)).query("colour of the sofa?", control=control)
    assert (result.status, stub.requests) == ("cancelled", [])
    assert "stopped by the user" in result.answer


def test_an_empty_answer_is_an_error(ask) -> None:
    with LLMStub(text("")) as stub:
        result = ask(stub, "colour of the sofa?")
    assert result.status == "error" and "without an answer" in result.answer


def test_nothing_found(ask) -> None:
    with LLMStub(tool_calls(call("find", {"query": "unicorn"})), text("There is no unicorn here.")) as stub:
        result = ask(stub, "where is the unicorn?")
    assert (result.status, result.codes) == ("not_found", [])


# the pieces


def test_system_prompt(scene) -> None:
    prompt = system_prompt(scene, TOOL_NAMES)
    assert 'Scene "small" (Small test home): 2 floors, 7 rooms, 16 objects' in prompt
    assert '- floor 0 "Ground floor": 0-1 kitchen (4), 0-2 living room "Lounge" (4), 0-3 bathroom (1)' in prompt
    assert '1-1 bedroom "Master bedroom" (3)' in prompt
    for rule in ("Call find first", "selection_mode=true", "selection.codes", "cancelled", "view-only",
                 "language of the user's question", "Use question only", "within", "relation"):
        assert rule in prompt


def test_huge_observations_are_shortened(scene) -> None:
    everything = find(scene, "objects").model_dump(mode="json", exclude_none=True)
    assert len(everything["candidates"]) == 16
    full = observation_text(everything)
    assert json.loads(full) == everything
    compact = json.loads(observation_text(everything, limit=2000))
    assert len(compact["candidates"]) == 16 and "bounds" not in compact["candidates"][0]
    smaller = json.loads(observation_text(everything, limit=1200))
    assert smaller["candidates_omitted"] == 6 and len(smaller["all_codes"]) == 16
    cut = observation_text({"text": "x" * 5000}, limit=1000)
    assert len(cut) == 1000 and cut.endswith("more characters)")


@pytest.mark.parametrize(("content", "expected"), [
    ('{"a": 1}', {"a": 1}),
    ('Sure! ```json\n{"a": {"b": [1, 2]}}\n``` done', {"a": {"b": [1, 2]}}),
    ('The answer is {"a": 2} and {"b": 3}', {"a": 2}),
    ('{not json} then {"a": 3}', {"a": 3}),
    ("[1, 2]", None), ("", None), (None, None), ('{"a": ', None),
])
def test_parse_json_object(content, expected) -> None:
    assert parse_json_object(content) == expected


def test_final_is_last_and_parses(ask) -> None:
    with LLMStub(text("Hello.")) as stub:
        result = ask(stub, "hi")
    assert isinstance(result.events[-1], Final) and result.final.answer == "Hello."
    assert stub.headers[0]["authorization"] == "Bearer k"
