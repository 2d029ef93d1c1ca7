"""The `find` tool: rooms and objects matching a description, by code, label, room type or floor."""

from __future__ import annotations

import difflib
from typing import Literal

from pydantic import BaseModel, Field, ValidationError, field_validator

from scene_agent.codes import code_sort_key, kind_of
from scene_agent.errors import UsageError
from scene_agent.index import IndexedObject, IndexedRoom, SceneIndex
from scene_agent.manifest import Bounds
from scene_agent.query import QuerySpec, parse_query
from scene_agent.vocabulary import object_aliases, room_aliases


EMPTY_QUERY = "the query is empty: say what to look for, e.g. 'chair' or '0-2-3'"


class FindInput(BaseModel):
    """Find rooms or objects in the scene."""

    query: str = Field(
        description="What to look for in the user's words: 'chair', 'chairs in the kitchen', "
        "'the bedroom on floor 1', 'couch', or a code such as '0-2-3'."
    )

    @field_validator("query")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError(EMPTY_QUERY)
        return v.strip()


class Candidate(BaseModel):
    """One matching room or object."""

    code: str
    kind: Literal["room", "object"]
    label: str | None = Field(default=None, description="Object label, e.g. 'chair'.")
    type: str | None = Field(default=None, description="Room type, e.g. 'bedroom'.")
    name: str | None = Field(default=None, description="Room display name.")
    room: str = Field(description="Code of the room (for a room, its own code).")
    room_type: str
    room_name: str | None = None
    floor: str
    floor_name: str | None = None
    bounds: Bounds
    points: int


class FindResult(BaseModel):
    """Candidates for a description; when empty, `message` says what exists that is closest."""

    query: str
    candidates: list[Candidate]
    floor: str | None = Field(default=None, description="The floor the query was limited to, if any.")
    message: str | None = None
    suggestions: list[str] = Field(default_factory=list)


def _room_candidate(entry: IndexedRoom) -> Candidate:
    room = entry.room
    return Candidate(code=room.code, kind="room", type=entry.type, name=room.name, room=room.code, room_type=entry.type, room_name=room.name,
                     floor=entry.floor.code, floor_name=entry.floor.name, bounds=room.bounds, points=room.point_count)


def _object_candidate(entry: IndexedObject) -> Candidate:
    obj = entry.obj
    return Candidate(code=obj.code, kind="object", label=entry.label, room=entry.room.room.code, room_type=entry.room.type,
                     room_name=entry.room.room.name,
                     floor=entry.room.floor.code, floor_name=entry.room.floor.name, bounds=obj.bounds, points=obj.point_count)


def _in_rooms(index: SceneIndex, spec: QuerySpec, containers: list[str]) -> list[IndexedRoom]:
    rooms = list(index.rooms.values())
    if spec.room_types or spec.room_names:
        named = {r.room.code for name in spec.room_names for r in index.rooms_by_name[name]}
        rooms = [r for r in rooms if r.type in spec.room_types or r.room.code in named]
    if spec.name_words:
        hinted = {r.room.code for word in spec.name_words for r in index.rooms_by_name_word[word]}
        rooms = [r for r in rooms if r.room.code in hinted] or rooms
    if containers:
        rooms = [r for r in rooms if any(r.room.code == c or r.floor.code == c for c in containers)]
    if spec.floor is not None:
        rooms = [r for r in rooms if r.floor.code == spec.floor]
    return rooms


def _where(spec: QuerySpec, containers: list[str]) -> str:
    parts = [t.replace("_", " ") for t in spec.room_types] + list(spec.room_names) + containers
    where = f" in the {' or '.join(parts)}" if parts else ""
    return where + (f" on floor {spec.floor}" if spec.floor is not None else "")


def _closest(index: SceneIndex, words: tuple[str, ...]) -> list[str]:
    vocabulary = index.labels() + [t.replace("_", " ") for t in index.room_types()] + index.room_names()
    synonyms = {**{a: c for a, c in object_aliases().items() if c in index.objects_by_label},
                **{a: c.replace("_", " ") for a, c in room_aliases().items() if c in index.rooms_by_type}}
    found: list[str] = []
    for word in words:
        for match in difflib.get_close_matches(word, vocabulary + list(synonyms), n=3, cutoff=0.75):
            found.append(synonyms.get(match, match))
    return list(dict.fromkeys(found))


