"""Where the words place the thing meant when only its references say: 'the lamp between the bed and the wardrobe
in the guest bedroom' is in the guest bedroom, for a thing is only ever placed by things in its own room."""

from __future__ import annotations

from dataclasses import replace

from scene_agent.language.reading import Reading
from scene_agent.resolution.matching import Match, match, related_kinds
from scene_agent.resolution.query import QuerySpec, describe
from scene_agent.scene.codes import kind_of, parent_of
from scene_agent.scene.loader import Scene


def says_where(spec: QuerySpec) -> bool:
    """Whether a description's own words name a room, a floor or a flat."""
    return bool(spec.room_types or spec.room_names or spec.floor is not None or spec.name_words)


def rooms_of_references(scene: Scene, reading: Reading) -> set[str]:
    """The rooms the references' own words place them in (at any depth; not what it is said not to be by)."""
    rooms: set[str] = set()
    references = [ref for relation in reading.relations if not relation.negated for ref in relation.references]
    if reading.view is not None:
        references += [r for r in (reading.view.toward, reading.view.at) if r is not None]
    for reference in references:
        spec = describe(reference, scene.index).spec
        if (spec.object_labels or spec.unknown_words) and says_where(spec):
            found = match(scene.index, spec).codes
            if not found:  # "closest to the door in the master bedroom" with no door there: still in that room
                found = match(scene.index, replace(spec, object_labels=(), generic=None)).codes
            rooms |= {c for c in found if kind_of(c) == "room"} | {room for c in found if kind_of(c) == "object" and (room := parent_of(c))}
        rooms |= rooms_of_references(scene, reference)
    return rooms


def kin_in_rooms(scene: Scene, spec: QuerySpec, rooms: frozenset[str]) -> Match | None:
    """A reference of a kind its rooms have none of, where they have a kind it may be filed under: 'the table' by a
    lamp in a bedroom with only nightstands is a nightstand (said so), not a table in another room."""
    kinds = related_kinds(spec.object_labels)
    if not kinds:
        return None
    found = match(scene.index, replace(spec, object_labels=kinds), related=False)
    codes = tuple(c for c in found.codes if parent_of(c) in rooms)
    present = tuple(dict.fromkeys(scene.index.objects[c].label for c in codes if c in scene.index.objects))
    return replace(found, codes=codes, instead_of=spec.object_labels, instead=present) if codes else None
