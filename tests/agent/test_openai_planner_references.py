"""A model plans with find's structured filters (colour, size, place, within), through the real client and the stub server."""

from __future__ import annotations

import json

from llm_stub import LLMStub, call, text, tool_calls
from planner_helpers import of, tool_messages

from scene_agent.agent.events import ToolCallError, ToolCallResult


def _find_schema(stub: LLMStub) -> dict:
    return next(t["function"]["parameters"] for t in stub.requests[0]["tools"] if t["function"]["name"] == "find")


def test_the_find_schema_offers_colour_size_place_and_within(ask) -> None:
    with LLMStub(text("ok")) as stub:
        ask(stub, "hello")
    schema = _find_schema(stub)
    assert {"query", "color", "size", "relation", "within"} <= set(schema["properties"])
    assert schema["required"] == ["query"]
    relation = json.dumps(schema["properties"]["relation"])
    for word in ("near", "closest", "farthest", "on", "under", "above", "between", "corner", "reference"):
        assert f'"{word}"' in relation
    assert "$ref" not in json.dumps(schema)
    assert "relation" in stub.requests[0]["messages"][0]["content"]  # the rules tell the model about the filters


def test_a_place_filter_resolves_the_reference_and_never_offers_it(ask) -> None:
    arguments = {"query": "armchair", "relation": {"relation": "near", "reference": "the sofa"}}
    with LLMStub(tool_calls(call("find", arguments)), tool_calls(call("color", {"code": "0-2-2"})),
                 text("The armchair next to the sofa, 0-2-2, is red.")) as stub:
        result = ask(stub, "what colour is the armchair next to the sofa?")
    observation = json.loads(tool_messages(stub.requests[1])[0]["content"])
    assert [c["code"] for c in observation["candidates"]] == ["0-2-2"]
    assert observation["considered"] == ["0-2-2", "0-2-3"]
    assert observation["steps"] == [{"qualifier": "place", "words": "near", "before": 2, "kept": ["0-2-2"], "tied": False,
                                     "reference": ["0-2-1"], "negated": False, "set_aside": False}]
    assert "disambiguation" not in observation  # one left: nothing to ask
    assert observation["candidates"][0]["observed"]["distance_m"] < 0.5
    assert result.codes == ["0-2-2"] and result.status == "answered"


def test_colour_and_size_filters_and_a_follow_up_within(ask) -> None:
    with LLMStub(tool_calls(call("find", {"query": "chair", "color": "blue"})),
                 tool_calls(call("find", {"query": "the second one", "within": ["0-1-1", "0-1-2", "0-1-3"]})),
                 tool_calls(call("find", {"query": "chair", "size": {"measure": "height", "extreme": "max"}})),
                 text('{"needs_selection": true, "multiple": false}'), text("done")) as stub:
        result = ask(stub, "which chairs?")
    blue, second, tallest = (r.result for r in of(result, ToolCallResult))
    assert [c.code for c in blue.candidates] == ["0-1-2"] and blue.candidates[0].observed.color == "blue"
    assert [c.code for c in second.candidates] == ["0-1-2"]
    # Five chair-shaped boxes of the same height: too close to tell apart, so the model is asked whether to ask.
    assert tallest.steps[0].tied and tallest.disambiguation.needs_selection
    assert "JSON" in stub.requests[3]["messages"][0]["content"]  # the decision went to the model (rules as fallback)


def test_unusable_filters_are_errors_or_not_found_that_name_the_problem(ask) -> None:
    with LLMStub(tool_calls(call("find", {"query": "chair", "relation": {"relation": "near"}})),
                 tool_calls(call("find", {"query": "chair", "color": "glorbish"})),
                 tool_calls(call("find", {"query": "sofa", "relation": {"relation": "near", "reference": "piano"}})),
                 text("done")) as stub:
        result = ask(stub, "the chair")
    [error] = of(result, ToolCallError)
    assert error.error.code == "invalid_arguments" and "needs a reference" in error.error.message
    unknown, absent = (json.loads(tool_messages(r)[-1]["content"]) for r in stub.requests[2:4])
    assert unknown["candidates"] == [] and "I do not know the colour 'glorbish'" in unknown["message"]
    # No piano: the place words are set aside and said so; the sofa stays, never "nothing" while there is one.
    assert len(absent["candidates"]) == 1 and "no piano" in absent["note"]


def test_tool_words_follow_the_language_of_the_question(ask) -> None:
    with LLMStub(tool_calls(call("find", {"query": "沙发"})), tool_calls(call("color", {"code": "0-2-1"})),
                 text("沙发 0-2-1 是灰色的。")) as stub:
        result = ask(stub, "沙发是什么颜色？")
    colour = next(r for r in of(result, ToolCallResult) if r.tool_name == "color")
    assert colour.result.summary.startswith("沙发 0-2-1") and "灰色" in colour.result.summary
    assert result.answer == "沙发 0-2-1 是灰色的。"
