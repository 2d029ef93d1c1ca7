"""Words people use for rooms and objects: canonical names, synonyms, compound forms and ScanNet's category names.

A label or room word is looked up by its key (every word singular) and, failing that, by its compact
form (no spaces or hyphens), so "trash can", "trash-cans" and "trashcan" meet. Labels outside the
tables are used as they come. Chinese names live in `zh_lexicon.py`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from scene_agent.language.words import compact, normalize_words, phrase_key, singular, singular_phrase

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

# Canonical object labels and the words and phrases people (and ScanNet's raw categories) use for them.
# A phrase that only narrows by place ("kitchen chair", "bathroom sink") is deliberately absent: the
# parser reads it as a room and a label, which is what it means.
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
    "stove": ("stove", "oven", "cooker", "cooktop", "hob", "stovetop", "stove top"),
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
                  "wastepaper basket", "rubbish bin", "dustbin", "bin", "recycling bin", "garbage", "trash",
                  "wastebasket", "waste can", "garbage pail", "trash bucket"),
    "window": ("window", "windowpane", "window pane"),
    "door": ("door", "doorway", "doorframe", "door frame"),
    "picture": ("picture", "painting", "photo", "photograph", "artwork", "poster", "framed picture"),
    "curtain": ("curtain", "drape", "drapes"),
    "blinds": ("blinds", "window blinds"),
    "mirror": ("mirror",),
    "pillow": ("pillow",),
    "cushion": ("cushion", "throw pillow"),
    "ottoman": ("ottoman", "footstool", "pouf", "pouffe"),
    "counter": ("counter", "countertop", "worktop", "counter top"),
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
    "cup": ("cup", "mug", "coffee cup", "coffee mug", "tea cup", "teacup"),
    "coffee maker": ("coffee maker", "coffee machine", "espresso machine", "coffeemaker"),
    "copier": ("copier", "copy machine", "photocopier", "photo copier", "xerox machine", "copying machine"),
}

# Kinds people and scanners file the same thing under ('an armchair' the scan calls a chair, 'the desk' it calls a
# table): looked at, with a note, only when the scene has nothing of the kind said. Canonical labels on both sides.
RELATED_LABELS: dict[str, tuple[str, ...]] = {
    "armchair": ("chair", "sofa"), "chair": ("armchair", "stool"), "office chair": ("chair", "armchair"),
    "stool": ("chair", "ottoman"), "ottoman": ("stool",), "sofa": ("armchair",),
    "desk": ("table",), "table": ("desk", "nightstand", "end table", "coffee table"), "dining table": ("table",),
    "coffee table": ("table",),
    "end table": ("nightstand", "table"), "nightstand": ("end table", "cabinet"), "dresser": ("cabinet",),
    "cabinet": ("dresser", "nightstand", "shelf"), "kitchen cabinet": ("cabinet",), "file cabinet": ("cabinet",),
    "wardrobe": ("closet", "cabinet"), "closet": ("wardrobe",), "bookshelf": ("shelf", "cabinet"),
    "whiteboard": ("board", "blackboard"), "board": ("whiteboard", "blackboard", "picture"), "blackboard": ("board",),
    "monitor": ("tv", "computer tower"), "tv": ("monitor",), "computer tower": ("monitor",),
    "curtain": ("shower curtain", "blinds", "window"), "blinds": ("curtain",), "shower curtain": ("curtain",),
    "picture": ("poster", "board", "mirror"), "poster": ("picture",), "mirror": ("picture",),
    "pillow": ("cushion",), "cushion": ("pillow",), "rug": ("mat",), "counter": ("kitchen counter",),
    "kitchen counter": ("counter",), "trash can": ("bin",), "lamp": ("light", "floor lamp"), "floor lamp": ("lamp",),
    "box": ("bin", "container"), "sink": ("bathroom vanity",), "bathroom vanity": ("sink", "cabinet"),
    "bag": ("backpack", "purse", "suitcase"), "backpack": ("bag",), "purse": ("bag",), "suitcase": ("bag", "luggage"),
    "printer": ("copier",), "copier": ("printer",), "shelf": ("bookshelf", "cabinet"), "bench": ("seat", "ottoman"),
    "container": ("box", "bin", "bucket"), "bucket": ("container", "bin"),
}

# Labels that are the room itself: its points, never objects (the manifest's room files hold them).
STRUCTURE_LABELS = frozenset({"wall", "floor", "ceiling"})


@lru_cache(maxsize=1)
def room_aliases() -> Mapping[str, str]:
    """Every known room word or phrase (singular) mapped to its canonical room type."""
    return MappingProxyType({alias: canonical for canonical, aliases in ROOM_SYNONYMS.items() for alias in aliases})


@lru_cache(maxsize=1)
def object_aliases() -> Mapping[str, str]:
    """Every known object word or phrase (singular keys) mapped to its canonical label."""
    return MappingProxyType({phrase_key(alias): canonical for canonical, aliases in OBJECT_SYNONYMS.items()
                             for alias in aliases})


@lru_cache(maxsize=1)
def _compact_labels() -> Mapping[str, str]:
    return MappingProxyType({compact(alias): canonical for alias, canonical in object_aliases().items()})


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
    """Map a free-form object label ('Couch', 'kitchen chairs', 'trashcan') to its canonical label."""
    phrase = singular_phrase(text.replace("-", " "))
    found = object_aliases().get(phrase_key(phrase)) or _compact_labels().get(compact(phrase))
    return found or phrase


def head_noun(label: str) -> str:
    """What a label is at heart ('office chair' -> 'chair', 'mini fridge' -> 'refrigerator')."""
    last = label.rsplit(" ", 1)[-1]
    return object_aliases().get(singular(last), singular(last))


def is_structure_label(text: str) -> bool:
    """True for labels that are the room's own surfaces (wall, floor, ceiling), not objects in it."""
    return singular_phrase(text) in STRUCTURE_LABELS

