"""Point files: written as binary PLY, read lazily through Open3D, cached, errors name the file."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from scene_agent.errors import NotFoundError, PointFileError, UsageError
from scene_agent.geometry.points import Points
from scene_agent.scene.loader import load_scene
from scene_agent.scene.ply import write_points
from scene_agent.scene.pointcloud import load_points


def test_round_trip_through_open3d(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    points = Points(xyz=rng.random((500, 3)) * 4, rgb=rng.integers(0, 256, (500, 3), dtype=np.uint8))
    write_points(tmp_path / "p.ply", points)
    assert (tmp_path / "p.ply").read_bytes().startswith(b"ply\nformat binary_little_endian 1.0\n")
    assert (tmp_path / "p.ply").stat().st_mode & 0o777 == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["p.ply"]  # no temp file left
    loaded = load_points(tmp_path / "p.ply")
    assert np.allclose(loaded.xyz, points.xyz, atol=1e-6)
    assert np.array_equal(loaded.rgb, points.rgb)
    assert load_points(tmp_path / "p.ply") is loaded  # cached


def test_scene_points_are_lazy_and_match_manifest(small_scene_path: Path) -> None:
    scene = load_scene(small_scene_path)
    chair = scene.index.objects["0-1-1"].obj
    points = scene.points("0-1-1")
    assert len(points) == chair.point_count
    lo, hi = points.bounds()
    assert np.allclose(lo, chair.bounds.min, atol=1e-3) and np.allclose(hi, chair.bounds.max, atol=1e-3)
    assert tuple(np.median(points.rgb, axis=0)) == (200, 30, 30)


def test_missing_and_corrupt_point_files(small_scene_path: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(small_scene_path.parent, copy)
    (copy / "points" / "0-1-1.ply").unlink()
    header = b"ply\nformat binary_little_endian 1.0\nelement vertex 99\nproperty float x\nend_header\n"
    (copy / "points" / "0-1-2.ply").write_bytes(header + b"\x00\x01")
    scene = load_scene(copy)
    with pytest.raises(PointFileError, match=r"0-1-1\.ply: point file is missing"):
        scene.points("0-1-1")
    with pytest.raises(PointFileError, match=r"0-1-2\.ply: "):
        scene.points("0-1-2")


def test_points_by_code_name_what_is_wrong(small_scene_path: Path) -> None:
    scene = load_scene(small_scene_path)
    with pytest.raises(NotFoundError, match="no object 0-1-9 in scene small"):
        scene.points("0-1-9")
    with pytest.raises(UsageError, match="0 is a floor code; give a room"):
        scene.points("0")
    with pytest.raises(UsageError, match="'0-x' is not a scene code"):
        scene.points("0-x")
