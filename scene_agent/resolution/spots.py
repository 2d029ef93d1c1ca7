"""The places of a scene's things as relation words need them, built on demand from the cached attributes."""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

from scene_agent.resolution.facing import Vector, facing_of
from scene_agent.resolution.matching import entry
from scene_agent.resolution.places import Spot
from scene_agent.scene.index import IndexedObject, IndexedRoom
from scene_agent.scene.loader import Scene

DOOR_LABELS = frozenset({"door", "doorway", "doorframe", "door frame", "closet door", "doors", "entrance"})


@dataclass
class Places:
    """Spots of a scene's rooms and objects, their rooms and facings, each worked out once."""

    scene: Scene
    spots: dict[str, Spot] = field(default_factory=dict)
    facings: dict[str, Vector | None] = field(default_factory=dict)
    levels: dict[str, float] = field(default_factory=dict)
    rooms: dict[str, list[Spot]] = field(default_factory=dict)

    def spot(self, code: str) -> Spot:
        """The spot of a room or object."""
        if code not in self.spots:
            found = entry(self.scene.index, code)
            if isinstance(found, IndexedRoom):
                room, label = found.room.code, None
            else:
                room, label = found.room.room.code, found.label
            self.spots[code] = Spot(code=code, room=room, attributes=self.scene.item_attributes(code), label=label)
        return self.spots[code]

    def room(self, code: str) -> Spot:
        """The spot of the room a thing is in (a room's own spot for a room)."""
        return self.spot(self.spot(code).room)

    def in_room(self, room: str) -> list[Spot]:
        """Every object of a room."""
        if room not in self.rooms:
            found = self.scene.index.rooms[room]
            self.rooms[room] = [self.spot(obj.code) for obj in found.room.objects]
        return self.rooms[room]

    def facing(self, code: str) -> Vector | None:
        """The way a thing faces, where its geometry shows it."""
        if code not in self.facings:
            spot = self.spot(code)
            self.facings[code] = facing_of(spot, self.room(code), self.in_room(spot.room)) if spot.label else None
        return self.facings[code]

    def floor_level(self, room: str) -> float:
        """The height of a room's floor: where most of its things stand (a scan's floor box can be thick)."""
        if room not in self.levels:
            bottoms = sorted(s.z_min for s in self.in_room(room))
            self.levels[room] = bottoms[len(bottoms) // 5] if bottoms else self.spot(room).z_min
        return self.levels[room]

    def doors(self, room: str) -> list[Spot]:
        """The doors of a room."""
        return [s for s in self.in_room(room) if s.label in DOOR_LABELS or _is_door(self.scene, s.code)]


def _is_door(scene: Scene, code: str) -> bool:
    found = scene.index.objects.get(code)
    return isinstance(found, IndexedObject) and found.obj.label.lower().replace("_", " ") in DOOR_LABELS


_PLACES: weakref.WeakKeyDictionary[Scene, Places] = weakref.WeakKeyDictionary()


def places_of(scene: Scene) -> Places:
    """The scene's places, worked out once and kept while the scene is (a question touches only what it names)."""
    if scene not in _PLACES:
        _PLACES[scene] = Places(scene)
    return _PLACES[scene]
