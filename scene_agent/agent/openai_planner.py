"""The OpenAI planner: a function-calling loop in which a chat model calls the scene tools until it answers.

Each step sends the conversation and the tool schemas; the model's tool calls run through the toolbox
(parallel, errors as observations, selections and questions waited for), their observations go back as
`tool` messages, and the model's first reply without tool calls is the answer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from scene_agent.agent.events import FinalStatus
from scene_agent.agent.llm import ChatModel, ModelTurn
from scene_agent.agent.planner import Exchange, Reply, Turn
from scene_agent.agent.toolbox import CallOutcome, Toolbox, ToolCall
from scene_agent.config import ModelSettings
from scene_agent.scene.loader import Scene
from scene_agent.tools.find import FindResult
from scene_agent.tools.visualize import VisOutput

DEFAULT_MAX_STEPS = 12
MAX_OBSERVATION_CHARS = 16_000  # a find over a big scene can list hundreds of candidates
MAX_ROOMS_LISTED = 60
MAX_LABELS_LISTED = 40

RULES = """\
Rules:
1. Call find first to turn the user's words into codes (also for a code the user typed: find checks it). Give it the colour, size and place words that say which one: in `color` ("red", "navy", "dark"), `size` ({"measure": "height", "extreme": "max"} for "the tallest") and `relation` ({"relation": "near", "reference": "the sofa"} for "next to the sofa"), or leave them in the query (find reads them there too). A follow-up that picks among the last candidates ("the red one", "the second one", "both") is a find with `within` = those codes in the order they were listed. Never measure the reference of a place word ("the sofa" above) instead of the thing described. "What is on / next to / under X?" asks what is there: find "things on X" (or "things next to X" …), and list every candidate it returns with its room, without asking the user to pick; when it returns none, its message says so ("Nothing is on the coffee table (0-2-4).").
2. If find's result has disambiguation.needs_selection = true, do not guess: call visualize with selection_mode=true, \
codes = the candidates' codes, prompt = disambiguation.prompt and multiple = disambiguation.multiple. It waits for the \
user's pick; then use only the codes in its selection.codes.
3. If the selection's status is cancelled, timeout or invalid, measure nothing: say the user did not pick (cancelled \
or timed out). You may say what holds for all candidates (e.g. that they are all in the kitchen).
4. If needs_selection is false with several candidates, act on all of them (act_on = "all") or on the codes the user \
named (act_on = "named").
5. "show / display / visualize / let me see" -> visualize view-only (selection_mode=false) and give the viewer URL.
6. Colour -> color; volume, "how big" -> volume; a height, width, length or depth, the dimensions, a floor area, \
"how far is X from Y", "will X fit through the door" -> measure (find each of the two things first); "is X bigger \
(taller …) than Y", "which is bigger, X or Y", "compare X and Y" -> find each of the two on its own, then volume for \
both, and say which is bigger with both figures. Calls that do not depend on each other go in one step, in parallel.
7. If find returns no candidates, say so with its message and suggestions; never invent codes.
8. Answer in the language of the user's question (a Chinese question gets a Chinese answer), briefly, naming the codes you used (e.g. "chair 0-1-2 is mostly red"); when the \
query named a floor, say which floor you used."""

QUESTION_RULE = ("9. Use question only for clarifications that are not about which room/object (e.g. units, what "
                 "to compare); call it alone. If it is cancelled, decide yourself and say what you assumed.")


