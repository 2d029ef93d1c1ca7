"""Words that place a thing: relations to other things, sides, and where the speaker stands.

Three tables, each phrase → meaning, read by the grammar (grammar.py) with the longest phrase winning:

- `RELATIONS`: what a thing is relative to another ("next to", "on top of", "between", "to the left of",
  "across from") — the grammar reads the words after it as the other thing's own description;
- `SIDES`: where a thing is among its kind or in its room, with nothing after it ("on the left", "the
  middle one", "in the corner", "against the wall", "at the top");
- `VIEWS`: where the speaker stands or looks ("facing the bed", "looking at the front of the desk",
  "with your back to the window", "as you enter"): left and right are then read from there.

The Chinese for each lives in zh_lexicon.py and is read into these English phrases (zh.py).
"""

from __future__ import annotations

from typing import Literal

RelationKind = Literal["near", "closest", "farthest", "on", "supporting", "under", "above", "between", "inside",
                       "end", "opposite", "left", "right", "front", "behind", "facing", "with"]
SideKind = Literal["left", "right", "middle", "front", "back", "top", "bottom", "corner", "center", "wall", "far", "near",
                   "floor", "ceiling", "alone", "together"]
ViewKind = Literal["facing", "front_of", "back_to", "standing", "entering"]

# Relations: the phrase, then the description of what it is relative to.
RELATIONS: dict[str, RelationKind] = {}
_RELATION_ROWS: tuple[tuple[RelationKind, tuple[str, ...]], ...] = (
    ("near", ("next to", "right next to", "directly next to", "beside", "besides", "by", "near", "near to",
              "close to", "close by", "alongside", "adjacent to", "next", "neighboring", "neighbouring", "around",
              "at", "touching", "against", "up against", "beside of", "to the side of",
              "by the side of", "on the side of", "at the side of", "nearby", "along", "along side",
              # Compass words say beside it, on a side the scene cannot know (scans have no north).
              "east of", "west of", "north of", "south of", "to the east of", "to the west of", "to the north of",
              "to the south of", "on the east side of", "on the west side of", "on the north side of",
              "on the south side of")),
    ("closest", ("closest to", "nearest to", "nearest", "closest", "nearer to", "nearer", "closer to", "closer",
                 "closes to", "closet to", "most close to", "the closest to", "the nearest to", "closest from",
                 "nearest from", "towards", "toward", "more towards", "more toward")),
    ("farthest", ("farthest from", "furthest from", "farther from", "further from", "far from", "far away from",
                  "farthest away from", "furthest away from", "further away from", "farther away from", "away from",
                  "most distant from", "farthest", "furthest", "farthest to", "furthest to", "far away to")),
    ("on", ("on", "on top of", "on the top of",
            "upon", "atop",
            "on to", "onto",
            "attached to", "on the surface of")),
    ("supporting", ("supporting", "holding", "that supports", "supports", "underneath of")),
    ("under", ("under", "below", "beneath", "underneath", "directly under", "directly below", "right below",
               "right under", "just below", "just under", "under neath")),
    ("above", ("above", "over", "directly above", "right above",
               "just above", "on the wall above", "hung over", "high above")),
    ("between", ("between", "in between", "inbetween", "in the middle of", "in the center of", "in the centre of",
                 "sandwiched between", "betwen", "among", "amongst", "in the middle between")),
    ("inside", ("in", "inside", "inside of", "within", "into",
                "in the inside of")),
    ("end", ("at the end of", "at the foot of", "at the head of", "at the far end of", "on the end of",
             "at the bottom of", "at the top of", "by the foot of", "near the foot of", "near the end of",
             "at one end of", "on the far end of")),
    ("opposite", ("opposite", "opposite of", "opposite to", "opposite from", "across from", "directly across from",
                  "across the room from", "on the other side of", "on the opposite side of", "across", "facing away from",
                  "on the opposite side from", "across the table from", "directly opposite")),
    ("left", ("to the left of", "left of", "on the left of", "on the left side of", "to the left side of",
              "at the left of", "on left of", "to left of", "on the left hand side of", "to the left hand side of",
              "left side of", "on the left-hand side of", "on the far left side of", "to the far left of", "far left of",
              "on the far left of")),
    ("right", ("to the right of", "right of", "on the right of", "on the right side of", "to the right side of",
               "at the right of", "on right of", "to right of", "on the right hand side of", "to the right hand side of",
               "right side of", "on the right-hand side of", "on the far right side of", "to the far right of",
               "far right of", "on the far right of")),
    ("front", ("in front of", "in the front of", "infront of", "directly in front of", "right in front of",
               "just in front of", "before")),
    ("behind", ("behind", "in back of", "on the back of", "at the back of", "directly behind", "right behind",
                "just behind", "back of", "in the back of")),
    ("facing", ("facing", "faces", "that faces", "pointing at", "turned towards", "turned toward", "facing towards",
                "facing toward", "looking at")),
    ("with", ("with", "that has", "which has", "that have", "has", "have", "having", "has got", "have got", "containing", "contains",
              "that holds", "holds", "that contains", "carrying", "includes", "including", "that includes", "which includes",
              "that contain", "contain", "housing", "houses")),
)
for _kind, _phrases in _RELATION_ROWS:
    RELATIONS.update(dict.fromkeys(_phrases, _kind))

