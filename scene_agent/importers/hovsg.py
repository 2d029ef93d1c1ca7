"""HOV-SG graph folders (floors/, rooms/, objects/ with .json + .ply) → floors, rooms and objects."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from scene_agent.codes import code_sort_key
from scene_agent.errors import ScanImportError
from scene_agent.importers.common import json_field, read_json, read_points, require_dir, require_file, scene_id_for
from scene_agent.manifest import Floor, Room, SceneManifest, SceneObject
from scene_agent.ply import Points
from scene_agent.scene_writer import SceneWriter
from scene_agent.vocabulary import canonical_label, canonical_room_type

_STEM = {1: re.compile(r"^\d+$"), 2: re.compile(r"^\d+_\d+$"), 3: re.compile(r"^\d+_\d+_\d+$")}


@dataclass(frozen=True)
class GraphNode:
    """One floor, room or object of the graph: its code, name, parent code and files."""

    code: str
    name: str
    parent: str | None
    json_path: Path


def _code_of(stem: str, depth: int, path: Path) -> str:
    if not _STEM[depth].match(stem):
        shape = ("<floor>", "<floor>_<room>", "<floor>_<room>_<object>")[depth - 1]
        raise ScanImportError(f"{path}: file name should be {shape}.json with integer ids")
    return "-".join(str(int(part)) for part in stem.split("_"))


def _parent_ref(value: object, own_code: str, path: Path, field: str) -> str:
    """A parent id as our code: '0_3' → '0-3'; a bare number is taken within the node's own floor."""
    expected = own_code.rsplit("-", 1)[0]
    if isinstance(value, int) and not isinstance(value, bool):
        ref = f"{expected.rsplit('-', 1)[0]}-{value}" if "-" in expected else str(value)
    elif isinstance(value, str) and re.fullmatch(r"\d+(_\d+)*", value):
        ref = "-".join(str(int(p)) for p in value.split("_"))
        if "-" not in ref and "-" in expected:
            ref = f"{expected.rsplit('-', 1)[0]}-{ref}"
    else:
        raise ScanImportError(f"{path}: field '{field}' should be an id like 0_3, not {value!r}")
    return ref


def _nodes(graph: Path, folder: str, depth: int, parent_field: str | None) -> list[GraphNode]:
    directory = require_dir(graph / folder, f"HOV-SG {folder} folder")
    nodes = []
    for path in sorted(directory.glob("*.json")):
        code = _code_of(path.stem, depth, path)
        data = read_json(path)
        name = json_field(data, "name", str, path)
        parent = None
        if parent_field:
            parent = _parent_ref(json_field(data, parent_field, (str, int), path), code, path, parent_field)
        nodes.append(GraphNode(code=code, name=name, parent=parent, json_path=path))
    return sorted(nodes, key=lambda n: code_sort_key(n.code))


def _check_parents(children: list[GraphNode], parents: dict[str, GraphNode], kind: str) -> None:
    for child in children:
        if child.parent not in parents:
            raise ScanImportError(f"{child.json_path}: refers to {kind} {child.parent}, which the graph does not have")
        if not child.code.startswith(child.parent + "-"):
            raise ScanImportError(f"{child.json_path}: file name says {child.code} but it names {kind} {child.parent}")


def import_hovsg(graph_dir: str | os.PathLike, out_dir: str | os.PathLike) -> Path:
    """Import a HOV-SG graph folder; returns the new manifest's path."""
    graph = require_dir(Path(graph_dir), "HOV-SG graph folder")
    floors = _nodes(graph, "floors", 1, None)
    if not floors:
        raise ScanImportError(f"{graph / 'floors'}: no floor .json files: not a HOV-SG graph, or an empty one")
    rooms = _nodes(graph, "rooms", 2, "floor_id")
    objects = _nodes(graph, "objects", 3, "room_id")
    _check_parents(rooms, {f.code: f for f in floors}, "floor")
    _check_parents(objects, {r.code: r for r in rooms}, "room")
    # Read every point file before writing, so that a corrupt one leaves nothing behind.
    points: dict[str, Points] = {n.code: read_points(require_file(n.json_path.with_suffix(".ply"))) for n in rooms + objects}

    out = Path(out_dir)
    with SceneWriter(out) as writer:
        manifest_floors = []
        for floor in floors:
            manifest_rooms = []
            for room in (r for r in rooms if r.parent == floor.code):
                rel, count, bounds = writer.add_points(room.code, points[room.code])
                room_objects = []
                for obj in (o for o in objects if o.parent == room.code):
                    o_rel, o_count, o_bounds = writer.add_points(obj.code, points[obj.code])
                    room_objects.append(SceneObject(code=obj.code, label=canonical_label(obj.name) or "object",
                                                    points_file=o_rel, point_count=o_count, bounds=o_bounds))
                manifest_rooms.append(Room(code=room.code, type=canonical_room_type(room.name), name=room.name or None,
                                           points_file=rel, point_count=count, bounds=bounds, objects=room_objects))
            manifest_floors.append(Floor(code=floor.code, name=floor.name, rooms=manifest_rooms))
        manifest = SceneManifest(scene_id=scene_id_for(out), name=f"HOV-SG import ({graph.absolute().name})", floors=manifest_floors)
        return writer.finish(manifest)