def scene_overview(scene: Scene) -> str:
    """The scene in a few lines: id, name, counts, floors with their rooms, object labels."""
    index = scene.index
    floors, rooms, objects = index.counts
    lines = [f'Scene "{scene.scene_id}" ({scene.manifest.name}): {floors} floors, {rooms} rooms, {objects} objects; '
             f"units {scene.manifest.units}. Rooms by floor, as: code type \"name\" (number of objects)."]
    listed = 0
    for floor in scene.manifest.floors:
        head = f"- floor {floor.code}" + (f' "{floor.name}"' if floor.name else "") + ": "
        if listed >= MAX_ROOMS_LISTED:
            lines.append(f"{head}{len(floor.rooms)} rooms (use find to list them)")
            continue
        shown = floor.rooms[:MAX_ROOMS_LISTED - listed]
        listed += len(shown)
        parts = []
        for room in shown:
            kind = index.rooms[room.code].type.replace("_", " ")
            name = f' "{room.name}"' if room.name and room.name.lower() != kind else ""
            parts.append(f"{room.code} {kind}{name} ({len(room.objects)})")
        more = f", and {len(floor.rooms) - len(shown)} more rooms" if len(shown) < len(floor.rooms) else ""
        lines.append(head + ", ".join(parts) + more)
    labels = index.labels()
    more = f", … ({len(labels) - MAX_LABELS_LISTED} more)" if len(labels) > MAX_LABELS_LISTED else ""
    lines.append("Object labels: " + ", ".join(labels[:MAX_LABELS_LISTED]) + more + ".")
    return "\n".join(lines)


def system_prompt(scene: Scene, tool_names: list[str]) -> str:
    """What the model is told before the conversation: the scene, the codes, the tools and the rules."""
    tools = ", ".join(tool_names)
    parts = [
        "You answer questions about a scanned 3D building, organised as floors -> rooms -> objects, by calling tools. "
        "Everything you say about the scene comes from tool results.",
        scene_overview(scene),
        "Codes: floor \"F\", room \"F-R\", object \"F-R-O\" (e.g. 0, 0-2, 0-2-3); an object's code starts with its "
        "room's code. Floors are 0-based: \"ground floor\" and \"first floor\" mean floor 0 unless the floor names say "
        "otherwise; \"floor N\" is the floor with code N.",
        f"Tools: {tools}. find gives candidates (code, kind, label or room type, room, floor, bounds, measured colour "
        "and size), the `steps` by which colour, size and place words narrowed them, and, when several "
        "match, a `disambiguation`; visualize opens the point-cloud viewer (view-only, or selection_mode to let the user "
        "pick); color gives the dominant colours; volume gives the volume in m³ and box dimensions; measure gives distances, "
        "dimensions, floor areas and whether an object fits through a door or window, in metres.",
        RULES + ("\n" + QUESTION_RULE if "question" in tool_names else ""),
    ]
    return "\n\n".join(parts)


def history_messages(history: tuple[Exchange, ...]) -> list[dict[str, Any]]:
    """Earlier turns as user/assistant pairs; what was asked (questions, picks) rides along with the answer."""
    messages: list[dict[str, Any]] = []
    for exchange in history:
        asked = [f"(asked: {record.line()})" for record in exchange.asked]
        messages.append({"role": "user", "content": exchange.query})
        messages.append({"role": "assistant", "content": "\n".join([exchange.answer, *asked])})
    return messages


def _compact_candidates(observation: dict[str, Any], keep: int | None) -> dict[str, Any]:
    fields = ("code", "kind", "label", "type", "name", "room", "floor")
    candidates = observation["candidates"]
    compact = [{k: c[k] for k in fields if c.get(k) is not None} for c in candidates[:keep]]
    # The reading in full goes too: its note and the unused words say what matters of it.
    result = {k: v for k, v in observation.items() if k not in ("reading", "used_words")} | {"candidates": compact}
    if keep is not None and len(candidates) > keep:
        result["candidates_omitted"] = len(candidates) - keep
        result["all_codes"] = [c["code"] for c in candidates]
    return result


def observation_text(observation: dict[str, Any], limit: int = MAX_OBSERVATION_CHARS) -> str:
    """An observation as JSON for a `tool` message, made smaller when huge (find's candidates lose their bounds first)."""
    text = json.dumps(observation, ensure_ascii=False)
    if len(text) <= limit:
        return text
    if isinstance(observation.get("candidates"), list):
        for keep in (None, 200, 50, 10):
            text = json.dumps(_compact_candidates(observation, keep), ensure_ascii=False)
            if len(text) <= limit:
                return text
    note = f'… (truncated: {len(text) - limit} more characters)'
    return text[:limit - len(note)] + note


