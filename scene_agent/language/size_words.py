"""Size words: 'the biggest', 'the taller one', 'the large cabinet' — what is measured, which way, how strictly."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Measure = Literal["size", "height", "length", "depth"]
Extreme = Literal["max", "min"]

# word -> (measure, extreme, strict). Strict: superlatives and comparatives pick the one at the extreme;
# plain adjectives ('the large cabinet') pick the clearly large ones.
_SIZES: dict[str, tuple[Measure, Extreme, bool]] = {}
_ROWS: tuple[tuple[tuple[str, ...], Measure, Extreme], ...] = (
    (("big", "large", "huge", "spacious", "roomy"), "size", "max"),
    (("small", "little", "tiny", "compact"), "size", "min"),
    (("tall", "high"), "height", "max"),
    (("short", "low"), "height", "min"),
    (("long", "wide", "broad"), "length", "max"),
    (("narrow",), "length", "min"),
    (("deep",), "depth", "max"),
    (("shallow",), "depth", "min"),
)
for _words, _measure, _extreme in _ROWS:
    for _w in _words:
        _SIZES[_w] = (_measure, _extreme, False)
_FORMS = {"big": ("bigger", "biggest"), "large": ("larger", "largest"), "huge": ("huger", "hugest"),
          "small": ("smaller", "smallest"), "little": ("littler", "littlest"), "tiny": ("tinier", "tiniest"),
          "tall": ("taller", "tallest"), "high": ("higher", "highest"), "short": ("shorter", "shortest"),
          "low": ("lower", "lowest"), "long": ("longer", "longest"), "wide": ("wider", "widest"),
          "broad": ("broader", "broadest"), "narrow": ("narrower", "narrowest"), "deep": ("deeper", "deepest"),
          "shallow": ("shallower", "shallowest"), "roomy": ("roomier", "roomiest")}
for _base, _forms in _FORMS.items():
    for _form in _forms:
        _SIZES[_form] = (*_SIZES[_base][:2], True)


@dataclass(frozen=True)
class SizeWord:
    """A size qualifier: the measure, max or min, and whether only the extreme one fits (strict)."""

    word: str
    measure: Measure
    extreme: Extreme
    strict: bool


_WORD_FOR = {("size", "max"): "big", ("size", "min"): "small", ("height", "max"): "tall", ("height", "min"): "short",
             ("length", "max"): "long", ("length", "min"): "narrow", ("depth", "max"): "deep", ("depth", "min"): "shallow"}


def size_words(measure: Measure, extreme: Extreme, strict: bool) -> SizeWord:
    """The size word for a measure and direction: ('height', 'max', strict) → 'tallest'."""
    base = _WORD_FOR[(measure, extreme)]
    return SizeWord(word=_FORMS[base][1] if strict else base, measure=measure, extreme=extreme, strict=strict)


def size_word(words: list[str]) -> tuple[SizeWord | None, int]:
    """The size phrase at the start of `words` ('biggest', 'most spacious', 'the largest') and its length in words."""
    if len(words) >= 2 and words[0] in ("most", "least") and words[1] in _SIZES:
        measure, extreme, _ = _SIZES[words[1]]
        if words[0] == "least":
            extreme = "min" if extreme == "max" else "max"
        return SizeWord(word=f"{words[0]} {words[1]}", measure=measure, extreme=extreme, strict=True), 2
    if words and words[0] in _SIZES:
        measure, extreme, strict = _SIZES[words[0]]
        return SizeWord(word=words[0], measure=measure, extreme=extreme, strict=strict), 1
    return None, 0
