"""The terminal question dialog, driven through a real pipe (or pty), alone and inside the agent's Interaction."""

from __future__ import annotations

import io
import os
import pty
import re
import string
import threading
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from pydantic import BaseModel
from rich.console import Console

from scene_agent.agent.control import RunControl
from scene_agent.agent.events import Question, QuestionAnswered, ToolCallError, ToolCallResult
from scene_agent.agent.interaction import Interaction
from scene_agent.agent.records import ConversationRecords
from scene_agent.agent.toolbox import ToolCall, Toolbox
from scene_agent.cli.messages import MESSAGES, language, t
from scene_agent.cli.question_dialog import TerminalQuestions, parse_answer, terminal_questions
from scene_agent.config import DEFAULT_VIEWER_URL, Settings
from scene_agent.scene import load_scene
from scene_agent.selection.waiter import SelectionWaiter
from scene_agent.tools.question import (NoUIError, QuestionDesk, QuestionInput, QuestionItem, QuestionReply,
                                        QuestionRequest, QuestionTimeoutError, skipped_result)
from scene_agent.tools.registry import ToolContext

WAIT_S = 10.0  # an upper bound for waits on events; a passing test never comes near it
LONG_S = 30.0  # a dialog timeout no test should reach

UNITS = {"header": "Units", "question": "Metric or imperial?", "options": ["metric", "imperial"]}
ROOMS = {"header": "Rooms", "question": "Which rooms?", "options": ["kitchen", "study", "lounge"], "multiple": True}
NOTE = {"header": "Note", "question": "Anything else I should know?"}


def batch(*questions: dict[str, Any]) -> QuestionInput:
    return QuestionInput.model_validate({"questions": list(questions)})


def request(*questions: dict[str, Any]) -> QuestionRequest:
    return QuestionRequest(question_id="q-test", questions=batch(*questions).questions)


class Screen(io.StringIO):
    """What the dialog printed, with a way to wait until some text has appeared."""

    def __init__(self) -> None:
        super().__init__()
        self._changed = threading.Condition()

    def write(self, text: str) -> int:
        with self._changed:
            written = super().write(text)
            self._changed.notify_all()
            return written

    def wait_for(self, text: str, timeout: float = WAIT_S) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: text in self.getvalue(), timeout)

    def count(self, text: str) -> int:
        return self.getvalue().count(text)


class Keyboard:
    """The user's side of a real pipe: lines written here are what the dialog reads on its stdin."""

    def __init__(self) -> None:
        read_fd, self._write_fd = os.pipe()
        self.stdin = os.fdopen(read_fd, "r", encoding="utf-8")
        self._open = True

    def type(self, *lines: str) -> None:
        os.write(self._write_fd, "".join(line + "\n" for line in lines).encode())

    def type_raw(self, text: str) -> None:
        os.write(self._write_fd, text.encode())

    def hang_up(self) -> None:
        """End of input (Ctrl-D)."""
        if self._open:
            os.close(self._write_fd)
            self._open = False

    def unread(self) -> bytes:
        """What is still waiting in the pipe (after hanging up)."""
        self.hang_up()
        return self.stdin.buffer.raw.read()

    def close(self) -> None:
        self.hang_up()
        self.stdin.close()


@pytest.fixture
def keyboard() -> Iterator[Keyboard]:
    kb = Keyboard()
    try:
        yield kb
    finally:
        kb.close()


@pytest.fixture
def screen() -> Screen:
    return Screen()


@pytest.fixture
def dialog(keyboard: Keyboard, screen: Screen) -> TerminalQuestions:
    console = Console(file=screen, width=100, color_system=None, highlight=False)
    return TerminalQuestions(keyboard.stdin, console, lang="en", slice_s=0.05)


def ask(dialog: TerminalQuestions, *questions: dict[str, Any], timeout: float = LONG_S,
        stop: threading.Event | None = None) -> QuestionReply:
    return dialog.ask(request(*questions), timeout, stop or threading.Event())


def answers_of(reply: QuestionReply) -> list[tuple[int, Any]]:
    return [(a.question_index, a.answer) for a in reply.answers]


class InThread(threading.Thread):
    """Runs a call in its own thread and keeps what it returned or raised."""

    def __init__(self, call: Callable[[], Any]):
        super().__init__(daemon=True)
        self.call = call
        self.value: Any = None
        self.error: BaseException | None = None
        self.start()

    def run(self) -> None:
        try:
            self.value = self.call()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            self.error = exc

    def result(self) -> Any:
        self.join(WAIT_S)
        assert not self.is_alive()
        if self.error is not None:
            raise self.error
        return self.value


