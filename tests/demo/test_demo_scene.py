"""The demo home: contents, agreement between manifest and point files, determinism, safe output."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from scene_copies import copy_without_times

from scene_agent.demo.build import build_demo_scene
from scene_agent.demo.version import DEMO_VERSION, VERSION_FILE
from scene_agent.errors import SceneAgentError
from scene_agent.geometry.points import Points
from scene_agent.language.vocabulary import OBJECT_SYNONYMS, ROOM_SYNONYMS
from scene_agent.scene.loader import load_scene
from scene_agent.scene.manifest import SceneManifest, load_manifest
from scene_agent.scene.ply import points_from_vertices, read_ply_vertices
from scene_agent.tiles.store import TILES_DIR, ensure_tiles

BOUNDS_TOLERANCE = 0.01  # meters; scanner noise may push a point a few mm past a wall


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One build shared by the read-only tests of this module (a build takes a second or two)."""
    out = tmp_path_factory.mktemp("demo") / "demo"
    manifest_path = build_demo_scene(out)
    assert manifest_path == out.absolute() / "scene.json"
    return out


@pytest.fixture(scope="module")
def manifest(demo_dir: Path) -> SceneManifest:
    return load_manifest(demo_dir)


@pytest.fixture(scope="module")
def points(demo_dir: Path, manifest: SceneManifest) -> dict[str, Points]:
    """Every room's and object's points, read back from the PLY files, by code."""
    owners = list(manifest.rooms()) + manifest.objects()
    return {o.code: points_from_vertices(read_ply_vertices(demo_dir / o.points_file)) for o in owners}


def _rooms_of_type(manifest: SceneManifest, room_type: str):
    return [room for room in manifest.rooms() if room.type == room_type]


def _labels(room) -> list[str]:
    return [obj.label for obj in room.objects]


def test_two_floors_with_names_and_elevations(manifest: SceneManifest) -> None:
    assert manifest.scene_id == "demo" and manifest.units == "meters" and manifest.up_axis == "z"
    assert [(f.code, f.name) for f in manifest.floors] == [("0", "Ground floor"), ("1", "Upper floor")]
    assert manifest.floors[0].elevation == 0.0
    assert 2.8 <= manifest.floors[1].elevation <= 3.2


def test_codes_are_numbered_from_one_in_order(manifest: SceneManifest) -> None:
    for floor in manifest.floors:
        assert [room.code for room in floor.rooms] == [f"{floor.code}-{i}" for i in range(1, len(floor.rooms) + 1)]
        for room in floor.rooms:
            assert [obj.code for obj in room.objects] == [f"{room.code}-{i}" for i in range(1, len(room.objects) + 1)]


def test_types_and_labels_are_canonical(manifest: SceneManifest) -> None:
    assert {room.type for room in manifest.rooms()} <= set(ROOM_SYNONYMS)
    assert {obj.label for obj in manifest.objects()} <= set(OBJECT_SYNONYMS)


def test_home_has_the_rooms_the_demo_needs(manifest: SceneManifest) -> None:
    assert len(manifest.rooms()) >= 8
    bedrooms = _rooms_of_type(manifest, "bedroom")
    assert len(bedrooms) >= 2
    assert len({room.name for room in bedrooms}) == len(bedrooms), "bedrooms need distinct names"
    for room in bedrooms:
        assert "bed" in _labels(room) and _labels(room).count("nightstand") == 2
    (kitchen,) = _rooms_of_type(manifest, "kitchen")
    assert _labels(kitchen).count("chair") >= 4 and "dining table" in _labels(kitchen)
    (living,) = _rooms_of_type(manifest, "living_room")
    assert living.name == "Lounge"
    assert "sofa" in _labels(living) and _labels(living).count("armchair") >= 2
    assert {"coffee table", "tv stand", "tv", "bookshelf", "floor lamp", "plant"} <= set(_labels(living))
    bathrooms = {room.name: room for room in _rooms_of_type(manifest, "bathroom")}
    assert sorted(bathrooms) == ["Bathroom", "WC"]
    assert {"toilet", "sink", "bathtub"} <= set(_labels(bathrooms["Bathroom"]))
    assert {"toilet", "sink"} <= set(_labels(bathrooms["WC"]))
    (study,) = _rooms_of_type(manifest, "study")
    assert {"desk", "office chair", "bookshelf", "monitor", "lamp"} <= set(_labels(study))
    assert _rooms_of_type(manifest, "hallway")


def test_point_budget(manifest: SceneManifest) -> None:
    objects = manifest.objects()
    assert len(objects) >= 50
    assert all(5_000 <= obj.point_count <= 20_000 for obj in objects), [(o.code, o.point_count) for o in objects]
    assert all(20_000 <= room.point_count <= 80_000 for room in manifest.rooms())
    total = sum(o.point_count for o in objects) + sum(r.point_count for r in manifest.rooms())
    assert 1_000_000 <= total <= 2_000_000


