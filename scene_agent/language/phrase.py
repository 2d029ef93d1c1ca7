"""A description split into what it names and how it narrows it: colour, size, place and order words.

`split_phrase("the big red chair next to the window")` gives the head "chair" (for the noun, room,
floor and code parser in `query.py`), the colour "red", the size "big" and the place "next to"
with its own description, "the window". Words it does not know are left in the head.
"""

from __future__ import annotations

from dataclasses import dataclass

from scene_agent.language.color_words import ColorWord, color_word
from scene_agent.language.order_words import OrderWord, order_word
from scene_agent.language.place_words import PlaceWord, split_place
from scene_agent.language.size_words import SizeWord, size_word
from scene_agent.language.words import normalize_words

PRONOUNS = frozenset({"one", "ones", "thing", "things", "it", "that", "this", "them", "those", "these"})


@dataclass(frozen=True)
class Phrase:
    """A referring expression in parts: the head words and the qualifiers found around them."""

    text: str
    head: str
    color: ColorWord | None = None
    size: SizeWord | None = None
    place: PlaceWord | None = None
    order: OrderWord | None = None

    @property
    def qualified(self) -> bool:
        """True when some word narrows which one is meant."""
        return any((self.color, self.size, self.place, self.order))

    @property
    def kinds(self) -> tuple[str, ...]:
        """Which qualifiers the phrase has: colour, size, place, order."""
        return tuple(kind for kind, value in (("color", self.color), ("size", self.size), ("place", self.place),
                                              ("order", self.order)) if value is not None)


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


def names_nothing(head: str) -> bool:
    """True when the head is only a pronoun or empty ('the red one', 'the first'): it refers to what was listed."""
    return all(w in PRONOUNS or w in ("the", "a", "an") for w in head.split())
