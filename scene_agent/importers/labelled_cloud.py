"""A labelled point cloud (per point: position, colour, label, instance, room) → the rooms and objects of a scene.

The rules `import labelled-ply` and `import las` share (docs/cli.md, "Labelled point clouds"):

- a label's name says what its points are (cloud_labels.py): the room's own (wall, floor, ceiling; ground, building),
  unlabelled (unclassified, …), noise (left out), or things; an id the label map does not name is a thing "object";
- with instance ids, an instance is one object, labelled by the most common label among its labelled points ("object"
  when none is); an instance whose label is the room's own goes to the room, and so do points of no instance;
- without them, each thing label's points are cut into the parts that touch (components.py);
- with a room field, room id r is room `0-r`, and an object belongs to the room most of its points are in; without
  one, the whole cloud is room `0-1`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scene_agent.errors import ScanImportError
from scene_agent.geometry.points import Points
from scene_agent.importers.cloud_fields import NONE
from scene_agent.importers.cloud_labels import NOISE, THING, UNLABELLED, kind_of_label, shown_label
from scene_agent.importers.cloud_report import ImportReport, Progress
from scene_agent.importers.common import check_coordinates, room_type_of, scene_id_for
from scene_agent.importers.components import MIN_PART_POINTS, connected_parts, split_voxel
from scene_agent.importers.grouping import dense_ids, majority, members
from scene_agent.scene.codes import code_sort_key
from scene_agent.scene.manifest import Floor, Room, SceneManifest, SceneObject
from scene_agent.scene.writer import SceneWriter

FAR_M = 10_000.0  # a cloud this far from the origin (map coordinates) is moved to it: float32 files keep mm there
IN_ROOM, LEFT_OUT = -1, -2  # a point's item when it is not an object's


@dataclass
class LabelledCloud:
    """One cloud as read: arrays of one row per point (ids NONE where the file says none) and where they came from.

    write_cloud_scene consumes it: it moves the points and lets go of the ids once they are used, so that a large
    cloud's writing (which measures every room and object) starts with as little memory held as it can."""

    source: Path
    kind: str  # what the file is, for the scene's name: "labelled PLY", "LAS"
    xyz: np.ndarray  # float64, N×3
    rgb: np.ndarray  # uint8, N×3
    labels: np.ndarray | None  # int64 label ids
    names: Mapping[int, str]  # label id → name
    instances: np.ndarray | None  # int64 instance ids
    rooms: np.ndarray | None  # int64 room ids
    fields: dict[str, str]  # what each field used is for → its name in the file
    colour: str  # how the colours were read, for the report
    turned: str | None = None  # how the cloud was turned to z-up, for the report


@dataclass(frozen=True)
class Found:
    """An object found in the cloud: its label, its number in its code, and its points."""

    label: str
    number: int
    indices: np.ndarray


