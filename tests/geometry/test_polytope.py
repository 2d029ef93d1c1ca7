"""geometry/polytope.py: the filtered hull is qhull's hull of every point; the half-space polytope's corners and volume.

tests/geometry/test_hull_reference.py holds the hull itself (manifold3d's) to qhull's on harder clouds.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import ConvexHull, HalfspaceIntersection

from scene_agent.geometry.polytope import MIN_POINTS_TO_FILTER, Hull, halfspace_polytope, hull_candidates
from scene_bench.shapes import SHAPE_NAMES, known_shape


def _clouds() -> list[tuple[str, np.ndarray]]:
    clouds = [(name, known_shape(name, 60_000, noise_m=0.0015, seed=7).points.xyz) for name in SHAPE_NAMES]
    clouds.append(("yawed box", known_shape("box", 60_000, noise_m=0.001, seed=8, yaw_deg=30.0).points.xyz))
    clouds.append(("far from the origin", known_shape("l-shape", 60_000, noise_m=0.0015, seed=9).points.xyz + np.array([4e3, -2e3, 30.0])))
    clouds.append(("solid block", np.random.default_rng(1).random((60_000, 3)) * [2.0, 1.0, 0.5]))
    clouds.append(("below the filter", known_shape("box", MIN_POINTS_TO_FILTER - 1, noise_m=0.001, seed=2).points.xyz))
    return clouds


@pytest.mark.parametrize(("label", "xyz"), _clouds(), ids=[label for label, _ in _clouds()])
def test_hull_is_qhulls_hull_of_every_point(label, xyz):
    full = ConvexHull(xyz)
    candidates = hull_candidates(xyz)
    assert set(full.vertices) <= set(candidates)
    assert np.all(np.diff(candidates) > 0)  # in order, as given
    hull = Hull.of(xyz)
    reference = xyz[full.vertices]
    assert np.array_equal(hull.vertices, reference[np.lexsort(reference.T[::-1])])  # the same points, in lexicographic order
    assert hull.volume == pytest.approx(full.volume, rel=1e-12)
    assert hull.area == pytest.approx(full.area, rel=1e-12)
    assert len(hull.equations) == len(full.equations)


def test_scans_of_furniture_leave_few_candidates():
    xyz = known_shape("l-shape", 100_000, noise_m=0.0015, seed=0).points.xyz
    assert len(hull_candidates(xyz)) < 0.25 * len(xyz)


def test_flat_clouds_are_left_to_the_hull():
    rng = np.random.default_rng(3)
    sheet = np.column_stack([rng.random(10_000), rng.random(10_000), np.zeros(10_000)])
    assert len(hull_candidates(sheet)) == len(sheet)


def _cube(lo: float, hi: float) -> np.ndarray:
    """Half-spaces n·x + d ≤ 0 of the cube [lo, hi]³."""
    rows = []
    for axis in range(3):
        n = np.zeros(3)
        n[axis] = 1.0
        rows += [[*n, -hi], [*-n, lo]]
    return np.array(rows)


def test_cube_corners_and_volume():
    corners, volume = halfspace_polytope(_cube(0.0, 1.0), np.array([0.3, 0.5, 0.6]))
    assert volume == pytest.approx(1.0, rel=1e-12)
    assert {tuple(c) for c in np.round(corners, 9)} == {(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)}


def test_matches_halfspace_intersection():
    hull = Hull.of(known_shape("cylinder", 30_000, noise_m=0.001, seed=4).points.xyz)
    equations = hull.equations.copy()
    equations[::3, 3] += 0.01  # a third of the faces moved in by 1 cm; some others drop out
    inside = hull.vertices.mean(axis=0)
    corners, volume = halfspace_polytope(equations, inside)
    reference = HalfspaceIntersection(equations, inside).intersections
    assert volume == pytest.approx(ConvexHull(reference).volume, rel=1e-9)
    assert np.allclose(np.sort(corners, axis=0), np.sort(reference, axis=0))
