"""Questions about two things at once: how far one is from the other, and whether one fits through the other.

"how far is the sofa from the tv?", "the distance between the bed and the window", "will the sofa fit through the
door?", "沙发离电视多远？", "沙发能通过门吗？" each name two descriptions, read apart: each is then found on its own
(and asked about on its own when it fits several things).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from scene_agent.language.words import has_chinese, normalize_words

PairKind = Literal["distance", "fit"]

_THINGS = r"(?P<a>.+?)"
_OTHER = r"(?P<b>.+?)"
_ENGLISH: list[tuple[PairKind, re.Pattern[str]]] = [
    ("distance", re.compile(rf"\bhow far (?:away )?(?:is|are) {_THINGS} (?:from|to) {_OTHER}$")),
    ("distance", re.compile(rf"\bhow far apart (?:is|are) {_THINGS} and {_OTHER}$")),
    ("distance", re.compile(rf"\bhow close (?:is|are) {_THINGS} to {_OTHER}$")),
    ("distance", re.compile(rf"\bdistance (?:between|from) {_THINGS} (?:and|to) {_OTHER}$")),
    ("fit", re.compile(rf"\b(?:will|would|does|do|can|could|might) {_THINGS} (?:fit|go|get|pass) "
                       rf"(?:in )?(?:through|thru) {_OTHER}$")),
    ("fit", re.compile(rf"\b(?:can|could|will) (?:i|we|you|they) (?:get|move|carry|bring|take|fit|push) {_THINGS} "
                       rf"(?:in |out )?(?:through|thru) {_OTHER}$")),
    ("fit", re.compile(rf"\bis {_OTHER} (?:wide|big|large|tall|high) enough for {_THINGS}$")),
]
_CHINESE: list[tuple[PairKind, re.Pattern[str]]] = [
    ("distance", re.compile(rf"^{_THINGS}(?:离|距离|距)(?:开)?{_OTHER}(?:有)?多远")),
    ("distance", re.compile(rf"^{_THINGS}(?:和|与|跟){_OTHER}(?:之间)?(?:相距|相隔|隔)?(?:有)?多远")),
    ("distance", re.compile(rf"^{_THINGS}(?:和|与|跟){_OTHER}(?:之间)?的?距离")),
    ("fit", re.compile(rf"^{_THINGS}(?:能不能|可不可以|能|可以|会)(?:通过|穿过|搬过|搬进|进得了|过得了|放进|搬出){_OTHER}"
                       rf"(?:吗|么|嘛|不)?$")),
]
_ENDINGS = re.compile(r"[\s?？。.!！]+$")
# Words at the front of a description that are not part of it ("what is the distance between …").
_LEADING = re.compile(r"^(?:please |and |so |then |the )")


@dataclass(frozen=True)
class PairQuestion:
    """A question about two things: `first` measured against `second` (for fit: the object, then the opening)."""

    kind: PairKind
    first: str
    second: str


def pair_question(query: str) -> PairQuestion | None:
    """The two descriptions of a distance or fit question, or None when the query is not one."""
    if has_chinese(query):
        text = _ENDINGS.sub("", query.strip())
        for kind, pattern in _CHINESE:
            if match := pattern.search(text):
                return _pair(kind, match["a"], match["b"])
        return None
    words = normalize_words(query).replace("'", " ").strip()
    for kind, pattern in _ENGLISH:
        if match := pattern.search(words):
            return _pair(kind, match["a"], match["b"])
    return None


def _pair(kind: PairKind, first: str, second: str) -> PairQuestion | None:
    first, second = first.strip(" ,，的"), second.strip(" ,，的")
    if not first or not second:
        return None
    return PairQuestion(kind=kind, first=first, second=second)
