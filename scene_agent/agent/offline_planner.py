"""The offline planner: no model needed. It parses the query, finds the candidates, decides whether to ask, calls the tools.

`plan()` is the decision on its own (what kind of answer, which candidates, which to act on), so a
query suite can check it without running tools; `OfflinePlanner.run()` carries a plan out through
the toolbox and words the answer (see answers.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Literal

from scene_agent.agent import answers
from scene_agent.agent.disambiguation import Decision, rules_decision
from scene_agent.agent.intent import QueryIntent, parse_intent
from scene_agent.agent.planner import Exchange, Reply, Turn
from scene_agent.agent.toolbox import CallOutcome, Toolbox, ToolCall
from scene_agent.index import SceneIndex
from scene_agent.query import parse_query
from scene_agent.tools.find import Candidate, FindResult, find

PlanKind = Literal["ask_one", "ask_several", "act_on_all", "answer", "view", "not_found"]
MAX_ITEMS = 40  # measuring more at once is slow and no answer lists that many


@dataclass(frozen=True)
class Memory:
    """What a turn leaves for follow-ups ('and the other one?', 'what colour is it?')."""

    intent: QueryIntent
    candidates: tuple[Candidate, ...]
    codes: tuple[str, ...]


@dataclass(frozen=True)
class Plan:
    """The decision for one query, before any tool runs on the items."""

    kind: PlanKind
    intent: QueryIntent
    candidates: tuple[Candidate, ...] = ()
    targets: tuple[str, ...] = ()  # what to act on without asking (empty when asking)
    decision: Decision | None = None
    found: FindResult | None = None
    follow_up: bool = False
    notes: tuple[str, ...] = field(default=())

    @property
    def candidate_codes(self) -> tuple[str, ...]:
        """The candidates' codes, in scene order."""
        return tuple(c.code for c in self.candidates)


Finder = Callable[[str], tuple[FindResult, Decision | None]]


def _last_memory(history: tuple[Exchange, ...]) -> Memory | None:
    for exchange in reversed(history):
        if isinstance(exchange.memory, Memory):
            return exchange.memory
    return None


def _names_something(index: SceneIndex, target: str) -> bool:
    spec = parse_query(target, index) if target else None
    return bool(spec and (spec.codes or spec.object_labels or spec.room_types or spec.room_names or spec.floor is not None
                          or spec.generic or spec.unknown_words))


def _follow_up(intent: QueryIntent, memory: Memory | None, index: SceneIndex) -> QueryIntent | None:
    """The intent with the last turn filled in: its intents when none are given, its items for 'it' / 'the other one'."""
    if memory is None:
        return None
    names = _names_something(index, intent.target)
    if intent.reference is None and names:
        if intent.intents:
            return None
        return QueryIntent(intents=memory.intent.intents, target=intent.target,
                           superlative=intent.superlative or memory.intent.superlative)
    if names and intent.reference != "other":
        return None
    return QueryIntent(intents=intent.intents or memory.intent.intents, target=intent.target,
                       superlative=intent.superlative if intent.intents else memory.intent.superlative,
                       reference=intent.reference or "same")


def plan(query: str, index: SceneIndex, history: tuple[Exchange, ...] = (), finder: Finder | None = None) -> Plan:
    """Decide how to answer `query`: the kind of answer, the candidates, and what to act on."""
    finder = finder or (lambda target: _find_and_decide(index, query, target))
    intent = parse_intent(query)
    memory = _last_memory(history)
    follow = _follow_up(intent, memory, index)
    if follow is not None and memory is not None and follow.reference is not None:
        return _plan_follow_up(query, follow, memory)
    intent = follow or intent
    if not intent.target:
        return Plan(kind="not_found", intent=intent, notes=("Say what to look at, e.g. 'the sofa' or 'room 0-2'.",))
    found, decision = finder(intent.target)
    candidates = tuple(found.candidates)
    if not candidates:
        return Plan(kind="not_found", intent=intent, found=found, follow_up=follow is not None)
    return _decide(intent, candidates, decision, found, follow is not None)


def _find_and_decide(index: SceneIndex, query: str, target: str) -> tuple[FindResult, Decision | None]:
    found = find(index, target)
    return found, rules_decision(query, found.candidates) if len(found.candidates) > 1 else None


def _decide(intent: QueryIntent, candidates: tuple[Candidate, ...], decision: Decision | None, found: FindResult | None,
            follow_up: bool) -> Plan:
    codes = tuple(c.code for c in candidates)
    common = dict(intent=intent, candidates=candidates, decision=decision, found=found, follow_up=follow_up)
    if "count" in intent.intents or ({"locate", "list"} & set(intent.intents) and not intent.measures and "view" not in intent.intents):
        return Plan(kind="answer", targets=codes, **common)
    if decision is not None and decision.needs_selection:
        return Plan(kind="ask_several" if decision.multiple else "ask_one", **common)
    if "view" in intent.intents and not intent.measures:
        return Plan(kind="view", targets=codes, **common)
    if len(candidates) > 1:
        return Plan(kind="act_on_all", targets=codes[:MAX_ITEMS], **common)
    return Plan(kind="answer", targets=codes, **common)