# The categories of ScanNet's 200-class benchmark: what scanned rooms hold, so that a description naming one of
# them ("the copier", "the paper towel dispenser") is read as naming a thing, whether the scene has one or not.
SCANNET_NOUNS: tuple[str, ...] = (
    "wall", "chair", "floor", "table", "door", "couch", "cabinet", "shelf", "desk", "office chair", "bed", "pillow",
    "sink", "picture", "window", "toilet", "bookshelf", "monitor", "curtain", "book", "armchair", "coffee table", "box",
    "refrigerator", "lamp", "kitchen cabinet", "towel", "clothes", "tv", "nightstand", "counter", "dresser", "stool",
    "cushion", "plant", "ceiling", "bathtub", "end table", "dining table", "keyboard", "bag", "backpack", "toilet paper",
    "printer", "tv stand", "whiteboard", "blanket", "shower curtain", "trash can", "closet", "stairs", "microwave",
    "stove", "shoe", "computer tower", "bottle", "bin", "ottoman", "bench", "board", "washing machine", "mirror",
    "copier", "basket", "sofa chair", "file cabinet", "fan", "laptop", "shower", "paper", "person",
    "paper towel dispenser", "oven", "blinds", "rack", "plate", "blackboard", "piano", "suitcase", "rail", "radiator",
    "recycling bin", "container", "wardrobe", "soap dispenser", "telephone", "bucket", "clock", "stand", "light",
    "laundry basket", "pipe", "clothes dryer", "guitar", "toilet paper holder", "seat", "speaker", "column", "bicycle",
    "ladder", "bathroom stall", "shower wall", "cup", "jacket", "storage bin", "coffee maker", "dishwasher",
    "paper towel roll", "machine", "mat", "windowsill", "bar", "toaster", "bulletin board", "ironing board", "fireplace",
    "soap dish", "kitchen counter", "doorframe", "toilet paper dispenser", "mini fridge", "fire extinguisher", "ball",
    "hat", "shower curtain rod", "water cooler", "paper cutter", "tray", "shower door", "pillar", "ledge",
    "toaster oven", "mouse", "toilet seat cover dispenser", "cart", "storage container", "scale", "tissue box",
    "light switch", "crate", "power outlet", "decoration", "sign", "projector", "closet door", "vacuum cleaner",
    "candle", "plunger", "stuffed animal", "headphones", "dish rack", "broom", "guitar case", "range hood", "dustpan",
    "hair dryer", "water bottle", "handicap bar", "purse", "vent", "shower floor", "water pitcher", "mailbox", "bowl",
    "paper bag", "alarm clock", "music stand", "projector screen", "divider", "laundry detergent", "bathroom counter",
    "bathroom vanity", "closet wall", "laundry hamper", "bathroom stall door", "ceiling light", "trash bin",
    "dumbbell", "stair rail", "tube", "bathroom cabinet", "cd case", "closet rod", "coffee kettle", "shower head",
    "keyboard piano", "case of water bottles", "coat rack", "storage organizer", "folded chair", "fire alarm",
    "power strip", "calendar", "poster", "potted plant", "luggage", "mattress", "cabinets", "kitchen cabinets",
    "books", "shoes", "doors", "pillows", "boxes", "easel", "globe", "vase", "painting", "frame", "faucet", "drawer",
    "drawers", "handle", "knob", "cord", "wire", "cable", "outlet", "switch", "sofa", "tote bag", "pen", "pencil",
    "phone", "remote", "remote control", "air conditioner", "heater", "wardrobe closet", "stall door", "stall",
    "bathroom", "urinal", "hand dryer", "dispenser", "sculpture", "statue", "figurine", "chest", "trunk", "rug",
    "carpet", "blanket", "sheet", "quilt", "comforter", "duvet", "headboard", "footboard", "railing", "banister",
)
