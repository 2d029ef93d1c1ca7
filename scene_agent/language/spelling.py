"""Misspelt words: which words are English at all, and what a misspelt one most likely was.

A real English word is never read as a misspelling ("place" is not "plate"); a word that is not one is read
as the scene's noun nearest in spelling (lexicon.py) or, failing that, as the English word pyspellchecker's
bundled word list and Norvig's corrector give ("bronw" → brown, "closes" stays "closes"). Loaded only when a
description holds a word no table knows.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spellchecker import SpellChecker

MIN_LENGTH = 3


@lru_cache(maxsize=1)
def _checker() -> SpellChecker:
    from spellchecker import SpellChecker

    return SpellChecker(language="en", distance=2)


@lru_cache(maxsize=4096)
def is_english(word: str) -> bool:
    """True when the word is in the English word list (or too short to judge)."""
    return len(word) < MIN_LENGTH or not word.isalpha() or bool(_checker().known([word]))


@lru_cache(maxsize=4096)
def mended(word: str) -> str | None:
    """The English word a misspelt one most likely was, or None when it is English already or has no near word."""
    if is_english(word):
        return None
    found = _checker().correction(word)
    return found if found and found != word else None
