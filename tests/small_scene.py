"""A small real scene (manifest + PLY point files) the tests write into a directory of their own."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from scene_agent.geometry.points import Points
from scene_agent.scene.manifest import Floor, Room, SceneManifest, SceneObject
from scene_agent.scene.writer import SceneWriter

# floor code, floor name, [(room code, type, name, [(object code, label, rgb)])]
SMALL_SCENE = [
    ("0", "Ground floor", [
        ("0-1", "kitchen", None, [("0-1-1", "chair", (200, 30, 30)), ("0-1-2", "chair", (30, 30, 200)),
                                  ("0-1-3", "chair", (30, 160, 40)), ("0-1-4", "dining table", (120, 80, 40))]),
        ("0-2", "living_room", "Lounge", [("0-2-1", "sofa", (90, 90, 90)), ("0-2-2", "armchair", (150, 40, 40)),
                                          ("0-2-3", "armchair", (40, 40, 150)), ("0-2-4", "coffee table", (110, 70, 30))]),
        ("0-3", "bathroom", None, [("0-3-1", "toilet", (240, 240, 240))]),
    ]),
    ("1", "Upper floor", [
        ("1-1", "bedroom", "Master bedroom", [("1-1-1", "bed", (220, 220, 210)), ("1-1-2", "nightstand", (100, 60, 30)),
                                              ("1-1-3", "lamp", (240, 220, 160))]),
        ("1-2", "bedroom", "Guest bedroom", [("1-2-1", "bed", (180, 200, 220))]),
        ("1-3", "study", None, [("1-3-1", "desk", (110, 70, 30)), ("1-3-2", "office chair", (20, 20, 20))]),
        ("1-4", "kitchen", "Kitchenette", [("1-4-1", "chair", (230, 200, 40))]),
    ]),
]


def box_points(rng: np.random.Generator, lo: np.ndarray, hi: np.ndarray, rgb: tuple[int, int, int], n: int = 400) -> Points:
    """Points filling a box with one colour (enough for a real PLY round trip)."""
    xyz = lo + rng.random((n, 3)) * (hi - lo)
    return Points(xyz=xyz, rgb=np.tile(np.array(rgb, dtype=np.uint8), (n, 1)))


def write_small_scene(out: Path) -> Path:
    """Write SMALL_SCENE into `out`; returns the manifest path."""
    rng = np.random.default_rng(7)
    floors = []
    with SceneWriter(out) as writer:
        for f_index, (f_code, f_name, rooms_spec) in enumerate(SMALL_SCENE):
            rooms = []
            for r_index, (r_code, r_type, r_name, objects_spec) in enumerate(rooms_spec):
                origin = np.array([r_index * 5.0, 0.0, f_index * 3.0])
                rel, count, bounds = writer.add_points(r_code, box_points(rng, origin, origin + np.array([4.0, 4.0, 2.7]), (200, 200, 190)))
                objects = []
                for o_index, (o_code, label, rgb) in enumerate(objects_spec):
                    lo = origin + np.array([0.3 + 0.9 * o_index, 0.5, 0.0])
                    o_rel, o_count, o_bounds = writer.add_points(o_code, box_points(rng, lo, lo + np.array([0.6, 0.6, 0.9]), rgb))
                    objects.append(SceneObject(code=o_code, label=label, points_file=o_rel, point_count=o_count, bounds=o_bounds))
                rooms.append(Room(code=r_code, type=r_type, name=r_name, points_file=rel, point_count=count, bounds=bounds,
                                  objects=objects))
            floors.append(Floor(code=f_code, name=f_name, elevation=f_index * 3.0, rooms=rooms))
        return writer.finish(SceneManifest(scene_id="small", name="Small test home", floors=floors))
