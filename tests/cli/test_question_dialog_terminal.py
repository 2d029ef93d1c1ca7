"""The terminal question dialog on a real terminal (pty), in Chinese, and how the language is chosen."""

from __future__ import annotations

import os
import pty
import re
import string
import threading

import pytest
from question_dialog_helpers import LONG_S, NOTE, UNITS, Keyboard, Screen, answers_of, ask, request
from rich.console import Console

from scene_agent.cli.messages import MESSAGES, language, t
from scene_agent.cli.question_dialog import TerminalQuestions, terminal_questions
from scene_agent.config import load_language

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
    assert load_language() == language() == expected
    assert t("question.step", n=1, total=2) == ("问题 1/2" if expected == "zh" else "Question 1 of 2")


def test_every_message_exists_in_both_languages_with_the_same_blanks() -> None:
    def blanks(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    for key, texts in MESSAGES.items():
        assert set(texts) == {"en", "zh"}, key
        assert all(texts.values()), key
        assert blanks(texts["en"]) == blanks(texts["zh"]), key
        assert not re.search(r"[\u4e00-\u9fff]", texts["en"]), key
