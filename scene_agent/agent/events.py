"""What an agent run tells the outside world as it happens: one small model per event, joined into one union.

Every event has a `type` and an ISO-8601 UTC timestamp `ts`. The three tool-call events of one call
share its `id` and all carry `tool_name` and `args`, so a UI can update one card per call even when
calls run concurrently. A `tool_call_result` carries the tool's typed result (one class per tool, made
from tools/registry.py, told apart by `tool_name`) and its one-line human summary in English and Chinese,
which the CLI cards and the web page show as they are.

`AgentEvent` is the union as code sees it: a sink gets one and dispatches on its class (`match event:`).
`agent_events()` is the same union as pydantic validates it and the OpenAPI document describes it.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import BaseModel, Field, TypeAdapter, create_model

from scene_agent.agent.results import carried
from scene_agent.model import Model
from scene_agent.selection.session import PickedItem
from scene_agent.tools.question import QuestionAnswer, QuestionItem
from scene_agent.tools.registry import TOOLS
from scene_agent.tools.summary import Summary
from scene_agent.tools.tool import Summarized

FinalStatus = Literal["answered", "not_found", "cancelled", "timeout", "error"]


def iso_now() -> str:
    """The current UTC time as ISO 8601 with milliseconds, e.g. '2026-11-23T10:00:00.123Z'."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class _Event(Model):
    ts: str = Field(default_factory=iso_now)


class ToolError(Model):
    """Why a tool call failed, as data: a stable code and a message for people and models."""

    code: str
    message: str


class ToolCallStart(_Event):
    """A tool call began."""

    type: Literal["tool_call_start"] = "tool_call_start"
    id: str
    tool_name: str
    args: dict[str, Any] | str = Field(description="The arguments as given; a string when they were not valid JSON.")


class ToolCallResult(_Event):
    """A tool call succeeded: what every tool's result event has. Each tool's own event (`FindCallResult`, …) is
    made from the registry by `result_event`, with `tool_name` fixed and `result` typed as its tool's result."""

    type: Literal["tool_call_result"] = "tool_call_result"
    id: str
    tool_name: str
    args: dict[str, Any] | str
    summary: Summary = Field(description="The result in one line for people, in English and Chinese.")
    duration_ms: float
    result: BaseModel


@functools.cache
def result_event(tool_name: str, result_model: type[BaseModel]) -> type[ToolCallResult]:
    """The `tool_call_result` event of one tool, named after it ('find' → FindCallResult: the OpenAPI document's name,
    and so the web page's)."""
    name = "".join(part.capitalize() for part in tool_name.split("_")) + "CallResult"
    tag: Any = Literal.__getitem__(tool_name)  # a Literal of a name known only at run time
    return create_model(name, __base__=ToolCallResult, __module__=__name__,
                        __doc__=f"A {tool_name} call succeeded: `result` is its {result_model.__name__}.",
                        tool_name=(tag, tool_name), result=(result_model, ...))


def _tool_results() -> tuple[tuple[str, type[BaseModel]], ...]:
    """The registered tools' names and the models their results travel in, in the registry's order."""
    return tuple((tool.name, carried(tool.result_model)) for tool in TOOLS.values())


def tool_call_result(call_id: str, tool_name: str, args: dict[str, Any] | str, result: BaseModel,
                     duration_ms: float) -> ToolCallResult:
    """The result event of one call of `tool_name`, its summary taken from the result."""
    if not isinstance(result, Summarized):
        raise TypeError(f"{tool_name}'s result {type(result).__name__} has no human_summary()")
    event_class = result_event(tool_name, carried(TOOLS[tool_name].result_model))
    return event_class.model_validate({"id": call_id, "tool_name": tool_name, "args": args, "result": result,
                                       "summary": result.human_summary(), "duration_ms": duration_ms})


class ToolCallError(_Event):
    """A tool call failed (bad arguments, unknown tool, the tool raised, timed out or was cancelled)."""

    type: Literal["tool_call_error"] = "tool_call_error"
    id: str
    tool_name: str
    args: dict[str, Any] | str
    error: ToolError
    status: Literal["failed", "timeout", "cancelled"] = "failed"
    duration_ms: float


class SelectionRequired(_Event):
    """The viewer was opened in selection mode; the run waits for the user's pick."""

    type: Literal["selection_required"] = "selection_required"
    tool_call_id: str
    session_id: str
    viewer_url: str
    timeout: float
    expires_at: str
    candidates: list[str]
    prompt: str
    multiple: bool
    channel: str | None = Field(default=None, description="Where the pick travels, for people: files on this machine, "
                                                          "or the Redis broker's URL (without its password).")


