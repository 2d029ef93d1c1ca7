"""How many of what was found the words mean: all of them, several to pick, a comparison, a plural, or one.

These read the normalised English words of a query (Chinese is read into English first, see zh.py).
"""

from __future__ import annotations

import re

from scene_agent.language.vocabulary import canonical_label, canonical_room_type
from scene_agent.language.words import singular

CODE_IN_TEXT = re.compile(r"(?<![\w.])\d+-\d+(?:-\d+)?(?![\w.])")
_ALL = re.compile(r"\b(all|every|each|both|how many|number of|count|total|list|everything|any of)\b")
_SUPERLATIVE = re.compile(r"\b(\w+est|most|least|biggest|largest|smallest|tallest|shortest|widest|narrowest|"
                          r"highest|lowest|darkest|lightest|brightest)\b")
_NOT_SUPERLATIVE = {"best", "rest", "test", "west", "guest", "chest", "nest", "forest", "interest", "request", "suggest",
                    "honest", "modest", "just", "must", "est", "latest", "closest", "nearest", "farthest", "furthest"}
_COMPARE = re.compile(r"\b(compare|comparing|comparison|difference|differences|differ|versus|vs|side by side)\b")
_SEVERAL = re.compile(r"\b(some|several|a few|a couple|pick|choose|select|which ones)\b")
_PLURAL_PRONOUN = re.compile(r"\b(they|them|these|those|ones|rooms|objects|things|items)\b")


def asks_all(words: str) -> bool:
    """'all / every / each / both / how many / list': about every one of them."""
    return bool(_ALL.search(words))


def has_superlative(words: str) -> bool:
    """'the largest', 'the darkest' (not 'guest', 'best', nor the place words 'closest to')."""
    return any(w not in _NOT_SUPERLATIVE for w in _SUPERLATIVE.findall(words))


def compares(words: str) -> bool:
    """'compare', 'difference', 'versus'."""
    return bool(_COMPARE.search(words))


def asks_several(words: str) -> bool:
    """'some', 'a few', 'pick', 'choose': the user means several, to be picked."""
    return bool(_SEVERAL.search(words))


def codes_in(words: str) -> set[str]:
    """The room and object codes written in the words."""
    return set(CODE_IN_TEXT.findall(words))


def plural_reference(words: str, labels: set[str], types: set[str]) -> bool:
    """True when the words name the candidates in the plural ('the chairs', 'bedrooms', 'them')."""
    if _PLURAL_PRONOUN.search(words):
        return True
    for token in words.split():
        one = singular(token)
        if one != token and (canonical_label(one) in labels or one in labels or canonical_room_type(one) in types):
            return True
    return False


def names_any(words: str, labels: set[str], types: set[str], names: set[str]) -> bool:
    """True when a word or two of the query is what the candidates are ('chair', 'seat', 'bedroom'), not only where."""
    tokens = words.split()
    phrases = tokens + [" ".join(tokens[i:i + 2]) for i in range(len(tokens) - 1)]
    return any(canonical_label(p) in labels or canonical_room_type(p) in types or p in names for p in phrases)
