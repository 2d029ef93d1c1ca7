"""A description read against a scene as the reading before did it: the head's codes, floor, labels and rooms
(`parse_query`, with the object words of `vocabulary.py`), and the qualifiers, a place's references read on their own.

The floor words, stop words and the shape of the result (`QuerySpec`) are the product's: they have not changed.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from functools import lru_cache

from scene_agent.language.quantity import CODE_IN_TEXT
from scene_agent.language.vocabulary import canonical_room_type, room_aliases
from scene_agent.language.words import compact, has_chinese, normalize_words, phrase_key, singular
from scene_agent.language.zh import to_english
from scene_agent.resolution.query import GENERIC_OBJECT, GENERIC_ROOM, STOPWORDS, Generic, QuerySpec
from scene_agent.scene.index import SceneIndex
from scene_bench.grounding.before.phrase import Phrase, split_phrase
from scene_bench.grounding.before.vocabulary import object_aliases

_ORDINALS = {"ground": 0, "first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3,
             "fifth": 4, "5th": 4}
_FLOOR_NOUN = r"(?:floor|level|storey|story)"
_FLOOR_NUMBER = re.compile(rf"\b(?:on |at )?(?:the )?{_FLOOR_NOUN} (?:number |no )?(\d+)\b")
_FLOOR_WORD = re.compile(rf"\b(?:on |at )?(?:the )?(ground|first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|"
                         rf"top|upper|lower|bottom) {_FLOOR_NOUN}\b")
_FLOOR_ADVERB = re.compile(r"\b(upstairs|downstairs)\b")
_ALIAS_TABLES: weakref.WeakKeyDictionary[SceneIndex, dict[str, tuple[str, str]]] = weakref.WeakKeyDictionary()


def _aliases(index: SceneIndex) -> dict[str, tuple[str, str]]:
    """Phrase key (and compact form) -> (kind, value), built once per index; the scene's own names win."""
    if index in _ALIAS_TABLES:
        return _ALIAS_TABLES[index]
    table: dict[str, tuple[str, str]] = {}
    for alias, canonical in room_aliases().items():
        table[phrase_key(alias)] = ("room_type", canonical)
    present = set(index.objects_by_label) | set(index.objects_by_head)
    for alias, canonical in object_aliases().items():
        if canonical in present or " " not in alias:
            table.setdefault(alias, ("label", canonical))
    for room_type in index.room_types():
        table[phrase_key(room_type)] = ("room_type", room_type)
    for label in index.labels():
        table[phrase_key(label)] = ("label", label)
    for head in index.objects_by_head:
        table.setdefault(phrase_key(head), ("label", head))
    for name in index.room_names():
        key = phrase_key(name)
        if table.get(key, ("", ""))[0] != "room_type" or canonical_room_type(name) != "_".join(key.split()):
            table[key] = ("room_name", name)
    for key, hit in list(table.items()):
        if " " in key and hit[0] == "label":
            table.setdefault(compact(key), hit)
    _ALIAS_TABLES[index] = table
    return table


@lru_cache(maxsize=1)
def _absent_phrases() -> dict[str, str]:
    """Every known phrase of several words for a label, compact forms too: read when nothing else fits the words."""
    phrases = {alias: canonical for alias, canonical in object_aliases().items() if " " in alias}
    return {**phrases, **{compact(alias): canonical for alias, canonical in phrases.items()}}


def _with_aliases(table: dict[str, tuple[str, str]], words: list[str]) -> tuple[str, str] | None:
    usual = [hit[1] if (hit := table.get(w)) and hit[0] == "label" and " " not in hit[1] else w for w in words]
    return table.get(" ".join(usual)) if usual != words else None


