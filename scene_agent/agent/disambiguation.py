"""Should the user pick in the viewer? `needs_user_disambiguation`: a model's judgement when one is set, these rules otherwise.

Ask only when the choice matters: one candidate, a code named in the query, "all / each / every /
how many", and superlatives ("the largest") act without asking; a singular reference with several
candidates asks for one; "compare the …s" asks for several (unless there are only two).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Literal, Protocol

import inflection
from pydantic import BaseModel, Field, ValidationError

from scene_agent.query import CODE_IN_TEXT
from scene_agent.tools.find import Candidate
from scene_agent.vocabulary import canonical_label, canonical_room_type, normalize_words, singular

ActOn = Literal["one", "several", "all", "named"]

_ALL = re.compile(r"\b(all|every|each|both|how many|number of|count|total|list|everything|any of)\b")
_SUPERLATIVE = re.compile(r"\b(\w+est|most|least|biggest|largest|smallest|tallest|shortest|widest|narrowest|"
                          r"highest|lowest|darkest|lightest|brightest)\b")
_NOT_SUPERLATIVE = {"best", "rest", "test", "west", "guest", "chest", "nest", "forest", "interest", "request", "suggest",
                    "honest", "modest", "just", "must", "est", "latest"}
_COMPARE = re.compile(r"\b(compare|comparing|comparison|difference|differences|differ|versus|vs|side by side)\b")
_SEVERAL = re.compile(r"\b(some|several|a few|a couple|pick|choose|select|which ones)\b")
_PLURAL_PRONOUN = re.compile(r"\b(they|them|these|those|ones|rooms|objects|things|items)\b")


class Decision(BaseModel):
    """Whether to ask the user to pick among the candidates, and how."""

    needs_selection: bool
    prompt: str | None = Field(default=None, description="What the viewer asks, when asking.")
    multiple: bool = False
    act_on: ActOn = Field(description="one: the only candidate; all: every candidate; named: the codes in the query; "
                                      "one/several picked by the user when needs_selection.")
    reason: str
    decided_by: Literal["rules", "model"] = "rules"

    def as_tuple(self) -> tuple[bool, str | None, bool]:
        """(needs_selection, prompt, multiple)."""
        return self.needs_selection, self.prompt, self.multiple


class JsonModel(Protocol):
    """A language model that answers a prompt with one JSON object (None when it could not)."""

    def complete_json(self, system: str, user: str) -> dict[str, Any] | None:
        """The model's JSON answer, or None."""
        ...


def _noun(candidates: Sequence[Candidate]) -> str:
    nouns = sorted({(c.label or "") if c.kind == "object" else (c.type or "room").replace("_", " ") for c in candidates})
    heads = {noun.rsplit(" ", 1)[-1] for noun in nouns}  # 'chair' and 'office chair' are both chairs
    if len(nouns) == 1:
        return nouns[0]
    if len(heads) == 1:
        return heads.pop()
    return "room" if candidates[0].kind == "room" else "one"


def ask_prompt(candidates: Sequence[Candidate], multiple: bool, purpose: str | None = None) -> str:
    """'Which bedroom do you mean? Pick it, then Confirm' / 'Pick the chairs to compare, then Confirm'."""
    noun = _noun(candidates)
    if multiple:
        plural = "ones" if noun == "one" else inflection.pluralize(noun)
        return f"Pick the {plural} {purpose or 'you mean'}, then Confirm"
    return f"Which {noun} do you mean? Pick it, then Confirm"


def _names_candidates(words: str, candidates: Sequence[Candidate]) -> bool:
    """True when a word of the query is what the candidates are ('chair', 'seat', 'bedroom'), not only where they are."""
    labels = {c.label for c in candidates if c.label} | {(c.label or "").rsplit(" ", 1)[-1] for c in candidates if c.label}
    types = {c.type for c in candidates if c.type}
    names = {normalize_words(c.name) for c in candidates if c.name}
    tokens = words.split()
    phrases = tokens + [" ".join(tokens[i:i + 2]) for i in range(len(tokens) - 1)]
    return any(canonical_label(p) in labels or canonical_room_type(p) in types or p in names for p in phrases)


