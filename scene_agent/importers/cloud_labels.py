"""What a labelled cloud's label names mean for a scene: the room's own points, noise, or things; and ASPRS's classes.

The room's own: wall, floor and ceiling (language/vocabulary.py: is_structure_label), the ground and buildings of an
outdoor scan. Unlabelled: the names datasets give points nobody labelled. Noise is left out of the scene. Everything
else is a thing, an object. docs/cli.md ("Labelled point clouds") lists them for people.
"""

from __future__ import annotations

from typing import Final

from scene_agent.language.vocabulary import is_structure_label

ROOM: Final = "room"
UNLABELLED: Final = "unlabelled"
NOISE: Final = "noise"
THING: Final = "thing"

# Points nobody labelled: the room's when alone; in an instance they leave the choice of its label to the others.
UNLABELLED_NAMES = frozenset({"unclassified", "never classified", "created never classified", "unlabeled", "unlabelled",
                              "unannotated", "unknown", "none", "void", "ignore", "ignored", "background"})
# What an outdoor scan stands on and in (ASPRS classes): the room's, like walls and floors.
ROOM_NAMES = frozenset({"ground", "building", "road surface", "water", "bridge deck", "snow", "ignored ground", "overlap",
                        "model key point", "temporal exclusion"})
NOISE_NAMES = frozenset({"noise", "low noise", "high noise", "low point"})

# The standard point classes of the ASPRS LAS 1.4 format; 23–63 are reserved, 64–255 are each user's own.
ASPRS_CLASSES: dict[int, str] = {
    0: "created never classified", 1: "unclassified", 2: "ground", 3: "low vegetation", 4: "medium vegetation",
    5: "high vegetation", 6: "building", 7: "low noise", 8: "model key point", 9: "water", 10: "rail",
    11: "road surface", 12: "overlap", 13: "wire guard", 14: "wire conductor", 15: "transmission tower",
    16: "wire structure connector", 17: "bridge deck", 18: "high noise", 19: "overhead structure", 20: "ignored ground",
    21: "snow", 22: "temporal exclusion",
}


def shown_label(name: str) -> str:
    """A label as the scene keeps it: the dataset's own words, lower case, '_' as a space (as the ScanNet importer
    keeps them; the scene index reads synonyms)."""
    return " ".join(name.lower().replace("_", " ").split()) or "object"


def kind_of_label(name: str) -> str:
    """ROOM, UNLABELLED, NOISE or THING for a label's name."""
    words = shown_label(name).replace("-", " ")
    if is_structure_label(words) or words in ROOM_NAMES:
        return ROOM
    if words in UNLABELLED_NAMES:
        return UNLABELLED
    return NOISE if words in NOISE_NAMES else THING
