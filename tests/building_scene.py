"""A block of flats the tests write into a directory of their own: nine floors of four flats, five rooms each.

Rooms are named as the demo block's are ("Kitchen, flat 3B"), each a small box of points with one object in it (a
plant, a chair, a sofa, a bed, a toilet), laid out flat by flat along x, the flats' rooms in two rows along y, one
floor above the other. 180 rooms and 180 objects of a few hundred points each: quick to write and to draw whole.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from small_scene import box_points

from scene_agent.scene.manifest import Floor, Room, SceneManifest, SceneObject
from scene_agent.scene.writer import SceneWriter

FLOORS = [str(k) for k in range(9)]
FLATS = "ABCD"
# room type, name, (column, row) in the flat, its object's label and colour
ROOMS = [
    ("hallway", "Landing", (0, 0), "plant", (40, 150, 60)),
    ("kitchen", "Kitchen", (1, 0), "chair", (200, 40, 40)),
    ("living_room", "Lounge", (2, 0), "sofa", (90, 90, 160)),
    ("bedroom", "Bedroom", (0, 1), "bed", (220, 220, 210)),
    ("bathroom", "Bathroom", (1, 1), "toilet", (240, 240, 240)),
]
ROOM_M = 4.0
STEP_M = 4.5
FLAT_M = 15.0
STOREY_M = 3.0


def room_code(floor: str, flat: int, room: int) -> str:
    """Rooms are numbered from 1 on each floor, flat by flat."""
    return f"{floor}-{flat * len(ROOMS) + room + 1}"


def room_name(floor: str, flat: int, room: int) -> str:
    return f"{ROOMS[room][1]}, flat {floor}{FLATS[flat]}"


def write_building(out: Path) -> Path:
    """Write the block into `out`; returns the manifest path."""
    rng = np.random.default_rng(5)
    floors = []
    with SceneWriter(out) as writer:
        for f_index, floor in enumerate(FLOORS):
            rooms = []
            for flat in range(len(FLATS)):
                for r_index, (r_type, _, (col, row), label, rgb) in enumerate(ROOMS):
                    code = room_code(floor, flat, r_index)
                    lo = np.array([flat * FLAT_M + col * STEP_M, row * STEP_M, f_index * STOREY_M])
                    rel, count, bounds = writer.add_points(code, box_points(rng, lo, lo + np.array([ROOM_M, ROOM_M, 2.7]),
                                                                            (200, 200, 190), n=300))
                    o_lo = lo + np.array([1.5, 1.5, 0.0])
                    o_rel, o_count, o_bounds = writer.add_points(f"{code}-1", box_points(rng, o_lo, o_lo + np.array([1.0, 1.0, 0.9]),
                                                                                         rgb, n=200))
                    obj = SceneObject(code=f"{code}-1", label=label, points_file=o_rel, point_count=o_count, bounds=o_bounds)
                    rooms.append(Room(code=code, type=r_type, name=room_name(floor, flat, r_index), points_file=rel,
                                      point_count=count, bounds=bounds, objects=[obj]))
            name = "Ground floor" if floor == "0" else f"Floor {floor}"
            floors.append(Floor(code=floor, name=name, elevation=f_index * STOREY_M, rooms=rooms))
        return writer.finish(SceneManifest(scene_id="block", name="Test block of flats", floors=floors))
