"""A description resolved against one scene's vocabulary: codes, a floor, labels, room types and names.

`parse_query` reads the head of a description ("the chair in the kitchen on floor 0");
`parse_description` reads a whole one, its qualifiers included ("the red chair next to the window"),
with the things a place word refers to read as descriptions of their own.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from scene_agent.language.grammar import read
from scene_agent.language.lexicon import Lexicon, default_lexicon
from scene_agent.language.quantity import CODE_IN_TEXT
from scene_agent.language.reading import Reading
from scene_agent.language.vocabulary import canonical_room_type, object_aliases, room_aliases
from scene_agent.language.words import compact, has_chinese, normalize_words, phrase_key, singular
from scene_agent.language.zh import to_english
from scene_agent.scene.index import SceneIndex

_ORDINALS = {"ground": 0, "first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3, "fifth": 4, "5th": 4}
_FLOOR_NOUN = r"(?:floor|level|storey|story)"
_FLOOR_NUMBER = re.compile(rf"\b(?:on |at )?(?:the )?{_FLOOR_NOUN} (?:number |no )?(\d+)\b")
_FLOOR_WORD = re.compile(rf"\b(?:on |at )?(?:the )?(ground|first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|"
                         rf"top|upper|lower|bottom) {_FLOOR_NOUN}\b")
_FLOOR_ADVERB = re.compile(r"\b(upstairs|downstairs)\b")
GENERIC_ROOM = {"room", "space", "area"}
GENERIC_OBJECT = {"object", "thing", "item", "furniture", "piece", "something", "anything", "everything", "stuff"}
STOPWORDS = set(
    [
        "a", "an", "the", "this", "that", "these", "those", "of", "in", "on", "at", "to", "for", "from", "with", "and",
        "or", "by", "is", "are", "was", "were", "be", "it", "its", "me", "my", "i", "you", "your", "we", "our", "us",
        "please", "show", "display", "visualize", "visualise", "view", "see", "look", "find", "locate", "where", "which",
        "what", "whats", "what's", "how", "many", "much", "big", "large", "small", "size", "volume", "color", "colour",
        "colours", "colors", "compare", "comparison", "each", "every", "all", "any", "some", "one", "ones", "other", "tell",
        "give", "get", "open", "there", "here", "do", "does", "did", "can", "could", "would", "should", "tall", "wide",
        "long", "high", "dimension", "dimensions", "measure", "red", "green", "blue", "yellow", "black", "white", "gray",
        "grey", "brown", "orange", "purple", "pink", "dark", "light", "bright", "largest", "smallest", "biggest", "highest",
        "lowest", "most", "least", "than", "more", "less", "between", "both", "mean", "meant", "just", "only", "also", "s"
    ]
)

Generic = Literal["rooms", "objects"]


@dataclass(frozen=True)
class QuerySpec:
    """What a description asks for, resolved against one scene's vocabulary."""

    text: str
    codes: tuple[str, ...] = ()
    floor: str | None = None
    floor_words: str | None = None
    object_labels: tuple[str, ...] = ()
    room_types: tuple[str, ...] = ()
    room_names: tuple[str, ...] = ()
    generic: Generic | None = None
    name_words: tuple[str, ...] = ()
    unknown_words: tuple[str, ...] = ()


_ALIAS_TABLES: weakref.WeakKeyDictionary[SceneIndex, dict[str, tuple[str, str]]] = weakref.WeakKeyDictionary()
_LONGEST: weakref.WeakKeyDictionary[SceneIndex, int] = weakref.WeakKeyDictionary()


def _longest(index: SceneIndex) -> int:
    """Words in the longest phrase of the index's alias table (worked out once per index)."""
    if index not in _LONGEST:
        _LONGEST[index] = max((k.count(" ") + 1 for k in _aliases(index)), default=1)
    return _LONGEST[index]


def _aliases(index: SceneIndex) -> dict[str, tuple[str, str]]:
    """Phrase key (and compact form) -> (kind, value), built once per index; the scene's own names win.

    A known phrase for a label the scene lacks is kept only when it is one word ("bathtub": the answer
    can say there is none); longer ones ("kitchen cabinet") would hide the room and label they also are.
    """
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
        table.setdefault(phrase_key(head), ("label", head))  # "the stand" finds the tv stand
    for name in index.room_names():
        # A name that is just its type ("Bathroom", "Kitchen") must not hide the other rooms of that type.
        key = phrase_key(name)
        if table.get(key, ("", ""))[0] != "room_type" or canonical_room_type(name) != "_".join(key.split()):
            table[key] = ("room_name", name)
    for key, hit in list(table.items()):
        if " " in key and hit[0] == "label":
            table.setdefault(compact(key), hit)  # "trashcan" finds "trash can", "dish rack" finds "dishrack"
    _ALIAS_TABLES[index] = table
    return table


