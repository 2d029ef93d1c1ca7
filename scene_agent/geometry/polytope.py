"""Convex polytopes of many points, fast and exact: the hull of a cloud (`Hull.of`), the polytope cut out by half-spaces, and
the convex polygon of 2-D points.

The hulls are manifold3d's (QuickHull, `Manifold.hull_points` and `CrossSection.hull_points`): qhull's hulls within a
tolerance of 2e-7 of the cloud's size (see `_mesh`; tests/geometry/test_hull_reference.py), faster, and the module
imports in a few milliseconds where scipy.spatial takes a quarter of a second (docs/volume.md). Manifold gives a closed,
outward-oriented triangle mesh and its volume and area; the face planes and which face lies across each edge are worked
out here.

Hulling time grows with every point given, yet almost every scanned point lies inside the hull. The points that are
furthest out along a fixed set of directions span a small polytope inside the hull, and a point inside that polytope
cannot be a vertex of the hull of the whole cloud. Those points are dropped before the hull is built: twice, a coarse
polytope for all points and a finer one for what is left, each one matrix product in chunks. On scans of furniture about
a tenth of the points is left, and the hull of what is left is the hull of the cloud, vertex for vertex. Round things (a
ball) have most points near the hull; a trial on every 16th point tells, and the filter is then skipped.

Matrix products here are cut into chunks of at most `BLAS_CHUNK` multiply-adds: that keeps each one
inside the cache and on one BLAS thread. Larger products make OpenBLAS wake its worker threads, which
costs more than it saves at these sizes and, on a busy machine, can cost tens of milliseconds a call.
"""

from __future__ import annotations

from dataclasses import dataclass

import manifold3d
import numpy as np

BLAS_CHUNK = 262_144  # multiply-adds per matrix product
FILTER_STAGES = (24, 96)  # directions whose extreme points span an inner polytope: a coarse one, then a finer one
MIN_POINTS_TO_FILTER = 5_000  # below this the hull is fast enough on its own
TRIAL_STRIDE = 16  # every so many points are tested first, to see whether a stage pays
MAX_KEPT_SHARE = 0.9  # a stage that would keep more than this share of the points is skipped (it costs ~10× less per point than hulling)
INSIDE_TOLERANCE = 1e-5  # of the cloud's radius: a point counts as inside only when clearly so (float32 rounding)
FLAT_WIDTH = 1e-9  # of the cloud's size: a hull thinner than this is flat (as measure.py judges a cloud by its spread)


class FlatError(ValueError):
    """The points span no volume (or, in 2-D, no area): fewer than needed, or all on one plane, line or spot."""


def _exact_shift(points: np.ndarray) -> np.ndarray:
    """A shift per axis after which no coordinate exceeds twice the cloud's extent, and which subtracts without rounding.

    An axis whose points all lie within a factor of two of its nearest one is shifted by that one (the
    difference of two such floats is exact); any other axis already has coordinates no larger than twice its extent.
    """
    lo, hi = points.min(axis=0), points.max(axis=0)
    shift: np.ndarray = np.where((lo > 0) & (hi <= 2 * lo), lo, np.where((hi < 0) & (lo >= 2 * hi), hi, 0.0))
    return shift


def _mesh(points: np.ndarray) -> tuple[np.ndarray, np.ndarray, manifold3d.Manifold]:
    """Vertices (rows of `points`, bit for bit), outward-oriented triangles and the manifold of the points' hull.

    FlatError when the hull has no volume. Manifold's QuickHull leaves out points less than 1e-7 of the largest
    coordinate outside a face; in a frame at the cloud that is at most 2e-7 of its size (0.2 µm on a 1 m
    chair), where far from the origin it would be far more (0.4 mm on a chair 4 km out).
    """
    points = np.ascontiguousarray(points, dtype=np.float64)
    if len(points) < 4:
        raise FlatError(f"{len(points)} points span no volume")
    shift = _exact_shift(points)
    hull = manifold3d.Manifold.hull_points(points - shift if shift.any() else points)
    if hull.is_empty() or hull.num_tri() < 4:
        raise FlatError("the points span no volume")
    mesh = hull.to_mesh64()  # float64: to_mesh() would round the vertices to float32
    local = np.asarray(mesh.vert_properties, dtype=np.float64)[:, :3]
    # Flat input gives a flat mesh (zero volume); 2·volume/area is about the hull's thinnest width.
    if 2.0 * hull.volume() <= FLAT_WIDTH * float(np.abs(local).max()) * hull.surface_area():
        raise FlatError("the points span no volume")
    return local + shift, np.asarray(mesh.tri_verts, dtype=np.intp), hull


