"""A description split into head and qualifiers as the reading before did it (its `split_phrase` and `split_place`).

`split_phrase("the big red chair next to the window")`: the head "chair", the colour "red", the size "big" and the
place "next to" with its own words, "the window". One colour, one size and the first place phrase are read; every
other word stays in the head. Colour, size and order words are the product's tables, which have not changed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from scene_agent.language.color_words import ColorWord, color_word
from scene_agent.language.order_words import OrderWord, order_word
from scene_agent.language.size_words import SizeWord, size_word
from scene_agent.language.words import normalize_words

Relation = Literal["near", "closest", "farthest", "on", "under", "above", "between", "corner"]

_PHRASES: dict[Relation, tuple[str, ...]] = {
    "near": ("next to", "beside", "besides", "near to", "near", "close to", "close by", "by", "alongside", "in front of",
             "at"),
    "closest": ("closest to", "nearest to", "nearest", "closest", "nearer to", "nearer", "closer to"),
    "farthest": ("farthest from", "furthest from", "farthest away from", "furthest away from", "farther from",
                 "further from", "far from", "away from", "farthest", "furthest"),
    "on": ("on top of", "sitting on", "standing on", "resting on", "lying on", "on", "upon", "atop"),
    "under": ("underneath", "beneath", "below", "under"),
    "above": ("hanging over", "hanging above", "mounted above", "above", "over"),
    "between": ("in between", "between"),
}
_CORNER = re.compile(r"\b(?:in|at|into)(?: the| a| one of the)? corners?\b(?: of)?")
# What a floor phrase looks like after on/above/under: "on floor 1", "on the ground floor", "on level 2", "upstairs".
_FLOOR_AFTER = re.compile(r"^(?:the |a )?(?:(?:\w+ )?(?:floor|level|storey|story|floors|levels)\b|left\b|right\b|"
                          r"there\b|here\b|top\b(?! of))")
_RELATION_OF = {p: rel for rel, ps in _PHRASES.items() for p in ps}
_ANY = re.compile(r"\b(" + "|".join(re.escape(p) for p in sorted(_RELATION_OF, key=lambda p: -len(p))) + r")\b")


@dataclass(frozen=True)
class PlaceWord:
    """A place qualifier: the relation, the words for what it is relative to (and the second, for 'between')."""

    word: str
    relation: Relation
    reference: str | None = None
    reference2: str | None = None


@dataclass(frozen=True)
class Phrase:
    """A referring expression in parts: the head words and the qualifiers found around them."""

    text: str
    head: str
    color: ColorWord | None = None
    size: SizeWord | None = None
    place: PlaceWord | None = None
    order: OrderWord | None = None


def split_place(text: str) -> tuple[str, PlaceWord | None]:
    """(the words before the first relation, the place) for normalised `text`; (text, None) when it names no place."""
    if m := _CORNER.search(text):
        return " ".join((text[: m.start()] + " " + text[m.end():]).split()), PlaceWord(word="in the corner", relation="corner")
    for m in _ANY.finditer(text):
        phrase = m.group(1)
        relation = _RELATION_OF[phrase]
        after = text[m.end():].strip()
        if not after:
            continue  # "the one it sits on", "the closest": nothing to be placed relative to
        if relation in ("on", "above", "under", "near") and _FLOOR_AFTER.match(after):
            continue  # "on floor 1", "at the top"
        if phrase in ("at", "against", "by") and not re.match(r"(?:the |a |an |this |that )", after):
            continue  # "at once", "by myself": not places
        before = text[: m.start()].strip()
        if relation == "between":
            first, _, second = after.partition(" and ")
            return before, PlaceWord(word=phrase, relation=relation, reference=first.strip() or None,
                                     reference2=second.strip() or None)
        return before, PlaceWord(word=phrase, relation=relation, reference=after or None)
    return text, None


def split_phrase(text: str, *, numbers: bool = False) -> Phrase:
    """Split normalised English into head and qualifiers; `numbers` reads 'number 2' / '#2' as order words too."""
    words = normalize_words(text).replace("'", " ")
    order, words = order_word(words, numbers=numbers)
    head, place = split_place(words)
    tokens = head.split()
    kept: list[str] = []
    color: ColorWord | None = None
    size: SizeWord | None = None
    i = 0
    while i < len(tokens):
        if color is None:
            found, used = color_word(tokens[i:])
            if found is not None:
                color, i = found, i + used
                continue
        if size is None:
            sized, used = size_word(tokens[i:])
            if sized is not None:
                size, i = sized, i + used
                continue
        kept.append(tokens[i])
        i += 1
    return Phrase(text=text, head=" ".join(kept), color=color, size=size, place=place, order=order)
