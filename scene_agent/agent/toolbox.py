"""Running the tools for a planner: events with one id per call, errors as data, parallel calls.

Every call emits `tool_call_start` then `tool_call_result` or `tool_call_error` (same `id`, tool name,
arguments, duration). A model's mistakes (unknown tool, arguments that are not JSON or do not fit the
schema) and a tool that raises become an error observation; the run goes on. Each call runs with its own link
to the user (`Interaction.link`): the tools that wait for the user (visualize's pick, question) do the waiting
themselves, and the calls that wait are run one after another, the others in parallel. The tools, and which of
them wait or ask questions, are tools/registry.py's; the agent adds its part to two of them: its decision to
find's candidates, and visualize's viewer URL to the run's answer.
"""

from __future__ import annotations

import json
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel, ValidationError

from scene_agent.agent.control import RunControl
from scene_agent.agent.disambiguation import Decision, JsonModel, decide
from scene_agent.agent.events import EventSink, Message, ToolCallError, ToolCallStart, ToolError, tool_call_result
from scene_agent.agent.interaction import Interaction
from scene_agent.agent.results import FindCall
from scene_agent.errors import SceneAgentError, usage_error
from scene_agent.selection.result import SelectionResult
from scene_agent.tools.context import ToolContext
from scene_agent.tools.find import FindResult
from scene_agent.tools.registry import TOOLS
from scene_agent.tools.tool import Tool
from scene_agent.tools.visualize import VisOutput

MAX_PARALLEL = 4


@dataclass
class CallOutcome:
    """What one tool call came to: the typed result for planners, the observation (JSON) for models."""

    id: str
    tool_name: str
    args: dict[str, Any] | str
    ok: bool
    observation: dict[str, Any]
    value: BaseModel | None = None
    error: ToolError | None = None
    duration_ms: float = 0.0
    selection: SelectionResult | None = None
    decision: Decision | None = None


@dataclass
class ToolCall:
    """A call a planner wants made: tool name and arguments (a dict, or the JSON text a model sent)."""

    name: str
    arguments: dict[str, Any] | str = field(default_factory=dict)


class _CallFailedError(Exception):
    """A call that ends in a tool_call_error."""

    def __init__(self, code: str, message: str, status: str = "failed"):
        super().__init__(message)
        self.error = ToolError(code=code, message=message)
        self.status = status


def _parse_arguments(arguments: dict[str, Any] | str) -> dict[str, Any]:
    if isinstance(arguments, dict):
        return arguments
    text = arguments.strip() or "{}"
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _CallFailedError("invalid_arguments", f"the arguments are not valid JSON ({exc.msg} at position {exc.pos})") from None
    if not isinstance(parsed, dict):
        raise _CallFailedError("invalid_arguments", f"the arguments must be a JSON object, not {type(parsed).__name__}")
    return parsed


