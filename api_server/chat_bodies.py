"""Request and response bodies of the web chat (pydantic): validated on the way in, documented in OpenAPI."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from api_server.camera import Camera
from api_server.web_questions import AnswerGiven
from scene_agent.agent.events import Final
from scene_agent.agent.records import AskedRecord
from scene_agent.selection.session import SESSION_ID_RE
from scene_agent.tools.question import QuestionAnswer

ID_PATTERN = SESSION_ID_RE.pattern  # conversations, runs and questions have ids like sessions: 32 lowercase hex
MAX_MESSAGE = 4000


class ChatRequest(BaseModel):
    """A message to the agent: a new conversation, or the next turn of one."""

    # strict: `"answers_pick": 0` is refused, not read as false
    model_config = ConfigDict(extra="forbid", strict=True)

    message: str = Field(min_length=1, max_length=MAX_MESSAGE, description="What the user asks, in their words.",
                         json_schema_extra={"pattern": r"\S"})  # not blank: checked below, with a message of our own
    conversation_id: str | None = Field(default=None, pattern=ID_PATTERN,
                                        description="Leave out to start a conversation; send it back for later turns.")
    lang: Literal["en", "zh"] | None = Field(default=None, description="The page's language: the answer's language "
                                                                       "when the message does not show its own.")
    answers_pick: bool = Field(default=False, description="The message answers the pick the run waits for: refused "
                                                          "(409) when no pick waits, instead of starting a run.")
    camera: Camera | None = Field(default=None, description="The viewer's camera when the message was sent: left "
                                                            "and right in the message mean left and right on the "
                                                            "screen. Left out, they are read without a viewpoint.")

    @field_validator("message")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must not be blank")
        return v


class ChatStarted(BaseModel):
    """The run answering the message; read its events from `events_url`."""

    run_id: str
    conversation_id: str
    events_url: str


class PickAnswered(BaseModel):
    """The message answered the pick the conversation's run was waiting for, as a Confirm (or Cancel) would."""

    conversation_id: str
    run_id: str
    session_id: str
    status: Literal["confirmed", "cancelled"]
    codes: list[str]
    said: str
    message: str = Field(description="What was understood, for people.")


class RunState(BaseModel):
    """A run: running, or finished with its final event."""

    run_id: str
    conversation_id: str
    message: str
    status: Literal["running", "finished"]
    events: int = Field(description="How many events so far (the last event id).")
    final: Final | None = Field(default=None, description="The `final` event once finished.")


class QuestionAnswers(BaseModel):
    """The answers the user gave in a question dialog (for a cancel: the ones given so far, possibly none)."""

    model_config = ConfigDict(extra="forbid")

    answers: list[AnswerGiven] = Field(default_factory=list, max_length=20)


class QuestionOutcome(BaseModel):
    """How the question ended, and the answers as the agent receives them."""

    question_id: str
    status: Literal["answered", "cancelled"]
    answers: list[QuestionAnswer]


class Turn(BaseModel):
    """One finished turn of a conversation."""

    query: str
    answer: str
    status: str
    codes: list[str]


class ConversationState(BaseModel):
    """A conversation: its turns, what was asked in it, and the run answering now."""

    conversation_id: str
    turns: list[Turn]
    asked: list[AskedRecord]
    running: str | None = Field(default=None, description="The id of the run answering now, if any.")
