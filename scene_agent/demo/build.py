"""Build the demo home, or the demo block of flats (block.py), into a scene directory: one point file per room and object, one manifest."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from scene_agent.demo.block import LARGE, BlockSize, block_storeys
from scene_agent.demo.layout import FloorPlan, Item, RoomPlan, demo_home
from scene_agent.demo.structure import Shell, render_shell, shell_point_count
from scene_agent.demo.surfaces import Part, parts_area, render_parts, rng_for
from scene_agent.demo.version import DEMO_VERSION, SCENE_ID, SCENE_NAME, VERSION_FILE
from scene_agent.scene.manifest import Floor, Room, SceneManifest, SceneObject
from scene_agent.scene.writer import SceneWriter

BLOCK_SCENE_ID, BLOCK_NAME = "demo-block", "Demo block of flats"

# Points per m² of visible furniture surface, like a scan from a few meters away; small things
# are scanned more densely relative to their size, big ones are capped, so every object file
# holds between 6 k and 18 k points.
OBJECT_DENSITY = 3000.0
MIN_OBJECT_POINTS, MAX_OBJECT_POINTS = 6_000, 18_000


def object_point_count(parts: tuple[Part, ...]) -> int:
    """How many points an object's file gets, from its visible surface area."""
    return int(np.clip(round(parts_area(parts) * OBJECT_DENSITY), MIN_OBJECT_POINTS, MAX_OBJECT_POINTS))


def _check_placement(code: str, item: Item, room: RoomPlan, height: float) -> None:
    """Fail loudly when the layout puts an object through a wall or the ceiling (a bug in layout.py)."""
    corners = np.concatenate([p.corners() for p in item.parts])
    c, s = math.cos(math.radians(item.yaw)), math.sin(math.radians(item.yaw))
    x = item.x + c * corners[:, 0] - s * corners[:, 1]
    y = item.y + s * corners[:, 0] + c * corners[:, 1]
    r = room.rect
    top = item.z + corners[:, 2].max()
    if x.min() < r.x0 or x.max() > r.x1 or y.min() < r.y0 or y.max() > r.y1 or top > height:
        raise ValueError(
            f"demo layout: {item.label} {code} spans x {x.min():.2f}..{x.max():.2f}, y {y.min():.2f}..{y.max():.2f}, "
            f"top {top:.2f}, outside room {room.name} x {r.x0}..{r.x1}, y {r.y0}..{r.y1}, height {height}"
        )


def _build_room(writer: SceneWriter, floor: FloorPlan, number: int, room: RoomPlan) -> Room:
    code = f"{floor.code}-{number}"
    shell = Shell(room.rect, floor.elevation, floor.height, room.floor_finish, room.wall_color, room.doors, room.windows)
    rel, count, bounds = writer.add_points(code, render_shell(shell, rng_for(code)))
    objects = []
    for o, item in enumerate(room.all_items(), start=1):  # items, then windows
        obj_code = f"{code}-{o}"
        _check_placement(obj_code, item, room, floor.height)
        at = (item.x, item.y, floor.elevation + item.z)
        points = render_parts(item.parts, object_point_count(item.parts), at, item.yaw, rng_for(obj_code))
        obj_rel, obj_count, obj_bounds = writer.add_points(obj_code, points)
        objects.append(SceneObject(code=obj_code, label=item.label, points_file=obj_rel, point_count=obj_count, bounds=obj_bounds))
    return Room(code=code, type=room.type, name=room.name, points_file=rel, point_count=count, bounds=bounds, objects=objects)


def _build_floor(writer: SceneWriter, plan: FloorPlan) -> Floor:
    """One storey, written room by room: only one room's or object's points are held at a time."""
    rooms = [_build_room(writer, plan, n, room) for n, room in enumerate(plan.rooms, start=1)]
    return Floor(code=plan.code, name=plan.name, elevation=plan.elevation, rooms=rooms)


def build_demo_scene(out_dir: str | os.PathLike[str], overwrite: bool = False) -> Path:
    """Build the demo home into out_dir (scene.json, points/*.ply, VERSION_FILE); returns the manifest path.

    Byte-for-byte identical on every run.
    """
    with SceneWriter(out_dir, overwrite=overwrite) as writer:
        floors = [_build_floor(writer, plan) for plan in demo_home()]
        # Staged with the rest, so the stamp appears in the same rename as the scene it describes.
        (writer.staging / VERSION_FILE).write_text(f"{DEMO_VERSION}\n", encoding="utf-8")
        return writer.finish(SceneManifest(scene_id=SCENE_ID, name=SCENE_NAME, units="meters", up_axis="z", floors=floors))


def write_block(writer: SceneWriter, size: BlockSize) -> SceneManifest:
    """Write the demo block's point files through writer, storey by storey; returns its manifest."""
    floors = [_build_floor(writer, plan) for plan in block_storeys(size)]
    return SceneManifest(scene_id=BLOCK_SCENE_ID, name=BLOCK_NAME, units="meters", up_axis="z", floors=floors)


def build_block_scene(out_dir: str | os.PathLike[str], size: BlockSize = LARGE, overwrite: bool = False) -> Path:
    """Build the demo block of flats (block.py) into out_dir; returns the manifest path.

    Byte-for-byte identical on every run. No VERSION_FILE: demo/place.py never takes it for the demo home.
    """
    with SceneWriter(out_dir, overwrite=overwrite) as writer:
        return writer.finish(write_block(writer, size))


def planned_points(plans: Iterable[FloorPlan]) -> int:
    """How many points a build of these storeys writes, counted from the plans without sampling any."""
    total = 0
    for plan in plans:
        for room in plan.rooms:
            total += shell_point_count(Shell(room.rect, plan.elevation, plan.height, room.floor_finish, room.wall_color))
            total += sum(object_point_count(item.parts) for item in room.all_items())
    return total
