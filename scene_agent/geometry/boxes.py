"""Bounding boxes of a hull: the minimal-area rectangle of a footprint, upright and minimal oriented boxes.

"Length × width × height" of a piece of furniture means an upright box: turned about the vertical
only, with the footprint's smallest rectangle and the vertical extent. The smallest box in any
orientation is also searched (one axis along each large hull face, as in O'Rourke's observation
that a minimal box is flush with the hull); the upright box is kept unless the free one is clearly
smaller (an object lying tilted), because for upright things the two agree within a few percent
and "height" should stay vertical.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.spatial import ConvexHull, QhullError

from scene_agent.geometry.hull import Hull

UPRIGHT_SLACK = 1.05  # keep the upright box unless a tilted one is more than 5 % smaller
FACE_CANDIDATES = 24  # largest hull faces tried as a box axis
MAX_EDGE_DIRECTIONS = 2048  # outline edges tried as a rectangle side
MAX_BOX_POINTS = 20_000  # hull vertices used to choose a box's orientation


@dataclass(frozen=True)
class Box3:
    """An oriented box: centre, unit axes (rows) and the extents along them."""

    centre: np.ndarray
    axes: np.ndarray
    extents: np.ndarray
    upright: bool

    @property
    def volume(self) -> float:
        """Volume in m³."""
        return float(np.prod(self.extents))

    def sides(self) -> tuple[float, float, float]:
        """(length, width, height): upright boxes give the horizontal sides longer first, then the vertical one."""
        if self.upright:
            vertical = int(np.argmax(np.abs(self.axes[:, 2])))
            length, width = sorted((float(e) for i, e in enumerate(self.extents) if i != vertical), reverse=True)
            return length, width, float(self.extents[vertical])
        length, width, height = sorted((float(e) for e in self.extents), reverse=True)
        return length, width, height

    def refit(self, points: np.ndarray) -> Box3:
        """The box with the same axes drawn tight around other points (the noise-corrected hull's)."""
        if not len(points):
            return Box3(self.centre, self.axes, np.zeros(3), self.upright)
        proj = points @ self.axes.T
        lo, hi = proj.min(axis=0), proj.max(axis=0)
        return Box3(((lo + hi) / 2) @ self.axes, self.axes, hi - lo, self.upright)


def min_area_rect(xy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The smallest-area rectangle around 2-D points: (unit axes as rows 2×2, extents, centre).

    One side of the minimal rectangle lies along an edge of the convex hull, so trying each hull
    edge's direction is exact (rotating calipers, vectorised).
    """
    try:
        ring = xy[ConvexHull(xy).vertices]
    except (QhullError, ValueError):  # fewer than 3 points, or all on one line: a degenerate rectangle
        return _line_rect(xy)
    edges = np.roll(ring, -1, axis=0) - ring
    lengths = np.linalg.norm(edges, axis=1)
    if len(edges) > MAX_EDGE_DIRECTIONS:
        # A ring this fine is a smooth outline: every direction is near some tried one, and the
        # longest edges (the straight sides) are always tried.
        keep = np.union1d(np.linspace(0, len(edges) - 1, MAX_EDGE_DIRECTIONS).astype(int), np.argsort(-lengths)[:64])
        edges, lengths = edges[keep], lengths[keep]
    u = edges[lengths > 0] / lengths[lengths > 0, None]
    v = np.column_stack([-u[:, 1], u[:, 0]])
    best = (np.inf, 0, np.zeros(2), np.zeros(2))
    for start in range(0, len(u), 256):  # bounded memory: ring points × 256 directions at a time
        pu, pv = ring @ u[start:start + 256].T, ring @ v[start:start + 256].T
        lo = np.stack([pu.min(axis=0), pv.min(axis=0)], axis=1)
        hi = np.stack([pu.max(axis=0), pv.max(axis=0)], axis=1)
        area = np.prod(hi - lo, axis=1)
        k = int(np.argmin(area))
        if area[k] < best[0]:
            best = (float(area[k]), start + k, lo[k], hi[k])
    _, k, lo, hi = best
    axes = np.vstack([u[k], v[k]])
    return axes, hi - lo, ((lo + hi) / 2) @ axes


def _line_rect(xy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rectangle of points on a line (or one spot): along the line's direction, zero across."""
    centred = xy - xy.mean(axis=0)
    direction = np.linalg.svd(centred, full_matrices=False)[2][0] if np.any(centred) else np.array([1.0, 0.0])
    axes = np.vstack([direction, [-direction[1], direction[0]]])
    proj = xy @ axes.T
    lo, hi = proj.min(axis=0), proj.max(axis=0)
    return axes, hi - lo, ((lo + hi) / 2) @ axes


def box_along(points: np.ndarray, normal: np.ndarray, upright: bool = False) -> Box3:
    """The smallest box with one axis along `normal`: its extent along it, the minimal rectangle across."""
    normal = normal / np.linalg.norm(normal)
    helper = np.array([1.0, 0.0, 0.0]) if abs(normal[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    e1 = np.cross(normal, helper)
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(normal, e1)
    plane = np.vstack([e1, e2])
    axes2, extents2, centre2 = min_area_rect(points @ plane.T)
    along = points @ normal
    axes = np.vstack([axes2 @ plane, normal])
    extents = np.append(extents2, np.ptp(along))
    centre = centre2 @ plane + normal * (along.min() + along.max()) / 2
    return Box3(centre, axes, extents, upright)


def _candidate_normals(points: np.ndarray, hull: Hull | None) -> list[np.ndarray]:
    """Axes worth trying: the principal axes and the normals of the largest hull faces, without repeats."""
    centred = points - points.mean(axis=0)
    found = list(np.linalg.svd(centred, full_matrices=False)[2]) if len(points) >= 2 else []
    if hull is not None and len(hull.triangles):
        order = np.argsort(-hull.triangle_areas())
        found += list(hull.equations[order[: 4 * FACE_CANDIDATES], :3])
    unique: list[np.ndarray] = []
    for n in found:
        if all(abs(float(n @ m)) < 0.999 for m in unique):
            unique.append(n)
        if len(unique) >= FACE_CANDIDATES + 3:
            break
    return unique


def fit_box(points: np.ndarray, hull: Hull | None = None) -> Box3:
    """The upright box around the points, or the minimal tilted one when it is clearly smaller."""
    if len(points) > MAX_BOX_POINTS:
        # Only the orientation is chosen here; callers refit the sides on all points.
        points = points[np.random.default_rng(0).choice(len(points), MAX_BOX_POINTS, replace=False)]
    upright = box_along(points, np.array([0.0, 0.0, 1.0]), upright=True)
    tilted = min((box_along(points, n) for n in _candidate_normals(points, hull)), key=lambda b: b.volume,
                 default=upright)
    return upright if upright.volume <= UPRIGHT_SLACK * tilted.volume else tilted


def aabb_extents(points: np.ndarray) -> np.ndarray:
    """Sides of the axis-aligned bounding box."""
    return np.ptp(points, axis=0) if len(points) else np.zeros(3)
