"""Where a thing stands, seen from above: trimmed height range, centre and a small convex footprint polygon.

Scans carry stray points (a speck of the wall caught with a chair, a reflection below the floor).
One stray point moves a min/max bound or a hull vertex by its whole error, so heights are the
0.5th and 99.5th percentiles, and the footprint is the 2-D convex hull of the points whose x and
y both lie within their own 0.5–99.5 percentile range. A hull of a scanned room can have
hundreds of vertices; it is thinned to at most `MAX_VERTICES` by dropping, one at a time, the
vertex whose removal loses the least area (Visvalingam–Whyatt), which keeps the polygon convex.
Vertices closer than the stored precision (1 mm) to the line through their neighbours are
dropped too: along a scanned straight edge they only record noise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scene_agent.geometry.polytope import FlatError, convex_polygon

TRIM_PERCENT = 0.5
MAX_VERTICES = 32


@dataclass(frozen=True)
class Footprint:
    """Trimmed height range, centre (x, y of the footprint's box; z midway) and footprint polygon, counter-clockwise."""

    z_min: float
    z_max: float
    center: tuple[float, float, float]
    polygon: tuple[tuple[float, float], ...]


def _triangle_areas(poly: np.ndarray) -> np.ndarray:
    """Area each vertex adds to a polygon: the triangle it makes with its two neighbours."""
    prev, nxt = np.roll(poly, 1, axis=0), np.roll(poly, -1, axis=0)
    areas: np.ndarray = 0.5 * np.abs(
        (poly[:, 0] - prev[:, 0]) * (nxt[:, 1] - prev[:, 1]) - (nxt[:, 0] - prev[:, 0]) * (poly[:, 1] - prev[:, 1]))
    return areas


def simplify_polygon(poly: np.ndarray, max_vertices: int = MAX_VERTICES, tolerance: float = 0.0) -> np.ndarray:
    """A convex polygon thinned to at most `max_vertices`, each step dropping the vertex that changes the area least;
    then any vertex within `tolerance` of the line through its neighbours (it only records scan noise)."""
    poly = np.asarray(poly, dtype=np.float64)
    while len(poly) > 3:
        areas = _triangle_areas(poly)
        if len(poly) > max_vertices:
            poly = np.delete(poly, int(np.argmin(areas)), axis=0)
            continue
        offsets = 2.0 * areas / np.maximum(np.linalg.norm(np.roll(poly, -1, axis=0) - np.roll(poly, 1, axis=0), axis=1), 1e-12)
        if offsets.min() >= tolerance:
            break
        poly = np.delete(poly, int(np.argmin(offsets)), axis=0)
    return poly


def _hull_polygon(xy: np.ndarray, digits: int) -> tuple[tuple[float, float], ...]:
    """Counter-clockwise convex hull of 2-D points, thinned and rounded, starting at its lowest-x vertex; () when degenerate."""
    if len(xy) < 3:
        return ()
    try:
        ring = convex_polygon(xy)
    except FlatError:  # all on one line or one spot: no area to stand on
        return ()
    # Vertices that stand out less than the rounding step are dropped.
    poly = np.round(simplify_polygon(ring, tolerance=10.0**-digits), digits) + 0.0
    keep = np.any(poly != np.roll(poly, 1, axis=0), axis=1)  # rounding can merge neighbours
    poly = poly[keep] if keep.any() else poly[:1]
    if len(poly) < 3:
        return ()
    start = min(range(len(poly)), key=lambda i: (poly[i, 0], poly[i, 1]))
    return tuple((float(x), float(y)) for x, y in np.roll(poly, -start, axis=0))


def footprint(xyz: np.ndarray, digits: int = 3) -> Footprint | None:
    """Footprint of a cloud's finite points, rounded to `digits` decimals (3: millimetres); None when there are none."""
    xyz = np.asarray(xyz, dtype=np.float64)
    xyz = xyz[np.isfinite(xyz).all(axis=1)] if len(xyz) else xyz.reshape(0, 3)
    if not len(xyz):
        return None
    (x0, x1), (y0, y1), (z0, z1) = (np.percentile(xyz[:, axis], [TRIM_PERCENT, 100 - TRIM_PERCENT]) for axis in range(3))
    inside = (xyz[:, 0] >= x0) & (xyz[:, 0] <= x1) & (xyz[:, 1] >= y0) & (xyz[:, 1] <= y1)
    # With a handful of points the x-trim and the y-trim can together leave none: then all of them count.
    xy = xyz[inside, :2] if inside.any() else xyz[:, :2]
    lo, hi = xy.min(axis=0), xy.max(axis=0)

    def r(v: float) -> float:
        return round(float(v), digits) + 0.0  # + 0.0: never a "-0.0" in the file

    centre = (r((lo[0] + hi[0]) / 2), r((lo[1] + hi[1]) / 2), r((z0 + z1) / 2))
    return Footprint(z_min=r(z0), z_max=r(z1), center=centre, polygon=_hull_polygon(xy, digits))
