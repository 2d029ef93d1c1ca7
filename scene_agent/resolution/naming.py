"""Which of the scene's things the words name, as the scene names them: a head the scene has none of giving way to
the noun before it ('picture frame' → the pictures), the things named exactly as said ('doorframe', not every door),
and those named only by another name than the scene's own ('chair' for an office chair).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from scene_agent.language.reading import Unused, names_nothing
from scene_agent.resolution.matching import match
from scene_agent.resolution.query import Description, describe
from scene_agent.scene.loader import Scene


def named_otherwise(scene: Scene, description: Description) -> Description | None:
    """The head names nothing the scene has ('the window frame', 'the picture frame'): a noun said before the head
    that names something it has is the thing meant, and said so. (A thing it is placed by never stands in for it:
    'the plant next to the suitcase' is no suitcase.)"""
    reading = description.reading
    said = reading.head
    if not said or names_nothing(said):
        return None
    options = [replace(reading, head=u.word, said=u.word, unused=tuple(x for x in reading.unused if x is not u))
               for u in reading.unused if u.why == "kind_of"]
    for option in options:
        other = describe(replace(option, unused=(*option.unused, Unused(said, "named_other", option.head))), scene.index)
        if match(scene.index, other.spec, related=False).codes:
            return other
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