@lru_cache(maxsize=1)
def _absent_phrases() -> dict[str, str]:
    """Every known phrase of several words for a label, compact forms too: read when nothing else fits the words."""
    phrases = {alias: canonical for alias, canonical in object_aliases().items() if " " in alias}
    return {**phrases, **{compact(alias): canonical for alias, canonical in phrases.items()}}


def _with_aliases(table: dict[str, tuple[str, str]], words: list[str]) -> tuple[str, str] | None:
    """A phrase found once its words are put in their usual form: 'television stand' is the 'tv stand'."""
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
    """Split a description into codes, a floor, object labels, room types/names and unknown words."""
    words = normalize_words(text)
    floor, floor_words, rest = _resolve_floor(words, index)
    codes = tuple(dict.fromkeys(CODE_IN_TEXT.findall(rest)))
    rest = re.sub(r"(?<=[^\W\d])-(?=[^\W\d])", " ", CODE_IN_TEXT.sub(" ", rest))  # "fridge-freezer" is two words
    tokens = rest.split()
    keys = [singular(t) for t in tokens]
    table = _aliases(index)
    longest = _longest(index)
    labels: list[str] = []
    room_types: list[str] = []
    room_names: list[str] = []
    unknown: list[str] = []
    generic: Generic | None = None
    i = 0
    while i < len(tokens):
        for n in range(min(longest, len(tokens) - i), 0, -1):
            span = keys[i:i + n]
            hit = table.get(" ".join(span)) or (table.get("".join(span)) or _with_aliases(table, span) if n > 1 else None)
            if hit:
                kind, value = hit
                {"label": labels, "room_type": room_types, "room_name": room_names}[kind].append(value)
                i += n
                break
        else:
            key = keys[i]
            absent = next((n for n in range(min(4, len(tokens) - i), 0, -1)
                           if " ".join(keys[i:i + n]) in _absent_phrases()), 0)
            if absent:  # "trash can" in a scene without one: named, so the answer can say there is none
                labels.append(_absent_phrases()[" ".join(keys[i:i + absent])])
                i += absent
                continue
            if key in GENERIC_ROOM:
                generic = generic or "rooms"
            elif key in GENERIC_OBJECT:
                generic = "objects"
            elif tokens[i] not in STOPWORDS and key not in STOPWORDS and not tokens[i].isdigit():
                unknown.append(tokens[i])
            i += 1
    return QuerySpec(
        text=text,
        codes=codes,
        floor=floor,
        floor_words=floor_words,
        object_labels=tuple(dict.fromkeys(labels)),
        room_types=tuple(dict.fromkeys(room_types)),
        room_names=tuple(dict.fromkeys(room_names)),
        generic=generic,
        name_words=tuple(dict.fromkeys(k for k in keys if k in index.rooms_by_name_word)),
        unknown_words=tuple(w for w in unknown if singular(w) not in index.rooms_by_name_word),
    )


@dataclass(frozen=True)
class Description:
    """A description read against a scene: its reading (grammar.read) and what its head names here (`spec`)."""

    reading: Reading
    spec: QuerySpec

    @property
    def text(self) -> str:
        """The words it was read from."""
        return self.reading.text

    @property
    def nameless(self) -> bool:
        """Whether the words name no kind of thing, only where it is: 'the things on the coffee table', 'something
        under the window'. Where it is is then all they say: a place that holds for none leaves nothing."""
        spec = self.spec
        return spec.generic == "objects" and not (spec.object_labels or spec.codes or spec.room_types or spec.room_names)


_LEXICONS: weakref.WeakKeyDictionary[SceneIndex, Lexicon] = weakref.WeakKeyDictionary()


def scene_lexicon(index: SceneIndex) -> Lexicon:
    """The nouns every scene shares plus this scene's own object labels, room types and room names."""
    if index not in _LEXICONS:
        objects = {o.obj.label for o in index.objects.values()} | set(index.objects_by_label)
        rooms = set(index.room_types()) | set(index.room_names())
        _LEXICONS[index] = default_lexicon().with_names(objects, rooms, index.room_names())
    return _LEXICONS[index]


def english_words(text: str) -> str:
    """The description in English words, its punctuation kept (Chinese is read through `zh.to_english`)."""
    return to_english(text) if has_chinese(text) else text


def parse_description(text: str, index: SceneIndex, *, numbers: bool = False) -> Description:
    """Read a description (colour, size, shape, place, order words, several sentences) against a scene."""
    reading = read(english_words(text), scene_lexicon(index), numbers=numbers)
    return describe(reading, index)


def describe(reading: Reading, index: SceneIndex) -> Description:
    """A reading bound to a scene: what its head names there."""
    return Description(reading=reading, spec=parse_query(reading.head, index))
