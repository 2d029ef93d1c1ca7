"""HOV-SG graph folders (floors/, rooms/, objects/ with .json + .ply) → floors, rooms and objects."""

from __future__ import annotations

import math
import os
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from scene_agent.errors import ScanImportError
from scene_agent.geometry.points import Points
from scene_agent.importers.common import (
    Y_UP_TO_Z_UP,
    json_field,
    open_writer,
    read_json,
    read_points,
    require_dir,
    require_file,
    room_type_of,
    scene_id_for,
)
from scene_agent.language.vocabulary import canonical_label, canonical_room_type
from scene_agent.scene.codes import code_sort_key
from scene_agent.scene.manifest import Floor, Room, SceneManifest, SceneObject

FOLDERS = ("floors", "rooms", "objects")
_ID = re.compile(r"^\d+(_\d+)*$")
_KIND = {1: "floor", 2: "room", 3: "object"}
_SHAPE = {1: "<floor>", 2: "<floor>_<room>", 3: "<floor>_<room>_<object>"}
_CHILDREN = {1: "rooms", 2: "objects"}  # the field listing a node's children

# HOV-SG point clouds are y-up (it finds floors along y and draws rooms in the x-z plane); scenes here are z-up
# (common.Y_UP_TO_Z_UP).


@dataclass(frozen=True)
class GraphNode:
    """One floor, room or object of the graph: its code, name, parent code, listed children and file."""

    code: str
    name: str | None
    parent: str | None
    children: tuple[str, ...] | None
    zero_level: float | None
    json_path: Path


def _id_code(value: object, depth: int, context: str, path: Path, field: str) -> str:
    """An id as a code of `depth` parts: '0_3' → '0-3'; a shorter id (3 or "3") is taken within context's parents."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        parts = [str(value)]
    elif isinstance(value, str) and _ID.fullmatch(value.strip()):
        parts = value.strip().split("_")
    else:
        raise ScanImportError(f"{path}: field '{field}' should be a {_KIND[depth]} id like {_SHAPE[depth]}, not {value!r}")
    if len(parts) > depth:
        raise ScanImportError(f"{path}: field '{field}' is {value!r}, too many parts for a {_KIND[depth]} id ({_SHAPE[depth]})")
    return "-".join(context.split("-")[: depth - len(parts)] + [str(int(p)) for p in parts])


def _read_node(path: Path, depth: int) -> GraphNode:
    if not _ID.fullmatch(path.stem) or path.stem.count("_") != depth - 1:
        raise ScanImportError(f"{path}: file name should be {_SHAPE[depth]}.json with integer ids")
    code = "-".join(str(int(part)) for part in path.stem.split("_"))
    data = read_json(path)
    if not isinstance(data, dict):
        raise ScanImportError(f"{path}: should hold a JSON object, not {type(data).__name__}")
    kind = _KIND[depth]
    # Objects need a name for their label; HOV-SG leaves unnamed floors and rooms as null.
    name = json_field(data, "name", str, path) if depth == 3 or data.get("name") is not None else None
    own = data.get(f"{kind}_id")
    if own is not None and (said := _id_code(own, depth, code, path, f"{kind}_id")) != code:
        raise ScanImportError(f"{path}: {kind}_id says {said} but the file name says {code}")
    parent = None
    if depth > 1:
        field = f"{_KIND[depth - 1]}_id"
        parent = _id_code(json_field(data, field, (str, int), path), depth - 1, code, path, field)
    children = None
    if depth in _CHILDREN and isinstance(data.get(_CHILDREN[depth]), list):
        children = tuple(_id_code(c, depth + 1, code, path, _CHILDREN[depth]) for c in data[_CHILDREN[depth]])
    level = data.get("floor_zero_level")
    zero_level = float(level) if isinstance(level, (int, float)) and not isinstance(level, bool) and math.isfinite(level) else None
    return GraphNode(code=code, name=name, parent=parent, children=children, zero_level=zero_level, json_path=path)


def _nodes(graph: Path, depth: int) -> list[GraphNode]:
    folder = FOLDERS[depth - 1]
    directory = require_dir(graph / folder, f"HOV-SG {folder} folder")
    nodes = [_read_node(path, depth) for path in sorted(directory.glob("*.json"))]
    return sorted(nodes, key=lambda n: code_sort_key(n.code))


def _check_links(children: list[GraphNode], parents: list[GraphNode], graph: Path) -> None:
    """Every child's parent exists and matches its file name; every listed child has its files."""
    by_code = {p.code: p for p in parents}
    present = {c.code for c in children}
    for child in children:
        kind = _KIND[child.code.count("-")]
        if child.parent not in by_code:
            raise ScanImportError(f"{child.json_path}: refers to {kind} {child.parent}, which the graph does not have")
        if not child.code.startswith(child.parent + "-"):
            raise ScanImportError(f"{child.json_path}: file name says {child.code} but it names {kind} {child.parent}")
    for parent in parents:
        for code in parent.children or ():
            if code not in present:
                depth = code.count("-") + 1
                missing = graph / FOLDERS[depth - 1] / f"{code.replace('-', '_')}.json"
                raise ScanImportError(f"{parent.json_path}: lists {_KIND[depth]} {code}, but {missing} is missing")