# Sides and places that need no other thing: among its kind, or in its room.
SIDES: dict[str, SideKind] = {}
_SIDE_ROWS: tuple[tuple[SideKind, tuple[str, ...]], ...] = (
    ("left", ("on the left", "to the left", "on the left side", "on the left hand side", "on the left-hand side",
              "left", "leftmost", "left most", "left-most", "far left", "farthest left", "furthest left", "most left",
              "the left", "on left", "left hand", "left-hand", "lefthand", "at the left", "left side", "the left side",
              "to the far left", "on the far left", "the farthest left", "the furthest left", "most left one",
              "all the way on the left", "all the way to the left", "all the way left", "the left most", "the leftmost")),
    ("right", ("on the right", "to the right", "on the right side", "on the right hand side", "on the right-hand side",
               "right", "rightmost", "right most", "right-most", "far right", "farthest right", "furthest right",
               "most right", "the right", "on right", "right hand", "right-hand", "righthand", "at the right",
               "right side", "the right side", "to the far right", "on the far right", "the farthest right",
               "the furthest right", "all the way on the right", "all the way to the right", "all the way right",
               "the right most", "the rightmost")),
    ("middle", ("in the middle", "middle", "in the center", "in the centre", "center", "centre", "central",
                "in between", "the middle one", "in middle", "centered", "centred", "in the middle of the group",
                "in the middle of the row", "in the middle of the others", "in the middle of the rest",
                "in the middle of the three", "in the middle of them", "in the middle of the line",
                "in the center of the group", "in the center of the row", "in the middle of the other two",
                "between the other two", "in between the other two", "between the others")),
    ("front", ("in the front", "in front", "front", "at the front", "frontmost", "nearest to you", "closest to you",
               "closest to the viewer", "up front")),
    ("back", ("in the back", "at the back", "back", "in back", "rear", "at the rear", "in the rear", "backmost",
              "farthest from you", "furthest from you", "farthest away", "furthest away", "in the far back")),
    ("top", ("on top", "at the top", "top", "upper", "uppermost", "topmost", "highest", "higher", "on the top",
             "up high", "above the others", "top most", "elevated", "raised", "higher up", "highest up", "up top")),
    ("bottom", ("at the bottom", "on the bottom", "bottom", "lower", "lowest", "bottommost", "lowermost",
                "down low", "below the others", "bottom most")),
    ("corner", ("in the corner", "in a corner", "at the corner", "in the corner of the room", "in corner",
                "corner", "in one corner", "into the corner", "in the corners", "cornered", "in the far corner",
                "in the back corner", "in the left corner", "in the right corner", "in the back left corner",
                "in the back right corner", "in the front left corner", "in the front right corner", "in the near corner",
                "in the far corner of the room", "in the far left corner", "in the far right corner",
                "in the left hand corner", "in the right hand corner", "tucked in the corner", "in the corner of")),
    ("center", ("in the middle of the room", "in the center of the room", "in the centre of the room",
                "middle of the room", "center of the room", "centre of the room", "in the room's center")),
    ("floor", ("on the floor", "on the ground", "sitting on the floor", "on floor", "standing on the floor",
               "lying on the floor", "on the carpet", "resting on the floor", "placed on the floor", "down on the floor",
               "on the floor of the room")),
    ("ceiling", ("on the ceiling", "from the ceiling", "hanging from the ceiling", "mounted on the ceiling",
                 "attached to the ceiling", "near the ceiling", "by the ceiling", "up on the ceiling")),
    ("alone", ("by itself", "all by itself", "off by itself", "sitting by itself", "standing by itself", "on its own",
               "all on its own", "alone", "all alone", "standing alone", "sitting alone", "by themselves", "on their own",
               "apart from the others", "away from the others", "away from the rest", "separate from the others",
               "isolated", "set apart", "off on its own", "by its self", "lone", "solitary", "by it self")),
    ("together", ("next to each other", "side by side", "beside each other", "by each other", "close together",
                  "right next to each other", "near each other", "close to each other", "together", "in a pair",
                  "that sit together", "sitting together", "standing together", "paired")),
    ("wall", ("against the wall", "against a wall", "along the wall", "along a wall", "on the wall", "on a wall",
              "by the wall", "next to the wall", "near the wall", "up against the wall", "up against a wall",
              "against the walls", "pushed against the wall", "close to the wall", "mounted on the wall",
              "hanging on the wall", "hung on the wall", "attached to the wall", "on the wall of the room",
              "against wall", "on wall", "next to a wall", "near a wall", "by a wall", "touching the wall",
              "touching a wall", "flush against the wall", "against the side wall", "along the side wall")),
)
for _side, _phrases in _SIDE_ROWS:
    SIDES.update(dict.fromkeys(_phrases, _side))
