"""Words people use for rooms and objects: canonical names, synonyms, singular and plural."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

import inflection

# Canonical room types (snake_case) and the words people use for them.
ROOM_SYNONYMS: dict[str, tuple[str, ...]] = {
    "bedroom": ("bedroom", "bed room", "master bedroom", "guest room", "guest bedroom", "kids room", "nursery", "hotel room"),
    "kitchen": ("kitchen", "kitchenette", "pantry"),
    "living_room": ("living room", "lounge", "sitting room", "family room", "living area", "den"),
    "dining_room": ("dining room", "dining area", "dining hall"),
    "bathroom": ("bathroom", "bath room", "restroom", "washroom", "toilet room", "wc", "lavatory", "powder room"),
    "study": ("study", "office", "home office", "workroom", "library"),
    "hallway": ("hallway", "hall", "corridor", "entrance", "entryway", "foyer", "lobby", "landing"),
    "laundry_room": ("laundry room", "laundry", "utility room"),
    "closet": ("closet", "walk in closet", "storage room", "storage"),
    "garage": ("garage",),
    "balcony": ("balcony", "terrace", "patio"),
    "staircase": ("staircase", "stairs", "stairwell"),
    "conference_room": ("conference room", "meeting room"),
    "classroom": ("classroom",),
    "gym": ("gym", "fitness room"),
}

# Canonical object labels and their synonyms. Labels outside this table are used as they come.
OBJECT_SYNONYMS: dict[str, tuple[str, ...]] = {
    "sofa": ("sofa", "couch", "settee", "loveseat"),
    "armchair": ("armchair", "arm chair", "easy chair", "lounge chair"),
    "chair": ("chair", "seat"),
    "office chair": ("office chair", "desk chair", "swivel chair"),
    "table": ("table",),
    "dining table": ("dining table", "kitchen table"),
    "coffee table": ("coffee table",),
    "nightstand": ("nightstand", "night stand", "bedside table", "night table"),
    "bookshelf": ("bookshelf", "bookcase", "book shelf", "shelf", "shelves", "shelving"),
    "tv": ("tv", "television", "tv set", "telly"),
    "tv stand": ("tv stand", "tv cabinet", "media console"),
    "refrigerator": ("refrigerator", "fridge", "freezer"),
    "stove": ("stove", "oven", "cooker", "cooktop"),
    "bathtub": ("bathtub", "bath tub", "tub", "bath"),
    "toilet": ("toilet", "loo"),
    "sink": ("sink", "basin", "washbasin"),
    "wardrobe": ("wardrobe", "armoire"),
    "dresser": ("dresser", "chest of drawers"),
    "lamp": ("lamp", "light"),
    "floor lamp": ("floor lamp", "standing lamp"),
    "plant": ("plant", "potted plant", "houseplant", "flower pot"),
    "washing machine": ("washing machine", "washer"),
    "monitor": ("monitor", "computer screen"),
    "rug": ("rug", "carpet", "mat"),
    "stool": ("stool", "bar stool"),
    "bench": ("bench",),
    "bed": ("bed",),
    "desk": ("desk", "writing desk"),
    "cabinet": ("cabinet", "cupboard"),
}

_STRUCTURE = {"wall", "floor", "ceiling", "door", "window", "doorframe", "floor mat"}


def normalize_words(text: str) -> str:
    """Lower-case, turn separators into spaces, collapse whitespace."""
    text = text.lower().replace("_", " ").replace("/", " ")
    text = re.sub(r"[^\w\s-]", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def singular(word: str) -> str:
    """The singular of an English noun ('chairs' -> 'chair'); unchanged when already singular."""
    if len(word) < 3 or not word.endswith("s"):
        return word
    return inflection.singularize(word) or word


def singular_phrase(text: str) -> str:
    """Singularize the head (last word) of a phrase: 'dining chairs' -> 'dining chair'."""
    words = normalize_words(text).split()
    if not words:
        return ""
    words[-1] = singular(words[-1])
    return " ".join(words)


@lru_cache(maxsize=1)
def room_aliases() -> Mapping[str, str]:
    """Every known room word or phrase (singular) mapped to its canonical room type."""
    return MappingProxyType({alias: canonical for canonical, aliases in ROOM_SYNONYMS.items() for alias in aliases})


@lru_cache(maxsize=1)
def object_aliases() -> Mapping[str, str]:
    """Every known object word or phrase (singular) mapped to its canonical label."""
    return MappingProxyType({alias: canonical for canonical, aliases in OBJECT_SYNONYMS.items() for alias in aliases})


@lru_cache(maxsize=4096)
def canonical_room_type(text: str) -> str:
    """Map a free-form room type ('Living room / Lounge', 'Bedroom') to a canonical snake_case type."""
    words = normalize_words(text)
    aliases = room_aliases()
    # Longest known phrase found anywhere in the text wins ("Living room / Lounge" -> living_room).
    for alias in sorted(aliases, key=len, reverse=True):
        if re.search(rf"(?<![\w]){re.escape(alias)}s?(?![\w])", words):
            return aliases[alias]
    return "_".join(singular_phrase(words).split()) or "room"


@lru_cache(maxsize=4096)
def canonical_label(text: str) -> str:
    """Map a free-form object label ('Couch', 'kitchen chairs') to its canonical label."""
    phrase = singular_phrase(text)
    return object_aliases().get(phrase, phrase)


def is_structure_label(text: str) -> bool:
    """True for labels that belong to the room's structure (walls, floor, ceiling...)."""
    return singular_phrase(text) in _STRUCTURE
