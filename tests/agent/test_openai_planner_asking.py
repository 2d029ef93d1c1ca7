"""Asking the user through the OpenAI planner: the question tool, and selections in the viewer (the real hand-off)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from agent_helpers import Picker
from llm_stub import LLMStub, call, text, tool_calls
from planner_helpers import of, tool_messages, types

from scene_agent.agent.events import QuestionAnswered, SelectionReceived, SelectionRequired, ToolCallError, ToolCallResult, ToolCallStart
from scene_agent.agent.scene_agent import SceneAgent
from scene_agent.tools.question import QuestionAnswer, QuestionReply, QuestionRequest

CHAIRS = ["0-1-1", "0-1-2", "0-1-3"]


# (c)–(g), second part: the question tool, as observations


QUESTION = {"questions": [{"header": "Units", "question": "Metric or imperial?", "options": ["metric", "imperial"]}]}


def test_question_beside_another_tool_is_refused(ask) -> None:
    with LLMStub(tool_calls(call("question", QUESTION), call("volume", {"code": "0-2-1"})), text("0-2-1 is small.")) as stub:
        result = ask(stub, "how big is the sofa?")
    (refused,) = of(result, ToolCallError)
    assert (refused.tool_name, refused.error.code) == ("question", "question_not_alone")
    (ran,) = of(result, ToolCallResult)
    assert ran.tool_name == "volume" and not any(e.type == "question" for e in result.events)
    replies = tool_messages(stub.requests[1])
    assert json.loads(replies[0]["content"])["error"] == "question_not_alone" and "volume_m3" in json.loads(replies[1]["content"])
    assert (result.status, result.codes) == ("answered", ["0-2-1"])


def test_question_when_questions_are_off(ask) -> None:
    with LLMStub(tool_calls(call("question", QUESTION)), text("I will use metric.")) as stub:
        result = ask(stub, "how big is the sofa?", ask_questions=False)
    assert [t["function"]["name"] for t in stub.requests[0]["tools"]] == ["find", "visualize", "color", "volume", "measure"]
    assert "Use question only" not in stub.requests[0]["messages"][0]["content"]
    (answered,) = of(result, ToolCallResult)
    assert answered.tool_name == "question" and answered.result.cancelled is True
    assert not any(e.type == "question" for e in result.events)  # nothing shown
    assert json.loads(tool_messages(stub.requests[1])[0]["content"])["cancelled"] is True
    assert result.status == "answered"


def test_question_without_a_channel_is_no_ui(ask) -> None:
    with LLMStub(tool_calls(call("question", QUESTION)), text("Metric, then.")) as stub:
        result = ask(stub, "how big is the sofa?")
    (failure,) = of(result, ToolCallError)
    assert (failure.tool_name, failure.error.code) == ("question", "no_ui")
    assert of(result, QuestionAnswered)[0].status == "no_ui"
    assert json.loads(tool_messages(stub.requests[1])[0]["content"])["error"] == "no_ui"
    assert (result.status, result.answer) == ("answered", "Metric, then.")


class MetricUser:
    """A question channel whose user always answers 'metric'."""

    def __init__(self) -> None:
        self.asked: list[QuestionRequest] = []

    def ask(self, request: QuestionRequest, timeout: float, stop: Any) -> QuestionReply:
        self.asked.append(request)
        return QuestionReply(status="answered", answers=[QuestionAnswer(question_index=0, header="Units", answer="metric",
                                                                        selected=[0])])


def test_question_answered_and_remembered_in_the_next_turn(scene, settings, planners) -> None:
    user = MetricUser()
    with LLMStub(tool_calls(call("question", QUESTION)), text("Metric it is."), text("Still metric.")) as stub:
        agent = SceneAgent(scene, settings, planners(stub.base_url), questions=user)
        first = agent.query("how big is the sofa?")
        agent.query("and the bed?")
    assert len(user.asked) == 1 and first.status == "answered"
    assert json.loads(tool_messages(stub.requests[1])[0]["content"])["summary"] == "Units: metric"
    history = stub.requests[2]["messages"]
    assert [m["role"] for m in history] == ["system", "user", "assistant", "user"]
    assert history[2]["content"] == "Metric it is.\n(asked: Metric or imperial? → metric)"


# (j) a selection in the viewer


def test_selection_picked_then_measured(ask, settings) -> None:
    def color_the_pick(request: dict[str, Any]) -> Any:
        observation = json.loads(request["messages"][-1]["content"])
        return tool_calls(call("color", {"code": observation["selection"]["codes"][0]}))

    visualize = call("visualize", {"codes": CHAIRS, "selection_mode": True, "prompt": "Which chair do you mean?"})
    picker = Picker(settings, lambda event: ["0-1-2"])
    with LLMStub(tool_calls(visualize), color_the_pick, text("The chair 0-1-2 is blue.")) as stub:
        result = ask(stub, "what colour is the chair?", on_event=picker)
    picker.join()
    assert types(result) == ["tool_call_start", "selection_required", "selection_received", "tool_call_result",
                             "tool_call_start", "tool_call_result", "final"]
    (required,), (received,) = of(result, SelectionRequired), of(result, SelectionReceived)
    vis_id = of(result, ToolCallStart)[0].id
    assert required.tool_call_id == received.tool_call_id == vis_id
    assert (required.candidates, required.prompt, required.multiple) == (CHAIRS, "Which chair do you mean?", False)
    assert received.codes == ["0-1-2"]
    (tool,) = tool_messages(stub.requests[1])
    observation = json.loads(tool["content"])
    assert tool["tool_call_id"] == "call_1"
    assert observation["requires_selection"] is True
    assert (observation["selection"]["status"], observation["selection"]["codes"]) == ("confirmed", ["0-1-2"])
    assert of(result, ToolCallResult)[1].result.code == "0-1-2"
    assert (result.status, result.codes) == ("answered", ["0-1-2"])


@pytest.mark.parametrize(("pick", "timeout", "status", "event"), [([], 30.0, "cancelled", "selection_cancelled"),
                                                                  (None, 0.5, "timeout", "selection_timeout")])
def test_selection_not_made(ask, settings, pick, timeout, status, event) -> None:
    visualize = call("visualize", {"codes": CHAIRS, "selection_mode": True, "prompt": "Which chair?"})
    picker = Picker(settings, lambda e: pick)
    with LLMStub(tool_calls(visualize), text("You did not pick a chair; all three are in the kitchen.")) as stub:
        result = ask(stub, "what colour is the chair?", on_event=picker, selection_timeout=timeout)
    picker.join()
    assert event in types(result)
    assert json.loads(tool_messages(stub.requests[1])[0]["content"])["selection"]["status"] == status
    assert (result.status, result.codes) == (status, [])


def test_pick_then_follow_up_sees_what_was_asked(scene, settings, planners) -> None:
    visualize = call("visualize", {"codes": CHAIRS, "selection_mode": True, "prompt": "Which chair do you mean?"})
    picker = Picker(settings, lambda event: ["0-1-3"])
    with LLMStub(tool_calls(visualize), text("Chair 0-1-3 it is."), text("It is 0.3 m³.")) as stub:
        agent = SceneAgent(scene, settings, planners(stub.base_url))
        agent.query("which chair?", on_event=picker)
        agent.query("and how big is it?")
    picker.join()
    history = stub.requests[2]["messages"]
    assert [m["role"] for m in history] == ["system", "user", "assistant", "user"]
    assert history[2]["content"] == "Chair 0-1-3 it is.\n(asked: Which chair do you mean? → 0-1-3)"


def test_measuring_after_a_cancelled_selection_answers(ask, settings) -> None:
    visualize = call("visualize", {"codes": CHAIRS, "selection_mode": True})
    picker = Picker(settings, lambda event: [])
    with LLMStub(tool_calls(visualize), tool_calls(call("color", {"code": "0-1-1"}), call("color", {"code": "0-1-2"}),
                                                   call("color", {"code": "0-1-3"})), text("Here are all three.")) as stub:
        result = ask(stub, "colour of the chair?", on_event=picker)
    picker.join()
    assert (result.status, result.codes) == ("answered", CHAIRS)
    assert stub.remaining == 0
