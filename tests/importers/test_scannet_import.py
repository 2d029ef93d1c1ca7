"""ScanNet import: real scan files in, a scene every command accepts out; bad input leaves nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from plyfile import PlyData, PlyElement
from scan_fixtures import SCAN_SEGMENTS, write_ply, write_scannet_scan

from scene_agent.errors import ScanImportError
from scene_agent.importers import import_scannet
from scene_agent.scene.loader import load_scene
from scene_agent.scene.manifest import load_manifest


def _leftovers(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in tmp_path.iterdir() if p.name == "out" or ".staging" in p.name)


def test_two_scans_become_two_rooms(tmp_path: Path) -> None:
    rotate_z = [0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]  # 90° about z: x/y extents swap
    a = write_scannet_scan(tmp_path / "scans", "scene0000_00")
    b = write_scannet_scan(tmp_path / "scans", "scene0001_00", scene_type="Bedroom / Hotel", alignment=rotate_z)
    path = import_scannet([a, b], tmp_path / "out")
    manifest = load_manifest(path)
    assert manifest.scene_id == "out"
    lounge, bedroom = manifest.rooms()
    assert (lounge.code, lounge.type, lounge.name) == ("0-1", "living_room", "scene0000_00")
    assert (bedroom.code, bedroom.type) == ("0-2", "bedroom")
    # chair (object id 2, segments 20+21) and Couch (id 3), codes keeping the ids and labels the scan's own words (lower
    # case; the scene index reads "couch" as a sofa); the empty "lamp" group is skipped
    assert [(o.code, o.label, o.point_count) for o in lounge.objects] == [("0-1-3", "chair", 200), ("0-1-4", "couch", 150)]
    # walls, floor and the ungrouped segment 40 form the room
    assert lounge.point_count == SCAN_SEGMENTS[10][0] + SCAN_SEGMENTS[11][0] + SCAN_SEGMENTS[40][0]
    assert lounge.bounds.max[0] < bedroom.bounds.min[0], "rooms are laid side by side without overlap"
    assert bedroom.bounds.size[0] == pytest.approx(3.0, abs=0.05) and bedroom.bounds.size[1] == pytest.approx(4.0, abs=0.05)
    scene = load_scene(path)
    chair = scene.points("0-1-3")
    colours = {tuple(c) for c in np.unique(chair.rgb, axis=0)}
    assert colours == {(220, 30, 30), (20, 20, 20)}
    assert min(b[2] for b in [lounge.bounds.min, bedroom.bounds.min]) == pytest.approx(0.0, abs=1e-3)
    room_colours = {tuple(c) for c in np.unique(scene.points("0-1").rgb, axis=0)}
    assert room_colours == {SCAN_SEGMENTS[s][1] for s in (10, 11, 40)}, "structure and ungrouped vertices only"
    # each scan (room + objects) starts at its x offset, with a 1 m gap after the one before
    lounge_lo, lounge_hi = _scan_bounds(lounge)
    assert lounge_lo == pytest.approx((0.0, 0.0, 0.0), abs=1e-3)
    assert _scan_bounds(bedroom)[0] == pytest.approx((lounge_hi[0] + 1.0, 0.0, 0.0), abs=1e-3)


def _scan_bounds(room) -> tuple[np.ndarray, np.ndarray]:
    boxes = [room.bounds] + [o.bounds for o in room.objects]
    return np.min([b.min for b in boxes], axis=0), np.max([b.max for b in boxes], axis=0)


@pytest.mark.parametrize(
    ("breakage", "names"),
    [
        (lambda d: (d / "scene0000_00.txt").unlink(), "scene0000_00.txt: missing file"),
        (lambda d: (d / "scene0000_00.aggregation.json").unlink(), "scene0000_00.aggregation.json: missing file"),
        (lambda d: (d / "scene0000_00_vh_clean_2.0.010000.segs.json").write_text(json.dumps({"segIndices": [10] * 5})),
         "segs.json: 5 segment indices for 900 vertices"),
        (lambda d: (d / "scene0000_00.aggregation.json").write_text(
            json.dumps({"segGroups": [{"id": 0, "label": "chair", "segments": [99]}]})),
         "aggregation.json: segGroup 0 ('chair') refers to segment 99"),
        (lambda d: (d / "scene0000_00.aggregation.json").write_text("{not json"), "aggregation.json: not valid JSON"),
        (lambda d: (d / "scene0000_00.aggregation.json").write_text(json.dumps({"groups": []})),
         "aggregation.json: missing field 'segGroups'"),
        (lambda d: _truncate(d / "scene0000_00_vh_clean_2.ply"), "scene0000_00_vh_clean_2.ply: corrupt or unreadable PLY"),
        (lambda d: (d / "scene0000_00_vh_clean_2.ply").write_bytes(b"GARBAGE" * 100),
         "scene0000_00_vh_clean_2.ply: corrupt or unreadable PLY"),
        (lambda d: (d / "scene0000_00.txt").write_text("axisAlignment = 1 0 0\n"), "scene0000_00.txt: axisAlignment must be 16 numbers"),
        (lambda d: (d / "scene0000_00_vh_clean_2.ply").unlink(), "scene0000_00_vh_clean_2.ply: missing file"),
        (lambda d: (d / "scene0000_00_vh_clean_2.0.010000.segs.json").unlink(), "scene0000_00_vh_clean_2.0.010000.segs.json: missing file"),
        (lambda d: (d / "scene0000_00_vh_clean_2.0.010000.segs.json").write_text('{"segIndices": [1, 2'), "segs.json: not valid JSON"),
        (lambda d: (d / "scene0000_00_vh_clean_2.0.010000.segs.json").write_text(json.dumps({"segIndices": ["a"] * 900})),
         "segs.json: segIndices must be a list of integers"),
        (lambda d: (d / "scene0000_00.aggregation.json").write_text(json.dumps({"segGroups": [{"id": 0, "segments": [10]}]})),
         "aggregation.json: missing field 'label'"),
    ],
)
def test_bad_scan_names_the_file_and_leaves_nothing(tmp_path: Path, breakage, names: str) -> None:
    good = write_scannet_scan(tmp_path / "scans", "scene0001_00")
    bad = write_scannet_scan(tmp_path / "scans", "scene0000_00")
    breakage(bad)
    with pytest.raises(ScanImportError) as err:
        import_scannet([good, bad], tmp_path / "out")
    assert names in str(err.value)
    assert _leftovers(tmp_path) == []


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])


def test_missing_scan_directory(tmp_path: Path) -> None:
    with pytest.raises(ScanImportError, match=r"nope: ScanNet scan directory not found"):
        import_scannet([tmp_path / "nope"], tmp_path / "out")
    assert _leftovers(tmp_path) == []


def test_scan_path_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "scene0000_00").write_text("not a scan")
    with pytest.raises(ScanImportError, match=r"scene0000_00: not a directory"):
        import_scannet([tmp_path / "scene0000_00"], tmp_path / "out")
    assert _leftovers(tmp_path) == []


def test_no_scans_or_the_same_scan_twice(tmp_path: Path) -> None:
    scan = write_scannet_scan(tmp_path / "scans", "scene0000_00")
    with pytest.raises(ScanImportError, match="at least one"):
        import_scannet([], tmp_path / "out")
    with pytest.raises(ScanImportError, match="the same scan is given twice: scene0000_00"):
        import_scannet([scan, scan], tmp_path / "out")
    assert _leftovers(tmp_path) == []


def test_shuffled_vertices_keep_their_groups(tmp_path: Path) -> None:
    scan = write_scannet_scan(tmp_path / "scans", "scene0000_00")
    _shuffle_vertices(scan, np.random.default_rng(3))
    manifest = load_manifest(import_scannet([scan], tmp_path / "out"))
    [room] = manifest.rooms()
    assert [(o.label, o.point_count) for o in room.objects] == [("chair", 200), ("couch", 150)]
    scene = load_scene(tmp_path / "out")
    assert {tuple(c) for c in np.unique(scene.points("0-1-4").rgb, axis=0)} == {(40, 40, 200)}
    assert {tuple(c) for c in np.unique(scene.points("0-1").rgb, axis=0)} == {(200, 200, 200), (150, 120, 90), (0, 255, 0)}


def _shuffle_vertices(scan: Path, rng: np.random.Generator) -> None:
    """Reorder vertices and their segment ids together, as real meshes interleave segments."""
    ply_path, segs_path = scan / f"{scan.name}_vh_clean_2.ply", scan / f"{scan.name}_vh_clean_2.0.010000.segs.json"
    vertex = PlyData.read(str(ply_path), mmap=False)["vertex"].data  # no mapping: we rewrite this file
    segs = np.array(json.loads(segs_path.read_text())["segIndices"])
    order = rng.permutation(len(vertex))
    write_ply(ply_path, vertex[order], faces=10)
    segs_path.write_text(json.dumps({"segIndices": segs[order].tolist()}))


def test_output_directory_must_be_new(tmp_path: Path) -> None:
    scan = write_scannet_scan(tmp_path / "scans", "scene0000_00")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep.txt").write_text("mine")
    with pytest.raises(Exception, match="directory is not empty"):
        import_scannet([scan], tmp_path / "out")
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["keep.txt"]


def test_mesh_with_quad_faces_still_imports(tmp_path: Path) -> None:
    scan = write_scannet_scan(tmp_path / "scans", "scene0000_00")
    ply_path = scan / "scene0000_00_vh_clean_2.ply"
    vertex = PlyData.read(str(ply_path), mmap=False)["vertex"].data  # no mapping: we rewrite this file
    quads = np.empty(5, dtype=[("vertex_indices", "i4", (4,))])
    quads["vertex_indices"] = np.arange(20).reshape(5, 4)
    PlyData([PlyElement.describe(vertex, "vertex"), PlyElement.describe(quads, "face")], text=False).write(str(ply_path))
    [room] = load_manifest(import_scannet([scan], tmp_path / "out")).rooms()
    assert room.point_count + sum(o.point_count for o in room.objects) == len(vertex)


def _regroup(scan: Path, groups: list[dict]) -> None:
    (scan / f"{scan.name}.aggregation.json").write_text(json.dumps({"sceneId": scan.name, "segGroups": groups}))


def test_codes_keep_the_scannet_object_ids(tmp_path: Path) -> None:
    """objectId k → 0-r-{k+1}, else the group's id, else its position; walls and floor leave gaps."""
    scan = write_scannet_scan(tmp_path / "scans", "scene0000_00")
    _regroup(scan, [{"objectId": 7, "id": 0, "label": "wall", "segments": [10]},
                    {"objectId": 12, "id": 1, "label": "chair", "segments": [20, 21]},
                    {"id": 4, "label": "couch", "segments": [30]},
                    {"label": "lamp", "segments": [40]}])
    [room] = load_manifest(import_scannet([scan], tmp_path / "out")).rooms()
    assert [(o.code, o.label) for o in room.objects] == [("0-1-4", "lamp"), ("0-1-5", "couch"), ("0-1-13", "chair")]


