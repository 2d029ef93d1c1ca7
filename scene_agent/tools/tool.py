"""`Tool`: what a tool module declares about its tool, so that one line in registry.py offers it everywhere.

A module's `TOOL` names the tool, its input model (whose JSON schema is the function schema a model sees, and
whose docstring the description starts with), its result model (with `human_summary()`, the one line the CLI
cards, the web page and MCP show of any tool they do not know), how to run it, and whether a call waits for the
user. The agent's toolbox, the run events, the MCP server and the front ends read everything else from it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pydantic import BaseModel

if TYPE_CHECKING:
    from scene_agent.tools.context import ToolContext
    from scene_agent.tools.summary import Summary

# tools/context.py imports the tools that wait on the user (through user_link.py): named here as text, not imported
Runner = Callable[["ToolContext", Any], BaseModel]
WaitRule = Callable[[dict[str, Any]], bool]


@runtime_checkable
class Summarized(Protocol):
    """A result that says itself in one line for people."""

    def human_summary(self) -> Summary:
        """The result in one line, in English and Chinese."""
        ...


def always(arguments: dict[str, Any]) -> bool:
    """A `waits_for_user` rule: every call waits."""
    return True


def _nothing_to_prepare(parsed: Any) -> None:
    return None


@dataclass(frozen=True)
class Tool:
    """One tool: what the model sees (name, description, parameters), what it returns, and what runs it.

    `run(context, parsed input)` returns an instance of `result_model`. `waits_for_user(arguments)`, when given,
    says whether a call waits for the user (a pick): such calls run one after another, never in parallel, and over
    MCP in a job of their own whose pick the host is asked for. `asks_questions`: the tool puts questions to the
    user, so it is offered only when the user may be asked, must be called alone in its step, and is not served
    over MCP (the host's model asks its own). `prepare(parsed input)` loads what a call will need the first time
    (a library imported on first use), before the call is timed: the duration on its card is the tool's own work.
    `returns` tells the model what the result holds; `aliases` are other names the CLI accepts. `read_only`: a call
    only reads the scene (no view opened, nothing stored, nobody asked), so a host may run it without asking first.
    """

    name: str
    input_model: type[BaseModel]
    result_model: type[BaseModel]
    run: Runner
    returns: str = ""
    aliases: tuple[str, ...] = ()
    waits_for_user: WaitRule | None = None
    asks_questions: bool = False
    read_only: bool = False
    prepare: Callable[[Any], None] = _nothing_to_prepare

    def __post_init__(self) -> None:
        if not callable(getattr(self.result_model, "human_summary", None)):
            raise TypeError(f"tool {self.name}: its result model {self.result_model.__name__} has no human_summary()")

    @property
    def description(self) -> str:
        """The input model's docstring in one line, then what the result holds."""
        said = " ".join((self.input_model.__doc__ or "").split())
        return f"{said} {self.returns}" if self.returns else said

    @property
    def may_wait(self) -> bool:
        """Whether some call of this tool waits for the user."""
        return self.waits_for_user is not None

    def waits(self, arguments: dict[str, Any]) -> bool:
        """Whether a call with these arguments waits for the user."""
        return self.waits_for_user is not None and self.waits_for_user(arguments)

    def parse(self, arguments: dict[str, Any]) -> BaseModel:
        """Validated input; pydantic ValidationError names what is wrong."""
        return self.input_model.model_validate(arguments)

    def openai_schema(self) -> dict[str, Any]:
        """The OpenAI function-calling entry for this tool."""
        return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                 "parameters": parameters_schema(self.input_model)}}


def parameters_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema with every $ref inlined and titles dropped: some OpenAI-compatible servers reject $defs."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                target = copy.deepcopy(defs[node["$ref"].rsplit("/", 1)[-1]])
                return inline({**target, **{k: v for k, v in node.items() if k != "$ref"}})
            return {k: inline(v) for k, v in node.items() if k != "title"}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    inlined: dict[str, Any] = inline(schema)
    inlined.pop("description", None)  # the tool's description says it once
    return inlined
