"""The volume tool [VOL]: accuracy on shapes of known volume, boxes, rooms, degenerate input, the tool and the CLI."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest
from cli_run import run_cli
from scipy.spatial import ConvexHull

from scene_agent.demo.layout import demo_home
from scene_agent.errors import NotFoundError, UsageError
from scene_agent.geometry.measure import measure_volume
from scene_agent.scene.loader import load_scene
from scene_agent.scene.pointcloud import open3d_convex_hull_volume
from scene_agent.tools.volume import VolumeInput, describe, volume
from scene_bench.shapes import SHAPE_NAMES, known_shape

N_POINTS = 100_000
NOISES = (0.001, 0.002)
# Exact convex hulls of the noise-free shapes: the L-shape's hull bridges its notch.
L_HULL = ConvexHull(np.array([[x, y, z] for x in (-1.0, 1.0) for y in (-0.4, 0.4) for z in (0.0, 0.8)]
                             + [[x, y, z] for x in (0.2, 1.0) for y in (0.4, 1.4) for z in (0.0, 0.8)])).volume
L_TRUE = 2.0 * 0.8 * 0.8 + 0.8 * 1.0 * 0.8


def _pct(value: float, truth: float) -> float:
    return 100.0 * (value / truth - 1.0)


@pytest.fixture(scope="module")
def accuracy() -> dict[tuple[str, float], dict]:
    """Per shape and noise: true volume, Open3D's bare hull of all points, and ours (computed once)."""
    rows = {}
    for name in SHAPE_NAMES:
        for noise in NOISES:
            shape = known_shape(name, N_POINTS, noise_m=noise, seed=11)
            bare, _ = open3d_convex_hull_volume(shape.points.xyz)
            ours = measure_volume(shape.points.xyz)
            rows[(name, noise)] = {"true": shape.volume_m3, "bare": bare, "ours": ours.volume_m3, "convex": shape.convex,
                                   "method": ours.method}
    return rows


def test_accuracy_table(accuracy, capsys):
    """Print the per-shape error table (always shown: it is the tool's accuracy report)."""
    lines = [f"\nVOL accuracy, {N_POINTS:,} points per shape, shaded, Gaussian noise per axis",
             f"{'shape':9s} {'noise':>6s} {'true m³':>9s} {'bare hull':>10s} {'ours':>8s}"]
    for (name, noise), r in accuracy.items():
        lines.append(f"{name:9s} {noise * 1000:4.1f}mm {r['true']:9.4f} {_pct(r['bare'], r['true']):+9.2f}% "
                     f"{_pct(r['ours'], r['true']):+7.2f}%")
    lines.append(f"(l-shape: the convex hull of the noise-free L is {_pct(L_HULL, L_TRUE):+.2f}% of its volume; "
                 "a hull cannot see the notch)")
    with capsys.disabled():
        print("\n".join(lines))


@pytest.mark.parametrize("name", [n for n in SHAPE_NAMES if n != "l-shape"])
@pytest.mark.parametrize("noise", NOISES)
def test_convex_shapes_within_3_percent(accuracy, name, noise):
    r = accuracy[(name, noise)]
    assert r["convex"]
    assert abs(_pct(r["ours"], r["true"])) <= 3.0, r


@pytest.mark.parametrize("name", [n for n in SHAPE_NAMES if n != "l-shape"])
def test_correction_beats_the_bare_hull_at_2mm(accuracy, name):
    r = accuracy[(name, 0.002)]
    assert r["bare"] > r["true"]  # noise pushes a hull outward
    assert abs(r["ours"] - r["true"]) < abs(r["bare"] - r["true"]) / 3, r


@pytest.mark.parametrize("noise", NOISES)
def test_l_shape_hull_overestimates_by_its_notch(accuracy, noise):
    r = accuracy[("l-shape", noise)]
    assert not r["convex"]
    assert r["ours"] > r["true"] * 1.2  # the hull bridges the notch: +25 % by construction
    assert abs(_pct(r["ours"], L_HULL)) <= 1.0  # ...and matches the hull of the noise-free L
    assert r["bare"] > r["ours"]


def test_method_names_the_correction(accuracy):
    method = accuracy[("box", 0.002)]["method"]
    assert method.startswith("convex hull of 100,000 points") and "scan noise 2.0 mm" in method and "moved inward by" in method


def test_stable_across_cloud_sizes():
    """100 k, 1 M and 5 M points of the same piece: within 1 %, with a bounded hull."""
    results = [measure_volume(known_shape("l-shape", n, noise_m=0.0015, seed=5).points.xyz)
               for n in (100_000, 1_000_000, 5_000_000)]
    volumes = [m.volume_m3 for m in results]
    assert (max(volumes) - min(volumes)) / min(volumes) < 0.01, volumes
    assert [m.points_total for m in results] == [100_000, 1_000_000, 5_000_000]
    assert results[-1].points_used < 1_000_000 and "random sample" in results[-1].method


