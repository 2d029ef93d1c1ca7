"""Words as the parsers see them: normalised text, singular nouns, compound forms, and which language a text is in."""

from __future__ import annotations

import re
from typing import Literal

import inflection

Lang = Literal["en", "zh"]

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]{2,}")


def detect_language(text: str) -> Lang | None:
    """'zh' when the text has Chinese characters, 'en' when it has English words, None when neither (codes only)."""
    if _CJK.search(text):
        return "zh"
    if _LATIN.search(text):
        return "en"
    return None


def has_chinese(text: str) -> bool:
    """True when the text holds at least one Chinese character."""
    return bool(_CJK.search(text))


def normalize_words(text: str) -> str:
    """Lower-case, turn separators into spaces, collapse whitespace."""
    text = text.lower().replace("_", " ").replace("/", " ").replace("’", "'")
    text = re.sub(r"[^\w\s-]", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def singular(word: str) -> str:
    """The singular of an English noun ('chairs' -> 'chair'); unchanged when already singular."""
    if len(word) < 3 or not word.endswith("s") or word.endswith("ss"):
        return word
    return inflection.singularize(word) or word


def singular_phrase(text: str) -> str:
    """Singularize the head (last word) of a phrase: 'dining chairs' -> 'dining chair'."""
    words = normalize_words(text).split()
    if not words:
        return ""
    words[-1] = singular(words[-1])
    return " ".join(words)


def phrase_key(phrase: str) -> str:
    """A phrase as lookups compare it: normalised, every word singular ('kitchen chairs' -> 'kitchen chair')."""
    return " ".join(singular(w) for w in normalize_words(phrase).replace("-", " ").split())


def compact(phrase: str) -> str:
    """The phrase with its spaces and hyphens taken out: 'trash can', 'trash-can' and 'trashcan' meet as 'trashcan'."""
    return phrase_key(phrase).replace(" ", "")
