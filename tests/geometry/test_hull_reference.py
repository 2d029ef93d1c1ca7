"""geometry/polytope.py's hulls (manifold3d) and hull.py's k-d tree (pykdtree) held to scipy's qhull and cKDTree.

scipy is a test reference here: the product imports it only for rooms (docs/volume.md).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import ConvexHull, HalfspaceIntersection, QhullError, cKDTree

from scene_agent.geometry.hull import NEIGHBOURS, sample_rows
from scene_agent.geometry.polytope import FlatError, Hull, convex_polygon, halfspace_polytope
from scene_bench.shapes import known_shape


def _rows(a: np.ndarray) -> set[tuple[float, ...]]:
    return {tuple(r) for r in a}


def _slab(n: int, seed: int, thickness: float = 0.02) -> np.ndarray:
    """A table top: a 1.2 m × 0.8 m board `thickness` thick, scanned on all sides with 0.5 mm of noise."""
    rng = np.random.default_rng(seed)
    xyz = rng.random((n, 3)) * [1.2, 0.8, thickness]
    side = rng.integers(0, 3, n)  # snap each point to one of the faces along an axis
    xyz[np.arange(n), side] = np.where(rng.random(n) < 0.5, 0.0, 1.0) * np.array([1.2, 0.8, thickness])[side]
    return xyz + rng.normal(0.0, 0.0005, xyz.shape) + [2.0, 3.0, 0.74]


def _walls(n: int, seed: int) -> np.ndarray:
    """A 4 m × 3 m × 2.5 m room's walls, floor and ceiling, flat to a micrometre: many points nearly on each face."""
    rng = np.random.default_rng(seed)
    size = np.array([4.0, 3.0, 2.5])
    xyz = rng.random((n, 3)) * size
    side = rng.integers(0, 3, n)
    xyz[np.arange(n), side] = np.where(rng.random(n) < 0.5, 0.0, 1.0) * size[side]
    return xyz + rng.normal(0.0, 1e-6, xyz.shape)


CLOUDS = {
    "uniform block": lambda: np.random.default_rng(1).random((20_000, 3)) * [2.0, 1.0, 0.5],
    "gaussian blob": lambda: np.random.default_rng(2).normal(size=(3_000, 3)),
    "few points": lambda: np.random.default_rng(3).random((12, 3)),
    "noisy ball": lambda: known_shape("sphere", 30_000, noise_m=0.002, seed=4).points.xyz,
    "table top 2 cm": lambda: _slab(40_000, 5),
    "board 2 mm": lambda: _slab(20_000, 6, thickness=0.002),
    "sofa 4 km out": lambda: known_shape("l-shape", 40_000, noise_m=0.0015, seed=8).points.xyz + np.array([4e3, -2e3, 30.0]),
}


def _triangles_as_points(vertices: np.ndarray, triangles: np.ndarray) -> set[frozenset[tuple[float, ...]]]:
    return {frozenset(tuple(vertices[v]) for v in t) for t in triangles}


@pytest.mark.parametrize("name", list(CLOUDS))
def test_hull_is_qhulls(name):
    xyz = CLOUDS[name]()
    reference, ours = ConvexHull(xyz), Hull.of(xyz)
    assert _rows(ours.vertices) == _rows(xyz[reference.vertices])
    assert ours.volume == pytest.approx(reference.volume, rel=1e-12)
    assert ours.area == pytest.approx(reference.area, rel=1e-12)
    # Points in general position have one triangulation: the same triangles, planes and neighbours as qhull's.
    assert _triangles_as_points(ours.vertices, ours.triangles) == _triangles_as_points(xyz, reference.simplices)
    key = {frozenset(tuple(xyz[v]) for v in t): i for i, t in enumerate(reference.simplices)}
    match = np.array([key[frozenset(tuple(ours.vertices[v]) for v in t)] for t in ours.triangles])
    assert np.allclose(ours.equations, reference.equations[match], rtol=0.0, atol=1e-9 * max(1.0, float(np.abs(xyz).max())))
    for t, row in enumerate(ours.neighbours):  # the triangle across the edge opposite each corner, as qhull lists it
        qhull_row = reference.neighbors[match[t]]
        corner = [list(reference.simplices[match[t]]).index(int(np.flatnonzero((xyz == ours.vertices[v]).all(axis=1))[0]))
                  for v in ours.triangles[t]]
        assert list(match[row]) == list(qhull_row[corner])


