"""What the head of a description names: the rooms and objects matching its codes, labels, room words and floor.

No qualifiers here (narrowing.py does those). When nothing matches, `Match.missing` says why, as data
(an unknown floor or code, a label with none where asked, a room type the scene lacks, unknown words),
for the find tool to word in the user's language.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from typing import Literal

from scene_agent.language.vocabulary import RELATED_LABELS, object_aliases, room_aliases
from scene_agent.resolution.query import QuerySpec
from scene_agent.scene.codes import code_sort_key, kind_of
from scene_agent.scene.index import IndexedObject, IndexedRoom, SceneIndex
from scene_agent.scene.room_types import UNTELLING

MissingKind = Literal["floor", "codes", "label", "room", "words", "unlisted"]


@dataclass(frozen=True)
class Missing:
    """Why nothing matched: what was asked for, and what the scene has instead."""

    kind: MissingKind
    asked: tuple[str, ...]             # the floor, codes, labels, room words or unknown words asked for
    rooms: tuple[str, ...] = ()        # the room types, room names and room codes it was limited to
    floor: str | None = None           # the floor it was limited to
    elsewhere: tuple[str, ...] = ()    # codes of the rooms that do have the label / rooms of that type elsewhere
    suggestions: tuple[str, ...] = ()  # closest words of the scene's vocabulary
    names: tuple[str, ...] = ()        # words of a room's name it was limited to ('2b' of "Kitchen, flat 2B")
    untyped: tuple[str, ...] = ()      # a room of no type that tells, that may be the one asked for


@dataclass(frozen=True)
class Match:
    """The codes a head names (scene order), the floor it was limited to, and why it is empty if it is."""

    codes: tuple[str, ...]
    floor: str | None = None
    missing: Missing | None = None
    fallback_rooms: tuple[str, ...] = ()  # room words the scene has no room for, dropped to find the objects
    instead_of: tuple[str, ...] = ()      # labels said that the scene has none of ...
    instead: tuple[str, ...] = ()         # ... and the related ones matched in their place
    untyped_for: tuple[str, ...] = ()     # room types no room has: the rooms of no type that tells, matched instead


def _in_rooms(index: SceneIndex, spec: QuerySpec, containers: list[str]) -> list[IndexedRoom]:
    rooms = list(index.rooms.values())
    if spec.room_types or spec.room_names:
        named = {r.room.code for name in spec.room_names for r in index.rooms_by_name[name]}
        rooms = [r for r in rooms if r.type in spec.room_types or r.room.code in named]
    hinted = hinted_rooms(index, spec.name_words)
    if hinted is not None:
        # A flat's name ('2b') is strict: no bedroom in flat 2B is no bedroom. A word such as 'guest' only hints.
        rooms = [r for r in rooms if r.room.code in hinted] or ([] if _strict_names(spec.name_words) else rooms)
    if containers:
        rooms = [r for r in rooms if any(r.room.code == c or r.floor.code == c for c in containers)]
    if spec.floor is not None:
        rooms = [r for r in rooms if r.floor.code == spec.floor]
    return rooms


def _strict_names(words: tuple[str, ...]) -> tuple[str, ...]:
    """The name words that pick a room for sure: a flat's ('2b'), not a hint such as 'guest'."""
    return tuple(w for w in words if any(ch.isdigit() for ch in w))


def hinted_rooms(index: SceneIndex, words: tuple[str, ...]) -> set[str] | None:
    """The rooms whose names hold every distinctive word said ('flat 4a': the rooms of flat 4A), words every room's
    name has ('flat' in a block of flats) aside; None when no word says anything."""
    total = len(index.rooms)
    telling = [w for w in words if 0 < len(index.rooms_by_name_word[w]) < total]
    if not telling:
        return None
    rooms = {r.room.code for r in index.rooms_by_name_word[telling[0]]}
    for word in telling[1:]:
        rooms &= {r.room.code for r in index.rooms_by_name_word[word]}
    return rooms or {r.room.code for w in telling for r in index.rooms_by_name_word[w]}


def closest_words(index: SceneIndex, words: tuple[str, ...]) -> list[str]:
    """The scene's labels and room words nearest in spelling to unknown words ('sofaa' -> 'sofa')."""
    vocabulary = index.labels() + [t.replace("_", " ") for t in index.room_types()] + index.room_names()
    synonyms = {**{a: c for a, c in object_aliases().items() if c in index.objects_by_label},
                **{a: c.replace("_", " ") for a, c in room_aliases().items() if c in index.rooms_by_type}}
    found: list[str] = []
    for word in words:
        for match in difflib.get_close_matches(word, vocabulary + list(synonyms), n=3, cutoff=0.75):
            found.append(synonyms.get(match, match))
    return list(dict.fromkeys(found))


