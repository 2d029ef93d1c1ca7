"""Nouns the grammar recognises: things, rooms, a room's own surfaces, parts of things — several words at once,
plural or singular, spaced or compact ('trash can', 'trashcan'), and misspelt ('chiar').

A `Lexicon` is built from the tables in vocabulary.py and, for a scene, from the names its rooms and objects
carry (`with_names`), so the grammar knows the scene's own words ('copier', 'paper towel dispenser') as nouns.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from scene_agent.language.relation_words import COMPONENTS
from scene_agent.language.vocabulary import OBJECT_SYNONYMS, ROOM_SYNONYMS, SCANNET_NOUNS
from scene_agent.language.words import singular

NounKind = Literal["object", "room", "structure", "part", "generic"]

STRUCTURE_NOUNS = ("wall", "walls", "floor", "ceiling", "room", "corner", "window sill", "windowsill", "doorway",
                   "entrance", "entryway", "stall")
# Parts of a thing: "the end of the table", "the foot of the bed", "the left side of the room".
PART_NOUNS = ("end", "side", "front", "back", "top", "bottom", "middle", "center", "centre", "edge", "foot", "head",
              "headboard", "half", "part", "area", "surface", "base", "rear", "far end", "near end", "front side",
              "back side", "left side", "right side", "left hand side", "right hand side", "other side", "opposite side",
              "short side", "long side", "left end", "right end", "far side", "near side", "section", "portion")
GENERIC_NOUNS = ("object", "thing", "item", "furniture", "piece of furniture", "piece", "stuff", "unit", "something", "anything",
                 "everything")
FUZZY_MIN_LENGTH = 4
FUZZY_MIN_SCORE = 80.0  # rapidfuzz's ratio (0–100): 'sofaa' ~ 'sofa' 89, 'chiar' ~ 'chair' 80


@dataclass(frozen=True)
class NounHit:
    """A noun phrase found in the words: its kind and its usual form (singular, spaced)."""

    words: str
    kind: NounKind
    corrected: str | None = None  # the word as written, when it was read as a misspelling of `words`


def key_of(words: Iterable[str]) -> str:
    """The lookup key of some words: each singular, joined by spaces ('kitchen cabinets' -> 'kitchen cabinet')."""
    return " ".join(singular(w) for w in words)


class Lexicon:
    """Noun phrases by key, longest first; a single unknown word may be read as a near spelling of a known one."""

    def __init__(self, phrases: dict[str, NounKind], name_words: frozenset[str] = frozenset()):
        self.kinds = phrases
        self.name_words = name_words  # words of the scene's room names ('master', 'guest'): where to look
        self.compact = {k.replace(" ", ""): k for k in phrases if " " in k}
        self.longest = max((k.count(" ") + 1 for k in phrases), default=1)
        self._fuzzy: list[str] | None = None

    def with_names(self, objects: Iterable[str], rooms: Iterable[str], room_names: Iterable[str] = ()) -> Lexicon:
        """This lexicon plus a scene's own object labels and room names and types; the words of the room names
        ('master' of 'Master bedroom') are known as names, so 'the master bed' looks in that room."""
        phrases = dict(self.kinds)
        room_keys = {key_of(_words_of(name)) for name in rooms}
        for name in objects:
            key = key_of(_words_of(name))
            if phrases.get(key) == "room" and key not in room_keys:
                phrases[key] = "object"  # "the closet" of a scan whose closets are things, not rooms
            phrases.setdefault(key, "object")
        for name in objects:  # "the hamper" of a scan with a laundry hamper, "the tower" with a computer tower
            words = _words_of(name)
            if len(words) > 1 and words[-1].isalpha() and len(words[-1]) > 2 and words[-1] not in _WORDS_OF_THEIR_OWN:
                phrases.setdefault(key_of(words[-1:]), "object")
        for name in rooms:
            phrases.setdefault(key_of(_words_of(name)), "room")
        names = frozenset(w for name in room_names for w in _words_of(name) if w.isalpha() and len(w) > 2)
        return Lexicon(phrases, self.name_words | names)

    def match(self, tokens: list[str], i: int) -> tuple[int, NounHit] | None:
        """The longest noun phrase starting at tokens[i] and how many tokens it takes."""
        for n in range(min(self.longest, len(tokens) - i), 0, -1):
            words = tokens[i:i + n]
            if not all(w.isalnum() for w in words):
                continue
            key = key_of(words)
            kind = self.kinds.get(key)
            if kind is None and n <= 2:
                glued = "".join(singular(w) for w in words) if n == 2 else key
                joined = glued if glued in self.kinds and n == 2 else self.compact.get(glued)
                kind, key = (self.kinds[joined], joined) if joined else (None, key)
            if kind is not None:
                return n, NounHit(words=key, kind=kind)
        return None

    def near_spelling(self, word: str) -> NounHit | None:
        """A known object or room word this one is a misspelling of ('sofaa' -> 'sofa'), when one is clearly nearest."""
        if len(word) < FUZZY_MIN_LENGTH or not word.isalpha():
            return None
        from rapidfuzz import fuzz, process  # imported here: only an unknown word needs it

        if self._fuzzy is None:
            self._fuzzy = [k for k, kind in self.kinds.items() if kind in ("object", "room") and len(k) >= 3]
        found = process.extract(word, self._fuzzy, scorer=fuzz.ratio, limit=2, score_cutoff=FUZZY_MIN_SCORE)
        if not found or (len(found) > 1 and found[1][1] >= found[0][1]):
            return None
        best = found[0][0]
        return NounHit(words=best, kind=self.kinds[best], corrected=word)


# Last words of labels that are other words on their own ('you can see', 'a stand of', 'in any case').
_WORDS_OF_THEIR_OWN = frozenset({"can", "cans", "stand", "case", "set", "top", "back", "side", "unit", "area", "thing", "item",
                        "object", "part", "piece", "one", "way", "end", "front", "holder", "cover", "box", "bag"})


def _words_of(name: str) -> list[str]:
    return name.lower().replace("_", " ").replace("-", " ").split()


@lru_cache(maxsize=1)
def default_lexicon() -> Lexicon:
    """The nouns every scene shares: object and room words with their synonyms, ScanNet's categories, structure,
    parts and generic nouns."""
    phrases: dict[str, NounKind] = {}
    for noun in GENERIC_NOUNS:
        phrases[key_of(noun.split())] = "generic"
    for noun in PART_NOUNS:
        phrases[key_of(noun.split())] = "part"
    for noun in STRUCTURE_NOUNS:
        phrases[key_of(noun.split())] = "structure"
    for aliases in ROOM_SYNONYMS.values():
        for alias in aliases:
            phrases.setdefault(key_of(alias.split()), "room")
    for label, aliases in OBJECT_SYNONYMS.items():
        for alias in (label, *aliases):
            phrases.setdefault(key_of(alias.split()), "object")
    for noun in SCANNET_NOUNS:
        phrases.setdefault(key_of(noun.split()), "object")
    for noun in COMPONENTS:
        phrases.setdefault(key_of(noun.split()), "object")
    return Lexicon(phrases)