def _plural_reference(words: str, candidates: Sequence[Candidate]) -> bool:
    """True when the query names the candidates in the plural ('the chairs', 'bedrooms', 'them')."""
    if _PLURAL_PRONOUN.search(words):
        return True
    labels = {c.label for c in candidates if c.label} | {(c.label or "").rsplit(" ", 1)[-1] for c in candidates if c.label}
    types = {c.type for c in candidates if c.type}
    for token in words.split():
        one = singular(token)
        if one == token:
            continue
        if canonical_label(one) in labels or one in labels or canonical_room_type(one) in types:
            return True
    return False


def rules_decision(query: str, candidates: Sequence[Candidate]) -> Decision:
    """The offline rules of SPEC §6."""
    words = normalize_words(query)
    codes = set(CODE_IN_TEXT.findall(words))
    if len(candidates) <= 1:
        return Decision(needs_selection=False, act_on="one", reason="one candidate" if candidates else "no candidates")
    if codes and {c.code for c in candidates} <= codes:
        return Decision(needs_selection=False, act_on="named", reason="the query names the codes")
    if _ALL.search(words):
        return Decision(needs_selection=False, act_on="all", reason="the query asks about all of them")
    if any(w not in _NOT_SUPERLATIVE for w in _SUPERLATIVE.findall(words)):
        return Decision(needs_selection=False, act_on="all", reason="a superlative: every candidate has to be measured")
    if _COMPARE.search(words):
        if len(candidates) == 2:
            return Decision(needs_selection=False, act_on="all", reason="compare: there are only two")
        return Decision(needs_selection=True, multiple=True, act_on="several", reason="compare: the user picks which ones",
                        prompt=ask_prompt(candidates, True, "to compare"))
    if _SEVERAL.search(words):
        return Decision(needs_selection=True, multiple=True, act_on="several", reason="the user chooses several",
                        prompt=ask_prompt(candidates, True))
    if _plural_reference(words, candidates):
        return Decision(needs_selection=False, act_on="all", reason="a plural: all of them")
    if not _names_candidates(words, candidates):
        return Decision(needs_selection=False, act_on="all", reason="the query names where they are (a floor, a room), "
                                                                    "not one of them")
    return Decision(needs_selection=True, act_on="one", prompt=ask_prompt(candidates, False),
                    reason=f"a singular reference with {len(candidates)} candidates")


MODEL_SYSTEM = (
    "You decide whether an assistant must ask the user to pick among candidate rooms/objects of a 3D scene in a "
    "viewer before answering. Ask only when the choice matters. Do not ask when: there is one candidate; the query "
    "names codes; it says all/each/every/how many; it asks for a superlative (the largest, the darkest) or plural "
    "things ('the chairs' = all of them). Ask for one when a singular reference ('the chair') fits several. Ask for "
    "several (multiple=true) when the user wants to compare some of many. Answer with one JSON object: "
    '{"needs_selection": bool, "multiple": bool, "prompt": "short question for the viewer, or null"}.'
)


class _ModelAnswer(BaseModel):
    needs_selection: bool
    multiple: bool = False
    prompt: str | None = Field(default=None, max_length=300)


def model_decision(query: str, candidates: Sequence[Candidate], model: JsonModel) -> Decision | str:
    """The model's decision, or why it is unusable (then the rules decide)."""
    listing = [{"code": c.code, "kind": c.kind, "what": c.label or c.type, "room": c.room, "room_name": c.room_name,
                "floor": c.floor} for c in candidates]
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
    prompt = (answer.prompt or "").strip() or ask_prompt(candidates, answer.multiple)
    return Decision(needs_selection=True, multiple=answer.multiple, prompt=prompt,
                    act_on="several" if answer.multiple else "one", reason="the model: the choice matters", decided_by="model")


def decide(query: str, candidates: Sequence[Candidate], model: JsonModel | None = None) -> Decision:
    """The model's decision when a model is set and its answer is usable; the rules otherwise."""
    rules = rules_decision(query, candidates)
    if model is None or len(candidates) < 2 or rules.act_on == "named":
        return rules
    decision = model_decision(query, candidates, model)
    if isinstance(decision, Decision):
        return decision
    return rules.model_copy(update={"reason": f"{rules.reason} (rules: {decision})"})


def needs_user_disambiguation(query: str, candidates: Sequence[Candidate],
                              model: JsonModel | None = None) -> tuple[bool, str | None, bool]:
    """(needs_selection, prompt, multiple) for a query and the candidates `find` returned."""
    return decide(query, candidates, model).as_tuple()