def test_kitchen_chairs_have_clearly_different_colours(manifest: SceneManifest, points: dict[str, Points]) -> None:
    (kitchen,) = _rooms_of_type(manifest, "kitchen")
    seats = []
    for chair in (obj for obj in kitchen.objects if obj.label == "chair"):
        p = points[chair.code]
        # The seat slab lies between 0.43 m and 0.46 m above the floor.
        height = p.xyz[:, 2] - manifest.floors[0].elevation
        seat = p.rgb[(height > 0.43) & (height < 0.465)]
        assert len(seat) > 200
        seats.append(np.median(seat.astype(float), axis=0))
    assert len(seats) >= 4
    for a, b in itertools.combinations(seats, 2):
        assert np.linalg.norm(a - b) > 60, (a, b)


def test_manifest_counts_and_bounds_match_the_files(manifest: SceneManifest, points: dict[str, Points]) -> None:
    for owner in list(manifest.rooms()) + manifest.objects():
        p = points[owner.code]
        assert len(p) == owner.point_count, owner.code
        lo, hi = p.bounds()
        assert np.allclose(lo, owner.bounds.min, atol=1e-4) and np.allclose(hi, owner.bounds.max, atol=1e-4), owner.code


def test_objects_lie_inside_their_rooms(manifest: SceneManifest) -> None:
    for room in manifest.rooms():
        lo, hi = np.array(room.bounds.min), np.array(room.bounds.max)
        for obj in room.objects:
            assert np.all(np.array(obj.bounds.min) >= lo - BOUNDS_TOLERANCE), (room.code, obj.code, obj.label)
            assert np.all(np.array(obj.bounds.max) <= hi + BOUNDS_TOLERANCE), (room.code, obj.code, obj.label)


def test_rooms_of_a_floor_do_not_overlap(manifest: SceneManifest) -> None:
    for floor in manifest.floors:
        for a, b in itertools.combinations(floor.rooms, 2):
            overlap_x = min(a.bounds.max[0], b.bounds.max[0]) - max(a.bounds.min[0], b.bounds.min[0])
            overlap_y = min(a.bounds.max[1], b.bounds.max[1]) - max(a.bounds.min[1], b.bounds.min[1])
            assert overlap_x <= BOUNDS_TOLERANCE or overlap_y <= BOUNDS_TOLERANCE, (a.code, b.code)


def _files(root: Path) -> dict[str, bytes]:
    """Every file's bytes, by path within the scene (attributes.json included: it records no file times)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_two_builds_are_byte_for_byte_identical(demo_dir: Path, tmp_path: Path) -> None:
    """Caches included: attributes.json and the tiles record contents, never file times or places."""
    again = tmp_path / "again"
    build_demo_scene(again)
    tiles = tmp_path / "tiles-of-the-first"  # the module's build keeps no tiles: a copy of it gets them
    copy_without_times(demo_dir, tiles)
    for root in (tiles, again):
        assert ensure_tiles(root, load_manifest(root)).built  # as `scene-agent demo-scene` does after the build
    first, second = _files(tiles), _files(again)
    assert sorted(first) == sorted(second)
    # scene.json, attributes.json, the generator's version stamp, one point file per room and object, and the tiles
    tile_files = [name for name in first if name.startswith(f"{TILES_DIR}/")]
    assert len(tile_files) == 1 + len(json.loads(first[f"{TILES_DIR}/index.json"])["nodes"])
    assert len(first) == 3 + len(load_manifest(again).rooms()) + len(load_manifest(again).objects()) + len(tile_files)
    assert first[VERSION_FILE] == f"{DEMO_VERSION}\n".encode()
    for name in first:
        assert first[name] == second[name], name


def test_a_copy_of_the_demo_measures_nothing_and_keeps_its_tiles(demo_dir: Path, tmp_path: Path) -> None:
    built = copy_without_times(demo_dir, tmp_path / "built")
    assert ensure_tiles(built, load_manifest(built)).built
    before = _files(built)
    copy = copy_without_times(built, tmp_path / "copy")
    scene = load_scene(copy)
    lines: list[str] = []
    scene.progress = lines.append
    assert len(scene.attributes().items) == len(scene.manifest.rooms()) + len(scene.manifest.objects())
    assert lines == [], "nothing measured"
    assert not ensure_tiles(copy, scene.manifest).built
    assert _files(copy) == before


def test_refuses_a_non_empty_directory_and_leaves_nothing_behind(tmp_path: Path) -> None:
    out = tmp_path / "notes"
    out.mkdir()
    (out / "todo.txt").write_text("keep me")
    for overwrite in (False, True):
        with pytest.raises(SceneAgentError):
            build_demo_scene(out, overwrite=overwrite)
    assert [p.name for p in tmp_path.iterdir()] == ["notes"], "no staging directory may be left behind"
    assert [p.name for p in out.iterdir()] == ["todo.txt"]


def test_refuses_an_existing_scene_without_overwrite(demo_dir: Path) -> None:
    before = _files(demo_dir)
    with pytest.raises(SceneAgentError):
        build_demo_scene(demo_dir)
    assert _files(demo_dir) == before


def test_overwrite_replaces_an_existing_scene(demo_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "scene"
    out.mkdir()
    (out / "scene.json").write_text("{}")
    (out / "stale.ply").write_bytes(b"old")
    assert build_demo_scene(out, overwrite=True) == out.absolute() / "scene.json"
    assert _files(out) == _files(demo_dir)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scene"]
