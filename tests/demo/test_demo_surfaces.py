"""Surface samplers of the demo generator: points on the surface, unit normals, exact counts."""

from __future__ import annotations

import numpy as np
import pytest

from scene_agent.demo.surfaces import Box, Cylinder, Ellipsoid, render_parts, rng_for, shade, split_count

RED = (200, 30, 30)


def test_box_points_lie_on_its_faces_with_outward_normals() -> None:
    box = Box((1.0, 2.0, 0.5), (0.4, 0.6, 1.0), RED)
    xyz, normals = box.sample(5000, rng_for("box"))
    local = np.abs(xyz - np.array(box.center)) / (np.array(box.size) / 2)
    assert np.allclose(local.max(axis=1), 1.0) and local.max() <= 1.0 + 1e-9
    assert np.allclose(np.linalg.norm(normals, axis=1), 1.0)
    assert np.all(np.sum(normals * (xyz - np.array(box.center)), axis=1) > 0)


def test_box_without_bottom_has_no_points_underneath() -> None:
    xyz, _ = Box((0.0, 0.0, 0.5), (1.0, 1.0, 1.0), RED, bottom=False).sample(4000, rng_for("open"))
    assert not np.any(np.isclose(xyz[:, 2], 0.0))
    assert Box((0, 0, 0), (1, 1, 1), RED, bottom=False).area() == pytest.approx(5.0)


def test_box_sampling_is_area_weighted() -> None:
    # A flat board: the two big faces hold nearly all the area, so nearly all the points.
    _, normals = Box((0, 0, 0), (1.0, 1.0, 0.02), RED).sample(20000, rng_for("board"))
    assert np.mean(np.abs(normals[:, 2]) == 1.0) == pytest.approx(2 / 2.08, abs=0.01)


def test_frustum_points_lie_on_its_side_and_caps() -> None:
    cyl = Cylinder((0.0, 0.0, 1.0), 0.1, 0.5, RED, top_radius=0.2)
    xyz, normals = cyl.sample(8000, rng_for("frustum"))
    t = (xyz[:, 2] - 1.0) / 0.5
    r = np.hypot(xyz[:, 0], xyz[:, 1])
    on_side = np.isclose(r, 0.1 + 0.1 * t)
    on_cap = np.isclose(t, 0.0) | np.isclose(t, 1.0)
    assert np.all(on_side | on_cap)
    assert np.allclose(np.linalg.norm(normals, axis=1), 1.0)
    # The side is sampled uniformly by area, so its upper half (wider) holds more than half.
    side_t = t[on_side & ~on_cap]
    assert np.mean(side_t > 0.5) == pytest.approx((0.15 + 0.2) / (0.1 + 0.2) / 2, abs=0.02)


def test_ellipsoid_points_lie_on_its_surface() -> None:
    ell = Ellipsoid((0.0, 0.0, 0.0), (0.3, 0.2, 0.05), RED)
    xyz, normals = ell.sample(3000, rng_for("pillow"))
    assert len(xyz) == 3000
    assert np.allclose(np.sum((xyz / np.array(ell.radii)) ** 2, axis=1), 1.0)
    assert np.all(np.sum(normals * xyz, axis=1) > 0)


def test_split_count_is_exact_and_proportional() -> None:
    counts = split_count(1000, np.array([1.0, 2.0, 3.0, 0.0]))
    assert counts.sum() == 1000 and counts[3] == 0
    assert list(counts) == [167, 333, 500, 0]


def test_shading_changes_brightness_not_hue() -> None:
    base = np.tile(np.array(RED, dtype=float), (2, 1))
    normals = np.array([[0.0, 0.0, 1.0], [0.0, 0.0, -1.0]])
    lit, dark = shade(normals, base, np.random.default_rng(0)).astype(float)
    assert lit.sum() > dark.sum() + 60
    assert np.argmax(lit) == np.argmax(dark) == 0


def test_rendering_is_deterministic_per_code() -> None:
    parts = (Box((0, 0, 0.5), (1, 1, 1), RED), Cylinder((0, 0, 1), 0.1, 0.3, RED))
    a = render_parts(parts, 2000, (1.0, 2.0, 0.0), 90.0, rng_for("0-1-1"))
    b = render_parts(parts, 2000, (1.0, 2.0, 0.0), 90.0, rng_for("0-1-1"))
    c = render_parts(parts, 2000, (1.0, 2.0, 0.0), 90.0, rng_for("0-1-2"))
    assert len(a) == 2000
    assert np.array_equal(a.xyz, b.xyz) and np.array_equal(a.rgb, b.rgb)
    assert not np.array_equal(a.xyz, c.xyz)
