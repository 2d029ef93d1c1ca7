"""Misspelt words: which words are English at all, and what a misspelt one most likely was.

A real English word is never read as a misspelling ("place" is not "plate"); a word that is not one is read
as the scene's noun nearest in spelling (lexicon.py) or, failing that, as the English word pyspellchecker's
bundled word list and Norvig's corrector give ("bronw" → brown, "closes" stays "closes"). Loaded only when a
description holds a word no table knows. `mend_pieces` does this over a description's tagged pieces.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from scene_agent.language.lexicon import Lexicon
from scene_agent.language.tokens import Piece, tag

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
    found = _correction(word.lower())
    return found if found and found != word else None


def _correction(word: str) -> str | None:
    """What pyspellchecker's `correction` gives (the most frequent listed word at the smallest edit distance, one or
    two; ties to the first in alphabetical order), with the distance-2 search done by rapidfuzz over the list's words
    of about the word's length. The library builds every string two edits away instead, some 300,000 for a ten-letter
    word: most of a second, where this takes a few hundredths."""
    checker = _checker()
    frequency = checker.word_frequency.dictionary
    near = checker.known(checker.edit_distance_1(word))
    if not near:
        from rapidfuzz import process  # an unknown word two edits from any listed one: rare, so imported here
        from rapidfuzz.distance import DamerauLevenshtein

        hits = process.extract(word, _words_near_length(len(word)), scorer=DamerauLevenshtein.distance, score_cutoff=2,
                               limit=None)
        near = {hit[0] for hit in hits}
    return max(sorted(near), key=frequency.__getitem__) if near else None


@lru_cache(maxsize=64)
def _words_near_length(length: int) -> tuple[str, ...]:
    """The listed words within two letters of this length (only those can be two edits away)."""
    return tuple(w for w in _checker().word_frequency.dictionary if abs(len(w) - length) <= 2)


def mend_pieces(pieces: list[Piece], lexicon: Lexicon) -> tuple[list[Piece], list[tuple[str, str]]]:
    """Words no table knows and no English word list has: where a noun belongs (after 'the', an adjective, or alone),
    read as the scene's noun nearest in spelling ('chiar' → chair); elsewhere as the English word they most likely
    were, when a table knows that one ('bronw' → brown)."""
    out: list[Piece] = []
    mends: list[tuple[str, str]] = []
    for k, piece in enumerate(pieces):
        if piece.kind == "word" and not is_english(piece.words[0]):
            word = piece.words[0]
            before = out[-1].kind if out else None
            after = pieces[k + 1].kind if k + 1 < len(pieces) else None
            noun_slot = before in (None, "det", "color", "size", "shape", "material", "other", "num", "comma", "stop",
                                   "filler", "side") and after not in ("noun",)
            hit = lexicon.near_spelling(word) if noun_slot else None
            if hit is not None:
                out.append(Piece("noun", piece.words, hit))
                continue
            fixed = mended(word)
            retagged = tag([fixed], lexicon) if fixed else []
            if fixed and len(retagged) == 1 and retagged[0].kind not in ("word", "filler"):
                out.append(Piece(retagged[0].kind, piece.words, retagged[0].value))
                mends.append((word, fixed))
                continue
        out.append(piece)
    return out, mends
