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

from scene_agent.geometry.polytope import FlatError, Hull, convex_polygon

UPRIGHT_SLACK = 1.05  # keep the upright box unless a tilted one is more than 5 % smaller
FACE_CANDIDATES = 24  # largest hull faces tried as a box axis
MAX_EDGE_DIRECTIONS = 2048  # outline edges tried as a rectangle side
MAX_BOX_POINTS = 20_000  # hull vertices used to choose a box's orientation
OUTLINE_TOLERANCE = 1e-9  # a face this close to edge-on may be part of the outline (superset: still exact)


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
        ring = convex_polygon(xy)
    except FlatError:  # fewer than 3 points, or all on one line: a degenerate rectangle
        return _line_rect(xy)
    edges = np.roll(ring, -1, axis=0) - ring
    lengths = np.linalg.norm(edges, axis=1)
    if len(edges) > MAX_EDGE_DIRECTIONS:
        # A ring this fine is a smooth outline: every direction is near some tried one, and the
        # longest edges (the straight sides) are always tried.
        keep = np.union1d(np.linspace(0, len(edges) - 1, MAX_EDGE_DIRECTIONS).astype(int), np.argsort(-lengths)[:64])
        edges, lengths = edges[keep], lengths[keep]
    return _smallest_rect(ring, edges[lengths > 0] / lengths[lengths > 0, None])


def _smallest_rect(ring: np.ndarray, u: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The smallest-area rectangle around 2-D points with one side along one of the unit directions `u`."""
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


@dataclass(frozen=True)
class Outline:
    """A 3-D hull's edges with the two faces each joins: what its shadow along any axis is made of."""

    hull: Hull
    ends: np.ndarray  # E×2 vertex rows
    faces: np.ndarray  # E×2 triangle rows

    @classmethod
    def of(cls, hull: Hull) -> Outline:
        """Every edge of the hull once."""
        triangle = np.repeat(np.arange(len(hull.triangles)), 3)
        slot = np.tile(np.arange(3), len(hull.triangles))
        other = hull.neighbours.ravel()
        once = triangle < other  # each edge is seen from both of its triangles
        ends = np.column_stack([hull.triangles[triangle, (slot + 1) % 3], hull.triangles[triangle, (slot + 2) % 3]])
        return cls(hull, ends[once], np.column_stack([triangle[once], other[once]]))

    def rect(self, plane: np.ndarray, normal: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """min_area_rect of the hull's vertices seen along `normal` (in `plane` coordinates), or None to ask it.

        The shadow's outline is made of the edges between a face turned towards `normal` and one
        turned away (or edge-on), so only those edges' directions and ends are tried: the same
        rectangle, without a 2-D hull per axis.
        """
        facing = self.hull.equations[:, :3] @ normal
        one, other = facing[self.faces[:, 0]], facing[self.faces[:, 1]]
        ends = self.ends[(np.minimum(one, other) <= OUTLINE_TOLERANCE) & (np.maximum(one, other) >= -OUTLINE_TOLERANCE)]
        if not 3 <= len(ends) <= MAX_EDGE_DIRECTIONS:
            return None
        flat = self.hull.vertices[ends.ravel()] @ plane.T  # each outline vertex twice or more: the extents do not mind
        edges = flat[1::2] - flat[0::2]
        lengths = np.hypot(edges[:, 0], edges[:, 1])
        if not np.any(lengths > 0):
            return None
        return _smallest_rect(flat, edges[lengths > 0] / lengths[lengths > 0, None])


def _line_rect(xy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rectangle of points on a line (or one spot): along the line's direction, zero across."""
    centred = xy - xy.mean(axis=0)
    direction = np.linalg.svd(centred, full_matrices=False)[2][0] if np.any(centred) else np.array([1.0, 0.0])
    axes = np.vstack([direction, [-direction[1], direction[0]]])
    proj = xy @ axes.T
    lo, hi = proj.min(axis=0), proj.max(axis=0)
    return axes, hi - lo, ((lo + hi) / 2) @ axes


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a × b of two 3-vectors (np.cross's arithmetic, without its overhead for one pair)."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def box_along(points: np.ndarray, normal: np.ndarray, upright: bool = False, outline: Outline | None = None) -> Box3:
    """The smallest box with one axis along `normal`: its extent along it, the minimal rectangle across.

    `outline`, when given, is that of the points' hull: the rectangle is then found from its edges.
    """
    normal = normal / np.linalg.norm(normal)
    helper = np.array([1.0, 0.0, 0.0]) if abs(normal[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    e1 = _cross(normal, helper)
    e1 /= np.linalg.norm(e1)
    e2 = _cross(normal, e1)
    plane = np.vstack([e1, e2])
    rect = outline.rect(plane, normal) if outline is not None else None
    axes2, extents2, centre2 = rect if rect is not None else min_area_rect(points @ plane.T)
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
    if not found:
        return []
    repeats = (np.abs(np.array(found) @ np.array(found).T) >= 0.999).tolist()  # nearly the same axis
    unique: list[int] = []
    for i, same in enumerate(repeats):
        if not any(same[j] for j in unique):
            unique.append(i)
        if len(unique) >= FACE_CANDIDATES + 3:
            break
    return [found[i] for i in unique]


def fit_box(points: np.ndarray, hull: Hull | None = None) -> Box3:
    """The upright box around the points, or the minimal tilted one when it is clearly smaller; `hull` is the points' hull."""
    outline = None
    if len(points) > MAX_BOX_POINTS:
        # Only the orientation is chosen here; callers refit the sides on all points.
        points = points[np.random.default_rng(0).choice(len(points), MAX_BOX_POINTS, replace=False)]
    elif hull is not None and len(hull.triangles):
        outline = Outline.of(hull)
    upright = box_along(points, np.array([0.0, 0.0, 1.0]), upright=True, outline=outline)
    tilted = min((box_along(points, n, outline=outline) for n in _candidate_normals(points, hull)), key=lambda b: b.volume,
                 default=upright)
    return upright if upright.volume <= UPRIGHT_SLACK * tilted.volume else tilted


def aabb_extents(points: np.ndarray) -> np.ndarray:
    """Sides of the axis-aligned bounding box."""
    return np.ptp(points, axis=0) if len(points) else np.zeros(3)