# --- answering -----------------------------------------------------------------------------------------

def test_single_choice_by_number(dialog: TerminalQuestions, keyboard: Keyboard, screen: Screen) -> None:
    keyboard.type("2")
    reply = ask(dialog, UNITS)
    assert reply.status == "answered"
    [answer] = reply.answers
    assert (answer.question_index, answer.header, answer.answer, answer.selected, answer.free_text) == \
        (0, "Units", "imperial", [1], False)
    shown = screen.getvalue()
    assert "Question 1 of 1 · Units" in shown and "Metric or imperial?" in shown
    assert "1. metric" in shown and "2. imperial" in shown
    assert "Answered: Units: imperial" in shown


def test_an_option_can_be_typed_by_its_text(dialog: TerminalQuestions, keyboard: Keyboard) -> None:
    keyboard.type("IMPERIAL")
    assert ask(dialog, UNITS).answers[0].selected == [1]


@pytest.mark.parametrize("line", ["1,3", "1 3", "3, 1", "1，3", "1,3,3"])
def test_multiple_choice_takes_several_numbers(dialog: TerminalQuestions, keyboard: Keyboard, line: str) -> None:
    keyboard.type(line)
    [answer] = ask(dialog, ROOMS).answers
    assert (answer.answer, answer.selected, answer.free_text) == (["kitchen", "lounge"], [0, 2], False)


def test_free_text_question(dialog: TerminalQuestions, keyboard: Keyboard) -> None:
    keyboard.type("  the stairs creak  ")
    [answer] = ask(dialog, NOTE).answers
    assert (answer.answer, answer.selected, answer.free_text) == ("the stairs creak", [], True)


def test_free_text_beside_options(dialog: TerminalQuestions, keyboard: Keyboard) -> None:
    keyboard.type("whatever the architect used", "1 2")
    reply = ask(dialog, {**UNITS, "allow_free_text": True}, {**ROOMS, "allow_free_text": True})
    units, rooms = reply.answers
    assert (units.answer, units.free_text) == ("whatever the architect used", True)
    assert (rooms.answer, rooms.selected) == (["kitchen", "study"], [0, 1])


def test_multiple_choice_free_text_is_a_list(dialog: TerminalQuestions, keyboard: Keyboard) -> None:
    keyboard.type("the attic")
    [answer] = ask(dialog, {**ROOMS, "allow_free_text": True}).answers
    assert (answer.answer, answer.free_text) == (["the attic"], True)


def test_unicode_answers_survive_the_byte_reader(dialog: TerminalQuestions, keyboard: Keyboard) -> None:
    keyboard.type("书房和厨房")
    assert ask(dialog, NOTE).answers[0].answer == "书房和厨房"


def test_a_batch_is_asked_one_question_at_a_time(dialog: TerminalQuestions, keyboard: Keyboard, screen: Screen) -> None:
    keyboard.type("1", "2 3", "north side")
    reply = ask(dialog, UNITS, ROOMS, NOTE)
    assert answers_of(reply) == [(0, "metric"), (1, ["study", "lounge"]), (2, "north side")]
    shown = screen.getvalue()
    shown_at = [shown.index(f"Question {n} of 3") for n in (1, 2, 3)]
    assert shown_at == sorted(shown_at)
    assert "Answered: Units: metric; Rooms: study, lounge; Note: north side" in shown


@pytest.mark.parametrize("question, bad, reason", [
    (UNITS, "3", "There is no option 3: choose 1–2."),
    (UNITS, "0", "There is no option 0: choose 1–2."),
    (UNITS, "maybe", "Type an option number (1–2)."),
    (UNITS, "1 2", "Choose only one option."),
    (ROOMS, "1,9", "There is no option 9: choose 1–3."),
    (NOTE, "", "Please type an answer."),
    (NOTE, "   ", "Please type an answer."),
])
def test_invalid_input_says_why_and_asks_again(dialog: TerminalQuestions, keyboard: Keyboard, screen: Screen,
                                               question: dict[str, Any], bad: str, reason: str) -> None:
    keyboard.type(bad, "1")
    reply = ask(dialog, question)
    assert reply.status == "answered"
    assert screen.count(reason) == 1
    assert screen.count("Question 1 of 1") == 1  # asked again at the prompt, not redrawn
    assert reply.answers[0].answer in ("metric", ["kitchen"], "1")


def test_back_then_change_an_answer(dialog: TerminalQuestions, keyboard: Keyboard, screen: Screen) -> None:
    keyboard.type("1", "b", "2", "fine")
    reply = ask(dialog, UNITS, NOTE)
    assert answers_of(reply) == [(0, "imperial"), (1, "fine")]
    assert "Current answer: metric (Enter keeps it)" in screen.getvalue()