def _room_type(name: str | None) -> str:
    # HOV-SG names rooms it could not classify "room_3": the number is an id, not part of the type.
    return canonical_room_type(re.sub(r"[\s_-]*\d+$", "", name or "") or "room")


def _name(name: str | None) -> str | None:
    """A room's name to show: HOV-SG's own, unless it is only an id ("room_6": the code says that already)."""
    return None if not name or re.fullmatch(r"room[\s_-]*\d*", name.strip(), re.IGNORECASE) else name


def _z_up(points: Points) -> Points:
    return Points(xyz=points.xyz @ Y_UP_TO_Z_UP.T, rgb=points.rgb)


def import_hovsg(graph_dir: str | os.PathLike[str], out_dir: str | os.PathLike[str]) -> Path:
    """Import a HOV-SG graph folder; returns the new manifest's path."""
    graph = require_dir(Path(graph_dir), "HOV-SG graph folder")
    if not any((graph / folder).exists() for folder in FOLDERS):
        raise ScanImportError(f"{graph}: not a HOV-SG graph folder (it has no floors/, rooms/ or objects/)")
    floors = _nodes(graph, 1)
    if not floors:
        raise ScanImportError(f"{graph / 'floors'}: no floor .json files: not a HOV-SG graph, or an empty one")
    rooms, objects = _nodes(graph, 2), _nodes(graph, 3)
    _check_links(rooms, floors, graph)
    _check_links(objects, rooms, graph)
    # Read every point file before writing, so that a corrupt one leaves nothing behind.
    points = {n.code: _z_up(read_points(require_file(n.json_path.with_suffix(".ply")))) for n in rooms + objects}
    rooms_of, objects_of = defaultdict(list), defaultdict(list)
    for room in rooms:
        rooms_of[room.parent].append(room)
    for obj in objects:
        objects_of[obj.parent].append(obj)

    out = Path(out_dir)
    with open_writer(out) as writer:
        manifest_floors = []
        for floor in floors:
            manifest_rooms = []
            for room in rooms_of[floor.code]:
                rel, count, bounds = writer.add_points(room.code, points[room.code])
                room_objects = []
                for obj in objects_of[room.code]:
                    if len(points[obj.code]) == 0:
                        continue  # an empty object has nothing to show or select
                    o_rel, o_count, o_bounds = writer.add_points(obj.code, points[obj.code])
                    room_objects.append(SceneObject(code=obj.code, label=canonical_label(obj.name or "") or "object",
                                                    points_file=o_rel, point_count=o_count, bounds=o_bounds))
                room_type, guess = room_type_of(_room_type(room.name), (o.label for o in room_objects))
                manifest_rooms.append(Room(code=room.code, type=room_type, name=_name(room.name), inferred=guess,
                                           points_file=rel, point_count=count, bounds=bounds, objects=room_objects))
            manifest_floors.append(Floor(code=floor.code, name=floor.name or None, elevation=_elevation(floor, manifest_rooms),
                                         rooms=manifest_rooms))
        manifest = SceneManifest(scene_id=scene_id_for(out), name=f"HOV-SG import ({graph.absolute().name})", floors=manifest_floors)
        return writer.finish(manifest)


def _elevation(floor: GraphNode, rooms: list[Room]) -> float:
    # HOV-SG's floor_zero_level is a height along its y, which is our z; else the lowest room point.
    if floor.zero_level is not None:
        return round(floor.zero_level, 4)
    lows = [r.bounds.min[2] for r in rooms if r.point_count]
    return min(lows) if lows else 0.0
