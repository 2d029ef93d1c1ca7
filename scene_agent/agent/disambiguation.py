"""Should the user pick in the viewer? `decide`: a model's judgement when one is set, these rules otherwise.

Ask only when the choice matters: one candidate, a code named in the query, "all / each / every /
how many", and plurals act without asking; a singular reference with several candidates asks for
one; "compare the …s" asks for several (unless there are only two). When colour, size or place words
already narrowed the candidates (`find` did), what is left is decided the same way, except a near
tie ("the tallest" of two equally tall wardrobes): asked about, unless the question is that very size
or which one it is. Prompts tell the candidates apart by what differs ("the red one (0-3-2) or …").
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal, Protocol

from pydantic import Field, ValidationError

from scene_agent.agent.choices import pick_prompt
from scene_agent.language.intent import english, parse_intent
from scene_agent.language.quantity import asks_all, asks_several, codes_in, compares, has_superlative, names_any, plural_reference
from scene_agent.language.words import Lang, normalize_words
from scene_agent.model import Model
from scene_agent.tools.find import Candidate, FindResult

ActOn = Literal["one", "several", "all", "named"]


class Decision(Model):
    """Whether to ask the user to pick among the candidates, and how."""

    needs_selection: bool
    prompt: str | None = Field(default=None, description="What the viewer asks, when asking.")
    multiple: bool = False
    act_on: ActOn = Field(description="one: the only candidate; all: every candidate; named: the codes in the query; "
                                      "one/several picked by the user when needs_selection.")
    reason: str
    decided_by: Literal["rules", "model"] = "rules"


class JsonModel(Protocol):
    """A language model that answers a prompt with one JSON object (None when it could not)."""

    def complete_json(self, system: str, user: str) -> dict[str, Any] | None:
        """The model's JSON answer, or None."""
        ...


def ask_prompt(candidates: Sequence[Candidate], multiple: bool, purpose: str | None = None, lang: Lang = "en") -> str:
    """'Which chair do you mean: the red one (0-3-2) or …? Pick it, then Confirm' / 'Pick the chairs to compare, then Confirm'."""
    return pick_prompt(candidates, multiple, lang, purpose or "you mean")


def rules_decision(query: str, candidates: Sequence[Candidate], found: FindResult | None = None,
                   lang: Lang | None = None) -> Decision:
    """The offline rules; `found` (the find result) tells whether qualifiers left a near tie."""
    words = english(query)
    intent = parse_intent(query)
    lang = lang or intent.lang or "en"
    if len(candidates) <= 1:
        return Decision(needs_selection=False, act_on="one", reason="one candidate" if candidates else "no candidates")
    codes = codes_in(words)
    if codes and {c.code for c in candidates} <= codes:
        return Decision(needs_selection=False, act_on="named", reason="the query names the codes")
    if compares(words) and not asks_all(words):  # "compare the red and green chairs": those, even as a tie
        if len(candidates) == 2:
            return Decision(needs_selection=False, act_on="all", reason="compare: there are only two")
        return Decision(needs_selection=True, multiple=True, act_on="several", reason="compare: the user picks which ones",
                        prompt=ask_prompt(candidates, True, "to compare", lang=lang))
    tied = found.tied if found is not None else None
    if tied is not None:
        # "how tall is the tallest wardrobe?": the answer is the same for each of the tied ones.
        asked = "length" if intent.asked_measure == "width" else intent.asked_measure  # "the widest" compares lengths
        if intent.asks_which or ("color" not in intent.intents and tied.measure is not None and asked == tied.measure):
            return Decision(needs_selection=False, act_on="all", reason=f"'{tied.words}' leaves a tie; the answer is the same "
                                                                        "for each of them")
        return Decision(needs_selection=True, act_on="one", prompt=ask_prompt(candidates, False, lang=lang),
                        reason=f"'{tied.words}' leaves {len(candidates)} too close to tell apart")
    if asks_all(words):
        return Decision(needs_selection=False, act_on="all", reason="the query asks about all of them")
    if has_superlative(words) and not (found is not None and any(s.qualifier == "size" for s in found.steps)):
        return Decision(needs_selection=False, act_on="all", reason="a superlative: every candidate has to be measured")
    if asks_several(words):
        return Decision(needs_selection=True, multiple=True, act_on="several", reason="the user chooses several",
                        prompt=ask_prompt(candidates, True, lang=lang))
    labels = {c.label for c in candidates if c.label} | {(c.label or "").rsplit(" ", 1)[-1] for c in candidates if c.label}
    types = {c.type for c in candidates if c.type}
    if plural_reference(words, labels, types):
        return Decision(needs_selection=False, act_on="all", reason="a plural: all of them")
    # "the kitchen" where no room is known to be one: the candidates are rooms of no telling type, named by none
    untyped = found is not None and any(u.why == "untyped" for u in found.unused_words)
    if not untyped and not names_any(words, labels, types, {normalize_words(c.name) for c in candidates if c.name}):
        return Decision(needs_selection=False, act_on="all", reason="the query names where they are (a floor, a room), "
                                                                    "not one of them")
    if intent.lang == "zh" and "view" in intent.intents and not intent.measures:
        return Decision(needs_selection=False, act_on="all", reason="showing: Chinese does not mark the plural, and "
                                                                    "showing them all answers either way")
    return Decision(needs_selection=True, act_on="one", prompt=ask_prompt(candidates, False, lang=lang),
                    reason=f"a singular reference with {len(candidates)} candidates")


