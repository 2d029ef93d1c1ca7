"""An in-memory index over a manifest: codes, room types and names, object labels, floors."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from scene_agent.language.vocabulary import canonical_label, canonical_room_type, head_noun, room_aliases
from scene_agent.language.words import normalize_words, singular
from scene_agent.scene.codes import code_sort_key
from scene_agent.scene.manifest import Floor, Room, SceneManifest, SceneObject


@dataclass(frozen=True)
class IndexedRoom:
    """A room with the floor it is on and its canonical type."""

    room: Room
    floor: Floor
    type: str


@dataclass(frozen=True)
class IndexedObject:
    """An object with the room and floor it is in and its canonical label."""

    obj: SceneObject
    room: IndexedRoom
    label: str

    @property
    def head(self) -> str:
        """The head noun of the label ('office chair' -> 'chair', 'mini fridge' -> 'refrigerator')."""
        return head_noun(self.label)


class SceneIndex:
    """Lookups that never touch point files: by code, by room type or name, by label."""

    def __init__(self, manifest: SceneManifest):
        self.manifest = manifest
        self.floors: dict[str, Floor] = {}
        self.rooms: dict[str, IndexedRoom] = {}
        self.objects: dict[str, IndexedObject] = {}
        self.rooms_by_type: dict[str, list[IndexedRoom]] = defaultdict(list)
        self.rooms_by_name: dict[str, list[IndexedRoom]] = defaultdict(list)
        # Distinctive words of room names ("kids", "guest"): they narrow "the bed in the kids room".
        self.rooms_by_name_word: dict[str, list[IndexedRoom]] = defaultdict(list)
        generic_words = {singular(alias) for alias in room_aliases() if " " not in alias} | {"room"}
        self._matching: dict[str, list[IndexedObject]] = {}
        self.objects_by_label: dict[str, list[IndexedObject]] = defaultdict(list)
        self.objects_by_head: dict[str, list[IndexedObject]] = defaultdict(list)
        for floor in manifest.floors:
            self.floors[floor.code] = floor
            for room in floor.rooms:
                entry = IndexedRoom(room=room, floor=floor, type=canonical_room_type(room.type))
                self.rooms[room.code] = entry
                self.rooms_by_type[entry.type].append(entry)
                if room.name:
                    self.rooms_by_name[normalize_words(room.name)].append(entry)
                    for word in {singular(w) for w in normalize_words(room.name).split()} - generic_words:
                        self.rooms_by_name_word[word].append(entry)
                for obj in room.objects:
                    item = IndexedObject(obj=obj, room=entry, label=canonical_label(obj.label))
                    self.objects[obj.code] = item
                    self.objects_by_label[item.label].append(item)
                    if item.head != item.label:
                        self.objects_by_head[item.head].append(item)

    def objects_matching(self, label: str) -> list[IndexedObject]:
        """Objects whose canonical label is `label` or ends with it as head noun ('chair' finds 'office chair')."""
        if label not in self._matching:
            found = self.objects_by_label.get(label, []) + self.objects_by_head.get(label, [])
            self._matching[label] = sorted(found, key=lambda o: code_sort_key(o.obj.code))
        return list(self._matching[label])

    def labels(self) -> list[str]:
        """Every canonical object label in the scene, most common first."""
        return sorted(self.objects_by_label, key=lambda lab: (-len(self.objects_by_label[lab]), lab))

    def room_types(self) -> list[str]:
        """Every canonical room type in the scene."""
        return sorted(self.rooms_by_type)

    def room_names(self) -> list[str]:
        """Every room display name (normalized) in the scene."""
        return sorted(self.rooms_by_name)

    def __contains__(self, code: str) -> bool:
        return code in self.floors or code in self.rooms or code in self.objects

    @property
    def counts(self) -> tuple[int, int, int]:
        """(floors, rooms, objects)."""
        return len(self.floors), len(self.rooms), len(self.objects)
