"""The object words of the reading before: its synonym table and the scene's labels read with it.

The product's table has grown since (mug, coffee machine …); these are the words that reading knew. Rooms, floors and
the word forms (singular, compact) are the product's: they have not changed. A scene's index is the product's with
each object's label read by this table (`labelled`).
"""

from __future__ import annotations

import copy
import weakref
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from types import MappingProxyType

from scene_agent.language.words import compact, phrase_key, singular, singular_phrase
from scene_agent.scene.index import IndexedObject, SceneIndex

# The canonical object labels and the words people (and ScanNet's raw categories) used for them, as they were.
OBJECT_SYNONYMS: dict[str, tuple[str, ...]] = {
    "sofa": ("sofa", "couch", "settee", "loveseat", "love seat", "sectional"),
    "armchair": ("armchair", "easy chair", "lounge chair", "sofa chair", "recliner", "club chair"),
    "chair": ("chair", "seat", "dining chair", "folding chair", "folded chair"),
    "office chair": ("office chair", "desk chair", "swivel chair", "computer chair", "gaming chair"),
    "table": ("table",),
    "dining table": ("dining table", "kitchen table", "dinner table"),
    "coffee table": ("coffee table", "cocktail table"),
    "nightstand": ("nightstand", "bedside table", "night table", "bedside cabinet"),
    "bookshelf": ("bookshelf", "bookcase", "shelf", "shelving", "shelving unit"),
    "tv": ("tv", "television", "tv set", "telly"),
    "tv stand": ("tv stand", "tv cabinet", "media console", "tv unit", "entertainment center"),
    "refrigerator": ("refrigerator", "fridge", "freezer", "mini fridge", "fridge freezer"),
    "stove": ("stove", "oven", "cooker", "cooktop", "hob"),
    "bathtub": ("bathtub", "tub", "bath"),
    "toilet": ("toilet", "loo", "toilet bowl"),
    "sink": ("sink", "basin", "washbasin", "vanity"),
    "wardrobe": ("wardrobe", "armoire", "clothes closet"),
    "dresser": ("dresser", "chest of drawers", "drawers", "chest"),
    "lamp": ("lamp", "light", "table lamp", "desk lamp", "bedside lamp", "reading lamp"),
    "floor lamp": ("floor lamp", "standing lamp", "standard lamp"),
    "plant": ("plant", "potted plant", "houseplant", "flower pot", "flowerpot", "pot plant", "flower"),
    "washing machine": ("washing machine", "washer", "clothes washer", "laundry machine"),
    "clothes dryer": ("clothes dryer", "dryer", "tumble dryer"),
    "monitor": ("monitor", "computer screen", "computer monitor", "screen"),
    "rug": ("rug", "carpet", "mat", "doormat", "bath mat"),
    "stool": ("stool", "bar stool", "step stool"),
    "bench": ("bench",),
    "bed": ("bed",),
    "desk": ("desk", "writing desk", "computer desk", "office desk", "work desk"),
    "cabinet": ("cabinet", "cupboard", "storage cabinet"),
    "kitchen cabinet": ("kitchen cabinet", "kitchen cupboard"),
    "file cabinet": ("file cabinet", "filing cabinet"),
    "trash can": ("trash can", "trash bin", "garbage can", "garbage bin", "waste bin", "waste basket",
                  "wastepaper basket", "rubbish bin", "dustbin", "bin", "recycling bin"),
    "window": ("window", "windowpane", "window pane"),
    "door": ("door", "doorway", "doorframe", "door frame"),
    "picture": ("picture", "painting", "photo", "photograph", "artwork", "poster", "framed picture"),
    "curtain": ("curtain", "drape", "drapes"),
    "blinds": ("blinds", "window blinds"),
    "mirror": ("mirror",),
    "pillow": ("pillow",),
    "cushion": ("cushion", "throw pillow"),
    "ottoman": ("ottoman", "footstool", "pouf", "pouffe"),
    "counter": ("counter", "countertop", "worktop"),
    "kitchen counter": ("kitchen counter",),
    "dishwasher": ("dishwasher",),
    "microwave": ("microwave", "microwave oven"),
    "computer tower": ("computer tower", "computer", "pc", "desktop computer"),
    "laptop": ("laptop", "notebook computer"),
    "whiteboard": ("whiteboard", "white board", "dry erase board"),
    "radiator": ("radiator", "heater"),
    "box": ("box", "cardboard box", "carton"),
    "backpack": ("backpack", "rucksack"),
    "suitcase": ("suitcase", "luggage"),
    "shower": ("shower", "shower stall"),
}


@lru_cache(maxsize=1)
def object_aliases() -> Mapping[str, str]:
    """Every object word or phrase it knew (singular keys) mapped to its canonical label."""
    return MappingProxyType({phrase_key(alias): canonical for canonical, aliases in OBJECT_SYNONYMS.items()
                             for alias in aliases})


@lru_cache(maxsize=1)
def _compact_labels() -> Mapping[str, str]:
    return MappingProxyType({compact(alias): canonical for alias, canonical in object_aliases().items()})


@lru_cache(maxsize=4096)
def canonical_label(text: str) -> str:
    """A free-form object label in its canonical form, by this table."""
    phrase = singular_phrase(text.replace("-", " "))
    found = object_aliases().get(phrase_key(phrase)) or _compact_labels().get(compact(phrase))
    return found or phrase


def head_noun(label: str) -> str:
    """What a label is at heart ('office chair' -> 'chair'), by this table."""
    last = label.rsplit(" ", 1)[-1]
    return object_aliases().get(singular(last), singular(last))


_LABELLED: weakref.WeakKeyDictionary[SceneIndex, SceneIndex] = weakref.WeakKeyDictionary()


def labelled(index: SceneIndex) -> SceneIndex:
    """The scene's index with its objects' labels (and head nouns) as this table reads them; made once per index."""
    if index not in _LABELLED:
        old = copy.copy(index)
        old.objects, old.objects_by_label, old.objects_by_head = {}, defaultdict(list), defaultdict(list)
        for code, item in index.objects.items():
            label = canonical_label(item.obj.label)
            entry: IndexedObject = replace(item, label=label)
            old.objects[code] = entry
            old.objects_by_label[label].append(entry)
            if head_noun(label) != label:
                old.objects_by_head[head_noun(label)].append(entry)
        _LABELLED[index] = old
    return _LABELLED[index]
