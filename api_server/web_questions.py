"""Questions asked in the web chat: a `QuestionChannel` whose answers arrive over HTTP.

The run registers a question as soon as its `question` event is emitted (before any browser can
see it), so an answer that arrives before the agent starts waiting is kept, not refused. The agent's
`ask()` then waits for the answer, a cancel, its timeout, or the run's stop — whichever comes first
ends the question, and every later answer gets 409.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from scene_agent.errors import ConflictError, NotFoundError, UnprocessableError
from scene_agent.tools.question import QuestionAnswer, QuestionItem, QuestionReply, QuestionRequest

ENDED_KEPT_S = 600.0  # how long an ended question still answers 409 rather than 404
MAX_TEXT = 2000

QuestionState = Literal["pending", "answered", "cancelled", "timeout"]


MAX_INDEX = 999  # far beyond any batch or option list; bounds what a body may say


class AnswerGiven(BaseModel):
    """The user's answer to one question of the batch, as the web dialog sends it."""

    question_index: int = Field(ge=0, le=MAX_INDEX, description="Index of the question in the batch, from 0.")
    selected: list[Annotated[int, Field(ge=0, le=MAX_INDEX)]] = Field(default_factory=list, max_length=50,
                                                                      description="Indexes of the chosen options.")
    text: str | None = Field(default=None, max_length=MAX_TEXT, description="An answer in the user's own words.")


@dataclass
class _Pending:
    items: list[QuestionItem]
    state: QuestionState = "pending"
    reply: QuestionReply | None = None
    ended_at: float | None = None
    done: threading.Event = field(default_factory=threading.Event)


class QuestionNotFoundError(NotFoundError):
    """No question with this id (never asked here, or ended long ago)."""

    code = "question_not_found"


class QuestionEndedError(ConflictError):
    """The question was already answered, cancelled, or timed out."""

    code = "question_ended"


class InvalidAnswerError(UnprocessableError):
    """The answers do not fit the questions."""

    code = "invalid_answer"


def build_answers(items: list[QuestionItem], given: list[AnswerGiven], *, complete: bool) -> list[QuestionAnswer]:
    """The answers in the tool's form; InvalidAnswerError naming the question and what is wrong."""
    answers: dict[int, QuestionAnswer] = {}
    for answer in given:
        index = answer.question_index
        if index >= len(items):
            raise InvalidAnswerError(f"question_index {index}: there are only {len(items)} question(s)")
        if index in answers:
            raise InvalidAnswerError(f"question_index {index}: answered twice")
        answers[index] = _answer(index, items[index], answer)
    if complete:
        missing = [str(i) for i in range(len(items)) if i not in answers]
        if missing:
            raise InvalidAnswerError(f"no answer for question(s) {', '.join(missing)}; answer each, or cancel")
    return [answers[i] for i in sorted(answers)]


def _answer(index: int, item: QuestionItem, given: AnswerGiven) -> QuestionAnswer:
    where = f"question {index} ({item.header})"
    options = item.options or []
    text = (given.text or "").strip()
    selected = list(dict.fromkeys(given.selected))
    if any(i >= len(options) for i in selected):
        raise InvalidAnswerError(f"{where}: option index out of range (it has {len(options)} option(s))")
    if len(selected) > 1 and not item.multiple:
        raise InvalidAnswerError(f"{where}: choose one option, not {len(selected)}")
    if text and not item.allow_free_text:
        raise InvalidAnswerError(f"{where}: choose among the options; it takes no answer in your own words")
    if not selected and not text:
        raise InvalidAnswerError(f"{where}: choose an option{' or write an answer' if item.allow_free_text else ''}")
    chosen = [options[i] for i in selected]
    if item.multiple:
        return QuestionAnswer(question_index=index, header=item.header, answer=chosen + ([text] if text else []),
                              selected=selected, free_text=bool(text))
    if selected and text:
        raise InvalidAnswerError(f"{where}: give an option or your own words, not both")
    if selected:
        return QuestionAnswer(question_index=index, header=item.header, answer=chosen[0], selected=selected)
    return QuestionAnswer(question_index=index, header=item.header, answer=text, free_text=True)


class WebQuestions:
    """The web chat's question channel, shared by every conversation of one server."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._questions: dict[str, _Pending] = {}

    def register(self, question_id: str, items: list[QuestionItem]) -> None:
        """Expect answers for this question from now on (called when its event is emitted)."""
        with self._lock:
            self._sweep()
            self._questions.setdefault(question_id, _Pending(items=list(items)))

    def ask(self, request: QuestionRequest, timeout: float, stop: threading.Event) -> QuestionReply:
        """Block until the browser answers or cancels, `timeout` passes, or `stop` is set."""
        self.register(request.question_id, request.questions)
        pending = self._questions[request.question_id]
        deadline = time.monotonic() + timeout
        while not pending.done.wait(timeout=min(0.1, max(0.0, deadline - time.monotonic()))):
            if stop.is_set():
                self._end(request.question_id, "cancelled", QuestionReply(status="cancelled"), by_user=False)
            elif time.monotonic() >= deadline:
                self._end(request.question_id, "timeout", QuestionReply(status="timeout"), by_user=False)
        assert pending.reply is not None
        return pending.reply

    def answer(self, question_id: str, given: list[AnswerGiven]) -> QuestionReply:
        """The browser's answers: every question answered, each fitting its options."""
        pending = self._get(question_id)
        reply = QuestionReply(status="answered", answers=build_answers(pending.items, given, complete=True))
        return self._end(question_id, "answered", reply, by_user=True)

    def cancel(self, question_id: str, given: list[AnswerGiven]) -> QuestionReply:
        """The user closed the dialog; the answers given so far are kept."""
        pending = self._get(question_id)
        reply = QuestionReply(status="cancelled", answers=build_answers(pending.items, given, complete=False))
        return self._end(question_id, "cancelled", reply, by_user=True)

    def state(self, question_id: str) -> QuestionState:
        """pending | answered | cancelled | timeout."""
        return self._get(question_id, pending_only=False).state

    def _get(self, question_id: str, pending_only: bool = True) -> _Pending:
        with self._lock:
            pending = self._questions.get(question_id)
        if pending is None:
            raise QuestionNotFoundError(f"no question '{question_id}' is waiting for an answer here")
        if pending_only and pending.state != "pending":
            raise QuestionEndedError(f"question {question_id} already ended ({pending.state})")
        return pending

    def _end(self, question_id: str, state: QuestionState, reply: QuestionReply, *, by_user: bool) -> QuestionReply:
        """The first ending wins; a user's answer that lost the race gets 409, the agent's own ending the winner's reply."""
        with self._lock:
            pending = self._questions[question_id]
            if pending.state != "pending":
                if by_user:
                    raise QuestionEndedError(f"question {question_id} already ended ({pending.state})")
                assert pending.reply is not None
                return pending.reply
            pending.state, pending.reply, pending.ended_at = state, reply, time.monotonic()
            pending.done.set()
            return reply

    def _sweep(self) -> None:
        now = time.monotonic()
        for qid in [q for q, p in self._questions.items() if p.ended_at is not None and now - p.ended_at > ENDED_KEPT_S]:
            del self._questions[qid]