# "on your left", "to your right": the speaker's own left and right; "furthest to the left": the leftmost.
for _side in ("left", "right"):
    SIDES.update(dict.fromkeys((f"{far} to the {_side}" for far in ("furthest", "farthest", "further", "farther", "most",
                                                                     "the furthest", "the farthest", "the most")), _side))
    SIDES.update(dict.fromkeys((f"on your {_side}", f"to your {_side}", f"at your {_side}", f"your {_side}",
                                f"on your {_side} side", f"on your {_side} hand side", f"to your far {_side}"), _side))

# Where the speaker stands or looks. The words after it (up to a comma) say at what.
VIEWS: dict[str, ViewKind] = {}
_VIEW_ROWS: tuple[tuple[ViewKind, tuple[str, ...]], ...] = (
    ("facing", ("facing", "face", "facing towards", "facing toward", "face towards", "face toward", "looking at",
                "look at", "looking towards", "looking toward", "look towards", "look toward", "looking in the direction of",
                "facing the direction of", "staring at", "stare at", "turned towards", "turned toward", "viewing",
                "standing facing", "stand facing", "looking straight at", "facing directly", "directly facing",
                "looking the", "stand looking at", "stand looking toward", "stand looking towards", "standing looking at",
                "standing looking toward", "standing looking towards", "stand and look at", "stand and face",
                "standing and looking at", "standing and facing", "toward", "towards")),
    ("front_of", ("facing the front of", "looking at the front of", "face the front of", "look at the front of",
                  "facing the front side of", "looking at the front side of", "standing in front of", "stand in front of",
                  "facing the front", "looking at the front", "you are in front of")),
    ("back_to", ("with your back to", "with your back against", "with your back towards", "with your back facing",
                 "your back to", "your back against", "your back is to", "your back is against", "your back is facing",
                 "back to", "back against", "with back to", "with your backs to", "your back towards")),
    ("standing", ("stood at", "stood on", "stood by", "stood in", "stood next to", "stand on", "you are at", "you are by",
                  "you are next to", "you are near",
                  "standing at", "stand at", "standing by", "stand by", "standing in", "stand in", "standing near",
                  "stand near", "standing next to", "stand next to", "standing on", "sitting at", "sit at", "sitting on",
                  "sit on", "sitting in", "sit in", "from", "as seen from", "seen from", "viewed from", "coming from",
                  "coming in from", "walking from", "looking from", "standing beside", "stand beside")),
    ("entering", ("enter", "entering", "walk in", "walking in", "come in", "coming in", "enter the room",
                  "walk into the room", "walking into the room", "come into the room", "coming into the room",
                  "walk through the door", "walking through the door", "walk in the door", "walk in through the door",
                  "from the entrance", "at the entrance", "upon entering", "on entering", "enter through the door",
                  "walk into", "walking into", "entering the room", "enter the door")),
)
# Words that may come before a view at the start of a clause: "if you are facing …", "when you enter …".
VIEW_PREFIX = frozenset({"if", "when", "while", "as", "assuming", "once", "upon", "you", "are", "re", "were", "i", "am",
                         "we", "one", "is", "your", "someone", "person", "viewer", "just", "first", "now", "then",
                         "imagine", "suppose", "pretend", "so"})
