"""The question dialog inside the agent: the Interaction, its events and records, and the Toolbox's question tool."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from question_dialog_helpers import NOTE, ROOMS, UNITS, InThread, Keyboard, Screen, batch

from scene_agent.agent.control import RunControl
from scene_agent.agent.events import Question, QuestionAnswered, ToolCallError, ToolCallResult
from scene_agent.agent.interaction import Interaction
from scene_agent.agent.records import ConversationRecords
from scene_agent.agent.toolbox import Toolbox, ToolCall
from scene_agent.cli.question_dialog import TerminalQuestions
from scene_agent.config import Settings
from scene_agent.scene.loader import load_scene
from scene_agent.tools.context import ToolContext
from scene_agent.tools.question import NoUIError, QuestionDesk, QuestionReply, QuestionRequest, QuestionTimeoutError, skipped_result

# --- inside the agent: Interaction, records, events, Toolbox -----------------------------------------------

@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The test's settings, its waits polling for the answer."""
    return replace(settings, selection_watch="polling")


class Agent:
    """The agent's side of asking: an Interaction over a desk, the events it emitted and its records."""

    def __init__(self, settings: Settings, channel: Any, **options: Any):
        self.events: list[BaseModel] = []
        self.records = ConversationRecords()
        self.control = RunControl()
        self.interaction = Interaction(settings, self.events.append, self.records, 1, desk=QuestionDesk(channel), **options)

    def ask(self, *questions: dict[str, Any]):
        return self.interaction.ask_question("call_1", batch(*questions), self.control)

    def types(self) -> list[str]:
        return [e.type for e in self.events]

    def answered_event(self) -> QuestionAnswered:
        [event] = [e for e in self.events if isinstance(e, QuestionAnswered)]
        return event

    def record_rows(self) -> list[tuple[str, str, Any]]:
        return [(r.type, r.status, r.answer) for r in self.records.list()]


class NeverAsked:
    """A channel that fails the test if anything is shown."""

    def ask(self, request: QuestionRequest, timeout: float, stop: threading.Event) -> QuestionReply:
        raise AssertionError("nothing should have been shown")


class BrokenChannel:
    """A channel whose terminal went away mid-dialog."""

    def ask(self, request: QuestionRequest, timeout: float, stop: threading.Event) -> QuestionReply:
        raise OSError("terminal went away")


def test_interaction_answered_through_the_terminal(settings: Settings, dialog: TerminalQuestions,
                                                   keyboard: Keyboard) -> None:
    agent = Agent(settings, dialog)
    keyboard.type("2", "creaky stairs")
    result = agent.ask(UNITS, NOTE)
    assert (result.cancelled, result.summary) == (False, "Units: imperial; Note: creaky stairs")
    assert agent.types() == ["question", "question_answered"]
    question, answered = agent.events
    assert isinstance(question, Question)
    assert question.tool_call_id == answered.tool_call_id == "call_1"
    assert question.question_id == answered.question_id
    assert [q.header for q in question.questions] == ["Units", "Note"]
    assert answered.status == "answered"
    assert [(a.question_index, a.answer) for a in answered.answers] == [(0, "imperial"), (1, "creaky stairs")]
    assert agent.record_rows() == [("CHOICE", "ANSWERED", "imperial"), ("FEEDBACK", "ANSWERED", "creaky stairs")]
    assert [r.id for r in agent.records.list()] == [f"{question.question_id}:0", f"{question.question_id}:1"]
    assert all(r.answered_at for r in agent.records.list())


def test_interaction_cancelled_keeps_partial_answers(settings: Settings, dialog: TerminalQuestions,
                                                     keyboard: Keyboard) -> None:
    agent = Agent(settings, dialog)
    keyboard.type("1,3", "c")
    result = agent.ask(ROOMS, NOTE)
    assert result.cancelled is True
    assert [(a.question_index, a.answer) for a in result.answers] == [(0, ["kitchen", "lounge"])]
    assert agent.answered_event().status == "cancelled"
    assert agent.record_rows() == [("CHOICE", "ANSWERED", ["kitchen", "lounge"]), ("FEEDBACK", "IGNORED", None)]


def test_interaction_timeout_is_an_error_and_expires_the_rest(settings: Settings, dialog: TerminalQuestions,
                                                              keyboard: Keyboard) -> None:
    agent = Agent(settings, dialog, question_timeout=0.3)
    keyboard.type("2")
    with pytest.raises(QuestionTimeoutError):
        agent.ask(UNITS, NOTE)
    answered = agent.answered_event()
    assert answered.status == "timeout"
    assert [(a.question_index, a.answer) for a in answered.answers] == [(0, "imperial")]
    assert agent.record_rows() == [("CHOICE", "ANSWERED", "imperial"), ("FEEDBACK", "EXPIRED", None)]


