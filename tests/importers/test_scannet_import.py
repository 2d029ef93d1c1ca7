"""ScanNet import: real scan files in, a scene every command accepts out; bad input leaves nothing."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scan_fixtures import SCAN_SEGMENTS, write_scannet_scan

from scene_agent.errors import ScanImportError
from scene_agent.importers import import_scannet
from scene_agent.manifest import load_manifest
from scene_agent.scene import load_scene


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
    # chair (segments 20+21) and Couch → sofa; the empty "lamp" group is skipped
    assert [(o.code, o.label, o.point_count) for o in lounge.objects] == [("0-1-1", "chair", 200), ("0-1-2", "sofa", 150)]
    # walls, floor and the ungrouped segment 40 form the room
    assert lounge.point_count == SCAN_SEGMENTS[10][0] + SCAN_SEGMENTS[11][0] + SCAN_SEGMENTS[40][0]
    assert lounge.bounds.max[0] < bedroom.bounds.min[0], "rooms are laid side by side without overlap"
    assert bedroom.bounds.size[0] == pytest.approx(3.0, abs=0.05) and bedroom.bounds.size[1] == pytest.approx(4.0, abs=0.05)
    scene = load_scene(path)
    chair = scene.points("0-1-1")
    colours = {tuple(c) for c in np.unique(chair.rgb, axis=0)}
    assert colours == {(220, 30, 30), (20, 20, 20)}
    assert min(b[2] for b in [lounge.bounds.min, bedroom.bounds.min]) == pytest.approx(0.0, abs=1e-3)


@pytest.mark.parametrize(
    ("breakage", "names"),
    [
        (lambda d: (d / "scene0000_00.txt").unlink(), "scene0000_00.txt: missing file"),
        (lambda d: (d / "scene0000_00.aggregation.json").unlink(), "scene0000_00.aggregation.json: missing file"),
        (lambda d: (d / "scene0000_00_vh_clean_2.0.010000.segs.json").write_text(json.dumps({"segIndices": [10] * 5})),
         "segs.json: 5 segment indices for 900 vertices"),
        (lambda d: (d / "scene0000_00.aggregation.json").write_text(json.dumps({"segGroups": [{"id": 0, "label": "chair", "segments": [99]}]})),
         "aggregation.json: segGroup 0 ('chair') refers to segment 99"),
        (lambda d: (d / "scene0000_00.aggregation.json").write_text("{not json"), "aggregation.json: not valid JSON"),
        (lambda d: (d / "scene0000_00.aggregation.json").write_text(json.dumps({"groups": []})), "aggregation.json: missing field 'segGroups'"),
        (lambda d: _truncate(d / "scene0000_00_vh_clean_2.ply"), "scene0000_00_vh_clean_2.ply: corrupt or unreadable PLY"),
        (lambda d: (d / "scene0000_00_vh_clean_2.ply").write_bytes(b"GARBAGE" * 100), "scene0000_00_vh_clean_2.ply: corrupt or unreadable PLY"),
        (lambda d: (d / "scene0000_00.txt").write_text("axisAlignment = 1 0 0\n"), "scene0000_00.txt: axisAlignment must be 16 numbers"),
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


def test_output_directory_must_be_new(tmp_path: Path) -> None:
    scan = write_scannet_scan(tmp_path / "scans", "scene0000_00")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep.txt").write_text("mine")
    with pytest.raises(Exception, match="directory is not empty"):
        import_scannet([scan], tmp_path / "out")
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["keep.txt"]
