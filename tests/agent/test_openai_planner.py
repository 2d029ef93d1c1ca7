"""The OpenAI planner against the LLM stub server: the real `openai` client, real tools, real selection hand-off."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any, Iterator

import pytest

from agent_helpers import Picker
from llm_stub import LLMStub, call, error, text, tool_calls
from scene_agent.agent.control import RunControl
from scene_agent.agent.disambiguation import decide, needs_user_disambiguation, rules_decision
from scene_agent.agent.events import (Final, Message, QuestionAnswered, SelectionReceived, SelectionRequired, ToolCallError,
                                      ToolCallResult, ToolCallStart)
from scene_agent.agent.llm import ModelError, parse_json_object
from scene_agent.agent.openai_planner import OpenAIPlanner, observation_text, system_prompt
from scene_agent.agent.scene_agent import AgentResult, SceneAgent
from scene_agent.config import ModelSettings, Settings
from scene_agent.scene import Scene, load_scene
from scene_agent.tools.find import find
from scene_agent.tools.question import QuestionAnswer, QuestionReply, QuestionRequest

CHAIRS = ["0-1-1", "0-1-2", "0-1-3"]
TOOL_NAMES = ["find", "visualize", "color", "volume", "question"]


@pytest.fixture(scope="module")
def scene(small_scene_path: Path) -> Scene:
    return load_scene(small_scene_path)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(state_dir=tmp_path / "state", selection_dir=tmp_path / "sel", viewer_url="http://127.0.0.1:9/")


@pytest.fixture
def planners() -> Iterator[Any]:
    """Makes OpenAI planners for a base URL and closes their clients afterwards."""
    made: list[OpenAIPlanner] = []

    def make(base_url: str, **kwargs: Any) -> OpenAIPlanner:
        made.append(OpenAIPlanner(ModelSettings(api_key="k", base_url=base_url, model="stub-model", timeout_s=10), **kwargs))
        return made[-1]

    yield make
    for planner in made:
        planner.model.close()


@pytest.fixture
def ask(scene: Scene, settings: Settings, planners: Any) -> Any:
    """Run one query through a real SceneAgent whose planner talks to `stub`."""

    def run(stub: LLMStub | str, query: str, *, max_steps: int = 12, on_event: Any = None, **agent_kwargs: Any) -> AgentResult:
        base_url = stub if isinstance(stub, str) else stub.base_url
        agent = SceneAgent(scene, settings, planners(base_url, max_steps=max_steps), **agent_kwargs)
        return agent.query(query, on_event=on_event)

    return run


def types(result: AgentResult) -> list[str]:
    return [e.type for e in result.events]  # type: ignore[attr-defined]


def of(result: AgentResult, kind: type) -> list[Any]:
    return [e for e in result.events if isinstance(e, kind)]


def tool_messages(request: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in request["messages"] if m["role"] == "tool"]


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# (a) find → color → answer


def test_find_then_color_then_answer(ask) -> None:
    with LLMStub(tool_calls(call("find", {"query": "sofa"})), tool_calls(call("color", {"code": "0-2-1"})),
                 text("The sofa 0-2-1 is grey.")) as stub:
        result = ask(stub, "what colour is the sofa?")
    assert types(result) == ["tool_call_start", "tool_call_result", "tool_call_start", "tool_call_result", "final"]
    starts, results = of(result, ToolCallStart), of(result, ToolCallResult)
    assert [(s.tool_name, r.tool_name) for s, r in zip(starts, results)] == [("find", "find"), ("color", "color")]
    assert [s.id for s in starts] == [r.id for r in results] and starts[0].id != starts[1].id
    assert starts[0].args == '{"query": "sofa"}' and results[0].result["candidates"][0]["code"] == "0-2-1"
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
    position = {(type(e).__name__, e.id): i for i, e in enumerate(result.events) if hasattr(e, "id")}
    assert all(position[("ToolCallStart", s.id)] < position[("ToolCallResult", s.id)] for s in starts)
    assert sorted((r.tool_name, r.result["code"]) for r in results) == [("color", "0-1-1"), ("color", "0-2-1"),
                                                                      ("volume", "0-1-1"), ("volume", "0-2-1")]
    assert (result.status, result.codes) == ("answered", ["0-1-1", "0-2-1"])
    replies = tool_messages(stub.requests[1])
    assert [m["tool_call_id"] for m in replies] == ["call_1", "call_2", "call_3", "call_4"]
    assert [("volume_m3" in json.loads(m["content"]), json.loads(m["content"])["code"]) for m in replies] == [
        (False, "0-1-1"), (True, "0-1-1"), (False, "0-2-1"), (True, "0-2-1")]


# (c)–(g) the model's mistakes and the question tool, as observations


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
    assert "find, visualize, color, volume, question" in failure.error.message
    assert json.loads(tool_messages(stub.requests[1])[0]["content"])["error"] == "unknown_tool"
    assert result.status == "answered"


QUESTION = {"questions": [{"header": "Units", "question": "Metric or imperial?", "options": ["metric", "imperial"]}]}


def test_question_beside_another_tool_is_refused(ask) -> None:
    with LLMStub(tool_calls(call("question", QUESTION), call("volume", {"code": "0-2-1"})), text("0-2-1 is small.")) as stub:
        result = ask(stub, "how big is the sofa?")
    (refused,) = of(result, ToolCallError)
    assert (refused.tool_name, refused.error.code) == ("question", "question_not_alone")
    (ran,) = of(result, ToolCallResult)
    assert ran.tool_name == "volume" and not any(e.type == "question" for e in result.events)  # type: ignore[attr-defined]
    replies = tool_messages(stub.requests[1])
    assert json.loads(replies[0]["content"])["error"] == "question_not_alone" and "volume_m3" in json.loads(replies[1]["content"])
    assert (result.status, result.codes) == ("answered", ["0-2-1"])


def test_question_when_questions_are_off(ask) -> None:
    with LLMStub(tool_calls(call("question", QUESTION)), text("I will use metric.")) as stub:
        result = ask(stub, "how big is the sofa?", ask_questions=False)
    assert [t["function"]["name"] for t in stub.requests[0]["tools"]] == ["find", "visualize", "color", "volume"]
    assert "Use question only" not in stub.requests[0]["messages"][0]["content"]
    (answered,) = of(result, ToolCallResult)
    assert answered.tool_name == "question" and answered.result["cancelled"] is True
    assert not any(e.type == "question" for e in result.events)  # type: ignore[attr-defined]  # nothing shown
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
    assert of(result, ToolCallResult)[1].result["code"] == "0-1-2"
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


# (k) needs_user_disambiguation asks the model, with the rules as fallback


def test_disambiguation_uses_the_models_json(scene, planners) -> None:
    chairs = find(scene.index, "chair").candidates
    reply = '```json\n{"needs_selection": true, "multiple": true, "prompt": "Pick the chairs to compare"}\n```'
    with LLMStub(text(reply), text(reply)) as stub:
        model = planners(stub.base_url).decide_model()
        decision = decide("what colour is the chair?", chairs, model)
        assert needs_user_disambiguation("what colour is the chair?", chairs, model) == (True, "Pick the chairs to compare", True)
    assert (decision.decided_by, decision.needs_selection, decision.multiple) == ("model", True, True)
    system, user = stub.requests[0]["messages"]
    assert "JSON" in system["content"] and json.loads(user["content"])["query"] == "what colour is the chair?"
    assert "tools" not in stub.requests[0]


@pytest.mark.parametrize("replies", [[text("I would ask the user, I think.")], [text('{"needs_selection": "maybe"}')],
                                     [error(500, "down")] * 2, [error(401, "bad key")]])
def test_disambiguation_falls_back_to_the_rules(scene, planners, replies) -> None:
    chairs = find(scene.index, "chair").candidates
    with LLMStub(*replies) as stub:
        decision = decide("what colour is the chair?", chairs, planners(stub.base_url).decide_model())
    assert decision.decided_by == "rules"
    assert decision.as_tuple() == rules_decision("what colour is the chair?", chairs).as_tuple()


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


# the pieces


def test_system_prompt(scene) -> None:
    prompt = system_prompt(scene, TOOL_NAMES)
    assert 'Scene "small" (Small test home): 2 floors, 7 rooms, 16 objects' in prompt
    assert '- floor 0 "Ground floor": 0-1 kitchen (4), 0-2 living room "Lounge" (4), 0-3 bathroom (1)' in prompt
    assert '1-1 bedroom "Master bedroom" (3)' in prompt
    for rule in ("Call find first", "selection_mode=true", "selection.codes", "cancelled", "view-only",
                 "user's language", "Use question only"):
        assert rule in prompt


def test_huge_observations_are_shortened(scene) -> None:
    everything = find(scene.index, "objects").model_dump(mode="json", exclude_none=True)
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