def _plan_follow_up(query: str, intent: QueryIntent, memory: Memory) -> Plan:
    """'and the other one?' → the last candidates not acted on; 'what colour is it?' → the last items."""
    if intent.reference == "other":
        rest = tuple(c for c in memory.candidates if c.code not in memory.codes)
        if not rest:
            return Plan(kind="not_found", intent=intent, follow_up=True,
                        notes=("There is no other one: the last answer already covered every candidate.",))
        decision = rules_decision("the other one" if "one" in query else query, rest) if len(rest) > 1 else None
        return _decide(intent, rest, decision, None, True)
    chosen = tuple(c for c in memory.candidates if c.code in memory.codes) or memory.candidates
    return _decide(intent, chosen, None, None, True)


class OfflinePlanner:
    """Answers without a language model: parse, find, decide, call CLR/VOL/VIS, word the answer."""

    name = "offline"

    def decide_model(self) -> None:
        """No model: the offline rules decide whether to ask."""
        return None

    def run(self, turn: Turn, toolbox: Toolbox) -> Reply:
        """Carry out the plan for the turn through the toolbox."""
        index = toolbox.context.scene.index

        def finder(target: str) -> tuple[FindResult, Decision | None]:
            outcome = toolbox.call("find", {"query": target})
            if not outcome.ok:
                return FindResult(query=target, candidates=[], message=outcome.error.message if outcome.error else None), None
            return outcome.value, outcome.decision  # type: ignore[return-value]

        chosen = plan(turn.query, index, turn.history, finder)
        if chosen.kind == "not_found":
            return Reply(status="not_found", answer=answers.not_found(chosen), memory=None)
        targets = chosen.targets
        picked: tuple[str, ...] = ()
        if chosen.kind in ("ask_one", "ask_several"):
            outcome = self._ask(toolbox, chosen)
            selection = outcome.selection
            if selection is None or selection.status != "confirmed":
                return self._unanswered(chosen, outcome)
            targets = picked = tuple(selection.codes)
        return self._act(toolbox, chosen, targets, picked)

    @staticmethod
    def _ask(toolbox: Toolbox, chosen: Plan) -> CallOutcome:
        decision = chosen.decision
        toolbox.say(answers.pick_request(chosen))
        return toolbox.call("visualize", {"codes": list(chosen.candidate_codes), "selection_mode": True,
                                          "prompt": decision.prompt if decision else None,
                                          "multiple": bool(decision and decision.multiple)})

    @staticmethod
    def _unanswered(chosen: Plan, outcome: CallOutcome) -> Reply:
        memory = Memory(chosen.intent, chosen.candidates, ())
        if outcome.selection is None:
            message = outcome.error.message if outcome.error else "the viewer could not be opened"
            return Reply(status="error", answer=f"I could not ask you to pick in the viewer: {message}", memory=memory)
        status = "timeout" if outcome.selection.status == "timeout" else "cancelled"
        return Reply(status=status, answer=answers.no_pick(chosen, outcome.selection), codes=(), memory=memory)

    def _act(self, toolbox: Toolbox, chosen: Plan, targets: tuple[str, ...], picked: tuple[str, ...]) -> Reply:
        intent = chosen.intent
        memory = Memory(intent, chosen.candidates, targets)
        viewer_url = None
        if chosen.kind == "answer" and not intent.measures and "view" not in intent.intents:
            objects_in = {}
            if "list" in intent.intents:
                for c in chosen.candidates:
                    if c.kind == "room":
                        inside = toolbox.call("find", {"query": f"objects in {c.code}"})
                        objects_in[c.code] = list(inside.value.candidates) if inside.ok else []  # type: ignore[union-attr]
            return Reply(status="answered", answer=answers.listing(chosen, objects_in), codes=targets, memory=memory)
        if "view" in intent.intents:
            shown = toolbox.call("visualize", {"codes": list(targets)})
            if not shown.ok:
                return Reply(status="error", answer=f"I could not open the viewer: {shown.error.message if shown.error else ''}",
                             memory=memory)
            viewer_url = shown.value.viewer_url  # type: ignore[union-attr]
        calls = [ToolCall(tool, {"code": code}) for code in targets for tool in intent.measures]
        outcomes = toolbox.call_many(calls) if calls else []
        results = answers.Measured.collect(outcomes)
        text = answers.measured(chosen, targets, picked, results, viewer_url)
        failed = [o for o in outcomes if not o.ok]
        status = "error" if calls and len(failed) == len(calls) else "answered"
        return Reply(status=status, answer=text, codes=targets, viewer_url=viewer_url, memory=memory)
