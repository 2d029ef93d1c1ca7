"""MCP tools whose input schema is one of our pydantic models, field for field, written once.

The SDK derives a tool's input schema from its function's parameters (a pydantic-model parameter would be
nested under its own name). So each tool is a function whose signature is generated from the model's fields,
with their descriptions and constraints. That signature gives the schema only: the SDK is told to pass the
arguments through as sent (`_AsSent`), and the model validates them itself (its own validators included), so a
mistake becomes a tool error of one sentence naming the field, and an argument the tool does not take is refused
with the names it does take (the SDK would drop it silently). The output schema is the result model's.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp_types import CallToolResult, InputRequiredResult, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from scene_agent.errors import SceneAgentError, usage_error

In = TypeVar("In", bound=BaseModel)
Handler = Callable[[Context, In], Awaitable[CallToolResult | InputRequiredResult]]


def _annotated(base: Any, *metadata: Any) -> Any:
    """`Annotated[base, *metadata]`, built at run time."""
    return Annotated[(base, *metadata)]


def _parameter(name: str, model: type[BaseModel]) -> inspect.Parameter:
    """The model's field as a keyword parameter: its type, constraints and description; its default."""
    info = model.model_fields[name]
    annotation = _annotated(info.annotation, *info.metadata, Field(description=info.description))
    default = inspect.Parameter.empty if info.is_required() else info.get_default(call_default_factory=True)
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)


class _AsSent(ArgModelBase):
    """The arguments as the host sent them, for the tool's own model to validate."""

    model_config = ConfigDict(extra="allow")

    def model_dump_one_level(self) -> dict[str, Any]:
        return dict(self.__pydantic_extra__ or {})


def invalid_arguments(name: str, input_model: type[BaseModel], arguments: dict[str, Any],
                      exc: ValidationError | None = None) -> str:
    """One sentence on what is wrong with a call's arguments: the unknown ones (and the known), else each bad field."""
    unknown = sorted(set(arguments) - set(input_model.model_fields))
    if unknown:
        known = ", ".join(input_model.model_fields)
        return (f"{name} takes no argument {', '.join(repr(u) for u in unknown)}; its arguments are {known}")
    assert exc is not None
    return f"bad arguments for {name}: {usage_error(exc).message}"


def mcp_tool(name: str, description: str, input_model: type[In], output_model: type[BaseModel], handler: Handler[In], *,
             input_required: bool = False, read_only: bool = False, meta: dict[str, Any] | None = None) -> Tool:
    """Tool `name`: arguments as `input_model`'s fields, result as `output_model` (structured content).

    `input_required`: the tool may answer 2026-07-28 clients with an input_required result (a pick to make).
    `meta`: the tool's `_meta` (the UI it shows, mcp_server/app_view.py).
    `read_only`: a call only reads the scene; the tool's annotations say so, so that a host may run it without asking
    the user first. Every tool works on the local scene alone (not an open world) and destroys nothing.
    """

    async def call(ctx: Context, **arguments: Any) -> CallToolResult | InputRequiredResult:
        if set(arguments) - set(input_model.model_fields):
            raise ToolError(invalid_arguments(name, input_model, arguments))
        try:
            parsed = input_model.model_validate(arguments)
        except ValidationError as exc:
            raise ToolError(invalid_arguments(name, input_model, arguments, exc)) from None
        try:
            return await handler(ctx, parsed)
        except SceneAgentError as exc:  # expected failures (unknown code, the broker away): said, not a crash
            raise ToolError(exc.message) from None

    returns: Any = Annotated[CallToolResult, output_model]
    if input_required:
        returns = returns | InputRequiredResult
    parameters = [inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=Context)]
    parameters += [_parameter(field, input_model) for field in input_model.model_fields]
    call.__signature__ = inspect.Signature(parameters, return_annotation=returns)  # type: ignore[attr-defined]
    call.__name__ = name
    annotations = ToolAnnotations(read_only_hint=read_only, destructive_hint=False, idempotent_hint=read_only,
                                  open_world_hint=False)
    tool = Tool.from_function(call, name=name, description=" ".join(description.split()), annotations=annotations,
                              meta=meta)
    tool.fn_metadata.arg_model = _AsSent  # the schema stays the signature's; the model validates (above)
    return tool
