"""Convex polytopes of many points, fast and exact: the hull of a cloud (`Hull.of`) and the polytope cut out by half-spaces.

Qhull's time grows with every point it is given, yet almost every scanned point lies inside the
hull. The points that are furthest out along a fixed set of directions span a small polytope inside
the hull, and a point inside that polytope cannot be a vertex of the hull of the whole cloud. Those
points are dropped before qhull runs: twice, a coarse polytope for all points and a finer one for
what is left, each one matrix product in chunks. On scans of furniture about a tenth of the points is
left, and the hull of what is left is the hull of the cloud, vertex for vertex. Round things (a ball)
have most points near the hull; a trial on every 16th point tells, and the filter is then skipped.

Matrix products here are cut into chunks of at most `BLAS_CHUNK` multiply-adds: that keeps each one
inside the cache and on one BLAS thread. Larger products make OpenBLAS wake its worker threads, which
costs more than it saves at these sizes and, on a busy machine, can cost tens of milliseconds a call.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.spatial import ConvexHull, QhullError

BLAS_CHUNK = 262_144  # multiply-adds per matrix product
FILTER_STAGES = (24, 96)  # directions whose extreme points span an inner polytope: a coarse one, then a finer one
MIN_POINTS_TO_FILTER = 5_000  # below this qhull is fast enough on its own
TRIAL_STRIDE = 16  # every so many points are tested first, to see whether a stage pays
MAX_KEPT_SHARE = 0.9  # a stage that would keep more than this share of the points is skipped (it costs ~10× less per point than qhull)
INSIDE_TOLERANCE = 1e-5  # of the cloud's radius: a point counts as inside only when clearly so (float32 rounding)


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
        """The hull of some points; QhullError when they span no volume."""
        rows = hull_candidates(xyz)
        h = ConvexHull(xyz[rows] if len(rows) < len(xyz) else xyz)
        used, triangles = np.unique(h.simplices, return_inverse=True)
        return cls(vertices=h.points[used], triangles=triangles.reshape(h.simplices.shape), equations=h.equations,
                   neighbours=h.neighbors, volume=float(h.volume), area=float(h.area))

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


def hull_candidates(xyz: np.ndarray) -> np.ndarray:
    """Rows of N×3 points that may be vertices of their convex hull (all rows for small, flat or round clouds), in order."""
    rows = np.arange(len(xyz))
    if len(xyz) < MIN_POINTS_TO_FILTER:
        return rows
    origin = xyz[0]
    # float32 in a local frame: micrometre rounding at room scale, and half the memory traffic of float64
    local_t = np.ascontiguousarray((xyz - origin).T, dtype=np.float32)
    for directions in FILTER_STAGES:
        extremes = np.unique(_extreme_rows(local_t, spread_directions(directions).astype(np.float32)))
        corners = xyz[rows[extremes]] - origin  # the points themselves: their hull lies inside the cloud's
        try:
            inner = ConvexHull(corners)
        except QhullError:  # the extremes are flat: no inner polytope to drop points by
            break
        tolerance = INSIDE_TOLERANCE * float(np.abs(corners).max())
        if _not_inside(local_t[:, ::TRIAL_STRIDE], inner.equations, tolerance).mean() > MAX_KEPT_SHARE:
            break  # a round cloud: most points lie near its hull, and testing them all would not pay
        keep = _not_inside(local_t, inner.equations, tolerance)
        keep[extremes] = True
        kept = np.flatnonzero(keep)
        rows, local_t = rows[kept], local_t[:, kept]
    return rows


def halfspace_polytope(equations: np.ndarray, inside: np.ndarray) -> tuple[np.ndarray, float]:
    """Corners and volume of {x : n·x + d ≤ 0 for every row}, given a point strictly inside; QhullError when degenerate.

    Through the point the polytope is dual to the hull of the planes' poles (n / −d): each face of that
    dual hull is a corner. The volume is summed over cones from the inner point, one per face, each
    face fanned from the mean of its corners.
    """
    depth = -(equations[:, 3] + equations[:, :3] @ inside)
    dual = ConvexHull(equations[:, :3] / depth[:, None])
    corners = -dual.equations[:, :3] / dual.equations[:, 3:]  # relative to `inside`
    # A polytope face is a dual vertex; its corners are the dual facets around it.
    simplices, faces = dual.simplices, len(depth)
    count = np.bincount(simplices.ravel(), minlength=faces)
    centres = np.column_stack([np.bincount(simplices.ravel(), weights=np.repeat(corners[:, j], 3), minlength=faces)
                               for j in range(3)]) / np.maximum(count, 1)[:, None]
    # Each dual edge (between faces i and j) is a polytope edge from one facet's corner to its neighbour's:
    # slot a of a facet holds the edge opposite its vertex a, whose ends are its vertices a+1 and a+2.
    edges = np.cross(corners[:, None, :], corners[dual.neighbors])  # m×3×3
    volume = 0.0
    for end in ([1, 2, 0], [2, 0, 1]):
        volume += float(np.abs(np.einsum("mkj,mkj->mk", centres[simplices[:, end]], edges)).sum())
    return corners + inside, volume / 12.0  # each edge is met from both facets: tetrahedra / 6 / 2
