"""The terminal question dialog answered: by number or text, several at once, free text, invalid input, going back."""

from __future__ import annotations

from typing import Any

import pytest
from question_dialog_helpers import NOTE, ROOMS, UNITS, Keyboard, Screen, answers_of, ask

from scene_agent.cli.question_dialog import TerminalQuestions, parse_answer
from scene_agent.tools.question import QuestionItem

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
