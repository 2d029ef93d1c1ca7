"""The offline planner: no model needed. It parses the query, finds the candidates, decides whether to ask, calls the tools.

`plan()` is the decision on its own (what kind of answer, which candidates, which to act on), so a
query suite can check it without running tools; `OfflinePlanner.run()` carries a plan out through
the toolbox and words the answer (see answers.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any

from scene_agent.agent import answers
from scene_agent.agent.asking import ask_to_pick, unanswered
from scene_agent.agent.disambiguation import Decision, rules_decision
from scene_agent.agent.events import FinalStatus
from scene_agent.agent.measure_answers import measure_arguments
from scene_agent.agent.pairs import answer_pair
from scene_agent.agent.plan import Memory, Plan
from scene_agent.agent.planner import Exchange, Reply, Turn
from scene_agent.agent.toolbox import Toolbox, ToolCall
from scene_agent.language.intent import QueryIntent, parse_intent
from scene_agent.language.pair_words import pair_question
from scene_agent.language.words import Lang
from scene_agent.resolution.query import parse_description, parse_query
from scene_agent.scene.loader import Scene
from scene_agent.tools.find import Candidate, FindResult, candidate, find
from scene_agent.tools.find_messages import NO_OTHER, SAY_WHAT
from scene_agent.tools.visualize import VisOutput

MAX_ITEMS = 40  # measuring more at once is slow and no answer lists that many
# What the planner reads beyond nouns, rooms, floors and codes: colour, size, place and order words, and Chinese.
UNDERSTANDS = frozenset({"color", "size", "place", "order", "zh"})


Finder = Callable[[dict[str, Any]], tuple[FindResult, Decision | None]]
# Question words left at the front of a description ("is the sofa" of "how big is the sofa"): not worth sending.
_LEADING = re.compile(r"^(?:(?:what|whats|which|who|where|wheres|is|are|was|were|of|for|do|does|there|me|s|how|many|much|colou?rs?|"
                      r"volume|size|dimensions?|height|width|length|area|number|count|show|display|visuali[sz]e|view|"
                      r"open|see|let|please|can|could|you|compare)\b\s*)+")
_TRAILING = re.compile(r"(?:\s+(?:are|is) there|\s+please|\s+in (?:this|the) scene)+\s*$")


def _last_memory(history: tuple[Exchange, ...]) -> Memory | None:
    for exchange in reversed(history):
        if isinstance(exchange.memory, Memory):
            return exchange.memory
    return None


_PRONOUNS = frozenset({"one", "ones", "it", "that", "this", "those", "them"})


def _scoped_pronoun(scene: Scene, intent: QueryIntent) -> bool:
    """True for 'the one in the study' / 'the ones upstairs': a pronoun placed by room or floor words, naming no thing."""
    head = intent.phrase.head if intent.phrase else intent.target
    if not _PRONOUNS & set(head.split()):
        return False
    spec = parse_query(head, scene.index)
    return not (spec.object_labels or spec.codes) and bool(spec.room_types or spec.room_names or spec.floor is not None
                                                          or spec.name_words)


def _names_something(scene: Scene, intent: QueryIntent) -> bool:
    head = intent.phrase.head if intent.phrase else intent.target
    if not head and intent.target:  # a noun of this scene's own ('the hamper': its laundry hamper)
        head = parse_description(intent.target, scene.index).reading.head
    spec = parse_query(head, scene.index) if head else None
    return bool(spec and (spec.codes or spec.object_labels or spec.room_types or spec.room_names or spec.floor is not None
                          or spec.generic or spec.unknown_words))


def find_arguments(intent: QueryIntent, within: tuple[str, ...] = (), understands: frozenset[str] = UNDERSTANDS
                   ) -> dict[str, Any]:
    """The find tool's input for the intent's description: its words, which `find` reads (among `within` if given)."""
    if intent.phrase is None or not understands:
        return {"query": intent.target}
    query = _TRAILING.sub("", _LEADING.sub("", intent.target)).strip() or intent.target or "one"
    arguments: dict[str, Any] = {"query": query}
    if within:
        arguments["within"] = list(within)
    return arguments


def _follow_up(intent: QueryIntent, memory: Memory | None, scene: Scene) -> QueryIntent | None:
    """The intent with the last turn filled in: its intents when none are given, its items for 'it' / 'the other one'."""
    if memory is None:
        return None
    names = _names_something(scene, intent)
    asked = intent.asked_measure if intent.intents else memory.intent.asked_measure  # "how tall is it?" asks a height
    qualified = intent.phrase is not None and intent.phrase.qualified
    if _scoped_pronoun(scene, intent):  # "the one in the study": among the last candidates, by where they are
        return QueryIntent(intents=intent.intents or memory.intent.intents, target=intent.target, phrase=intent.phrase,
                           asks_which=intent.asks_which, lang=intent.lang, asked_measure=asked)
    if intent.reference is None and names:
        if intent.intents:
            return None
        return QueryIntent(intents=memory.intent.intents, target=intent.target, phrase=intent.phrase, lang=intent.lang,
                           asks_which=intent.asks_which, asked_measure=asked)
    if names and intent.reference != "other":
        return None
    if not (intent.reference or qualified):
        return None
    return QueryIntent(intents=intent.intents or memory.intent.intents, target=intent.target, phrase=intent.phrase,
                       reference=intent.reference or ("same" if not qualified else None), asks_which=intent.asks_which,
                       lang=intent.lang, asked_measure=asked)


def plan(query: str, scene: Scene, history: tuple[Exchange, ...] = (), finder: Finder | None = None,
         understands: frozenset[str] = UNDERSTANDS, lang: Lang | None = None) -> Plan:
    """Decide how to answer `query`: the kind of answer, the candidates, and what to act on."""
    finder = finder or (lambda arguments: find_and_decide(scene, query, arguments))
    intent = parse_intent(query, read_chinese="zh" in understands)
    lang = intent.lang if intent.lang and ("zh" in understands or intent.lang == "en") else (lang or "en")
    memory = _last_memory(history)
    follow = _follow_up(intent, memory, scene)
    if follow is not None and memory is not None and (follow.reference is not None or _qualified(scene, follow, understands)
                                                      or _scoped_pronoun(scene, follow)):
        return _plan_follow_up(scene, query, follow, memory, finder, understands, lang)
    intent = follow or intent
    if not intent.target or not _names_something(scene, intent):
        return Plan(kind="not_found", intent=intent, lang=lang, notes=(SAY_WHAT(lang),))
    found, decision = finder(find_arguments(intent, understands=understands))
    candidates = tuple(found.candidates)
    if not candidates:
        return Plan(kind="not_found", intent=intent, found=found, follow_up=follow is not None, lang=lang)
    return _decide(intent, candidates, decision, found, follow is not None, lang, _listed(scene, found))


def _qualified(scene: Scene, intent: QueryIntent, understands: frozenset[str]) -> bool:
    """True when the words only qualify ('the red one', 'the second'): they pick among what was listed last."""
    phrase = intent.phrase
    return phrase is not None and any(kind in understands for kind in phrase.kinds) and not _names_something(scene, intent)


def _listed(scene: Scene, found: FindResult) -> tuple[Candidate, ...]:
    if found.considered and len(found.considered) > len(found.candidates):
        return tuple(candidate(scene, code) for code in found.considered)
    return tuple(found.candidates)


def find_and_decide(scene: Scene, query: str, arguments: dict[str, Any]) -> tuple[FindResult, Decision | None]:
    """The find tool's result for these arguments and, when several are left, whether to ask (the planner's finder)."""
    found = find(scene, **arguments)
    return found, rules_decision(query, found.candidates, found) if len(found.candidates) > 1 else None


def _decide(intent: QueryIntent, candidates: tuple[Candidate, ...], decision: Decision | None, found: FindResult | None,
            follow_up: bool, lang: Lang, listed: tuple[Candidate, ...] = ()) -> Plan:
    codes = tuple(c.code for c in candidates)
    made = partial(Plan, intent=intent, candidates=candidates, decision=decision, found=found, follow_up=follow_up,
                   lang=lang, listed=listed or candidates)
    if "count" in intent.intents or ({"locate", "list"} & set(intent.intents) and not intent.measures and "view" not in intent.intents):
        return made(kind="answer", targets=codes)
    if decision is not None and decision.needs_selection:
        return made(kind="ask_several" if decision.multiple else "ask_one")
    if "view" in intent.intents and not intent.measures:
        return made(kind="view", targets=codes)
    if len(candidates) > 1:
        return made(kind="act_on_all", targets=codes[:MAX_ITEMS])
    return made(kind="answer", targets=codes)


def _plan_follow_up(scene: Scene, query: str, intent: QueryIntent, memory: Memory, finder: Finder,
                    understands: frozenset[str], lang: Lang) -> Plan:
    """'and the other one?' → the last candidates not acted on; 'the red one' / 'the second one' → among the last
    candidates; 'what colour is it?' → the last items."""
    listed = tuple(c.code for c in memory.candidates)
    phrase = intent.phrase
    if intent.reference == "other" and not (phrase and (phrase.colors or phrase.size or phrase.relations or phrase.sides)):
        rest = tuple(c for c in memory.candidates if c.code not in memory.codes)
        if not rest:
            return Plan(kind="not_found", intent=intent, follow_up=True, lang=lang, notes=(NO_OTHER(lang),))
        decision = rules_decision("the other one" if "one" in query else query, rest, lang=lang) if len(rest) > 1 else None
        return _decide(intent, rest, decision, None, True, lang, memory.candidates)
    scoped = _scoped_pronoun(scene, intent)
    if phrase is not None and (scoped or (phrase.qualified and any(kind in understands for kind in phrase.kinds))):
        found, decision = finder(find_arguments(intent, within=listed, understands=understands))
        if not found.candidates:
            return Plan(kind="not_found", intent=intent, found=found, follow_up=True, lang=lang)
        return _decide(intent, tuple(found.candidates), decision, found, True, lang, memory.candidates)
    chosen = tuple(c for c in memory.candidates if c.code in memory.codes) or memory.candidates
    return _decide(intent, chosen, None, None, True, lang, memory.candidates)


class OfflinePlanner:
    """Answers without a language model: parse, find, decide, call CLR/VOL/VIS, word the answer."""

    name = "offline"

    def decide_model(self) -> None:
        """No model: the offline rules decide whether to ask."""
        return None

    def run(self, turn: Turn, toolbox: Toolbox) -> Reply:
        """Carry out the plan for the turn through the toolbox."""
        def finder(arguments: dict[str, Any]) -> tuple[FindResult, Decision | None]:
            outcome = toolbox.call("find", arguments)
            if isinstance(outcome.value, FindResult):
                return outcome.value, outcome.decision
            message = outcome.error.message if outcome.error else None
            return FindResult(query=str(arguments.get("query", "")), candidates=[], message=message), None

        if (pair := pair_question(turn.query)) is not None:  # "how far is the sofa from the tv?"
            return answer_pair(toolbox, turn, pair)
        chosen = plan(turn.query, toolbox.context.scene, turn.history, finder, lang=turn.lang)
        if chosen.kind == "not_found":
            return Reply(status="not_found", answer=answers.not_found(chosen), memory=None)
        targets = chosen.targets
        picked: tuple[str, ...] = ()
        if chosen.kind in ("ask_one", "ask_several"):
            outcome = ask_to_pick(toolbox, chosen)
            selection = outcome.selection
            if selection is None or selection.status != "confirmed":
                return unanswered(chosen, outcome)
            targets = picked = tuple(selection.codes)
        return self._act(toolbox, chosen, targets, picked)

    def _act(self, toolbox: Toolbox, chosen: Plan, targets: tuple[str, ...], picked: tuple[str, ...]) -> Reply:
        intent = chosen.intent
        memory = Memory(intent, chosen.listed or chosen.candidates, targets)
        viewer_url = None
        if chosen.kind == "answer" and not intent.measures and "view" not in intent.intents:
            objects_in = {}
            if "list" in intent.intents:
                for c in chosen.candidates:
                    if c.kind == "room":
                        inside = toolbox.call("find", {"query": f"objects in {c.code}"})
                        objects_in[c.code] = list(inside.value.candidates) if isinstance(inside.value, FindResult) else []
            return Reply(status="answered", answer=answers.listing(chosen, objects_in), codes=targets, memory=memory)
        if "view" in intent.intents:
            shown = toolbox.call("visualize", {"codes": list(targets)})
            if not shown.ok:
                message = shown.error.message if shown.error else ""
                return Reply(status="error", answer=answers.CANNOT_SHOW(chosen.lang, message=message), memory=memory)
            viewer_url = shown.value.viewer_url if isinstance(shown.value, VisOutput) else None
        calls = [ToolCall(tool, measure_arguments(tool, code, intent)) for code in targets for tool in intent.measures]
        outcomes = toolbox.call_many(calls) if calls else []
        results = answers.Measured.collect(outcomes)
        text = answers.measured(chosen, targets, picked, results, viewer_url)
        failed = [o for o in outcomes if not o.ok]
        status: FinalStatus = "error" if calls and len(failed) == len(calls) else "answered"
        return Reply(status=status, answer=text, codes=targets, viewer_url=viewer_url, memory=memory)