def test_walls_flat_to_a_micrometre_agree_within_the_hulls_tolerance():
    """Points within 1e-7 of the cloud's size outside a face are left inside it (polytope.py, `_mesh`); qhull keeps them."""
    xyz = _walls(30_000, 7)
    reference, ours = ConvexHull(xyz), Hull.of(xyz)
    tolerance = 1e-7 * float(np.ptp(xyz, axis=0).max())
    assert np.allclose(np.linalg.norm(ours.equations[:, :3], axis=1), 1.0)
    heights = (xyz @ ours.equations[:, :3].T + ours.equations[:, 3]).max(axis=1)
    assert heights.max() <= tolerance  # every point inside the hull, or within the tolerance of it
    assert _rows(ours.vertices) <= _rows(xyz)
    missing = np.array(sorted(_rows(xyz[reference.vertices]) - _rows(ours.vertices))).reshape(-1, 3)
    assert (missing @ ours.equations[:, :3].T + ours.equations[:, 3]).max(initial=0.0) <= tolerance
    assert ours.volume == pytest.approx(reference.volume, rel=1e-6)
    assert ours.area == pytest.approx(reference.area, rel=1e-6)
    centre = ours.vertices.mean(axis=0)
    assert np.all(ours.equations[:, :3] @ centre + ours.equations[:, 3] < 0)  # outward


def test_the_order_of_the_points_does_not_matter():
    xyz = CLOUDS["table top 2 cm"]()
    a, b = Hull.of(xyz), Hull.of(xyz[np.random.default_rng(0).permutation(len(xyz))])
    for field in ("vertices", "triangles", "equations", "neighbours"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    assert (a.volume, a.area) == pytest.approx((b.volume, b.area), rel=1e-14)


def test_cube_corners():
    corners = np.array([[x, y, z] for x in (0.0, 1.0) for y in (0.0, 1.0) for z in (0.0, 1.0)])
    hull = Hull.of(corners)
    assert hull.volume == pytest.approx(1.0, rel=1e-14) == ConvexHull(corners).volume
    assert hull.area == pytest.approx(6.0, rel=1e-14)
    assert len(hull.vertices) == 8 and len(hull.triangles) == 12
    # Each face plane is a side of the cube: a unit axis and its offset.
    normals = np.round(hull.equations[:, :3], 12) + 0.0
    assert {tuple(n) for n in normals} == {tuple(s * np.eye(3)[i]) for i in range(3) for s in (1.0, -1.0)}
    assert np.allclose(hull.equations[:, 3], -(normals.sum(axis=1) > 0).astype(float))
    # Neighbours: across slot a lies the other triangle with that edge (vertices a+1 and a+2).
    for t, tri in enumerate(hull.triangles):
        for a in range(3):
            edge = {tri[(a + 1) % 3], tri[(a + 2) % 3]}
            other = hull.neighbours[t, a]
            assert other != t and edge <= set(hull.triangles[other])


@pytest.mark.parametrize(("label", "xyz"), [
    ("no points", np.zeros((0, 3))),
    ("three points", np.random.default_rng(0).random((3, 3))),
    ("one spot", np.tile([[0.3, 0.2, 1.0]], (50, 1))),
    ("a line", np.outer(np.random.default_rng(1).random(200), [1.0, 2.0, 0.5]) + np.array([1.0, 0.0, 0.0])),
    ("a floor", np.column_stack([np.random.default_rng(2).random((500, 2)), np.full(500, 0.02)])),
    ("a tilted sheet", np.random.default_rng(3).random((500, 2)) @ np.array([[1.0, 0.0, 0.3], [0.0, 1.0, -0.2]])),
])
def test_flat_input_raises_flat_error(label, xyz):
    with pytest.raises((QhullError, ValueError)):  # qhull refuses it too
        ConvexHull(xyz)
    with pytest.raises(FlatError):
        Hull.of(xyz)
    assert issubclass(FlatError, ValueError)


@pytest.mark.parametrize(("label", "xy"), [
    ("two points", np.array([[0.0, 0.0], [1.0, 1.0]])),
    ("a line", np.outer(np.random.default_rng(4).random(100), [1.0, -2.0])),
    ("one spot", np.tile([[2.0, 3.0]], (10, 1))),
])
def test_flat_outline_raises_flat_error(label, xy):
    with pytest.raises(FlatError):
        convex_polygon(xy)


@pytest.mark.parametrize("xy", [
    np.random.default_rng(5).random((2_000, 2)),
    known_shape("cylinder", 50_000, noise_m=0.0015, seed=6).points.xyz[:, :2] + [3e3, -20.0],
    np.array([[x, y] for x in range(5) for y in range(4)], dtype=float),  # points along the edges are no vertices
], ids=["random", "round, far out", "grid"])
def test_outline_is_qhulls_counter_clockwise(xy):
    ours, reference = convex_polygon(xy), xy[ConvexHull(xy).vertices]  # qhull lists 2-D hulls counter-clockwise
    assert len(ours) == len(reference)
    start = int(np.flatnonzero((reference == ours[0]).all(axis=1))[0])
    assert np.array_equal(ours, np.roll(reference, -start, axis=0))
    x, y = ours[:, 0], ours[:, 1]
    assert np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y) > 0