def find(index: SceneIndex, query: str) -> FindResult:
    """Candidates matching a description; an empty list comes with a message naming the closest things."""
    try:
        query = FindInput(query=query).query
    except ValidationError:
        raise UsageError(EMPTY_QUERY) from None
    spec = parse_query(query, index)
    if spec.floor is not None and spec.floor not in index.floors:
        floors = ", ".join(f"{c} ({f.name})" if f.name else c for c, f in index.floors.items())
        return FindResult(query=query, candidates=[], floor=spec.floor, message=f"This scene has no floor {spec.floor}; its floors are {floors}.")
    unknown_codes = [c for c in spec.codes if c not in index]
    if unknown_codes:
        return FindResult(query=query, candidates=[], floor=spec.floor,
                          message=f"Nothing in scene {index.manifest.scene_id} has the code {', '.join(unknown_codes)}.")
    # "chairs in 0-1": a room or floor code next to an object word limits where to look.
    wants_objects = bool(spec.object_labels) or spec.generic == "objects"
    target_codes = [c for c in spec.codes if not (wants_objects and kind_of(c) != "object")]
    containers = [c for c in spec.codes if c not in target_codes]
    candidates: list[Candidate] = []
    for code in target_codes:
        if code in index.objects:
            candidates.append(_object_candidate(index.objects[code]))
        elif code in index.rooms:
            candidates.append(_room_candidate(index.rooms[code]))
        else:
            candidates += [_room_candidate(index.rooms[room.code]) for room in index.floors[code].rooms]
    if target_codes:
        pass  # "chair 0-3-2", "bedroom 1-2": the code says which one; the words only describe it
    elif wants_objects:
        rooms = {r.room.code for r in _in_rooms(index, spec, containers)}
        pool = ([o for label in spec.object_labels for o in index.objects_matching(label)] if spec.object_labels
                else list(index.objects.values()))
        candidates += [_object_candidate(o) for o in pool if o.room.room.code in rooms]
    elif spec.room_types or spec.room_names or (not target_codes and (spec.generic == "rooms" or spec.floor is not None)):
        candidates += [_room_candidate(r) for r in _in_rooms(index, spec, containers)]
    unique = {c.code: c for c in candidates}
    result = sorted(unique.values(), key=lambda c: code_sort_key(c.code))
    if result:
        return FindResult(query=query, candidates=result, floor=spec.floor)
    return _nothing_found(index, spec, containers)


def _nothing_found(index: SceneIndex, spec: QuerySpec, containers: list[str]) -> FindResult:
    if spec.object_labels:
        elsewhere = sorted({o.room.room.code: o.room for label in spec.object_labels for o in index.objects_matching(label)}.values(),
                           key=lambda r: code_sort_key(r.room.code))
        what = " or ".join(spec.object_labels)
        where = ", ".join(f"{r.room.display_name} ({r.room.code})" for r in elsewhere)
        message = f"No {what}{_where(spec, containers)}." + (f" There are {what}s in: {where}." if where else "")
        suggestions = [r.room.code for r in elsewhere]
    elif spec.room_types or spec.room_names:
        what = " or ".join([t.replace("_", " ") for t in spec.room_types] + list(spec.room_names))
        on_floor = f" on floor {spec.floor}" if spec.floor is not None else ""
        elsewhere = [r for r in index.rooms.values() if r.type in spec.room_types]
        where = ", ".join(f"{r.room.code} {r.room.display_name} (floor {r.floor.code})" for r in elsewhere)
        message = f"No {what}{on_floor}." + (f" There are: {where}." if where else
                                              f" Rooms here: {', '.join(index.room_types()).replace('_', ' ')}.")
        suggestions = [r.room.code for r in elsewhere] or index.room_types()
    else:
        words = spec.unknown_words or (spec.text,)
        suggestions = _closest(index, words)
        named = " ".join(words)
        message = (f"Nothing called '{named}' in this scene; closest: {', '.join(suggestions)}." if suggestions
                   else f"Nothing called '{named}' in this scene. It has: {', '.join(index.labels()[:12])}; "
                   f"rooms: {', '.join(index.room_types()).replace('_', ' ')}.")
    return FindResult(query=spec.text, candidates=[], floor=spec.floor, message=message, suggestions=suggestions)