class _Splitter:
    """Each point's fate (an object's number, IN_ROOM or LEFT_OUT) and the objects, by the rules above."""

    def __init__(self, cloud: LabelledCloud, report: ImportReport, progress: Progress):
        self.cloud, self.report, self.progress = cloud, report, progress
        n = len(cloud.xyz)
        if cloud.labels is not None:
            self.ids, self.label_at = dense_ids(cloud.labels)
        else:
            self.ids, self.label_at = np.array([NONE]), np.zeros(n, dtype=np.int64)
        self.kinds = np.array([kind_of_label(self._name(i)) if i != NONE else UNLABELLED for i in self.ids])
        self.item = np.full(n, IN_ROOM, dtype=np.int32)
        noise = self.kinds[self.label_at] == NOISE
        self.item[noise] = LEFT_OUT
        report.noise_points = int(np.count_nonzero(noise))
        if cloud.labels is not None:
            present = np.bincount(self.label_at, minlength=len(self.ids))
            report.unknown_labels = {int(i): int(present[k]) for k, i in enumerate(self.ids)
                                     if i != NONE and int(i) not in cloud.names}

    def _name(self, label_id: int) -> str:
        return self.cloud.names.get(int(label_id), "object")

    def objects(self) -> tuple[list[Found], np.ndarray]:
        """The objects, and where every point went (an object's index, IN_ROOM or LEFT_OUT)."""
        found = self._by_instance() if self.cloud.instances is not None else self._by_parts()
        return found, self.item

    def _by_instance(self) -> list[Found]:
        assert self.cloud.instances is not None
        self.progress.step(f"Finding objects: one per instance id (field '{self.cloud.fields['instance']}') …")
        self.report.objects_from = "instances"
        member = np.flatnonzero((self.cloud.instances != NONE) & (self.item != LEFT_OUT))
        instance_ids, inst_at = dense_ids(self.cloud.instances[member])
        unlabelled = self.kinds == UNLABELLED
        best = majority(inst_at, self.label_at[member], unlabelled, len(instance_ids))
        # An instance of unlabelled points only is a thing nobody named; one of walls is the room's.
        thing = np.array([unlabelled[b] or self.kinds[b] == THING for b in best], dtype=bool)
        found: list[Found] = []
        for k, at in enumerate(members(inst_at, len(instance_ids))):
            indices = member[at]
            if thing[k]:
                name = "object" if unlabelled[best[k]] else self._name(self.ids[best[k]])
                self.item[indices] = len(found)
                found.append(Found(label=shown_label(name), number=int(instance_ids[k]), indices=indices))
        return found

    def _by_parts(self) -> list[Found]:
        things = [k for k in range(len(self.ids)) if self.kinds[k] == THING]
        if not things:
            self.report.objects_from = "nothing"
            return []
        voxel = split_voxel(self.cloud.xyz)
        self.report.objects_from, self.report.split_voxel_m = "label parts", round(voxel, 4)
        self.progress.step(f"Finding objects: each label's points cut into the parts that touch ({voxel * 100:.0f} cm voxels) …")
        split = members(self.label_at, len(self.ids))
        found: list[Found] = []
        for done, k in enumerate(things, start=1):
            indices = split[k]
            part, count = connected_parts(self.cloud.xyz[indices], voxel)
            sizes = np.bincount(part, minlength=count)
            self.report.specks_to_room += int(sizes[sizes < MIN_PART_POINTS].sum())
            for at in members(part, count):
                if len(at) >= MIN_PART_POINTS:
                    self.item[indices[at]] = len(found)
                    found.append(Found(label=shown_label(self._name(self.ids[k])), number=0, indices=indices[at]))
            self.progress.tick(done, len(things), "labels cut")
        # Numbered by their first point (file order), so that the same file gives the same codes.
        firsts = np.array([int(f.indices[0]) for f in found], dtype=np.int64)
        rank = np.empty(len(found), dtype=np.int64)
        rank[np.argsort(firsts)] = np.arange(len(found))
        things_points = self.item >= 0
        self.item[things_points] = rank[self.item[things_points]]
        return [Found(label=f.label, number=n, indices=f.indices)
                for n, f in enumerate(sorted(found, key=lambda f: int(f.indices[0])), start=1)]


def _rooms(cloud: LabelledCloud, item: np.ndarray, found: list[Found], report: ImportReport) -> tuple[list[int], np.ndarray]:
    """Room ids, and each object's room id (NONE: in none); points in no room are set LEFT_OUT."""
    if cloud.rooms is None:
        return [1], np.full(len(found), 1, dtype=np.int64)
    rooms = cloud.rooms
    if found:
        groups = np.concatenate([np.full(len(f.indices), k) for k, f in enumerate(found)])
        room_ids, room_at = dense_ids(np.concatenate([rooms[f.indices] for f in found]))
        best = majority(groups, room_at, room_ids == NONE, len(found))
        object_room = np.where(best == NONE, NONE, room_ids[np.maximum(best, 0)])
    else:
        object_room = np.zeros(0, dtype=np.int64)
    for k in np.flatnonzero(object_room == NONE):
        item[found[k].indices] = LEFT_OUT
    outside = (item == IN_ROOM) & (rooms == NONE)
    item[outside] = LEFT_OUT
    report.outside_rooms = int(np.count_nonzero(outside)) + sum(len(found[k].indices) for k in np.flatnonzero(object_room == NONE))
    ids = set(np.unique(rooms[item == IN_ROOM]).tolist()) | set(object_room[object_room != NONE].tolist())
    return sorted(int(i) for i in ids), object_room


