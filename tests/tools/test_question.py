"""The `question` tool's models and its desk: invalid batches are refused up front, one dialog at a time, no UI → error."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from pydantic import ValidationError

from scene_agent.tools.question import (
    MAX_QUESTIONS,
    NoUIError,
    QuestionAnswer,
    QuestionDesk,
    QuestionInput,
    QuestionItem,
    QuestionReply,
    QuestionRequest,
    QuestionTimeoutError,
    result_of,
    skipped_result,
    summarize_answers,
)

WAIT_S = 10.0  # an upper bound for waits on events; a passing test never comes near it

UNITS = {"header": "Units", "question": "Metric or imperial?", "options": ["metric", "imperial"]}


def _request(qid: str = "q1") -> QuestionRequest:
    return QuestionRequest(question_id=qid, questions=[QuestionItem.model_validate(UNITS)])


def _answer(index: int, answer: str | list[str], header: str = "H") -> QuestionAnswer:
    return QuestionAnswer(question_index=index, header=header, answer=answer)


# --- the input models -------------------------------------------------------------------------------

@pytest.mark.parametrize("payload, fragment", [
    ({"questions": []}, "at least 1"),
    ({}, "Field required"),
    ({"questions": [{"header": "   ", "question": "Metric?"}]}, "must not be blank"),
    ({"questions": [{"header": "Units"}]}, "Field required"),
    ({"questions": [{"header": "Units", "question": ""}]}, "at least 1"),
    ({"questions": [{"header": "Rooms", "question": "Which?", "multiple": True}]}, "'multiple' needs options"),
    ({"questions": [{"header": "Note", "question": "Anything?", "allow_free_text": False}]}, "must allow free text"),
    ({"questions": [{"header": "Units", "question": "Which?", "options": ["metric", " metric"]}]}, "different"),
    ({"questions": [{"header": "Units", "question": "Which?", "options": ["metric", "  "]}]}, "must not be blank"),
    ({"questions": [UNITS] * (MAX_QUESTIONS + 1)}, "at most 8"),
    ({"questions": [{"header": "x" * 41, "question": "Which?"}]}, "at most 40"),
], ids=["no-questions", "no-field", "blank-header", "no-question-text", "empty-question", "multiple-without-options",
        "nothing-could-answer", "duplicate-options", "blank-option", "too-many", "long-header"])
def test_invalid_batches_are_refused(payload: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError) as caught:
        QuestionInput.model_validate(payload)
    assert fragment in str(caught.value)


def test_free_text_defaults_to_questions_without_options() -> None:
    parsed = QuestionInput.model_validate({"questions": [UNITS, {"header": " Note ", "question": " Anything else? "},
                                                         {**UNITS, "allow_free_text": True}]})
    units, note, open_units = parsed.questions
    assert units.allow_free_text is False
    assert (note.header, note.question, note.options, note.allow_free_text) == ("Note", "Anything else?", None, True)
    assert open_units.allow_free_text is True


def test_options_are_trimmed_and_an_empty_list_means_none() -> None:
    item = QuestionItem(header="Units", question="Which?", options=[" metric ", "imperial"])
    assert item.options == ["metric", "imperial"]
    assert QuestionItem(header="Note", question="Anything?", options=[]).options is None


def test_the_schema_the_model_reads_names_every_field() -> None:
    props = QuestionInput.model_json_schema()["$defs"]["QuestionItem"]["properties"]
    assert set(props) == {"header", "question", "options", "multiple", "allow_free_text"}
    assert all(p.get("description") for p in props.values())


# --- results ------------------------------------------------------------------------------------------

def test_result_orders_answers_and_summarizes_them() -> None:
    reply = QuestionReply(status="answered", answers=[_answer(1, ["kitchen", "study"], "Rooms"), _answer(0, "metric", "Units")])
    result = result_of(reply)
    assert [a.question_index for a in result.answers] == [0, 1]
    assert result.cancelled is False
    assert result.summary == "Units: metric; Rooms: kitchen, study"


def test_cancelled_result_keeps_partial_answers() -> None:
    result = result_of(QuestionReply(status="cancelled", answers=[_answer(2, "metric")]))
    assert result.cancelled is True
    assert [(a.question_index, a.answer) for a in result.answers] == [(2, "metric")]
    assert result_of(QuestionReply(status="cancelled")).summary == "no answers"


def test_timeout_is_an_error() -> None:
    with pytest.raises(QuestionTimeoutError) as caught:
        result_of(QuestionReply(status="timeout", answers=[_answer(0, "metric")]))
    assert caught.value.code == "question_timeout"


def test_skipped_result_is_cancelled_without_answers() -> None:
    skipped = skipped_result()
    assert skipped.cancelled is True and skipped.answers == []
    assert summarize_answers([]) == "no answers"


# --- the desk -----------------------------------------------------------------------------------------

class HeldChannel:
    """A channel whose dialogs stay open until the test lets each one go."""

    def __init__(self) -> None:
        self.opened: dict[str, threading.Event] = {}
        self.release: dict[str, threading.Event] = {}
        self.order: list[str] = []
        self._lock = threading.Lock()

    def expect(self, qid: str) -> None:
        self.opened[qid] = threading.Event()
        self.release[qid] = threading.Event()

    def ask(self, request: QuestionRequest, timeout: float, stop: threading.Event) -> QuestionReply:
        with self._lock:
            self.order.append(request.question_id)
        self.opened[request.question_id].set()
        assert self.release[request.question_id].wait(WAIT_S)
        return QuestionReply(status="answered", answers=[_answer(0, request.question_id)])


class Asker(threading.Thread):
    """Asks the desk in its own thread and keeps the reply."""

    def __init__(self, desk: QuestionDesk, qid: str, timeout: float = WAIT_S, stop: threading.Event | None = None):
        super().__init__(daemon=True)
        self.desk, self.qid, self.timeout = desk, qid, timeout
        self.stop = stop or threading.Event()
        self.reply: QuestionReply | None = None
        self.start()

    def run(self) -> None:
        self.reply = self.desk.ask(_request(self.qid), self.timeout, self.stop)

    def finish(self) -> QuestionReply:
        self.join(WAIT_S)
        assert not self.is_alive()
        assert self.reply is not None
        return self.reply


def test_no_channel_is_no_ui_error() -> None:
    desk = QuestionDesk(None)
    assert desk.available is False
    with pytest.raises(NoUIError) as caught:
        desk.ask(_request(), 1.0, threading.Event())
    assert caught.value.code == "no_ui"


def test_a_second_dialog_waits_until_the_first_is_done() -> None:
    channel = HeldChannel()
    channel.expect("first")
    channel.expect("second")
    desk = QuestionDesk(channel)
    first = Asker(desk, "first")
    assert channel.opened["first"].wait(WAIT_S)
    second = Asker(desk, "second")
    # While the first dialog is open the second must not be shown (it is queued, not refused).
    assert not channel.opened["second"].wait(0.3)
    assert channel.order == ["first"]
    channel.release["first"].set()
    assert first.finish().answers[0].answer == "first"
    assert channel.opened["second"].wait(WAIT_S)
    channel.release["second"].set()
    assert second.finish().answers[0].answer == "second"
    assert channel.order == ["first", "second"]


def test_a_queued_dialog_is_cancelled_by_stop() -> None:
    channel = HeldChannel()
    channel.expect("first")
    desk = QuestionDesk(channel)
    first = Asker(desk, "first")
    assert channel.opened["first"].wait(WAIT_S)
    stop = threading.Event()
    queued = Asker(desk, "queued", stop=stop)
    stop.set()
    assert queued.finish().status == "cancelled"
    channel.release["first"].set()
    assert first.finish().status == "answered"
    assert channel.order == ["first"]


def test_a_queued_dialog_times_out_instead_of_waiting_forever() -> None:
    channel = HeldChannel()
    channel.expect("first")
    desk = QuestionDesk(channel)
    first = Asker(desk, "first")
    assert channel.opened["first"].wait(WAIT_S)
    assert Asker(desk, "late", timeout=0.3).finish().status == "timeout"
    channel.release["first"].set()
    first.finish()
    assert channel.order == ["first"]
