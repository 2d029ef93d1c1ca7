"""`bench viewer`'s pick view: every room of a small scene, one bounded floor of a large one (no browser needed)."""

from __future__ import annotations

import json
from pathlib import Path

from scene_agent.scene.loader import load_scene
from scene_bench.scene import synthetic_manifest
from scene_bench.viewer import MAX_PICK_ROOMS, pick_rooms


def test_a_small_scene_offers_every_room(small_scene_path: Path) -> None:
    scene = load_scene(small_scene_path)
    rooms, words = pick_rooms(scene)
    assert rooms == list(scene.index.rooms) and words == "all 7 rooms"


def test_a_large_scene_offers_the_fullest_floor_bounded(tmp_path: Path) -> None:
    manifest = synthetic_manifest(n_objects=900, objects_per_room=10, rooms_per_floor=30)  # floors 0–2, 30 rooms each
    heavy = manifest["floors"][1]["rooms"]
    heavy[0]["point_count"] = 1  # the fullest floor still, but its lightest room
    for room in manifest["floors"][1]["rooms"][1:]:
        room["objects"][0]["point_count"] += 200_000
    (tmp_path / "scene.json").write_text(json.dumps(manifest), encoding="utf-8")
    rooms, words = pick_rooms(load_scene(tmp_path))
    assert len(rooms) == MAX_PICK_ROOMS
    assert rooms == [r["code"] for r in heavy[1:MAX_PICK_ROOMS + 1]]  # the heaviest, in manifest order; not 1-1
    assert words == f"{MAX_PICK_ROOMS} of 90 rooms: floor 1's, the floor with the most points"
