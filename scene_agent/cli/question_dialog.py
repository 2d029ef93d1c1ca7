"""The `question` tool's dialog in a terminal: one question at a time ("Question 2 of 3"), answered by typing.

The dialog is drawn on stderr so stdout stays clean for `--json`. Input is read straight from the
file descriptor, one byte at a time behind `select` in short slices, so a read never blocks past the
deadline, notices a Stop at once, and never swallows what was typed after the answer's line.
"""

from __future__ import annotations

import codecs
import enum
import math
import os
import re
import select
import sys
import threading
import time
from typing import TextIO

from rich.console import Console, Group
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from scene_agent.cli.messages import BACK_WORDS, CANCEL_WORDS, language, t
from scene_agent.cli.output import err_console
from scene_agent.language.words import Lang
from scene_agent.tools.question import QuestionAnswer, QuestionItem, QuestionReply, QuestionRequest, summarize_answers

READ_SLICE_S = 0.2
_SEPARATORS = re.compile(r"[\s,，、;；]+")


class End(enum.Enum):
    """Why the dialog stopped reading before the batch was answered."""

    EOF = "eof"
    TIMEOUT = "timeout"
    STOPPED = "stopped"
    CANCELLED = "cancelled"


class _Back:
    """The user asked to go back to the previous question."""


class InvalidAnswerError(ValueError):
    """What the user typed does not answer the question; the message says why, in one line."""


class LineReader:
    """Lines from a file descriptor that never block past a deadline and give up when `stop` is set."""

    def __init__(self, fd: int, slice_s: float = READ_SLICE_S):
        self.fd = fd
        self.slice_s = slice_s
        self._echo = False
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._line: list[str] = []
        self._eof = False

    def readline(self, deadline: float, stop: threading.Event) -> str | End:
        """The next line without its newline; or EOF, TIMEOUT (monotonic `deadline` passed) or STOPPED."""
        while not self._eof:
            if stop.is_set():
                return End.STOPPED
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return End.TIMEOUT
            ready, _, _ = select.select([self.fd], [], [], min(self.slice_s, remaining))
            if not ready:
                continue
            # One byte at a time: whatever follows this line stays in the descriptor for its next reader.
            byte = os.read(self.fd, 1)
            if not byte:
                self._eof = True
                break
            char = self._decoder.decode(byte)
            if char == "\n":
                return self._take()
            self._line.append(char)
        if self._line:
            return self._take()
        return End.EOF

    def _take(self) -> str:
        text = "".join(self._line).rstrip("\r")
        self._line.clear()
        return text


def parse_answer(index: int, item: QuestionItem, text: str, lang: Lang | None = None) -> QuestionAnswer:
    """The answer `text` gives to question `index`: option numbers ("1,3" / "1 3"), an option's text, or free text.

    Raises InvalidAnswerError (with a one-line reason) when it answers nothing: an option number out of
    range, several numbers for a single choice, or words where only options are allowed.
    """
    options = item.options or []
    text = text.strip()
    if not text:
        raise InvalidAnswerError(t("question.err_empty", lang))
    tokens = [tok for tok in _SEPARATORS.split(text) if tok]
    selected: list[int] | None = None
    if options and tokens and all(tok.isdecimal() for tok in tokens):
        numbers = [int(tok) for tok in tokens]
        bad = next((n for n in numbers if not 1 <= n <= len(options)), None)
        if bad is not None:
            raise InvalidAnswerError(t("question.err_range", lang, number=bad, n=len(options)))
        selected = sorted({n - 1 for n in numbers})
    else:
        folded = text.casefold()
        match = next((i for i, option in enumerate(options) if option.casefold() == folded), None)
        selected = None if match is None else [match]
    if selected is not None:
        if len(selected) > 1 and not item.multiple:
            raise InvalidAnswerError(t("question.err_one", lang))
        chosen = [options[i] for i in selected]
        return QuestionAnswer(question_index=index, header=item.header, answer=chosen if item.multiple else chosen[0],
                              selected=selected)
    if item.allow_free_text:
        return QuestionAnswer(question_index=index, header=item.header, answer=[text] if item.multiple else text,
                              free_text=True)
    raise InvalidAnswerError(t("question.err_not_option", lang, n=len(options)))