def match(index: SceneIndex, spec: QuerySpec, *, related: bool = True) -> Match:
    """The rooms and objects a head names; a room word the scene has no room for is dropped when objects remain.

    `related`: when the scene has none of the kind said, look under the kinds it may be filed under (RELATED_LABELS:
    an armchair the scan calls a chair), saying so in `instead_of` / `instead`."""
    if spec.floor is not None and spec.floor not in index.floors:
        return Match((), spec.floor, Missing("floor", (spec.floor,), elsewhere=tuple(index.floors)))
    unknown_codes = [c for c in spec.codes if c not in index]
    if unknown_codes:
        return Match((), spec.floor, Missing("codes", tuple(unknown_codes)))
    wants_objects = bool(spec.object_labels) or spec.generic == "objects"
    # "chairs in 0-1": a room or floor code next to an object word limits where to look.
    target_codes = [c for c in spec.codes if not (wants_objects and kind_of(c) != "object")]
    containers = [c for c in spec.codes if c not in target_codes]
    found: list[str] = []
    for code in target_codes:
        if code in index.floors:
            found += [room.code for room in index.floors[code].rooms]
        else:
            found.append(code)
    if target_codes:
        pass  # "chair 0-3-2", "bedroom 1-2": the code says which one; the words only describe it
    elif wants_objects:
        limited = _in_rooms(index, spec, containers)
        rooms = {r.room.code for r in limited}
        if spec.object_labels and len(limited) * 8 < len(index.rooms):
            # A few rooms named: their objects, not the building's (other rooms cost nothing).
            labels = set(spec.object_labels)
            found += [o.code for r in limited for o in r.room.objects
                      if (item := index.objects[o.code]).label in labels or item.head in labels]
            pool = [index.objects[c] for c in found] or [o for label in spec.object_labels for o in index.objects_matching(label)]
        else:
            pool = ([o for label in spec.object_labels for o in index.objects_matching(label)] if spec.object_labels
                    else list(index.objects.values()))
            found += [o.obj.code for o in pool if o.room.room.code in rooms]
        if not found and spec.room_types and not any(t in index.rooms_by_type for t in spec.room_types) and pool:
            # "the kitchen cabinets" in a studio with no kitchen: the room word described the things, not a room.
            unlimited = QuerySpec(text=spec.text, floor=spec.floor, object_labels=spec.object_labels, generic=spec.generic,
                                  room_names=spec.room_names)
            fallback = match(index, unlimited)
            if fallback.codes:
                return Match(fallback.codes, spec.floor, fallback_rooms=spec.room_types)
    elif spec.room_types or spec.room_names or spec.generic == "rooms" or spec.floor is not None:
        found += [r.room.code for r in _in_rooms(index, spec, containers)]
    codes = tuple(sorted(dict.fromkeys(found), key=code_sort_key))
    if codes:
        return Match(codes, spec.floor)
    untyped = _untyped(index, spec, containers) if not wants_objects else ()
    if len(untyped) > 1:  # "the kitchen" where no room is known to be one: the rooms it may be, to ask among
        return Match(untyped, spec.floor, untyped_for=spec.room_types)
    if related and spec.object_labels and not any(index.objects_matching(label) for label in spec.object_labels):
        kinds = tuple(k for k in related_kinds(spec.object_labels) if index.objects_matching(k))
        if kinds:  # "the armchair" where the scan says chair: its chairs, said so
            instead = match(index, replace(spec, object_labels=kinds), related=False)
            if instead.codes:
                return replace(instead, instead_of=spec.object_labels, instead=kinds)
    return Match((), spec.floor, _missing(index, spec, containers, untyped))


def related_kinds(labels: tuple[str, ...]) -> tuple[str, ...]:
    """The kinds things of these labels may be filed under (RELATED_LABELS), as canonical labels, in order."""
    aliases = object_aliases()
    return tuple(dict.fromkeys(aliases.get(r, r) for label in labels for r in RELATED_LABELS.get(label, ())))


def _untyped(index: SceneIndex, spec: QuerySpec, containers: list[str]) -> tuple[str, ...]:
    """The rooms of no type that tells (a scan's "room", "Apartment") where a type is asked that no room has."""
    if not spec.room_types or spec.room_names or any(t in index.rooms_by_type for t in spec.room_types):
        return ()
    return tuple(r.room.code for r in _in_rooms(index, replace(spec, room_types=()), containers) if r.type in UNTELLING)


def _missing(index: SceneIndex, spec: QuerySpec, containers: list[str], untyped: tuple[str, ...]) -> Missing:
    if spec.object_labels:
        elsewhere = sorted({o.room.room.code for label in spec.object_labels for o in index.objects_matching(label)},
                           key=code_sort_key)
        return Missing("label", spec.object_labels, rooms=spec.room_types + spec.room_names + tuple(containers),
                       floor=spec.floor, elsewhere=tuple(elsewhere), names=_strict_names(spec.name_words))
    if spec.room_types or spec.room_names:
        asked = tuple(t.replace("_", " ") for t in spec.room_types) + spec.room_names
        elsewhere = [r.room.code for r in index.rooms.values() if r.type in spec.room_types]
        return Missing("room", asked, floor=spec.floor, elsewhere=tuple(elsewhere), untyped=untyped)
    words = spec.unknown_words or (spec.text,)
    return Missing("words", tuple(words), suggestions=tuple(closest_words(index, words)))


def entry(index: SceneIndex, code: str) -> IndexedRoom | IndexedObject:
    """The index entry of a room or object code."""
    return index.rooms[code] if code in index.rooms else index.objects[code]
