"""Helpers for the question dialog tests: sample questions, a screen to watch, a keyboard on a real pipe."""

from __future__ import annotations

import io
import os
import threading
from collections.abc import Callable
from typing import Any

from scene_agent.cli.question_dialog import TerminalQuestions
from scene_agent.tools.question import QuestionInput, QuestionReply, QuestionRequest

WAIT_S = 10.0  # an upper bound for waits on events; a passing test never comes near it
LONG_S = 30.0  # a dialog timeout no test should reach

UNITS = {"header": "Units", "question": "Metric or imperial?", "options": ["metric", "imperial"]}
ROOMS = {"header": "Rooms", "question": "Which rooms?", "options": ["kitchen", "study", "lounge"], "multiple": True}
NOTE = {"header": "Note", "question": "Anything else I should know?"}


def batch(*questions: dict[str, Any]) -> QuestionInput:
    """The question tool's input for these questions."""
    return QuestionInput.model_validate({"questions": list(questions)})


def request(*questions: dict[str, Any]) -> QuestionRequest:
    """What the desk hands a channel for these questions."""
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


def ask(dialog: TerminalQuestions, *questions: dict[str, Any], timeout: float = LONG_S,
        stop: threading.Event | None = None) -> QuestionReply:
    """Put these questions to the dialog and wait for its reply."""
    return dialog.ask(request(*questions), timeout, stop or threading.Event())


def answers_of(reply: QuestionReply) -> list[tuple[int, Any]]:
    """(question index, answer) of each answer in the reply."""
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