def write_cloud_scene(cloud: LabelledCloud, writer: SceneWriter, *, recentre: bool, progress: Progress) -> tuple[Path, ImportReport]:
    """Write the cloud as a scene (floor 0) through the writer; the new manifest's path and what the import did.

    `recentre`: move the lowest corner to the origin (map coordinates); otherwise only a cloud beyond FAR_M is moved.
    """
    if len(cloud.xyz) == 0:
        raise ScanImportError(f"{cloud.source}: the cloud has no points")
    corner, top = check_coordinates(cloud.xyz, cloud.source)
    report = ImportReport(source=str(cloud.source), points=len(cloud.xyz), fields=dict(cloud.fields), colour=cloud.colour,
                          turned=cloud.turned)
    if recentre or max(float(np.abs(corner).max()), float(np.abs(top).max())) > FAR_M:
        np.subtract(cloud.xyz, corner, out=cloud.xyz)
        report.recentred_by = [round(float(v), 4) for v in corner]
    found, item = _Splitter(cloud, report, progress).objects()
    room_ids, object_room = _rooms(cloud, item, found, report)
    # Each room's own points (rooms first, by id), then each object's: one grouping, not one search per item.
    key = np.where(item >= 0, len(room_ids) + item, -1)
    in_room = item == IN_ROOM
    key[in_room] = 0 if cloud.rooms is None else np.searchsorted(np.array(room_ids), cloud.rooms[in_room])
    points_of = members(key, len(room_ids) + len(found))
    del key, in_room, item
    cloud.labels = cloud.instances = cloud.rooms = None  # what is left to hold is the points and their indices
    cloud.xyz = cloud.xyz.astype(np.float32)  # as the point files keep them

    total = len(room_ids) + len(found)
    progress.step(f"Writing {len(room_ids)} room(s) and {len(found)} object(s) …")
    objects_of: dict[int, list[SceneObject]] = {r: [] for r in room_ids}
    for k, obj in enumerate(found):
        if object_room[k] == NONE:
            continue
        code = f"0-{object_room[k]}-{obj.number}"
        rel, count, bounds = writer.add_points(code, _points(cloud, points_of[len(room_ids) + k]))
        objects_of[int(object_room[k])].append(SceneObject(code=code, label=obj.label, points_file=rel, point_count=count,
                                                           bounds=bounds))
        progress.tick(k + 1, total, "rooms and objects written")
    rooms = []
    for k, room_id in enumerate(room_ids):
        code = f"0-{room_id}"
        rel, count, bounds = writer.add_points(code, _points(cloud, points_of[k]))
        progress.tick(len(found) + k + 1, total, "rooms and objects written")
        objects = sorted(objects_of[room_id], key=lambda o: code_sort_key(o.code))
        room_type, guess = room_type_of("room", (o.label for o in objects))
        rooms.append(Room(code=code, type=room_type, inferred=guess, points_file=rel, point_count=count, bounds=bounds,
                          objects=objects))
    floor = Floor(code="0", elevation=round(float(cloud.xyz[:, 2].min()), 4), rooms=rooms)
    manifest = SceneManifest(scene_id=scene_id_for(writer.out_dir), name=f"{cloud.kind} import ({cloud.source.name})", floors=[floor])
    return writer.finish(manifest), report


def _points(cloud: LabelledCloud, indices: np.ndarray) -> Points:
    return Points(xyz=cloud.xyz[indices].astype(np.float64), rgb=cloud.rgb[indices])