@pytest.mark.parametrize("yaw", [0.0, 30.0])
def test_oriented_box_is_the_box(yaw):
    m = measure_volume(known_shape("box", 50_000, noise_m=0.0015, seed=2, yaw_deg=yaw).points.xyz)
    assert m.box.upright
    assert np.allclose(m.box.sides(), (0.6, 0.4, 0.9), atol=0.006), m.box.sides()
    c, s = math.cos(math.radians(yaw)), math.sin(math.radians(yaw))
    aabb = (0.6 * c + 0.4 * s) * (0.6 * s + 0.4 * c) * 0.9
    assert m.aabb_volume_m3 == pytest.approx(aabb, rel=0.02)


def test_tilted_piece_gets_a_tilted_box():
    xyz = known_shape("flat-box", 50_000, noise_m=0.001, seed=4).points.xyz
    a = math.radians(40)
    tilted = xyz @ np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]]).T
    m = measure_volume(tilted)
    assert not m.box.upright
    assert np.allclose(m.box.sides(), (1.6, 0.9, 0.04), atol=0.006), m.box.sides()
    assert m.volume_m3 == pytest.approx(1.6 * 0.9 * 0.04, rel=0.03)


def test_cylinder_box_and_sphere_box():
    cyl = measure_volume(known_shape("cylinder", 50_000, noise_m=0.001, seed=1).points.xyz)
    assert np.allclose(cyl.box.sides(), (0.5, 0.5, 0.8), atol=0.006)
    ball = measure_volume(known_shape("sphere", 50_000, noise_m=0.001, seed=1).points.xyz)
    assert np.allclose(ball.box.sides(), (0.6, 0.6, 0.6), atol=0.008)


# --- rooms ---------------------------------------------------------------------------------------

def _demo_rooms():
    for plan in demo_home():
        for number, room in enumerate(plan.rooms, start=1):
            yield f"{plan.code}-{number}", room.rect, plan.height


@pytest.mark.parametrize(("code", "rect", "height"), list(_demo_rooms()), ids=[c for c, _, _ in _demo_rooms()])
def test_demo_rooms_floor_area_and_height(demo, code, rect, height):
    r = volume(demo, code)
    assert r.kind == "room" and r.label == demo.item(code).room.display_name
    assert r.floor_area_m2 == pytest.approx(rect.width * rect.depth, rel=0.02)
    assert r.height_m == pytest.approx(height, abs=0.01)
    assert r.volume_m3 == pytest.approx(r.floor_area_m2 * r.height_m, rel=1e-3)
    assert r.method.startswith("floor area × height")
    assert r.obb.upright and np.allclose(r.obb.extent_m, (max(rect.width, rect.depth), min(rect.width, rect.depth), height),
                                         atol=0.02)


def _l_room(rng: np.random.Generator) -> np.ndarray:
    """The shell of an L-shaped room (6×4 m minus a 3×2 m corner, 2.5 m high), 1.5 mm noise."""
    def floor_like(n, z):
        xy = rng.random((2 * n, 2)) * [6.0, 4.0]
        xy = xy[~((xy[:, 0] > 3.0) & (xy[:, 1] > 2.0))][:n]
        return np.column_stack([xy, np.full(len(xy), z)])

    outline = [(0, 0), (6, 0), (6, 2), (3, 2), (3, 4), (0, 4), (0, 0)]
    walls = []
    for (x0, y0), (x1, y1) in itertools.pairwise(outline):
        n = int(700 * math.hypot(x1 - x0, y1 - y0) * 2.5)
        t, z = rng.random(n), rng.random(n) * 2.5
        walls.append(np.column_stack([x0 + t * (x1 - x0), y0 + t * (y1 - y0), z]))
    xyz = np.concatenate([floor_like(12_600, 0.0), floor_like(4_400, 2.5), *walls])
    return xyz + rng.normal(0, 0.0015, xyz.shape)


def test_non_convex_room_footprint():
    m = measure_volume(_l_room(np.random.default_rng(3)), room=True)
    assert m.floor_area_m2 == pytest.approx(18.0, rel=0.03)  # 24 m² minus the 6 m² corner
    assert m.height_m == pytest.approx(2.5, abs=0.01)
    assert m.volume_m3 == pytest.approx(18.0 * 2.5, rel=0.03)
    assert m.hull_volume_m3 == pytest.approx((24.0 - 3.0) * 2.5, rel=0.02)  # the hull cuts across the missing corner


