"""The terminal question dialog ended early: cancel, end of input, timeout, a stop from another thread; what stays in stdin."""

from __future__ import annotations

import threading

from question_dialog_helpers import NOTE, ROOMS, UNITS, InThread, Keyboard, Screen, answers_of, ask

from scene_agent.cli.question_dialog import TerminalQuestions

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