@pytest.mark.parametrize(("groups", "names"), [
    ([{"objectId": 2, "label": "chair", "segments": [20]}, {"objectId": 2, "label": "couch", "segments": [30]}],
     "segGroup 1 ('couch') has object id 2, as an earlier one has"),
    ([{"objectId": "two", "label": "chair", "segments": [20]}], "segGroup 0 has objectId 'two'"),
    ([{"objectId": -1, "label": "chair", "segments": [20]}], "segGroup 0 has objectId -1"),
])
def test_bad_object_ids_are_named(tmp_path: Path, groups: list[dict], names: str) -> None:
    scan = write_scannet_scan(tmp_path / "scans", "scene0000_00")
    _regroup(scan, groups)
    with pytest.raises(ScanImportError, match="aggregation.json: " + re.escape(names)):
        import_scannet([scan], tmp_path / "out")
    assert _leftovers(tmp_path) == []


def test_a_scan_typed_only_apartment_is_typed_by_what_it_holds(tmp_path: Path) -> None:
    bedroom = [(0, "wall", [10]), (1, "floor", [11]), (2, "Bed", [20, 21]), (3, "night stand", [30])]
    told = write_scannet_scan(tmp_path / "scans", "scene0002_00", scene_type="Apartment", groups=bedroom)
    mixed = write_scannet_scan(tmp_path / "scans", "scene0003_00", scene_type="Apartment")  # a chair and a couch
    typed = write_scannet_scan(tmp_path / "scans", "scene0004_00", scene_type="Kitchen", groups=bedroom)
    rooms = load_manifest(import_scannet([told, mixed, typed], tmp_path / "out")).rooms()
    assert [(r.type, r.inferred.because if r.inferred else None) for r in rooms] == [
        ("bedroom", ["bed", "nightstand"]), ("apartment", None), ("kitchen", None)]  # a type the scan gives stands
