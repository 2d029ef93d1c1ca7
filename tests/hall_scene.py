"""A one-room scene with a door 0.90 m wide and 2.00 m high, and things to carry through it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from small_scene import box_points

from scene_agent.scene.manifest import Floor, Room, SceneManifest, SceneObject
from scene_agent.scene.writer import SceneWriter

# (code, label, lo corner, hi corner) in metres
HALL = [("0-1-1", "door", (0.0, 0.0, 0.0), (0.90, 0.05, 2.00)),
        ("0-1-2", "sofa", (1.5, 1.0, 0.0), (3.5, 1.9, 0.80)),        # section 0.80 × 0.90: through, 0.10 m to spare
        ("0-1-3", "bookcase", (4.0, 1.0, 0.0), (5.0, 2.0, 2.20)),    # section 1.00 × 1.00: too wide by 0.10 m
        ("0-1-4", "table", (1.5, 3.0, 0.0), (2.7, 3.8, 0.75))]


def write_hall(out: Path) -> Path:
    """Write the hall into `out`; returns the manifest path."""
    rng = np.random.default_rng(5)
    with SceneWriter(out) as writer:
        rel, count, bounds = writer.add_points("0-1", box_points(rng, np.zeros(3), np.array([6.0, 5.0, 0.02]),
                                                                 (200, 200, 190), n=20_000))
        objects = []
        for code, label, lo, hi in HALL:
            o_rel, o_count, o_bounds = writer.add_points(code, box_points(rng, np.array(lo), np.array(hi), (120, 90, 60),
                                                                          n=12_000))
            objects.append(SceneObject(code=code, label=label, points_file=o_rel, point_count=o_count, bounds=o_bounds))
        room = Room(code="0-1", type="hallway", name="Hall", points_file=rel, point_count=count, bounds=bounds,
                    objects=objects)
        return writer.finish(SceneManifest(scene_id="hall", name="Hall", floors=[Floor(code="0", rooms=[room])]))
