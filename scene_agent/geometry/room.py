"""A room's height and floor area from its shell points (floor, walls, ceiling).

Height: the floor and the ceiling are the two horizontal planes that hold far more points per
centimetre of height than the walls do; each level is the median height of the points in its
peak. A scan without a ceiling (common: scanners see it at a grazing angle) falls back to a high
percentile, and says so.

Floor area: the floor points on a grid, holes under furniture filled. Cells well inside count
whole; a cell on the edge counts by its share of the typical cell's points, because a cell that
the wall cuts in half holds half as many floor points. That keeps the area unbiased for any grid
offset and for non-rectangular rooms, where a plain count of touched cells would overstate it by
half a cell along the whole perimeter.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

BIN_M = 0.01  # height histogram bin
PLANE_PEAK = 5.0  # a plane's bin holds at least this many times the typical bin
POINTS_PER_CELL = 8.0  # grid cell size is chosen so that a full floor cell holds about this many points
MIN_CELL_M, MAX_CELL_M = 0.03, 0.5


@dataclass(frozen=True)
class Levels:
    """Floor and ceiling heights of a room and how they were found."""

    floor_z: float
    ceiling_z: float
    floor_found: bool
    ceiling_found: bool
    floor_spread_m: float

    @property
    def height(self) -> float:
        """Floor to ceiling in meters."""
        return self.ceiling_z - self.floor_z


@dataclass(frozen=True)
class Footprint:
    """Floor area and the grid it was measured on."""

    area_m2: float
    cell_m: float
    points: int


def _plane_level(z: np.ndarray, counts: np.ndarray, edges: np.ndarray, lower: bool) -> tuple[float, float] | None:
    """(median height, spread) of the densest bin in the lower or upper half, if it stands out as a plane."""
    half = len(counts) // 2
    part = counts[: max(half, 1)] if lower else counts[half:]
    peak = int(np.argmax(part)) + (0 if lower else half)
    typical = float(np.median(counts[counts > 0])) if np.any(counts) else 0.0
    if counts[peak] < max(PLANE_PEAK * typical, 20):
        return None
    centre = (edges[peak] + edges[peak + 1]) / 2
    near = z[np.abs(z - centre) <= 2 * BIN_M]
    level = float(np.median(near))
    spread = 1.4826 * float(np.median(np.abs(near - level)))  # MAD → σ of the plane's points
    return level, spread


def room_levels(z: np.ndarray) -> Levels:
    """Floor and ceiling heights from the height histogram of the room's points."""
    lo, hi = np.percentile(z, [0.1, 99.9])
    bins = max(int(np.ceil((hi - lo) / BIN_M)), 1)
    counts, edges = np.histogram(z, bins=bins, range=(lo - BIN_M, hi + BIN_M))
    floor = _plane_level(z, counts, edges, lower=True)
    ceiling = _plane_level(z, counts, edges, lower=False)
    floor_z, spread = floor if floor else (float(np.percentile(z, 0.5)), 0.0)
    ceiling_z = ceiling[0] if ceiling else float(np.percentile(z, 99.5))
    return Levels(floor_z, ceiling_z, floor is not None, ceiling is not None, spread)


def floor_points(xyz: np.ndarray, levels: Levels) -> np.ndarray:
    """The xy of the points on the floor plane (all points, projected, when no floor plane was found)."""
    if not levels.floor_found:
        return xyz[:, :2]
    band = max(1.5 * levels.floor_spread_m, 0.002)
    return xyz[np.abs(xyz[:, 2] - levels.floor_z) <= band, :2]


def load_floor_area() -> None:
    """Import what floor_area needs (scipy.ndimage, a fifth of a second), so that its first call only measures."""
    import scipy.ndimage  # noqa: F401  (loaded once; floor_area imports it again from the module cache)


def floor_area(xy: np.ndarray) -> Footprint:
    """Area covered by 2-D floor points, holes filled, edge cells weighted by their share of points."""
    from scipy import ndimage  # rooms only: importing it would cost every one-shot command a fifth of a second

    if len(xy) < 3:
        return Footprint(0.0, 0.0, len(xy))
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    box_area = float(np.prod(np.maximum(hi - lo, 1e-9)))
    cell = float(np.clip(np.sqrt(POINTS_PER_CELL * box_area / len(xy)), MIN_CELL_M, MAX_CELL_M))
    ij = np.floor((xy - lo) / cell).astype(np.int64) + 1  # one empty cell of margin on every side
    shape = tuple(ij.max(axis=0) + 2)
    counts = np.zeros(shape)
    np.add.at(counts, (ij[:, 0], ij[:, 1]), 1)
    occupied = ndimage.binary_closing(counts > 0, structure=np.ones((3, 3)))
    covered = ndimage.binary_fill_holes(occupied)
    inner = ndimage.binary_erosion(covered, structure=np.ones((3, 3)))
    edge = covered & ~inner
    full = counts[inner & (counts > 0)]
    per_cell = float(full.mean()) if len(full) else float(counts[covered].mean())
    cells = float(inner.sum()) + float(counts[edge].sum()) / max(per_cell, 1e-9)
    return Footprint(cells * cell * cell, cell, len(xy))
