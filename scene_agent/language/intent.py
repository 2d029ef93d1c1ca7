"""What a query asks for, in the offline planner's terms: which measurements, shown or not, a superlative, a follow-up."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from scene_agent.vocabulary import normalize_words

Intent = Literal["view", "color", "volume", "count", "compare", "locate", "list", "describe"]
Measure = Literal["volume", "height", "length", "area"]
Reference = Literal["same", "other"]


@dataclass(frozen=True)
class Superlative:
    """'the largest' → (volume, max); 'the tallest' → (height, max)."""

    measure: Measure
    direction: Literal["max", "min"]
    word: str


@dataclass(frozen=True)
class QueryIntent:
    """The parsed request: what to do, what it is about (`target`, for find), and whether it refers to the last turn."""

    intents: tuple[Intent, ...]
    target: str
    superlative: Superlative | None = None
    reference: Reference | None = None

    @property
    def measures(self) -> tuple[Intent, ...]:
        """The tools to run on each item: color and/or volume."""
        wanted: list[Intent] = []
        if {"color", "compare", "describe"} & set(self.intents):
            wanted.append("color")
        if {"volume", "compare", "describe"} & set(self.intents) or self.superlative is not None:
            wanted.append("volume")
        return tuple(wanted)


_PATTERNS: list[tuple[Intent, re.Pattern[str]]] = [
    ("view", re.compile(r"\b(show|display|visuali[sz]e|view|open|look at|let me see|see|highlight|point out)\b")),
    ("color", re.compile(r"\b(colou?rs?|colou?red|hue|shade|paint(ed)?)\b")),
    ("volume", re.compile(r"\b(volume|big|large|size|sized|dimensions?|measure(ments)?|how much space|cubic|m3|"
                          r"how tall|how high|how wide|how long|how deep|height|width|length|floor area|area|"
                          r"square meters?|footprint)\b")),
    ("count", re.compile(r"\b(how many|number of|count)\b")),
    ("compare", re.compile(r"\b(compare|comparing|comparison|difference|differences|differ|versus|vs)\b")),
    ("locate", re.compile(r"\b(where|which room|which floor|find|locate)\b")),
    ("list", re.compile(r"\b(list|what is in|whats in|what s in|what's in|contents?|inside|what furniture|which objects|"
                        r"what objects|what things)\b")),
    ("describe", re.compile(r"\b(describe|tell me about|details?|info|information|what about|what is|whats)\b")),
]

_SUPERLATIVES: dict[str, tuple[Measure, Literal["max", "min"]]] = {
    "largest": ("volume", "max"), "biggest": ("volume", "max"), "smallest": ("volume", "min"), "tiniest": ("volume", "min"),
    "most spacious": ("volume", "max"), "tallest": ("height", "max"), "highest": ("height", "max"),
    "shortest": ("height", "min"), "lowest": ("height", "min"), "longest": ("length", "max"), "widest": ("length", "max"),
}
_SUPERLATIVE = re.compile(r"\b(" + "|".join(sorted(_SUPERLATIVES, key=len, reverse=True)) + r")\b")
_OTHER = re.compile(r"\b(the other( ones?)?|the others|the rest|the remaining( ones?)?|other ones?|another one)\b")
_SAME = re.compile(r"\b(it|its|it s|that one|this one|that|this|them|they|their|those|these|the same( ones?)?|"
                   r"the one i picked|the ones i picked|my pick)\b")
# Words that say what to do, not what it is about: taken out of the text given to `find`.
_ACTION_WORDS = re.compile(r"\b(describe|tell me about|details?|info|information|list|contents?|inside|locate|find|"
                           r"highlight|point out|let me see|measure(ments)?|and|what about|how about)\b")


def parse_intent(query: str) -> QueryIntent:
    """The intents of a query (several may apply: 'show me the sofa and its colour'), its target and references."""
    words = normalize_words(query).replace("'", " ")
    intents = [name for name, pattern in _PATTERNS if pattern.search(words)]
    match = _SUPERLATIVE.search(words)
    superlative = Superlative(*_SUPERLATIVES[match.group(1)], word=match.group(1)) if match else None
    if superlative and "volume" not in intents:
        intents.append("volume")  # every superlative is measured with the volume tool (volume, box sides, floor area)
    if "describe" in intents and len(intents) > 1:
        intents.remove("describe")  # 'what is the colour of …' is a colour question, not a description
    if "locate" in intents and {"count", "list"} & set(intents):
        intents.remove("locate")
    reference: Reference | None = "other" if _OTHER.search(words) else ("same" if _SAME.search(words) else None)
    target = _ACTION_WORDS.sub(" ", words)
    target = _SUPERLATIVE.sub(" ", _OTHER.sub(" ", target))
    return QueryIntent(intents=tuple(intents), target=re.sub(r"\s+", " ", target).strip(), superlative=superlative,
                       reference=reference)