def test_back_then_enter_keeps_the_answer(dialog: TerminalQuestions, keyboard: Keyboard) -> None:
    keyboard.type("1,3", "kitchen first", "back", "back", "", "", "2")
    reply = ask(dialog, ROOMS, NOTE, UNITS)
    assert reply.status == "answered"
    assert answers_of(reply) == [(0, ["kitchen", "lounge"]), (1, "kitchen first"), (2, "imperial")]


def test_back_on_the_first_question_stays(dialog: TerminalQuestions, keyboard: Keyboard, screen: Screen) -> None:
    keyboard.type("b", "1")
    assert ask(dialog, UNITS).status == "answered"
    assert "This is the first question." in screen.getvalue()


def test_parse_answer_alone() -> None:
    item = QuestionItem.model_validate(ROOMS)
    assert parse_answer(4, item, "2").model_dump() == {"question_index": 4, "header": "Rooms", "answer": ["study"],
                                                       "selected": [1], "free_text": False}


# --- ending early ------------------------------------------------------------------------------------------

def test_cancel_mid_batch_keeps_partial_answers(dialog: TerminalQuestions, keyboard: Keyboard, screen: Screen) -> None:
    keyboard.type("2", "1 3", "c")
    reply = ask(dialog, UNITS, ROOMS, NOTE)
    assert reply.status == "cancelled"
    assert answers_of(reply) == [(0, "imperial"), (1, ["kitchen", "lounge"])]
    assert "Cancelled (2 of 3 answered)." in screen.getvalue()


def test_cancel_after_going_back_keeps_later_answers(dialog: TerminalQuestions, keyboard: Keyboard) -> None:
    keyboard.type("2", "3", "b", "b", "cancel")
    reply = ask(dialog, UNITS, ROOMS, NOTE)
    assert reply.status == "cancelled"
    assert answers_of(reply) == [(0, "imperial"), (1, ["lounge"])]


def test_end_of_input_cancels(dialog: TerminalQuestions, keyboard: Keyboard) -> None:
    keyboard.type("1")
    keyboard.hang_up()
    reply = ask(dialog, UNITS, NOTE)
    assert (reply.status, answers_of(reply)) == ("cancelled", [(0, "metric")])


def test_end_of_input_right_away_cancels_with_nothing(dialog: TerminalQuestions, keyboard: Keyboard) -> None:
    keyboard.hang_up()
    reply = ask(dialog, UNITS)
    assert (reply.status, reply.answers) == ("cancelled", [])


def test_a_last_line_without_newline_still_counts(dialog: TerminalQuestions, keyboard: Keyboard) -> None:
    keyboard.type_raw("2")
    keyboard.hang_up()
    reply = ask(dialog, UNITS, NOTE)
    assert (reply.status, answers_of(reply)) == ("cancelled", [(0, "imperial")])


def test_timeout_returns_the_answers_so_far(dialog: TerminalQuestions, keyboard: Keyboard, screen: Screen) -> None:
    keyboard.type("1")
    reply = ask(dialog, UNITS, NOTE, timeout=0.3)
    assert (reply.status, answers_of(reply)) == ("timeout", [(0, "metric")])
    assert "Time is up (1 of 2 answered)." in screen.getvalue()


def test_stop_from_another_thread_cancels(dialog: TerminalQuestions, keyboard: Keyboard, screen: Screen) -> None:
    stop = threading.Event()
    keyboard.type("2")
    asking = InThread(lambda: ask(dialog, UNITS, NOTE, stop=stop))
    assert screen.wait_for("Question 2 of 2")
    stop.set()
    reply = asking.result()
    assert (reply.status, answers_of(reply)) == ("cancelled", [(0, "imperial")])
    assert "Stopped (1 of 2 answered)." in screen.getvalue()


def test_stop_already_set_reads_nothing(dialog: TerminalQuestions, keyboard: Keyboard) -> None:
    stop = threading.Event()
    stop.set()
    keyboard.type("1")
    reply = ask(dialog, UNITS, stop=stop)
    assert (reply.status, reply.answers) == ("cancelled", [])
    assert keyboard.unread() == b"1\n"


def test_what_is_typed_after_the_dialog_stays_in_stdin(dialog: TerminalQuestions, keyboard: Keyboard) -> None:
    keyboard.type("1", "next question for the agent")
    assert ask(dialog, UNITS).status == "answered"
    assert keyboard.unread() == b"next question for the agent\n"