class SelectionExtended(_Event):
    """The user asked for more time to pick: the wait goes on until the new deadline."""

    type: Literal["selection_extended"] = "selection_extended"
    tool_call_id: str
    session_id: str
    expires_at: str
    timeout: float = Field(description="Seconds from the session's start to its new deadline.")


class SelectionReceived(_Event):
    """The user picked in the viewer and confirmed."""

    type: Literal["selection_received"] = "selection_received"
    tool_call_id: str
    session_id: str
    selections: list[PickedItem]
    codes: list[str]
    words: str | None = Field(default=None, description="What the user typed, when the pick was made in words.")


class SelectionTimeout(_Event):
    """Nobody picked before the session expired."""

    type: Literal["selection_timeout"] = "selection_timeout"
    tool_call_id: str
    session_id: str
    timeout: float


class SelectionCancelled(_Event):
    """The selection ended without a pick: cancelled in the viewer or by the caller, or its answer was invalid."""

    type: Literal["selection_cancelled"] = "selection_cancelled"
    tool_call_id: str
    session_id: str
    cancelled_by: Literal["viewer", "words", "host", "caller", "invalid"]
    reason: str | None = None


class Question(_Event):
    """The agent asks the user one or more questions (a batch is answered in one dialog)."""

    type: Literal["question"] = "question"
    tool_call_id: str
    question_id: str
    questions: list[QuestionItem]
    timeout: float


class QuestionAnswered(_Event):
    """A question ended: answered, cancelled (with partial answers), timed out, or nobody could be asked."""

    type: Literal["question_answered"] = "question_answered"
    tool_call_id: str
    question_id: str
    status: Literal["answered", "cancelled", "timeout", "no_ui"]
    answers: list[QuestionAnswer] = Field(default_factory=list)


class Message(_Event):
    """Something the agent says to the user before its final answer (e.g. where to pick)."""

    type: Literal["message"] = "message"
    text: str


class Final(_Event):
    """The run's outcome; always the last event."""

    type: Literal["final"] = "final"
    status: FinalStatus
    answer: str
    codes: list[str] = Field(default_factory=list)
    viewer_url: str | None = None


AgentEvent: TypeAlias = (
    ToolCallStart | ToolCallResult | ToolCallError | SelectionRequired | SelectionExtended | SelectionReceived
    | SelectionTimeout | SelectionCancelled | Question | QuestionAnswered | Message | Final
)
EventSink = Callable[[AgentEvent], None]


class EventLog:
    """One turn's events as they happen: kept in order, and each handed on to `sink` (when given) as it comes."""

    def __init__(self, sink: EventSink | None = None):
        self.events: list[AgentEvent] = []
        self._sink = sink

    def __call__(self, event: AgentEvent) -> None:
        self.events.append(event)
        if self._sink is not None:
            self._sink(event)


def agent_events() -> Any:
    """AgentEvent as pydantic reads and documents it: told apart by `type`, and a tool call's result by `tool_name`
    among the tools registered now (each with its typed `result`)."""
    return _event_union(_tool_results())


@functools.cache
def _event_union(tools: tuple[tuple[str, type[BaseModel]], ...]) -> Any:
    results = functools.reduce(operator.or_, (result_event(name, model) for name, model in tools))
    any_result = Annotated[results, Field(discriminator="tool_name")] if len(tools) > 1 else results
    events = functools.reduce(operator.or_, (ToolCallStart, any_result, ToolCallError, SelectionRequired,
                                             SelectionExtended, SelectionReceived, SelectionTimeout, SelectionCancelled,
                                             Question, QuestionAnswered, Message, Final))
    return Annotated[events, Field(discriminator="type")]


@functools.cache
def _adapter(tools: tuple[tuple[str, type[BaseModel]], ...]) -> TypeAdapter[Any]:
    return TypeAdapter(_event_union(tools))


def parse_event(data: dict[str, Any] | str | bytes) -> AgentEvent:
    """An event from its JSON (a dict or text); pydantic ValidationError when it is not one."""
    adapter = _adapter(_tool_results())
    event: AgentEvent = adapter.validate_json(data) if isinstance(data, (str, bytes)) else adapter.validate_python(data)
    return event


def event_json(event: AgentEvent) -> str:
    """One event as one line of JSON (NDJSON / SSE data)."""
    return event.model_dump_json(exclude_none=True)