for _view, _phrases in _VIEW_ROWS:
    VIEWS.update(dict.fromkeys(_phrases, _view))

# Words before a relation or a description that add nothing: "located", "that is", "which are".
LOCATIVE_VERBS = frozenset({"located", "placed", "positioned", "situated", "sitting", "standing", "set", "found", "kept",
                            "lying", "laying", "resting", "sits", "stands", "lies", "rests", "is", "are", "was", "were",
                            "be", "being", "been", "hanging", "hangs", "mounted", "seen", "pushed", "tucked", "stored",
                            "stacked", "leaning", "leans", "put", "parked", "installed", "attached", "built",
                            "appears", "appear", "seems", "directly", "just", "also", "immediately", "kind",
                            "somewhat", "slightly", "pretty", "very", "fairly", "rather", "quite", "sort"})

# Relations whose room word says where to look ("the chair in the kitchen", "the lamp by the bedroom"), not a thing the
# other is placed by ("to the right of the closet": a closet, the thing).
PLACING = frozenset({"inside", "on", "near", "end", "with"})

# The same relation seen from the other thing: "the table with a lamp on it" is the table supporting the lamp.
INVERSE: dict[str, str] = {"on": "supporting", "supporting": "on", "under": "above", "above": "under", "front": "behind",
                           "behind": "front", "left": "right", "right": "left", "inside": "with", "near": "near", "with": "near"}
# A relation to a part of a thing is a relation to the thing: "on the short side of the table" is by the table.
PART_RELATION: dict[str, str] = {"side": "near", "edge": "near", "short side": "near", "long side": "near", "other side": "near",
                                 "far side": "near", "near side": "near", "opposite side": "near", "end": "end", "far end": "end",
                                 "near end": "end", "foot": "end", "head": "end", "headboard": "end", "left end": "end", "right end": "end",
                                 "top": "on", "surface": "on", "bottom": "near", "front": "front", "front side": "front",
                                 "back": "behind", "back side": "behind", "rear": "behind", "left side": "left",
                                 "left hand side": "left", "right side": "right", "right hand side": "right", "corner": "end",
                                 "middle": "between", "center": "between", "centre": "between", "area": "near", "part": "near",
                                 "section": "near", "portion": "near", "half": "near", "base": "near"}
# What things have as parts, not beside them: "the chair with a cream seat", "the monitor with a pink screen", "the
# cabinet with two doors" describe the thing itself (by its last word); such a "with" places it by nothing.
_SEATING = frozenset({"seat", "back", "backrest", "armrest", "arm", "leg", "wheel", "cushion", "caster"})
PARTS_OF: dict[str, frozenset[str]] = {
    **dict.fromkeys(("chair", "armchair", "sofa", "couch", "stool", "bench", "ottoman"), _SEATING),
    **dict.fromkeys(("monitor", "tv", "television", "laptop", "computer"), frozenset({"screen", "frame", "stand"})),
    **dict.fromkeys(("cabinet", "dresser", "wardrobe", "closet", "nightstand", "desk", "drawer", "shelf", "bookshelf",
                     "refrigerator", "fridge", "microwave", "oven", "dishwasher"),
                    frozenset({"door", "drawer", "handle", "knob", "shelf", "leg"})),
    **dict.fromkeys(("bed", "picture", "window", "door", "mirror", "whiteboard"), frozenset({"frame", "handle", "leg"})),
    **dict.fromkeys(("table",), frozenset({"leg", "top", "drawer"})),
}
# Parts that are no thing of a scan on their own (a chair's wheels, a cabinet's knobs): nouns (singular, as the lexicon
# keys them), so that "with wheels" is read as a part of the thing, not as words nobody knows.
COMPONENTS = frozenset({"wheel", "leg", "armrest", "arm rest", "backrest", "back rest", "knob", "handle", "caster"})


def said_as_part(owner: str | None, thing: str | None, with_: bool) -> Literal["a_part", "describes"] | None:
    """Why a thing said of another is no thing to place it by: a part no scan shows ('with wheels', 'two armrests on
    it'), or, after 'with', a part the owner is known to have ('the chair with a cream seat': its own seat)."""
    if thing in COMPONENTS:
        return "a_part"
    if with_ and thing and owner and thing in PARTS_OF.get(owner.split()[-1], ()):
        return "describes"
    return None

