"""Order words for follow-ups and picks in words: 'the first one', 'the second', 'the last', 'the other one', 'both', 'all of them'."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

OrderKind = Literal["nth", "last", "other", "both", "all"]

_NTH = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3, "fifth": 4, "5th": 4,
        "sixth": 5, "6th": 5, "seventh": 6, "7th": 6, "eighth": 7, "8th": 7, "ninth": 8, "9th": 8, "tenth": 9, "10th": 9}
_PHRASES: tuple[tuple[re.Pattern[str], OrderKind], ...] = (
    (re.compile(r"\b(?:the )?(?:other|others|rest|remaining)(?: ones?| one)?\b|\banother one\b"), "other"),
    (re.compile(r"\bboth(?: of them| ones)?\b"), "both"),
    (re.compile(r"\b(?:all|every one|each one|each)(?: of)?(?: them| those| these| the ones)\b|\ball of them\b|\ball three\b|"
                r"\ball four\b|\ball five\b"), "all"),
    (re.compile(r"\b(?:the )?last(?: one)?\b"), "last"),
)
_ORDINAL = re.compile(r"\b(?:the )?(" + "|".join(_NTH) + r")\b(?! (?:floor|level|storey|story)\b)")
_NUMBERED = re.compile(r"(?:\b(?:number|no|option|#)\s*|#)(\d{1,2})\b")


@dataclass(frozen=True)
class OrderWord:
    """A reference by position among what was last listed: the n-th (0-based), the last, the other(s), both, all."""

    word: str
    kind: OrderKind
    index: int | None = None

    def pick(self, codes: list[str], taken: list[str] | None = None) -> list[str]:
        """The codes this order word means among `codes` (listed order); `taken`: those already acted on, for 'other'."""
        if self.kind == "nth":
            return [codes[self.index]] if self.index is not None and self.index < len(codes) else []
        if self.kind == "last":
            return codes[-1:]
        if self.kind == "other":
            return [c for c in codes if c not in (taken or [])]
        if self.kind == "both":
            return list(codes) if len(codes) == 2 else []
        return list(codes)


def order_word(text: str, numbers: bool = False) -> tuple[OrderWord | None, str]:
    """The order word in `text` (normalised words) and the text without it; `numbers`: also 'number 2' / '#2'."""
    for pattern, kind in _PHRASES:
        if m := pattern.search(text):
            return OrderWord(word=m.group(0).strip(), kind=kind), _cut(text, m)
    if m := _ORDINAL.search(text):
        return OrderWord(word=m.group(0).strip(), kind="nth", index=_NTH[m.group(1)]), _cut(text, m)
    if numbers and (m := _NUMBERED.search(text)) and int(m.group(1)) >= 1:
        return OrderWord(word=m.group(0).strip(), kind="nth", index=int(m.group(1)) - 1), _cut(text, m)
    return None, text


def _cut(text: str, m: re.Match[str]) -> str:
    return " ".join((text[: m.start()] + " " + text[m.end():]).split())