@dataclass
class _Tally:
    """What the calls of a run came to, for the reply's status and codes."""

    codes: list[str] = field(default_factory=list)
    finds: int = 0
    empty_finds: int = 0
    other_successes: int = 0
    selection_status: str | None = None  # the last selection's, until something is measured after it

    def add(self, outcome: CallOutcome) -> None:
        if outcome.tool_name == "find" and outcome.ok and isinstance(outcome.value, FindResult):
            self.finds += 1
            self.empty_finds += not outcome.value.candidates
            return
        if not outcome.ok:
            return
        self.other_successes += 1
        if outcome.selection is not None:
            self.selection_status = outcome.selection.status
            self._add_codes(outcome.selection.codes)
        elif isinstance(outcome.value, VisOutput):
            self._add_codes(outcome.value.objects or [])
        elif isinstance(code := outcome.observation.get("code"), str):  # a measurement: of `code` (and `to`)
            self.selection_status = None
            other = outcome.observation.get("to")
            self._add_codes([code, other] if isinstance(other, str) else [code])

    def _add_codes(self, codes: list[str]) -> None:
        self.codes += [c for c in codes if c not in self.codes]

    def status(self) -> FinalStatus:
        if self.selection_status == "timeout":
            return "timeout"
        if self.selection_status in ("cancelled", "invalid"):
            return "cancelled"
        if self.finds and self.empty_finds == self.finds and not self.other_successes:
            return "not_found"
        return "answered"


class OpenAIPlanner:
    """Plans with a chat model on any OpenAI-compatible server: the model calls the tools and words the answer."""

    name = "openai"

    def __init__(self, settings: ModelSettings, *, max_steps: int = DEFAULT_MAX_STEPS, model: ChatModel | None = None):
        self.settings = settings
        self.max_steps = max_steps
        self.model = model or ChatModel(settings)

    def decide_model(self) -> ChatModel:
        """The same model decides whether to ask the user to pick (the offline rules are its fallback)."""
        return self.model

    def run(self, turn: Turn, toolbox: Toolbox) -> Reply:
        """Call the model, run the tools it asks for, repeat until it answers; ModelError propagates."""
        tools = toolbox.schemas()
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system_prompt(toolbox.context.scene, toolbox.tool_names())},
            *history_messages(turn.history),
            {"role": "user", "content": turn.query},
        ]
        tally = _Tally()
        for _ in range(self.max_steps):
            if toolbox.control.stopped.is_set():
                return Reply(status="cancelled", answer=f"The run was {toolbox.control.reason or 'stopped'}.",
                             codes=tuple(tally.codes))
            step = self.model.complete(messages, tools)
            if not step.tool_calls:
                return self._answer(step, tally)
            if step.content and step.content.strip():
                toolbox.say(step.content.strip())
            outcomes = toolbox.call_many([ToolCall(c.name, c.arguments_text) for c in step.tool_calls])
            messages.append(_assistant_message(step))
            for model_call, outcome in zip(step.tool_calls, outcomes, strict=True):
                tally.add(outcome)
                messages.append({"role": "tool", "tool_call_id": model_call.id,
                                 "content": observation_text(outcome.observation)})
        return Reply(status="error", codes=tuple(tally.codes),
                     answer=f"I stopped after {self.max_steps} steps without an answer (the step limit was hit); "
                            "try a simpler or more specific question.")

    def _answer(self, step: ModelTurn, tally: _Tally) -> Reply:
        answer = (step.content or "").strip()
        if not answer:
            why = f" (finish reason: {step.finish_reason})" if step.finish_reason else ""
            return Reply(status="error", answer=f"The model ended without an answer{why}.", codes=tuple(tally.codes))
        return Reply(status=tally.status(), answer=answer, codes=tuple(tally.codes))


def _assistant_message(step: ModelTurn) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "tool_calls": [
        {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments_text}}
        for c in step.tool_calls]}
    if step.content:  # content may be left out beside tool_calls; some servers reject an empty string
        message["content"] = step.content
    return message
