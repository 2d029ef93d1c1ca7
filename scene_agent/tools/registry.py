"""The one list of tools the agent can call: name, CLI aliases, input model (its JSON schema is the function schema), runner."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from scene_agent.tools.color import ColorInput, color
from scene_agent.tools.context import ToolContext
from scene_agent.tools.find import FindInput, find
from scene_agent.tools.question import QuestionInput
from scene_agent.tools.visualize import VisualizeInput, visualize
from scene_agent.tools.volume import VolumeInput, prepare_volume, volume

Runner = Callable[[ToolContext, Any], BaseModel]


@dataclass(frozen=True)
class ToolSpec:
    """One tool: what the model sees (name, description, parameters) and what runs it.

    `waits_for_user(arguments)` says whether a call waits for the user (a pick, a question): such calls run one
    after another, never in parallel. `prepare(parsed input)` loads what a call will need the first time (a library
    imported on first use), before the call is timed: the duration on its card is the tool's own work.
    """

    name: str
    aliases: tuple[str, ...]
    input_model: type[BaseModel]
    description: str
    run: Runner
    waits_for_user: Callable[[dict[str, Any]], bool] = lambda arguments: False
    prepare: Callable[[Any], None] = lambda parsed: None

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


def _describe(model: type[BaseModel], extra: str = "") -> str:
    return " ".join((model.__doc__ or "").split()) + (f" {extra}" if extra else "")


TOOLS: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        ToolSpec("find", (), FindInput,
                 _describe(FindInput, "Returns candidates with code, kind, label or room type, room, floor, bounds and "
                                      "what was measured (colour, size, distance); `steps` say how colour, size and "
                                      "place words narrowed them; when several are left, `disambiguation` says whether "
                                      "to ask the user which one."),
                 lambda ctx, args: find(ctx.scene, args.query, color=args.color, size=args.size, relation=args.relation,
                                        within=args.within, lang=ctx.lang, viewpoint=ctx.viewpoint)),
        ToolSpec("visualize", ("vis",), VisualizeInput,
                 _describe(VisualizeInput, "View-only returns the viewer URL at once. With selection_mode it waits "
                                           "for the user's pick and returns it under `selection`."),
                 visualize, waits_for_user=lambda arguments: bool(arguments.get("selection_mode"))),
        ToolSpec("color", ("clr",), ColorInput, _describe(ColorInput, "Returns named colour clusters and the dominant colour."),
                 lambda ctx, args: color(ctx.scene, args.code, ctx.lang)),
        ToolSpec("volume", ("vol",), VolumeInput,
                 _describe(VolumeInput, "Returns the volume in m³ with its method, the oriented box (length × width × "
                                        "height) and, for rooms, floor area and height."),
                 lambda ctx, args: volume(ctx.scene, args.code), prepare=lambda args: prepare_volume(args.code)),
        ToolSpec("question", (), QuestionInput, _describe(QuestionInput), lambda ctx, args: ctx.user.ask(args),
                 waits_for_user=lambda arguments: True),
    )
}


def tool_named(name: str) -> ToolSpec | None:
    """The tool with this name or CLI alias (any case), or None."""
    key = name.strip().lower()
    return TOOLS.get(key) or next((s for s in TOOLS.values() if key in s.aliases), None)