def _canonical(vertices: np.ndarray, triangles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vertices in lexicographic order; each triangle from its lowest vertex on (orientation kept); triangles sorted.

    The order the hull library builds them in is its own business; measurements that break ties by face order
    (the nearest face of a probe on a hull vertex, hull.py) then depend on the hull alone.
    """
    order = np.lexsort(vertices.T[::-1])
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    triangles = rank[triangles]
    first = triangles.argmin(axis=1)[:, None]
    triangles = np.take_along_axis(triangles, (first + np.arange(3)) % 3, axis=1)
    return vertices[order], triangles[np.lexsort(triangles.T[::-1])]


def face_planes(vertices: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """Outward planes (unit normal n, offset d; n·x + d ≤ 0 inside) of outward-oriented triangles, T×4."""
    a, b, c = (vertices[triangles[:, i]] for i in range(3))
    normals = np.cross(b - a, c - a)
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    return np.column_stack([normals, -np.einsum("ij,ij->i", normals, a)])


def face_neighbours(triangles: np.ndarray) -> np.ndarray:
    """For each triangle of a closed, consistently oriented mesh, the triangle across each edge, T×3.

    Slot a is the edge opposite vertex a, from vertex a+1 to a+2 (qhull's order); the triangle across it runs
    the same edge the other way.
    """
    count = int(triangles.max()) + 1
    start, end = triangles[:, [1, 2, 0]].ravel(), triangles[:, [2, 0, 1]].ravel()
    key = start * count + end
    order = np.argsort(key)
    found = np.searchsorted(key[order], end * count + start).clip(max=len(key) - 1)
    if not np.array_equal(key[order[found]], end * count + start):
        raise FlatError("the hull is not a closed surface")  # never for a solid hull: manifold3d returns a closed mesh
    neighbours: np.ndarray = (order[found] // 3).reshape(triangles.shape)
    return neighbours


@dataclass(frozen=True)
class Hull:
    """A convex hull: vertices, triangles (rows of vertices), outward face planes (n·x + d ≤ 0 inside), neighbours."""

    vertices: np.ndarray
    triangles: np.ndarray
    equations: np.ndarray
    neighbours: np.ndarray
    volume: float
    area: float

    @classmethod
    def of(cls, xyz: np.ndarray) -> Hull:
        """The hull of some points in a canonical order (see `_canonical`); FlatError when they span no volume."""
        rows = hull_candidates(xyz)
        vertices, triangles, hull = _mesh(xyz[rows] if len(rows) < len(xyz) else xyz)
        vertices, triangles = _canonical(vertices, triangles)
        return cls(vertices=vertices, triangles=triangles, equations=face_planes(vertices, triangles),
                   neighbours=face_neighbours(triangles), volume=float(hull.volume()), area=float(hull.surface_area()))

    def triangle_areas(self) -> np.ndarray:
        """Area of each triangle."""
        a, b, c = (self.vertices[self.triangles[:, i]] for i in range(3))
        areas: np.ndarray = 0.5 * np.linalg.norm(np.cross(b - a, c - a), axis=1)
        return areas


def spread_directions(k: int) -> np.ndarray:
    """k unit vectors spread evenly over the sphere (a Fibonacci lattice), k×3."""
    i = np.arange(k) + 0.5
    polar = np.arccos(1.0 - 2.0 * i / k)
    azimuth = np.pi * (1.0 + np.sqrt(5.0)) * i
    return np.column_stack([np.cos(azimuth) * np.sin(polar), np.sin(azimuth) * np.sin(polar), np.cos(polar)])


def _chunk(rows: int) -> int:
    """Points per chunk when `rows` planes or directions are applied to them."""
    return max(BLAS_CHUNK // (3 * rows), 64)


def _extreme_rows(local_t: np.ndarray, directions: np.ndarray) -> np.ndarray:
    """Index of the point furthest along each direction (points as columns of a 3×N float32 array)."""
    step, k = _chunk(len(directions)), np.arange(len(directions))
    best, where = [], []
    for start in range(0, local_t.shape[1], step):
        proj = directions @ local_t[:, start:start + step]
        i = proj.argmax(axis=1)
        best.append(proj[k, i])
        where.append(i + start)
    chunk = np.argmax(np.stack(best, axis=1), axis=1)
    rows: np.ndarray = np.stack(where, axis=1)[k, chunk]
    return rows


def _not_inside(local_t: np.ndarray, equations: np.ndarray, tolerance: float) -> np.ndarray:
    """Which points are not clearly inside the polytope n·x + d ≤ 0 (equations in the points' local frame)."""
    normals = equations[:, :3].astype(np.float32)
    offsets = equations[:, 3:].astype(np.float32)
    keep = np.empty(local_t.shape[1], dtype=bool)
    step = _chunk(len(equations))
    for start in range(0, local_t.shape[1], step):
        height = normals @ local_t[:, start:start + step]
        height += offsets
        np.greater(height.max(axis=0), -tolerance, out=keep[start:start + step])
    return keep


def _distinct(rows: np.ndarray) -> np.ndarray:
    """The distinct values of an integer array, sorted (np.unique's first call imports numpy.ma: 7 ms a command)."""
    rows = np.sort(rows)
    distinct: np.ndarray = rows[np.concatenate([[True], rows[1:] != rows[:-1]])]
    return distinct


def hull_candidates(xyz: np.ndarray) -> np.ndarray:
    """Rows of N×3 points that may be vertices of their convex hull (all rows for small, flat or round clouds), in order."""
    rows = np.arange(len(xyz))
    if len(xyz) < MIN_POINTS_TO_FILTER:
        return rows
    origin = xyz[0]
    # float32 in a local frame: micrometre rounding at room scale, and half the memory traffic of float64
    local_t = np.ascontiguousarray((xyz - origin).T, dtype=np.float32)
    for directions in FILTER_STAGES:
        extremes = _distinct(_extreme_rows(local_t, spread_directions(directions).astype(np.float32)))
        corners = xyz[rows[extremes]] - origin  # the points themselves: their hull lies inside the cloud's
        try:
            inner = face_planes(*_mesh(corners)[:2])
        except FlatError:  # the extremes are flat: no inner polytope to drop points by
            break
        tolerance = INSIDE_TOLERANCE * float(np.abs(corners).max())
        if _not_inside(local_t[:, ::TRIAL_STRIDE], inner, tolerance).mean() > MAX_KEPT_SHARE:
            break  # a round cloud: most points lie near its hull, and testing them all would not pay
        keep = _not_inside(local_t, inner, tolerance)
        keep[extremes] = True
        kept = np.flatnonzero(keep)
        rows, local_t = rows[kept], local_t[:, kept]
    return rows


def halfspace_polytope(equations: np.ndarray, inside: np.ndarray) -> tuple[np.ndarray, float]:
    """Corners and volume of {x : n·x + d ≤ 0 for every row}, given a point strictly inside; FlatError when degenerate.

    Through the point the polytope is dual to the hull of the planes' poles (n / −d): each face of that
    dual hull is a corner, each vertex a face of the polytope. The volume is summed over cones from the
    inner point, one per face, each face fanned from the mean of its corners.

    The work is done in a frame stretched so that the poles spread alike in every direction (a table top's
    are otherwise tens of times further out across it than along it): the hull's tolerance, relative to
    the furthest pole (see `_mesh`), then stands for the same small share of every face's distance.
    """
    depth = -(equations[:, 3] + equations[:, :3] @ inside)
    poles = equations[:, :3] / depth[:, None]
    spread, axes = np.linalg.eigh(poles.T @ poles / len(poles))
    if not spread.min() > 0:  # the poles are flat: the half-spaces do not close
        raise FlatError("the half-spaces bound no polytope")
    stretch = (axes / np.sqrt(spread)) @ axes.T  # x = stretch @ y: the poles become stretch @ poles, spread alike
    poles, simplices, _ = _mesh(poles @ stretch)
    dual = face_planes(poles, simplices)
    corners = -dual[:, :3] / dual[:, 3:]  # relative to `inside`, in the stretched frame
    # A polytope face is a dual vertex; its corners are the dual facets around it.
    faces = len(poles)
    count = np.bincount(simplices.ravel(), minlength=faces)
    centres = np.column_stack([np.bincount(simplices.ravel(), weights=np.repeat(corners[:, j], 3), minlength=faces)
                               for j in range(3)]) / np.maximum(count, 1)[:, None]
    # Each dual edge (between faces i and j) is a polytope edge from one facet's corner to its neighbour's:
    # slot a of a facet holds the edge opposite its vertex a, whose ends are its vertices a+1 and a+2.
    edges = np.cross(corners[:, None, :], corners[face_neighbours(simplices)])  # m×3×3
    volume = 0.0
    for end in ([1, 2, 0], [2, 0, 1]):
        volume += float(np.abs(np.einsum("mkj,mkj->mk", centres[simplices[:, end]], edges)).sum())
    # each edge is met from both facets: tetrahedra / 6 / 2; the stretch scales volumes by its determinant
    return corners @ stretch + inside, volume / 12.0 * float(np.prod(1.0 / np.sqrt(spread)))


def convex_polygon(xy: np.ndarray) -> np.ndarray:
    """The convex hull of 2-D points: its vertices counter-clockwise, the first not repeated; FlatError when it has no area.

    Points on the hull's edges between two vertices are not vertices (as with qhull).
    """
    xy = np.ascontiguousarray(xy, dtype=np.float64)
    if len(xy) < 3:
        raise FlatError(f"{len(xy)} points span no area")
    rings = manifold3d.CrossSection.hull_points(xy).to_polygons()  # one ring, counter-clockwise
    if len(rings) != 1 or len(rings[0]) < 3:
        raise FlatError("the points lie on one line or at one spot")
    ring: np.ndarray = np.asarray(rings[0], dtype=np.float64)
    return ring
