"""scene_agent/language/spelling.py: a misspelt word is read as pyspellchecker's corrector reads it, one or two edits
away, with the two-edit search done over the word list rather than over every string two edits away."""

from __future__ import annotations

import pytest
from spellchecker import SpellChecker

from scene_agent.language.spelling import is_english, mended


@pytest.fixture(scope="module")
def library() -> SpellChecker:
    return SpellChecker(language="en", distance=2)


@pytest.mark.parametrize("word", ["chiar", "bronw", "refridgerator", "recieve", "matress", "blabberish", "cabniet",
                                  "radaitor", "nighstand"])
def test_the_correction_is_the_librarys(library: SpellChecker, word: str) -> None:
    assert mended(word) == library.correction(word)


def test_two_edits_away_is_found(library: SpellChecker) -> None:
    assert not library.known(library.edit_distance_1("blabberish"))  # no listed word one edit away
    assert mended("blabberish") == "blabbering"


def test_english_words_and_words_far_from_any_are_left_alone() -> None:
    assert is_english("place") and mended("place") is None  # never read as "plate"
    assert mended("qzxwvk") is None