def test_interaction_stop_cancels_the_open_dialog(settings: Settings, dialog: TerminalQuestions, keyboard: Keyboard,
                                                  screen: Screen) -> None:
    agent = Agent(settings, dialog)
    asking = InThread(lambda: agent.ask(UNITS))
    assert screen.wait_for("Question 1 of 1")
    agent.control.stop("Stop button")
    assert asking.result().cancelled is True
    assert agent.answered_event().status == "cancelled"
    assert agent.record_rows() == [("CHOICE", "IGNORED", None)]


def test_dont_ask_me_skips_without_showing_anything(settings: Settings) -> None:
    agent = Agent(settings, NeverAsked(), questions_enabled=False)
    result = agent.ask(UNITS)
    assert result == skipped_result()
    assert result.cancelled is True
    assert agent.events == [] and agent.records.list() == []


def test_no_ui_says_so_and_raises(settings: Settings) -> None:
    agent = Agent(settings, None)
    with pytest.raises(NoUIError):
        agent.ask(UNITS, NOTE)
    assert agent.types() == ["question", "question_answered"]
    assert agent.answered_event().status == "no_ui"
    assert agent.record_rows() == [("CHOICE", "IGNORED", None), ("FEEDBACK", "IGNORED", None)]


def test_a_broken_channel_does_not_leave_the_question_open(settings: Settings) -> None:
    agent = Agent(settings, BrokenChannel())
    with pytest.raises(OSError):
        agent.ask(UNITS)
    assert agent.answered_event().status == "cancelled"
    assert agent.record_rows() == [("CHOICE", "IGNORED", None)]


@pytest.fixture
def toolbox_for(settings: Settings, small_scene_path: Path) -> Callable[[Any], tuple[Toolbox, Agent]]:
    scene = load_scene(small_scene_path)

    def make(channel: Any) -> tuple[Toolbox, Agent]:
        agent = Agent(settings, channel)
        toolbox = Toolbox(ToolContext(scene, settings), agent.events.append, agent.interaction, query="q",
                          control=agent.control)
        return toolbox, agent

    return make


@pytest.mark.parametrize("arguments", [
    {"questions": []},
    {"questions": [{"header": "Units"}]},
    {"questions": [{"header": "Rooms", "question": "Which?", "multiple": True}]},
    '{"questions": [',
])
def test_toolbox_refuses_invalid_questions_before_showing_anything(toolbox_for: Callable, arguments: Any) -> None:
    toolbox, agent = toolbox_for(NeverAsked())
    outcome = toolbox.call("question", arguments)
    assert (outcome.ok, outcome.observation["error"]) == (False, "invalid_arguments")
    assert agent.types() == ["tool_call_start", "tool_call_error"]
    assert agent.records.list() == []


def test_toolbox_asks_through_the_terminal(toolbox_for: Callable, dialog: TerminalQuestions, keyboard: Keyboard) -> None:
    toolbox, agent = toolbox_for(dialog)
    keyboard.type("1")
    outcome = toolbox.call("question", {"questions": [UNITS]})
    assert outcome.ok
    assert outcome.observation["answers"][0]["answer"] == "metric"
    assert agent.types() == ["tool_call_start", "question", "question_answered", "tool_call_result"]
    assert isinstance(agent.events[-1], ToolCallResult)


def test_toolbox_timeout_is_a_timed_out_call(toolbox_for: Callable, dialog: TerminalQuestions) -> None:
    toolbox, agent = toolbox_for(dialog)
    agent.interaction.question_timeout = 0.3
    outcome = toolbox.call("question", {"questions": [UNITS]})
    assert (outcome.ok, outcome.observation["error"]) == (False, "question_timeout")
    error = agent.events[-1]
    assert isinstance(error, ToolCallError) and error.status == "timeout"


def test_toolbox_refuses_a_question_beside_other_calls(toolbox_for: Callable) -> None:
    toolbox, agent = toolbox_for(NeverAsked())
    question, found = toolbox.call_many([ToolCall("question", {"questions": [UNITS]}), ToolCall("find", {"query": "toilet"})])
    assert (question.ok, question.observation["error"]) == (False, "question_not_alone")
    assert found.ok
    assert "question" not in agent.types()