@pytest.mark.parametrize(("name", "offset"), [("table top 2 cm", 0.004), ("board 2 mm", 0.0004), ("noisy ball", 0.004)])
def test_moved_in_polytope_matches_halfspace_intersection(name, offset):
    hull = Hull.of(CLOUDS[name]())
    equations = hull.equations.copy()
    equations[::2, 3] += offset  # half the faces moved in by a fifth of a board's thickness: many nearly parallel planes
    inside = hull.vertices.mean(axis=0)
    corners, volume = halfspace_polytope(equations, inside)
    reference = HalfspaceIntersection(equations, inside).intersections
    assert volume == pytest.approx(ConvexHull(reference).volume, rel=1e-9)
    assert len(corners) == len(reference)
    assert cKDTree(reference).query(corners)[0].max() < 1e-9
    assert cKDTree(corners).query(reference)[0].max() < 1e-9


def test_halfspaces_with_no_room_inside_raise_flat_error():
    # Two parallel planes and nothing else: unbounded, so the dual hull of their poles is flat.
    equations = np.array([[0.0, 0.0, 1.0, -1.0], [0.0, 0.0, -1.0, 0.0]])
    with pytest.raises(FlatError):
        halfspace_polytope(equations, np.array([0.0, 0.0, 0.5]))


@pytest.mark.parametrize("name", ["table top 2 cm", "noisy ball", "sofa 4 km out"])
def test_noise_neighbours_are_ckdtrees(name):
    from pykdtree.kdtree import KDTree

    xyz = CLOUDS[name]()
    rng = np.random.default_rng(0)
    pool = xyz[sample_rows(len(xyz), 20_000, rng)]
    seeds = pool[sample_rows(len(pool), 1_000, rng)]
    ours_d2, ours_i = KDTree(pool).query(seeds, k=NEIGHBOURS + 1, sqr_dists=True)
    ref_d, ref_i = cKDTree(pool, balanced_tree=False, compact_nodes=False).query(seeds, k=NEIGHBOURS + 1)
    assert np.array_equal(ours_i.astype(np.int64), ref_i)
    assert np.allclose(ours_d2, ref_d**2, rtol=1e-9, atol=1e-18)
