"""The web question channel on its own: answers before the agent waits, races between endings, answer building."""

from __future__ import annotations

import threading

import pytest

from api_server.web_questions import AnswerGiven, InvalidAnswerError, QuestionEndedError, QuestionNotFoundError, WebQuestions, build_answers
from scene_agent.tools.question import QuestionItem, QuestionRequest

UNITS = QuestionItem(header="Units", question="Metric or imperial?", options=["metric", "imperial"])
ROOMS = QuestionItem(header="Rooms", question="Which?", options=["kitchen", "study"], multiple=True, allow_free_text=True)


def request(*items: QuestionItem) -> QuestionRequest:
    return QuestionRequest(question_id="a" * 32, questions=list(items))


def test_an_answer_that_arrives_before_the_agent_waits_is_kept() -> None:
    channel = WebQuestions()
    channel.register("a" * 32, [UNITS])
    channel.answer("a" * 32, [AnswerGiven(question_index=0, selected=[1])])
    reply = channel.ask(request(UNITS), timeout=5, stop=threading.Event())
    assert reply.status == "answered" and reply.answers[0].answer == "imperial"


def test_an_answer_from_another_thread_wakes_the_waiting_agent() -> None:
    channel = WebQuestions()
    channel.register("a" * 32, [UNITS])
    waiting = threading.Event()
    answered = threading.Thread(target=lambda: (waiting.wait(5), channel.answer("a" * 32, [AnswerGiven(question_index=0, selected=[0])])))
    answered.start()
    waiting.set()
    reply = channel.ask(request(UNITS), timeout=30, stop=threading.Event())
    answered.join()
    assert reply.status == "answered" and reply.answers[0].answer == "metric"


def test_the_first_ending_wins() -> None:
    channel = WebQuestions()
    stop = threading.Event()
    stop.set()
    assert channel.ask(request(UNITS), timeout=30, stop=stop).status == "cancelled"
    with pytest.raises(QuestionEndedError, match="already ended \\(cancelled\\)"):
        channel.answer("a" * 32, [AnswerGiven(question_index=0, selected=[0])])
    assert channel.state("a" * 32) == "cancelled"
    assert channel.ask(request(UNITS), timeout=0, stop=threading.Event()).status == "cancelled"


def test_timeout_ends_the_question() -> None:
    channel = WebQuestions()
    assert channel.ask(request(UNITS), timeout=0.05, stop=threading.Event()).status == "timeout"
    with pytest.raises(QuestionEndedError):
        channel.cancel("a" * 32, [])


def test_unknown_question() -> None:
    with pytest.raises(QuestionNotFoundError):
        WebQuestions().answer("b" * 32, [])


def test_several_options_and_own_words_together_when_the_question_allows_both() -> None:
    [answer] = build_answers([ROOMS], [AnswerGiven(question_index=0, selected=[1, 0, 1], text="garage")], complete=True)
    assert answer.answer == ["study", "kitchen", "garage"] and answer.selected == [1, 0] and answer.free_text


def test_one_option_or_own_words_not_both() -> None:
    item = QuestionItem(header="Units", question="?", options=["metric"], allow_free_text=True)
    with pytest.raises(InvalidAnswerError, match="not both"):
        build_answers([item], [AnswerGiven(question_index=0, selected=[0], text="feet")], complete=True)
    assert build_answers([item], [AnswerGiven(question_index=0, text="feet")], complete=True)[0].answer == "feet"


def test_partial_answers_are_fine_for_a_cancel() -> None:
    assert build_answers([UNITS, ROOMS], [], complete=False) == []
    with pytest.raises(InvalidAnswerError, match="no answer for question\\(s\\) 0, 1"):
        build_answers([UNITS, ROOMS], [], complete=True)
