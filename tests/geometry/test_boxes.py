"""geometry/boxes.py: the rectangles found from a hull's outline are those min_area_rect finds from its 2-D hull."""

from __future__ import annotations

import math

import numpy as np
import pytest

from scene_agent.geometry import boxes
from scene_agent.geometry.polytope import Hull
from scene_bench.shapes import SHAPE_NAMES, known_shape


def _tilted(xyz: np.ndarray, degrees: float) -> np.ndarray:
    a = math.radians(degrees)
    return xyz @ np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]]).T


def _clouds() -> list[tuple[str, np.ndarray]]:
    clouds = [(f"{name} {yaw:.0f}°", known_shape(name, 20_000, noise_m=0.0015, seed=3, yaw_deg=yaw).points.xyz)
              for name in SHAPE_NAMES for yaw in (0.0, 30.0)]
    clouds.append(("tilted flat box", _tilted(known_shape("flat-box", 20_000, noise_m=0.001, seed=4).points.xyz, 40.0)))
    clouds.append(("exact box corners", np.array([[x, y, z] for x in (0.0, 1.0) for y in (0.0, 2.0) for z in (0.0, 3.0)])))
    clouds.append(("points filling a box", np.random.default_rng(0).random((3_000, 3)) * [0.6, 0.6, 0.9]))
    return clouds


@pytest.mark.parametrize(("label", "xyz"), _clouds(), ids=[label for label, _ in _clouds()])
def test_outline_gives_the_same_box(label, xyz, monkeypatch):
    hull = Hull.of(xyz)
    fast = boxes.fit_box(hull.vertices, hull)
    monkeypatch.setattr(boxes.Outline, "rect", lambda self, plane, normal: None)  # every rectangle by min_area_rect
    plain = boxes.fit_box(hull.vertices, hull)
    assert fast.upright == plain.upright
    assert np.allclose(fast.sides(), plain.sides(), rtol=0, atol=1e-12)
    assert fast.volume == pytest.approx(plain.volume, rel=1e-12)


@pytest.mark.parametrize("yaw", [0.0, 17.0, 45.0])
def test_outline_rect_is_min_area_rect(yaw):
    hull = Hull.of(known_shape("l-shape", 20_000, noise_m=0.0015, seed=5, yaw_deg=yaw).points.xyz)
    outline = boxes.Outline.of(hull)
    for normal in (np.array([0.0, 0.0, 1.0]), hull.equations[0, :3], np.array([0.3, -0.5, 0.8]) / np.linalg.norm([0.3, -0.5, 0.8])):
        helper = np.array([1.0, 0.0, 0.0]) if abs(normal[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
        e1 = np.cross(normal, helper)
        e1 /= np.linalg.norm(e1)
        plane = np.vstack([e1, np.cross(normal, e1)])
        found = outline.rect(plane, normal)
        assert found is not None
        _, extents, centre = found
        _, ref_extents, ref_centre = boxes.min_area_rect(hull.vertices @ plane.T)
        assert np.prod(extents) == pytest.approx(np.prod(ref_extents), rel=1e-12)
        assert np.allclose(centre, ref_centre, atol=1e-9)