def test_small_scene_room_and_object(small_scene_path: Path):
    scene = load_scene(small_scene_path)
    room = volume(scene, "0-1")  # 400 points filling a 4 × 4 × 2.7 m box: no floor or ceiling plane to find
    assert room.kind == "room" and room.label == "kitchen"
    assert room.height_m == pytest.approx(2.7, rel=0.05)
    assert room.floor_area_m2 == pytest.approx(16.0, rel=0.15)
    assert any("no floor plane" in note for note in room.notes)
    chair = volume(scene, "0-1-1")  # 400 points filling a 0.6 × 0.6 × 0.9 m box: their hull misses its corners
    assert chair.kind == "object" and chair.label == "chair"
    assert 0.8 * 0.324 < chair.volume_m3 < 0.324 and "not corrected" in chair.method
    assert chair.points_used == 400 and chair.floor_area_m2 is None
    assert describe(chair).startswith("Chair 0-1-1: 0.2") and "oriented box" in describe(chair)


def test_bad_codes(small_scene_path: Path):
    scene = load_scene(small_scene_path)
    with pytest.raises(NotFoundError):
        volume(scene, "0-9")
    with pytest.raises(UsageError, match="floor code"):
        volume(scene, "0")
    with pytest.raises(UsageError, match="not a room or object code"):
        volume(scene, "sofa")


def test_input_schema_is_for_the_llm():
    schema = VolumeInput.model_json_schema()
    assert schema["required"] == ["code"] and "0-7-12" in schema["properties"]["code"]["description"]


# --- degenerate input ----------------------------------------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_fewer_than_four_points(n):
    m = measure_volume(np.random.default_rng(0).random((n, 3)))
    assert m.volume_m3 is None and m.box is None and "at least 4 points" in m.reason


def test_flat_line_and_spot():
    rng = np.random.default_rng(1)
    sheet = np.column_stack([rng.random(1000) * 2, rng.random(1000), np.zeros(1000)])
    m = measure_volume(sheet)
    assert m.volume_m3 == 0.0 and "one plane" in m.reason and m.box.sides()[2] == 0.0
    assert m.box.sides()[0] == pytest.approx(2.0, abs=0.02)
    line = measure_volume(np.outer(rng.random(50), [1.0, 2.0, 2.0]))
    assert line.volume_m3 == 0.0 and "one line" in line.reason
    spot = measure_volume(np.tile([1.0, 2.0, 3.0], (10, 1)))
    assert spot.volume_m3 == 0.0 and "one spot" in spot.reason
    four = measure_volume(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0.0]]))
    assert four.volume_m3 == 0.0


def test_nan_and_inf_rows_are_dropped_with_a_note():
    xyz = known_shape("box", 20_000, noise_m=0.001, seed=3).points.xyz
    dirty = np.vstack([xyz, [[np.nan, 0, 0], [0, np.inf, 0], [0, 0, -np.inf]]])
    clean, m = measure_volume(xyz), measure_volume(dirty)
    assert m.volume_m3 == pytest.approx(clean.volume_m3, rel=1e-9)
    assert m.points_total == 20_003 and "ignored 3 point(s) with NaN or infinite coordinates" in m.notes
    nothing = measure_volume(np.full((10, 3), np.nan))
    assert nothing.volume_m3 is None and nothing.reason


def test_thin_noisy_sheet_is_mostly_noise():
    rng = np.random.default_rng(2)
    sheet = np.column_stack([rng.random(20_000), rng.random(20_000), rng.normal(0, 0.001, 20_000)])
    m = measure_volume(sheet)
    assert m.volume_m3 < 0.35 * m.bare_hull_volume_m3  # a flat sheet: what is left is noise we cannot split


def test_few_points_are_not_corrected():
    m = measure_volume(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1.0]]))
    assert m.volume_m3 == pytest.approx(1 / 6) and "too few points" in m.method


# --- CLI -----------------------------------------------------------------------------------------

def test_cli_vol_json_and_text(small_scene_path: Path):
    out = run_cli("vol", "0-2-1", "--json", "--scene", str(small_scene_path))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert {"code", "kind", "volume_m3", "method", "obb", "aabb_volume_m3", "points_used"} <= set(result)
    assert (result["code"], result["kind"], result["label"]) == ("0-2-1", "object", "sofa")
    assert set(result["obb"]) >= {"extent_m", "volume_m3"} and len(result["obb"]["extent_m"]) == 3
    room = json.loads(run_cli("vol", "1-1", "--json", "--scene", str(small_scene_path)).stdout)
    assert room["kind"] == "room" and room["floor_area_m2"] > 0 and room["height_m"] > 0
    text = run_cli("vol", "0-2-1", "--scene", str(small_scene_path))
    assert text.returncode == 0 and text.stdout.startswith("Sofa 0-2-1: ") and "oriented box" in text.stdout
    missing = run_cli("vol", "0-9", "--json", "--scene", str(small_scene_path))
    assert missing.returncode == 1 and json.loads(missing.stdout)["error"] == "not_found"
