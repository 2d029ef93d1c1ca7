"""Which of the scene's things the words name, as the scene names them: a head the scene has none of giving way to
the noun before it ('picture frame' → the pictures), the things named exactly as said ('doorframe', not every door),
and those named only by another name than the scene's own ('chair' for an office chair).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from scene_agent.language.reading import Unused, names_nothing
from scene_agent.language.relation_words import COMPONENTS, PARTS_OF
from scene_agent.language.words import singular
from scene_agent.resolution.matching import match
from scene_agent.resolution.query import Description, describe
from scene_agent.scene.loader import Scene


def named_otherwise(scene: Scene, description: Description) -> Description | None:
    """The head names nothing the scene has ('the window frame', 'the picture frame'): a noun said before the head
    that names something it has is the thing meant, and said so. (A thing it is placed by never stands in for it:
    'the plant next to the suitcase' is no suitcase.)"""
    reading = description.reading
    said = reading.head
    if not said or names_nothing(said):  # "it has wheels and armrests": what has them
        return _owners(scene, description)
    options = [replace(reading, head=u.word, said=u.word, unused=tuple(x for x in reading.unused if x is not u))
               for u in reading.unused if u.why == "kind_of"]
    for option in options:
        other = describe(replace(option, unused=(*option.unused, Unused(said, "named_other", option.head))), scene.index)
        if match(scene.index, other.spec, related=False).codes:
            return other
    return _owners(scene, description)


def _owners(scene: Scene, description: Description) -> Description | None:
    """The head is a part no scan shows on its own ('there are wheels on the bottom, and two armrests'): the things
    of the scene that have such parts are meant, and said so."""
    reading = description.reading
    head = " ".join(singular(w) for w in reading.head.split())
    if head and not names_nothing(head):
        part, said = head, reading.said or reading.head
    else:  # no head at all, only parts: the first part said
        said = next((u.word for u in reading.unused if u.why == "a_part"), "")
        part = singular(said.split()[-1]) if said else ""
    if part not in COMPONENTS:
        return None
    same = [u for u in reading.unused if u.why == "a_part" and singular(u.word.split()[-1]) == part]
    said = same[0].word if same else said  # as the words said it ('wheels')
    rest = tuple(u for u in reading.unused if u not in same)
    for kind in (kind for kind, parts in PARTS_OF.items() if part in parts):  # the likeliest owner first: chairs
        owners = describe(replace(reading, head=kind, said=kind, unused=(*rest, Unused(said, "part_of", kind))),
                          scene.index)
        if match(scene.index, owners.spec, related=False).codes:
            return owners
    return None


def exactly_named(scene: Scene, description: Description, base: tuple[str, ...]) -> tuple[str, ...]:
    """Where the scene names some candidates exactly as said ('doorframe') and others only by a synonym ('door'),
    the ones named as said: the scan tells them apart, so the words do. Kinds of it ('office chair' for 'chair')
    stay."""
    said = _as_named(description.reading.said)
    objects = scene.index.objects
    if not said or not all(c in objects for c in base):
        return base
    named = [c for c in base if _as_named(objects[c].obj.label) == said]
    if not named or len(named) == len(base):
        return base
    last = description.reading.said.split()[-1] if description.reading.said else ""
    kinds = [c for c in base if c not in named and objects[c].obj.label.lower().split()[-1:] == [last]
             and " " in objects[c].obj.label]
    return tuple(c for c in base if c in named or c in kinds)


def loosely_named(scene: Scene, description: Description, base: tuple[str, ...]) -> frozenset[str]:
    """The candidates named by another name than the scene's own for some of them ('chair' for an office chair, or
    for a 'chairs' group, when some are labelled 'chair'): 'the chair far from the table' may mean the farthest chair
    or the farthest office chair."""
    said = _as_named(description.reading.said)
    if not said:
        return frozenset()
    objects = scene.index.objects
    loose = {c for c in base if c in objects and _as_named(objects[c].obj.label) != said}
    return frozenset(loose) if loose and len(loose) < len(base) else frozenset()


@lru_cache(maxsize=4096)
def _as_named(label: str) -> str:
    """A name as compared with the scene's own: spaces, hyphens and case aside ('trash can' is 'trashcan'), the
    plural kept ('cabinets' is a group, 'cabinet' one)."""
    return "".join(c for c in label.lower() if c.isalnum())