def _resolve_floor(text: str, index: SceneIndex) -> tuple[str | None, str | None, str]:
    """(floor code, the words that chose it, text without them). Floor names the scene gives win."""
    numbers = sorted(int(c) for c in index.floors) or [0]
    second = numbers[1] if len(numbers) > 1 else numbers[0]
    relative = {"top": numbers[-1], "upper": second, "upstairs": second, "lower": numbers[0], "bottom": numbers[0],
                "downstairs": numbers[0]}
    named = ((code, re.search(rf"\b(?:on |at )?(?:the )?{re.escape(normalize_words(f.name))}\b", text))
             for code, f in index.floors.items() if f.name)
    code, m = next(((c, m) for c, m in named if m), (None, None))
    if m is None and (m := _FLOOR_NUMBER.search(text)):
        code = str(int(m.group(1)))
    elif m is None and (m := _FLOOR_WORD.search(text) or _FLOOR_ADVERB.search(text)):
        word = m.group(1)
        code = str(_ORDINALS[word] if word in _ORDINALS else relative[word])
    if m is None:
        return None, None, text
    return code, m.group(0).strip(), text[: m.start()] + " " + text[m.end():]


def parse_query(text: str, index: SceneIndex) -> QuerySpec:
    """Split a description's head into codes, a floor, object labels, room types/names and unknown words."""
    words = normalize_words(text)
    floor, floor_words, rest = _resolve_floor(words, index)
    codes = tuple(dict.fromkeys(CODE_IN_TEXT.findall(rest)))
    rest = re.sub(r"(?<=[^\W\d])-(?=[^\W\d])", " ", CODE_IN_TEXT.sub(" ", rest))
    tokens = rest.split()
    keys = [singular(t) for t in tokens]
    table = _aliases(index)
    longest = max((k.count(" ") + 1 for k in table), default=1)
    found: dict[str, list[str]] = {"label": [], "room_type": [], "room_name": []}
    unknown: list[str] = []
    generic: Generic | None = None
    i = 0
    while i < len(tokens):
        for n in range(min(longest, len(tokens) - i), 0, -1):
            span = keys[i:i + n]
            hit = table.get(" ".join(span)) or (table.get("".join(span)) or _with_aliases(table, span) if n > 1 else None)
            if hit:
                found[hit[0]].append(hit[1])
                i += n
                break
        else:
            key = keys[i]
            absent = next((n for n in range(min(4, len(tokens) - i), 0, -1)
                           if " ".join(keys[i:i + n]) in _absent_phrases()), 0)
            if absent:  # "trash can" in a scene without one: named, so the answer can say there is none
                found["label"].append(_absent_phrases()[" ".join(keys[i:i + absent])])
                i += absent
                continue
            if key in GENERIC_ROOM:
                generic = generic or "rooms"
            elif key in GENERIC_OBJECT:
                generic = "objects"
            elif tokens[i] not in STOPWORDS and key not in STOPWORDS and not tokens[i].isdigit():
                unknown.append(tokens[i])
            i += 1
    return QuerySpec(text=text, codes=codes, floor=floor, floor_words=floor_words,
                     object_labels=tuple(dict.fromkeys(found["label"])), room_types=tuple(dict.fromkeys(found["room_type"])),
                     room_names=tuple(dict.fromkeys(found["room_name"])), generic=generic,
                     name_words=tuple(dict.fromkeys(k for k in keys if k in index.rooms_by_name_word)),
                     unknown_words=tuple(w for w in unknown if singular(w) not in index.rooms_by_name_word))


@dataclass(frozen=True)
class Description:
    """A whole description read against a scene: its head (`spec`), its qualifiers (`phrase`), and for a place
    word the descriptions of what it is relative to (`references`: one, or two for 'between')."""

    phrase: Phrase
    spec: QuerySpec
    references: tuple[Description, ...] = ()


def english_words(text: str) -> str:
    """Normalised English words of a description (Chinese through the product's `zh.to_english`: the rows are English)."""
    return normalize_words(to_english(text) if has_chinese(text) else text).replace("'", " ")


def parse_description(text: str, index: SceneIndex, *, depth: int = 0) -> Description:
    """Read a description with its colour, size, place and order words; a place's reference is read the same way."""
    phrase = split_phrase(english_words(text))
    if phrase.place is not None and depth > 0:  # a reference inside a reference keeps its place words as plain words
        phrase = Phrase(text=phrase.text, head=phrase.text, color=phrase.color, size=phrase.size)
    references: tuple[Description, ...] = ()
    if phrase.place is not None:
        references = tuple(parse_description(ref, index, depth=depth + 1)
                           for ref in (phrase.place.reference, phrase.place.reference2) if ref)
    return Description(phrase=phrase, spec=parse_query(phrase.head, index), references=references)
