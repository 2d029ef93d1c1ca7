"""Place words: 'next to X', 'closest to X', 'on X', 'under X', 'above X', 'between X and Y', 'in the corner'.

`split_place` finds the first relation phrase in a description and splits it into the part before
(what is being described) and the part after (what it is placed relative to). "on"/"above"/"under"
before a floor ("on floor 1", "on the upper floor") are floors, not places.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

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


@dataclass(frozen=True)
class PlaceWord:
    """A place qualifier: the relation, the words for what it is relative to (and the second, for 'between')."""

    word: str
    relation: Relation
    reference: str | None = None
    reference2: str | None = None


def _pattern() -> re.Pattern[str]:
    phrases = sorted(((p, rel) for rel, ps in _PHRASES.items() for p in ps), key=lambda pr: -len(pr[0]))
    return re.compile(r"\b(" + "|".join(re.escape(p) for p, _ in phrases) + r")\b")


_RELATION_OF = {p: rel for rel, ps in _PHRASES.items() for p in ps}
_ANY = _pattern()


def split_place(text: str) -> tuple[str, PlaceWord | None]:
    """(the words before the relation, the place) for normalised `text`; (text, None) when it names no place."""
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