MODEL_SYSTEM = (
    "You decide whether an assistant must ask the user to pick among candidate rooms/objects of a 3D scene in a "
    "viewer before answering. Ask only when the choice matters. Do not ask when: there is one candidate; the query "
    "names codes; it says all/each/every/how many; it asks which one is the largest (the answer says which) or "
    "about plural things ('the chairs' = all of them). The candidates are already narrowed by the query's colour, size and place "
    "words. Ask for one when a singular reference ('the chair') fits several. Ask for "
    "several (multiple=true) when the user wants to compare some of many. Answer with one JSON object: "
    '{"needs_selection": bool, "multiple": bool, "prompt": "short question for the viewer, or null"}.'
)


class _ModelAnswer(Model):
    needs_selection: bool
    multiple: bool = False
    prompt: str | None = Field(default=None, max_length=300)


def model_decision(query: str, candidates: Sequence[Candidate], model: JsonModel, lang: Lang = "en") -> Decision | str:
    """The model's decision, or why it is unusable (then the rules decide)."""
    listing = [{"code": c.code, "kind": c.kind, "what": c.label or c.type, "room": c.room, "room_name": c.room_name,
                "floor": c.floor, "color": c.observed.color if c.observed else None} for c in candidates]
    raw = model.complete_json(MODEL_SYSTEM, json.dumps({"query": query, "candidates": listing}))
    if raw is None:
        return "no answer from the model"
    try:
        answer = _ModelAnswer.model_validate(raw)
    except ValidationError as exc:
        return f"the model's answer did not fit ({exc.errors()[0]['msg']})"
    if answer.needs_selection and len(candidates) < 2:
        return "the model wanted a selection with fewer than two candidates"
    if not answer.needs_selection:
        return Decision(needs_selection=False, act_on="all", reason="the model: no need to ask", decided_by="model")
    prompt = (answer.prompt or "").strip() or ask_prompt(candidates, answer.multiple, lang=lang)
    return Decision(needs_selection=True, multiple=answer.multiple, prompt=prompt,
                    act_on="several" if answer.multiple else "one", reason="the model: the choice matters", decided_by="model")


def decide(query: str, candidates: Sequence[Candidate], model: JsonModel | None = None, found: FindResult | None = None,
           lang: Lang | None = None) -> Decision:
    """The model's decision when a model is set and its answer is usable; the rules otherwise."""
    rules = rules_decision(query, candidates, found, lang)
    if model is None or len(candidates) < 2 or rules.act_on == "named":
        return rules
    decision = model_decision(query, candidates, model, lang or "en")
    if isinstance(decision, Decision):
        return decision
    return rules.model_copy(update={"reason": f"{rules.reason} (rules: {decision})"})