def test_model_text_is_shown_as_is_not_as_markup(dialog: TerminalQuestions, keyboard: Keyboard, screen: Screen) -> None:
    keyboard.type("1")
    ask(dialog, {"header": "[red]H[/red]", "question": "Use [bold]this[/bold]?", "options": ["[x]", "y"]})
    shown = screen.getvalue()
    assert "Use [bold]this[/bold]?" in shown and "[red]H[/red]" in shown and "1. [x]" in shown


# --- a real terminal and the language ----------------------------------------------------------------------

def test_terminal_questions_needs_a_terminal(keyboard: Keyboard) -> None:
    assert terminal_questions(keyboard.stdin) is None
    master, slave = pty.openpty()
    with os.fdopen(slave, "r", encoding="utf-8") as tty_in:
        try:
            screen = Screen()
            channel = terminal_questions(tty_in, Console(file=screen, width=100, color_system=None))
            assert isinstance(channel, TerminalQuestions)
            os.write(master, b"2\n")
            reply = channel.ask(request(UNITS), LONG_S, threading.Event())
            assert answers_of(reply) == [(0, "imperial")]
            assert "> 2" not in screen.getvalue()  # a terminal echoes by itself; the dialog does not echo again
        finally:
            os.close(master)


def test_the_dialog_speaks_chinese(keyboard: Keyboard, screen: Screen) -> None:
    dialog = TerminalQuestions(keyboard.stdin, Console(file=screen, width=100, color_system=None), lang="zh")
    keyboard.type("5", "1", "取消")
    reply = ask(dialog, UNITS, NOTE)
    assert (reply.status, answers_of(reply)) == ("cancelled", [(0, "metric")])
    shown = screen.getvalue()
    for text in ("Agent 向您提问", "问题 1/2", "问题 2/2", "没有选项 5：请选择 1–2。", "已取消（已回答 1/2）。"):
        assert text in shown


@pytest.mark.parametrize("env, expected", [
    ({}, "en"),
    ({"LANG": "zh_CN.UTF-8"}, "zh"),
    ({"LANG": "zh_CN.UTF-8", "LC_ALL": "C.UTF-8"}, "en"),
    ({"LANG": "en_US.UTF-8", "LC_ALL": "zh_TW"}, "zh"),
    ({"LANG": "zh_CN.UTF-8", "SCENE_AGENT_LANG": "en"}, "en"),
    ({"SCENE_AGENT_LANG": "zh"}, "zh"),
])
def test_language_comes_from_the_setting_then_the_locale(monkeypatch: pytest.MonkeyPatch, env: dict[str, str],
                                                          expected: str) -> None:
    for name in ("SCENE_AGENT_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert language() == expected
    assert t("question.step", n=1, total=2) == ("问题 1/2" if expected == "zh" else "Question 1 of 2")


def test_every_message_exists_in_both_languages_with_the_same_blanks() -> None:
    def blanks(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    for key, texts in MESSAGES.items():
        assert set(texts) == {"en", "zh"}, key
        assert all(texts.values()), key
        assert blanks(texts["en"]) == blanks(texts["zh"]), key
        assert not re.search(r"[\u4e00-\u9fff]", texts["en"]), key


# --- inside the agent: Interaction, records, events, Toolbox -----------------------------------------------

@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(state_dir=tmp_path / "state", selection_dir=tmp_path / "selections", viewer_url=DEFAULT_VIEWER_URL,
                    selection_watch="polling")


class Agent:
    """The agent's side of asking: an Interaction over a desk, the events it emitted and its records."""

    def __init__(self, settings: Settings, channel: Any, **options: Any):
        self.events: list[BaseModel] = []
        self.records = ConversationRecords()
        self.control = RunControl()
        self.waiter = SelectionWaiter(backend="polling")
        self.interaction = Interaction(settings, self.events.append, self.records, 1, desk=QuestionDesk(channel),
                                       waiter=self.waiter, **options)

    def ask(self, *questions: dict[str, Any]):
        return self.interaction.ask_question("call_1", batch(*questions), self.control)

    def types(self) -> list[str]:
        return [getattr(e, "type") for e in self.events]

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
    assert [q["header"] for q in question.questions] == ["Units", "Note"]
    assert answered.status == "answered"
    assert [(a["question_index"], a["answer"]) for a in answered.answers] == [(0, "imperial"), (1, "creaky stairs")]
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
    assert [(a["question_index"], a["answer"]) for a in answered.answers] == [(0, "imperial")]
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
                          decide=lambda query, candidates: pytest.fail("no decision expected"), control=agent.control)
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
