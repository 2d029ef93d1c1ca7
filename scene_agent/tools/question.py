"""The `question` tool: ask the user clarifying questions that are not spatial ("metric or imperial?").

A question blocks the run until the user answers, cancels or the time is up. Where the dialog is shown
is a `QuestionChannel` (a terminal dialog in the CLI, the web chat's dialog); a `QuestionDesk` puts
one dialog at a time in front of the user (later ones queue) and says `no_ui` when nobody can be asked.
"""

from __future__ import annotations

import threading
import time
import uuid
from typing import Literal, Protocol

from pydantic import Field, field_validator, model_validator

from scene_agent.errors import SceneAgentError
from scene_agent.model import Model
from scene_agent.tools.summary import Summary
from scene_agent.tools.tool import Tool, always

DEFAULT_QUESTION_TIMEOUT_S = 300.0
MAX_QUESTIONS = 8
MAX_OPTIONS = 20


class NoUIError(SceneAgentError):
    """There is no way to show a question (no terminal, no web dialog): say so instead of hanging."""

    code = "no_ui"


class QuestionTimeoutError(SceneAgentError):
    """The user did not answer in time."""

    code = "question_timeout"


class QuestionItem(Model):
    """One question in a dialog."""

    header: str = Field(min_length=1, max_length=40, description="Short label, at most 40 characters, e.g. 'Units'.")
    question: str = Field(min_length=1, max_length=1000, description="The question, in full.")
    options: list[str] | None = Field(default=None, max_length=MAX_OPTIONS,
                                      description="Answers to choose from; leave out for a free-text question.")
    multiple: bool = Field(default=False, description="Let the user choose several options.")
    allow_free_text: bool | None = Field(default=None, description="Also accept an answer in the user's own words. "
                                         "Default: true when there are no options, false otherwise.")

    @field_validator("header", "question")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must not be blank")
        return v.strip()

    @field_validator("options")
    @classmethod
    def _clean_options(cls, v: list[str] | None) -> list[str] | None:
        if v is None:
            return None
        cleaned = [o.strip() for o in v]
        if any(not o for o in cleaned):
            raise ValueError("options must not be blank")
        if len(set(cleaned)) != len(cleaned):
            raise ValueError("options must be different from each other")
        return cleaned or None

    @model_validator(mode="after")
    def _answerable(self) -> QuestionItem:
        if self.multiple and not self.options:
            raise ValueError("'multiple' needs options to choose from")
        if self.allow_free_text is None:
            self.allow_free_text = not self.options
        if not self.options and not self.allow_free_text:
            raise ValueError("a question without options must allow free text, or nothing could answer it")
        return self


class QuestionInput(Model):
    """Ask the user questions you cannot answer from the scene (preferences, intent). Blocks until answered.

    Call it alone, never beside other tools. For "which of these rooms/objects", use visualize with
    selection_mode instead: the user picks in the 3D viewer.
    """

    questions: list[QuestionItem] = Field(min_length=1, max_length=MAX_QUESTIONS,
                                          description="The questions, answered together in one dialog, in order.")


class QuestionAnswer(Model):
    """The answer to one question of the batch."""

    question_index: int = Field(description="Index of the question in `questions`, from 0.")
    header: str
    answer: str | list[str] = Field(description="The chosen option(s) or the user's own words; a list when `multiple`.")
    selected: list[int] = Field(default_factory=list, description="Indexes of the chosen options.")
    free_text: bool = False


class QuestionResult(Model):
    """The user's answers; with `cancelled`, the ones given before cancelling (possibly none)."""

    answers: list[QuestionAnswer]
    cancelled: bool = False
    summary: str = Field(description="The answers in one line, e.g. 'Units: metric'.")

    def human_summary(self) -> Summary:
        """The answers in one line, or that the question was cancelled."""
        if self.cancelled:
            return Summary(en="cancelled", zh="已取消", tone="nothing")
        return Summary(en=self.summary or "answered", zh=self.summary or "已回答")


class QuestionRequest(Model):
    """What a channel shows: a batch of questions under one id."""

    question_id: str
    questions: list[QuestionItem]


class QuestionReply(Model):
    """What a channel got back."""

    status: Literal["answered", "cancelled", "timeout"]
    answers: list[QuestionAnswer] = Field(default_factory=list)


class QuestionChannel(Protocol):
    """Somewhere a question can be shown and answered (a terminal, the web chat)."""

    def ask(self, request: QuestionRequest, timeout: float, stop: threading.Event) -> QuestionReply:
        """Show the questions and block until answered, cancelled, timed out, or `stop` is set (= cancelled)."""
        ...


def new_question_id() -> str:
    """An unguessable id for one question dialog."""
    return uuid.uuid4().hex


def summarize_answers(answers: list[QuestionAnswer]) -> str:
    """'Units: metric; Rooms: kitchen, study' — what the user said, in one line."""
    parts = [f"{a.header}: {', '.join(a.answer) if isinstance(a.answer, list) else a.answer}" for a in answers]
    return "; ".join(parts) if parts else "no answers"


def result_of(reply: QuestionReply) -> QuestionResult:
    """The tool's result from what the channel got back; a timeout raises QuestionTimeoutError."""
    if reply.status == "timeout":
        raise QuestionTimeoutError("the user did not answer the question in time")
    answers = sorted(reply.answers, key=lambda a: a.question_index)
    return QuestionResult(answers=answers, cancelled=reply.status == "cancelled", summary=summarize_answers(answers))


def skipped_result() -> QuestionResult:
    """What the tool answers when the user said "don't ask me": cancelled, without showing anything."""
    return QuestionResult(answers=[], cancelled=True, summary="the user asked not to be asked questions")


class QuestionDesk:
    """Puts one dialog at a time in front of the user: later questions wait their turn."""

    def __init__(self, channel: QuestionChannel | None):
        self.channel = channel
        self._turn = threading.Lock()

    @property
    def available(self) -> bool:
        """True when questions can be shown at all."""
        return self.channel is not None

    def ask(self, request: QuestionRequest, timeout: float, stop: threading.Event) -> QuestionReply:
        """Wait for the desk (up to `timeout`), then show the request; NoUIError when there is no channel."""
        if self.channel is None:
            raise NoUIError("no way to ask the user here (no terminal and no web chat); decide without asking")
        started = time.monotonic()
        while not self._turn.acquire(timeout=0.1):
            if stop.is_set():
                return QuestionReply(status="cancelled")
            if time.monotonic() - started >= timeout:
                return QuestionReply(status="timeout")
        try:
            # The time spent queued behind another dialog counts: the model is told one timeout, not two.
            return self.channel.ask(request, max(0.0, timeout - (time.monotonic() - started)), stop)
        finally:
            self._turn.release()


# The user link asks (tools/user_link.py): the agent's link shows the dialog and emits the question's events.
TOOL = Tool("question", QuestionInput, QuestionResult, lambda ctx, args: ctx.user.ask(args), waits_for_user=always,
            asks_questions=True)
