"""A small real scene (manifest + PLY point files) the tests write into a directory of their own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    return write_scene(out, SMALL_SCENE, "small", "Small test home")


def write_scene(out: Path, spec: Sequence, scene_id: str, name: str) -> Path:  # type: ignore[type-arg]
    """Write a scene laid out as SMALL_SCENE is (floors of rooms side by side, objects in a row) into `out`."""
    rng = np.random.default_rng(7)
    floors = []
    with SceneWriter(out) as writer:
        for f_index, (f_code, f_name, rooms_spec) in enumerate(spec):
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
        return writer.finish(SceneManifest(scene_id=scene_id, name=name, floors=floors))


# A small block of flats: FLAT_FLOORS floors, each with four flats' kitchens side by side ("Kitchen, flat 2B"), each
# kitchen with four chairs in a row, of colours that differ from neighbour to neighbour: many like candidates.
FLAT_FLOORS, FLATS, FLAT_CHAIRS = 3, "ABCD", 4
FLAT_PALETTE = [(200, 30, 30), (30, 30, 200), (30, 160, 40), (230, 200, 40), (240, 130, 20), (120, 40, 160)]
FLAT_CHAIR_CODES = [f"{f}-{r + 1}-{k + 1}" for f in range(FLAT_FLOORS) for r in range(len(FLATS)) for k in range(FLAT_CHAIRS)]


def write_flats(out: Path) -> Path:
    """Write the block of flats into `out`; returns the manifest path."""
    spec = []
    for f in range(FLAT_FLOORS):
        rooms = []
        for r, flat in enumerate(FLATS):
            room = f"{f}-{r + 1}"
            chairs = [(f"{room}-{k + 1}", "chair", FLAT_PALETTE[(r + f + k) % len(FLAT_PALETTE)]) for k in range(FLAT_CHAIRS)]
            rooms.append((room, "kitchen", f"Kitchen, flat {f + 1}{flat}", chairs))
        spec.append((str(f), f"Floor {f}", rooms))
    return write_scene(out, spec, "flats", "A small block of flats")


# A row of chairs alike (same label, same colour), 1 m apart along x in one room: only where each stands tells
# them apart, so "the chair on the left" depends on where it is seen from.
ROW_ROOM = "0-1"
ROW_CHAIRS = ["0-1-1", "0-1-2", "0-1-3", "0-1-4"]
ROW_RGB = (180, 40, 40)


def write_chair_row(out: Path) -> Path:
    """A one-room scene holding ROW_CHAIRS in a row along x (west to east, in code order); returns the manifest path."""
    rng = np.random.default_rng(11)
    with SceneWriter(out) as writer:
        # the room's floor only: nothing hides the chairs from a camera outside or above the room
        rel, count, bounds = writer.add_points(ROW_ROOM, box_points(rng, np.zeros(3), np.array([6.0, 4.0, 0.02]),
                                                                    (200, 200, 190), n=6000))
        objects = []
        for index, code in enumerate(ROW_CHAIRS):
            lo = np.array([1.25 + 1.0 * index, 1.7, 0.0])
            o_rel, o_count, o_bounds = writer.add_points(code, box_points(rng, lo, lo + np.array([0.5, 0.5, 0.9]), ROW_RGB, n=1500))
            objects.append(SceneObject(code=code, label="chair", points_file=o_rel, point_count=o_count, bounds=o_bounds))
        room = Room(code=ROW_ROOM, type="dining_room", name=None, points_file=rel, point_count=count, bounds=bounds,
                    objects=objects)
        floor = Floor(code="0", name="Ground floor", elevation=0.0, rooms=[room])
        return writer.finish(SceneManifest(scene_id="chair-row", name="A row of chairs", floors=[floor]))


def centre_of(bounds: Mapping[str, Sequence[float]]) -> tuple[float, float, float]:
    """The centre of a manifest's bounds ({"min", "max"})."""
    lo, hi = bounds["min"], bounds["max"]
    return (lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2


def on_screen(camera: Mapping[str, Sequence[float]], points: Mapping[str, Sequence[float]]) -> dict[str, tuple[float, float]]:
    """Where a pinhole camera ({position, target, up}, scene coordinates) draws each point: the tangents of its angles
    right of (negative: left of) and above the screen's middle. Worked out here from the camera alone, as a person's
    eye would, not with the product's own reading of left and right."""
    position = np.asarray(camera["position"], float)
    sight = np.asarray(camera["target"], float) - position
    right = np.cross(sight, np.asarray(camera["up"], float))
    right, sight = right / np.linalg.norm(right), sight / np.linalg.norm(sight)
    up = np.cross(right, sight)
    drawn = {}
    for code, point in points.items():
        offset = np.asarray(point, float) - position
        depth = float(offset @ sight)
        assert depth > 0, f"{code} is behind the camera"
        drawn[code] = float(offset @ right) / depth, float(offset @ up) / depth
    return drawn


def across_screen(camera: Mapping[str, Sequence[float]], points: Mapping[str, Sequence[float]]) -> dict[str, float]:
    """How far right of the screen's middle (negative: left) the camera draws each point (see `on_screen`)."""
    return {code: x for code, (x, _) in on_screen(camera, points).items()}


def left_to_right(camera: Mapping[str, Sequence[float]], points: Mapping[str, Sequence[float]]) -> list[str]:
    """The points' codes as the camera draws them, from the screen's left edge to its right."""
    drawn = across_screen(camera, points)
    return sorted(drawn, key=drawn.__getitem__)
