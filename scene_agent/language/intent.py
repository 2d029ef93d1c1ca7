"""What a query asks for: which measurements, shown or not, counted or compared, and what it is about.

The description of the thing (`target`) is split into its head and qualifiers (`phrase`): colour,
size, place and order words, so "what colour is the plant next to the sofa?" asks for a colour
(intent) of "plant" (head) placed "next to the sofa". A Chinese query is read through `zh.py` first;
`lang` says which language the question was in, so the answer can be given in it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from scene_agent.language.grammar import read
from scene_agent.language.lexicon import GENERIC_NOUNS
from scene_agent.language.reading import Reading
from scene_agent.language.words import Lang, detect_language, has_chinese, normalize_words
from scene_agent.language.zh import to_english

Intent = Literal["view", "color", "volume", "count", "compare", "locate", "list", "describe"]
Measure = Literal["volume", "height", "length", "depth", "area"]
Reference = Literal["same", "other"]


@dataclass(frozen=True)
class Superlative:
    """'the largest' → (volume, max); 'the tallest' → (height, max)."""

    measure: Measure
    direction: Literal["max", "min"]
    word: str


@dataclass(frozen=True)
class QueryIntent:
    """The parsed request: what to do, what it is about (`target`, split in `phrase`), whether it refers to the last turn."""

    intents: tuple[Intent, ...]
    target: str
    phrase: Reading | None = None
    reference: Reference | None = None
    asks_which: bool = False  # "which chair is the largest?": the answer is which one
    lang: Lang | None = None
    asked_measure: str | None = None  # the one size asked for: "size", "dimensions", "height", "width", "length",
    # "depth" or "area"

    @property
    def superlative(self) -> Superlative | None:
        """The size superlative or comparative the description uses ('the largest', 'the taller one'), if any."""
        size = self.phrase.size if self.phrase else None
        if size is None or not size.strict:
            return None
        measure: Measure = "volume" if size.measure == "size" else size.measure
        return Superlative(measure=measure, direction=size.extreme, word=size.word)

    @property
    def measures(self) -> tuple[str, ...]:
        """The tools to run on each item: color, and volume or measure (a side, the dimensions or a floor area asked
        for alone)."""
        wanted: list[str] = []
        if {"color", "compare", "describe"} & set(self.intents):
            wanted.append("color")
        if {"volume", "compare", "describe"} & set(self.intents):
            sized = self.asked_measure in MEASURED and not ({"compare", "describe"} & set(self.intents))
            wanted.append("measure" if sized else "volume")
        return tuple(wanted)


_PATTERNS: list[tuple[Intent, re.Pattern[str]]] = [
    ("view", re.compile(r"\b(show|display|visuali[sz]e|view|open|look at|let me see|see|highlight|point out)\b")),
    ("color", re.compile(r"\b(colou?rs?|colou?red|hue|paint(ed)?)\b|\bwhat shade\b")),
    ("volume", re.compile(r"\b(volume|size|sized|dimensions?|measure(ments)?|how much space|cubic|m3|"
                          r"how (?:big|large|small|tall|high|wide|long|deep)|height|width|length|floor area|area|"
                          r"square meters?|footprint)\b")),
    ("count", re.compile(r"\b(how many|number of|count)\b")),
    ("compare", re.compile(r"\b(compare|comparing|comparison|difference|differences|differ|versus|vs)\b")),
    ("locate", re.compile(r"\b(where|which room|which floor|find|locate)\b")),
    ("list", re.compile(r"\b(list|what is in|whats in|what s in|contents?|inside|what furniture|which objects|"
                        r"what objects|what things)\b")),
    ("describe", re.compile(r"\b(describe|tell me about|details?|info|information|what about|what is|whats)\b")),
]
_OTHER = re.compile(r"\b(the other( ones?)?|the others|the rest|the remaining( ones?)?|other ones?|another one)\b")
_SAME = re.compile(r"\b(it|its|it s|that one|this one|that|this|them|they|their|those|these|the same( ones?)?|"
                   r"the one i picked|the ones i picked|my pick)\b")
_WHICH = re.compile(r"\bwhich\b")
# "what is on …", "what's next to …", "is there anything under …": what the words ask for is whatever is there.
_WHATS_THERE = re.compile(r"^(?:what|which)(?: things| objects| items)?(?: is| s| are)?(?: there)?\s+")
# Words that say what to do, not what it is about: taken out of the text given to `find`.
_ACTION_WORDS = re.compile(r"\b(describe|tell me about|details?|info|information|list|contents?|inside|locate|find|"
                           r"highlight|point out|let me see|measure(ments)?|what about|how about)\b|^and\b")
# Question frames whose size words ask for a size rather than describe the thing ("how big is the sofa").
_FRAMES = re.compile(r"\bhow (?:big|large|small|tall|high|wide|long|deep|much space)\b|\bwhat size\b|"
                     r"\b(?:(?:what|whats|what s|what is) )?(?:the )?(?:colou?rs?|volume|size|height|width|length|"
                     r"depth|dimensions?|floor area|area) (?:of|is|are)\b")
_ASKED = {"height": re.compile(r"\bhow (?:tall|high)\b|\bheight\b"), "width": re.compile(r"\bhow wide\b|\bwidth\b"),
          "length": re.compile(r"\bhow long\b|\blength\b"), "depth": re.compile(r"\bhow deep\b|\bdepth\b"),
          "area": re.compile(r"\b(?:floor )?area\b|\bsquare met(?:er|re)s?\b|\bhow many square\b|\bfootprint\b"),
          "dimensions": re.compile(r"\bdimensions?\b|\bmeasurements\b"),
          "size": re.compile(r"\bhow (?:big|large|small|much space)\b|\b(?:volume|size)\b")}
# The sizes the measure tool answers (one side, the box's three, a floor area); "size" and volume are the volume tool's.
MEASURED = frozenset({"height", "width", "length", "depth", "dimensions", "area"})


def english(query: str, read_chinese: bool = True) -> str:
    """The query in normalised English words (Chinese is read through `zh.to_english` first)."""
    return normalize_words(to_english(query) if read_chinese and has_chinese(query) else query).replace("'", " ")


_SENTENCE = re.compile(r"\s*[.;!?。？！；]+\s*")
_CLAUSE = re.compile(r"\s*[,，、]+\s*")


def english_sentences(query: str, read_chinese: bool = True) -> str:
    """The query in normalised English words with its sentence breaks kept ('this is a chair. it is red')."""
    text = to_english(query) if read_chinese and has_chinese(query) else query
    sentences = []
    for sentence in _SENTENCE.split(text):
        clauses = [english(clause, read_chinese=False) for clause in _CLAUSE.split(sentence)]
        sentences.append(", ".join(c for c in clauses if c))
    return ". ".join(s for s in sentences if s)


ROOM_PLACES = frozenset({"corner", "wall", "center", "floor", "ceiling"})  # sides that place a thing in its room


def _placed(phrase: Reading) -> bool:
    """Whether the words place a thing: by other things ('on the desk') or in its room ('in the corner')."""
    return bool(phrase.relations) or any(side.kind in ROOM_PLACES for side in phrase.sides)


def _first_word(phrase: Reading) -> str:
    return phrase.head.split()[0] if phrase.head else ""


def parse_intent(query: str, read_chinese: bool = True) -> QueryIntent:
    """The intents of a query (several may apply: 'show me the sofa and its colour'), its target and references."""
    words = english(query, read_chinese)
    sentences = english_sentences(query, read_chinese)
    intents = [name for name, pattern in _PATTERNS if pattern.search(words)]
    if "describe" in intents and len(intents) > 1:
        intents.remove("describe")  # 'what is the colour of …' is a colour question, not a description
    if "locate" in intents and {"count", "list"} & set(intents):
        intents.remove("locate")
    reference: Reference | None = "other" if _OTHER.search(words) else ("same" if _SAME.search(words) else None)
    target = _FRAMES.sub(" ", _ACTION_WORDS.sub(" ", sentences))
    target = re.sub(r"\s+", " ", target).strip(" .")
    phrase = read(target)
    if _WHATS_THERE.match(target) and _first_word(phrase) in ("", "one") and _placed(phrase):
        # "what is on the coffee table?", "what's next to the bed?": the things placed so, listed
        target = _WHATS_THERE.sub("things ", target, count=1)
        phrase = read(target)
        intents = [i for i in intents if i not in ("describe", "locate")]
    if _placed(phrase) and _first_word(phrase) in GENERIC_NOUNS and not (set(intents) - {"describe", "list"}):
        intents = [i for i in intents if i not in ("describe", "list")] + ["list"]  # "is there anything on it"
    asks_which = bool(_WHICH.search(words)) and phrase.size is not None and phrase.size.strict
    if asks_which and "volume" not in intents:
        intents.append("volume")  # "which one is the largest?" is answered with its size
    if phrase.order is not None and phrase.order.kind == "other":
        reference = "other"
    asked = [measure for measure, pattern in _ASKED.items() if pattern.search(words)]
    return QueryIntent(intents=tuple(intents), target=target, phrase=phrase, reference=reference, asks_which=asks_which,
                       lang=detect_language(query), asked_measure=asked[0] if len(asked) == 1 else None)