def _clock(seconds: float) -> str:
    seconds = max(0, math.ceil(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


class TerminalQuestions:
    """A QuestionChannel for the CLI: the batch as a stepper on the terminal, answers typed on stdin."""

    def __init__(self, stdin: TextIO | None = None, console: Console | None = None, *, lang: Lang | None = None,
                 slice_s: float = READ_SLICE_S):
        self.stdin = stdin if stdin is not None else sys.stdin
        self.console = console if console is not None else err_console
        self.lang: Lang = lang or language()
        self.slice_s = slice_s

    def ask(self, request: QuestionRequest, timeout: float, stop: threading.Event) -> QuestionReply:
        """Show the questions one at a time until all are answered, the user cancels, time is up or `stop` is set."""
        deadline = time.monotonic() + timeout
        fd = self.stdin.fileno()
        reader = LineReader(fd, self.slice_s)
        # A terminal echoes what is typed; input from a pipe is echoed here so the transcript reads as a dialog.
        self._echo = not os.isatty(fd)
        questions = request.questions
        answers: dict[int, QuestionAnswer] = {}
        self.console.print(Rule(t("question.title", self.lang)))
        index = 0
        while index < len(questions):
            step = self._answer_one(index, questions, answers.get(index), reader, deadline, stop)
            if isinstance(step, QuestionAnswer):
                answers[index] = step
                index += 1
            elif isinstance(step, _Back):
                index -= 1
            else:
                return self._ended(step, answers, len(questions))
        given = [answers[i] for i in sorted(answers)]
        self.console.print(Text("✓ " + t("question.answered", self.lang, summary=summarize_answers(given)), style="green"))
        return QuestionReply(status="answered", answers=given)

    def _answer_one(self, index: int, questions: list[QuestionItem], current: QuestionAnswer | None, reader: LineReader,
                    deadline: float, stop: threading.Event) -> QuestionAnswer | _Back | End:
        item = questions[index]
        self._show(index, questions, current, deadline)
        while True:
            self.console.print(t("question.prompt", self.lang), end="", markup=False)
            line = reader.readline(deadline, stop)
            if isinstance(line, End):
                self.console.print()
                return line
            if self._echo:
                self.console.print(line, markup=False, highlight=False)
            word = line.strip().casefold()
            if word in BACK_WORDS:
                if index > 0:
                    return _Back()
                self._complain(t("question.err_first", self.lang))
            elif word in CANCEL_WORDS:
                return End.CANCELLED
            elif not word and current is not None:
                return current
            else:
                try:
                    return parse_answer(index, item, line, self.lang)
                except InvalidAnswerError as exc:
                    self._complain(str(exc))

    def _show(self, index: int, questions: list[QuestionItem], current: QuestionAnswer | None, deadline: float) -> None:
        item = questions[index]
        body: list[Text] = [Text(item.question)]
        for number, option in enumerate(item.options or [], start=1):
            body.append(Text.assemble((f"  {number}. ", "bold cyan"), option))
        if current is not None:
            shown = ", ".join(current.answer) if isinstance(current.answer, list) else current.answer
            body.append(Text(t("question.current", self.lang, answer=shown), style="italic"))
        title = Text.assemble((t("question.step", self.lang, n=index + 1, total=len(questions)), "bold"), " · ", item.header)
        self.console.print(Panel(Group(*body), title=title, title_align="left", border_style="cyan"))
        self.console.print(Text(" · ".join(self._hints(item, deadline)), style="dim"))

    def _hints(self, item: QuestionItem, deadline: float) -> list[str]:
        n = len(item.options or [])
        if n:
            hint = t("question.hint_many" if item.multiple else "question.hint_one", self.lang, n=n)
            if item.allow_free_text:
                hint += " " + t("question.hint_free_too", self.lang)
        else:
            hint = t("question.hint_free", self.lang)
        left = t("question.time_left", self.lang, left=_clock(deadline - time.monotonic()))
        return [hint, t("question.hint_keys", self.lang), left]

    def _complain(self, reason: str) -> None:
        self.console.print(Text(reason, style="yellow"))

    def _ended(self, why: End, answers: dict[int, QuestionAnswer], total: int) -> QuestionReply:
        given = [answers[i] for i in sorted(answers)]
        key = {End.TIMEOUT: "question.timeout", End.STOPPED: "question.stopped"}.get(why, "question.cancelled")
        self.console.print(Text(t(key, self.lang, done=len(given), total=total), style="yellow"))
        return QuestionReply(status="timeout" if why is End.TIMEOUT else "cancelled", answers=given)


def terminal_questions(stdin: TextIO | None = None, console: Console | None = None) -> TerminalQuestions | None:
    """A terminal dialog when stdin is a terminal; None otherwise (the agent then answers `no_ui`, never hangs)."""
    stdin = stdin if stdin is not None else sys.stdin
    try:
        usable = stdin is not None and stdin.isatty()
        if usable:
            stdin.fileno()
    except (AttributeError, OSError, ValueError):  # closed, detached or not a real file
        usable = False
    return TerminalQuestions(stdin, console) if usable else None