class Toolbox:
    """The tools as one planner turn sees them, bound to a scene, an event sink and the user's query."""

    def __init__(self, context: ToolContext, emit: EventSink, interaction: Interaction, *, query: str,
                 model: JsonModel | None = None, control: RunControl | None = None):
        self.context = context
        self.emit = emit
        self.interaction = interaction
        self.query = query
        self.model = model  # judges find's candidates when several are left; the rules decide without one
        self.control = control or RunControl()
        self.viewer_urls: list[str] = []

    def tool_names(self) -> list[str]:
        """The tools offered to a model: those that ask the user questions (`question`) only when the user may be asked."""
        return [name for name, tool in TOOLS.items() if not tool.asks_questions or self.interaction.questions_enabled]

    def schemas(self) -> list[dict[str, Any]]:
        """OpenAI function-calling entries for the offered tools."""
        return [TOOLS[name].openai_schema() for name in self.tool_names()]

    def say(self, text: str) -> None:
        """Tell the user something before the final answer."""
        self.emit(Message(text=text))

    def call(self, name: str, arguments: dict[str, Any] | str | None = None) -> CallOutcome:
        """Run one call in this thread (selections and questions wait here)."""
        return self._run(ToolCall(name, {} if arguments is None else arguments))

    def call_many(self, calls: list[ToolCall]) -> list[CallOutcome]:
        """Run one step's calls: the quick ones in parallel, the ones that wait for the user one after another.

        A tool that asks questions beside other calls is refused (`question_not_alone`): it must be asked on its own.
        """
        ids = [self._new_id() for _ in calls]
        if len(calls) > 1:
            outcomes: dict[int, CallOutcome] = {}
            for i, c in enumerate(calls):
                if (tool := TOOLS.get(c.name)) is not None and tool.asks_questions:
                    outcomes[i] = self._refuse(ids[i], c, f"{c.name}_not_alone",
                                               f"{c.name} must be called alone, not beside other tools; call it on its "
                                               "own in the next step")
            waiting = [i for i, c in enumerate(calls) if i not in outcomes and self._waits_for_user(c)]
            quick = [i for i in range(len(calls)) if i not in outcomes and i not in waiting]
            if quick:
                with ThreadPoolExecutor(max_workers=min(MAX_PARALLEL, len(quick)), thread_name_prefix="tool") as pool:
                    for i, outcome in zip(quick, pool.map(lambda i: self._run(calls[i], ids[i]), quick), strict=True):
                        outcomes[i] = outcome
            for i in waiting:
                outcomes[i] = self._run(calls[i], ids[i])
            return [outcomes[i] for i in range(len(calls))]
        return [self._run(calls[0], ids[0])] if calls else []

    @staticmethod
    def _new_id() -> str:
        return "call_" + uuid.uuid4().hex[:12]

    @staticmethod
    def _waits_for_user(call: ToolCall) -> bool:
        tool = TOOLS.get(call.name)
        try:
            return tool is not None and tool.waits(_parse_arguments(call.arguments))
        except _CallFailedError:
            return False

    def _refuse(self, call_id: str, call: ToolCall, code: str, message: str) -> CallOutcome:
        self.emit(ToolCallStart(id=call_id, tool_name=call.name, args=call.arguments))
        error = ToolError(code=code, message=message)
        self.emit(ToolCallError(id=call_id, tool_name=call.name, args=call.arguments, error=error, duration_ms=0.0))
        return CallOutcome(id=call_id, tool_name=call.name, args=call.arguments, ok=False,
                           observation={"error": code, "message": message}, error=error)

    @staticmethod
    def _prepare(call: ToolCall) -> None:
        """What the call will need loaded (Tool.prepare), before it is timed; a call that cannot be parsed is
        left to report its own error."""
        tool = TOOLS.get(call.name)
        if tool is None:
            return
        try:
            parsed = tool.parse(_parse_arguments(call.arguments))
        except (_CallFailedError, ValidationError):
            return
        tool.prepare(parsed)

    def _run(self, call: ToolCall, call_id: str | None = None) -> CallOutcome:
        call_id = call_id or self._new_id()
        self.emit(ToolCallStart(id=call_id, tool_name=call.name, args=call.arguments))
        self._prepare(call)
        started = time.perf_counter()
        try:
            if self.control.stopped.is_set():
                raise _CallFailedError("run_stopped", f"the run was stopped ({self.control.reason})", "cancelled")
            outcome = self._execute(call_id, call)
        except _CallFailedError as exc:
            outcome = CallOutcome(id=call_id, tool_name=call.name, args=call.arguments, ok=False,
                                  observation={"error": exc.error.code, "message": exc.error.message}, error=exc.error)
            outcome.duration_ms = round((time.perf_counter() - started) * 1000, 2)
            self.emit(ToolCallError(id=call_id, tool_name=call.name, args=call.arguments, error=exc.error,
                                    status=exc.status, duration_ms=outcome.duration_ms))
            return outcome
        outcome.duration_ms = round((time.perf_counter() - started) * 1000, 2)
        assert outcome.value is not None  # a call that did not fail has its result
        self.emit(tool_call_result(call_id, call.name, call.arguments, outcome.value, outcome.duration_ms))
        return outcome

    def _execute(self, call_id: str, call: ToolCall) -> CallOutcome:
        tool = TOOLS.get(call.name)
        # `question` stays callable when it is not offered: "don't ask me" answers cancelled:true.
        if tool is None:
            offered = ", ".join(self.tool_names())
            raise _CallFailedError("unknown_tool", f"there is no tool '{call.name}'; the tools are: {offered}")
        arguments = _parse_arguments(call.arguments)
        try:
            parsed = tool.parse(arguments)
        except ValidationError as exc:
            raise _CallFailedError("invalid_arguments", f"{call.name}: {usage_error(exc).message}") from None
        try:
            value, decision = self._invoke(call_id, tool, parsed)
        except SceneAgentError as exc:
            raise _CallFailedError(exc.code, exc.message, "timeout" if exc.code.endswith("timeout") else "failed") from None
        except Exception as exc:  # noqa: BLE001 - a tool's bug is an observation too; the run goes on
            raise _CallFailedError("tool_failed", f"{call.name} failed: {type(exc).__name__}: {exc}") from None
        result = FindCall.model_validate({**dict(value), "disambiguation": decision}) if isinstance(value, FindResult) else value
        observation = result.model_dump(mode="json", exclude_none=True)
        return CallOutcome(id=call_id, tool_name=call.name, args=call.arguments, ok=True, observation=observation,
                           value=result, selection=value.selection if isinstance(value, VisOutput) else None,
                           decision=decision)

    def _invoke(self, call_id: str, tool: Tool, parsed: BaseModel) -> tuple[BaseModel, Decision | None]:
        """What the tool returned, and the agent's part: its decision when find leaves several candidates."""
        context = replace(self.context, user=self.interaction.link(call_id, self.control))
        value = tool.run(context, parsed)
        if not isinstance(value, tool.result_model):
            raise TypeError(f"{tool.name} returned a {type(value).__name__}, not a {tool.result_model.__name__}")
        if isinstance(value, VisOutput) and value.viewer_url:
            self.viewer_urls.append(value.viewer_url)
        if isinstance(value, FindResult) and len(value.candidates) > 1:
            return value, decide(self.query, value.candidates, self.model, value, self.context.lang)
        return value, None
