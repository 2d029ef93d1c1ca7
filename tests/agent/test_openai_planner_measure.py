"""A model measures with the measure tool like any other: its numbers reach the model, its codes the answer."""

from __future__ import annotations

import json

from llm_stub import LLMStub, call, text, tool_calls
from planner_helpers import of

from scene_agent.agent.events import ToolCallResult
from scene_agent.tools.measure import MeasureResult


def test_a_model_asks_how_far_apart_two_things_are(ask) -> None:
    with LLMStub(tool_calls(call("find", {"query": "sofa"}), call("find", {"query": "coffee table"})),
                 tool_calls(call("measure", {"measure": "distance", "code": "0-2-1", "to": "0-2-4"})),
                 text("The sofa and the coffee table are 0.3 m apart.")) as stub:
        result = ask(stub, "how far is the sofa from the coffee table?")
    [measured] = [r for r in of(result, ToolCallResult) if r.tool_name == "measure"]
    assert isinstance(measured.result, MeasureResult) and measured.result.distance is not None
    observation = json.loads(stub.requests[2]["messages"][-1]["content"])
    assert observation["distance"]["gap_m"] == measured.result.distance.gap_m and observation["to"] == "0-2-4"
    assert (result.status, result.codes) == ("answered", ["0-2-1", "0-2-4"])  # both things the answer is about


def test_a_bad_measurement_comes_back_to_the_model_as_an_error(ask) -> None:
    with LLMStub(tool_calls(call("measure", {"measure": "distance", "code": "0-2-1"})),
                 text("I need two things to measure a distance.")) as stub:
        result = ask(stub, "how far is the sofa?")
    error = json.loads(stub.requests[1]["messages"][-1]["content"])
    assert "give `to`" in json.dumps(error) and result.status == "answered"
