"""Volume of a point cloud: noise-corrected convex hull, oriented and axis-aligned boxes; rooms by floor area × height.

Pure functions on numpy arrays, shared by the `volume` tool and `bench tools`. Nothing here
raises on awkward input: no points, fewer than four, all on one plane or line, NaN rows — each
comes back as a measurement with a `reason`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from scene_agent.geometry.boxes import Box3, aabb_extents, fit_box
from scene_agent.geometry.hull import MAX_HULL_POINTS, CorrectedHull, corrected_hull, sample_rows
from scene_agent.geometry.polytope import FlatError
from scene_agent.geometry.room import floor_area, floor_points, room_levels

FLAT_TOLERANCE = 1e-9  # relative singular value below which a cloud is taken as flat (well above rounding)
FLATNESS_SAMPLE = 2_000  # points whose spread is checked first: when they span a volume, so does the cloud


@dataclass(frozen=True)
class VolumeMeasurement:
    """What measure_volume found; `volume_m3` is None only when there was nothing to measure."""

    volume_m3: float | None
    method: str
    box: Box3 | None = None
    aabb_extent_m: tuple[float, float, float] | None = None
    hull_volume_m3: float | None = None
    bare_hull_volume_m3: float | None = None
    points_used: int = 0
    points_total: int = 0
    noise_m: float | None = None
    offset_m: float | None = None
    floor_area_m2: float | None = None
    height_m: float | None = None
    reason: str | None = None
    notes: tuple[str, ...] = ()

    @property
    def aabb_volume_m3(self) -> float | None:
        """Volume of the axis-aligned box."""
        return float(np.prod(self.aabb_extent_m)) if self.aabb_extent_m is not None else None


def _mm(v: float) -> str:
    return f"{v * 1000:.1f} mm"


def _flatness(xyz: np.ndarray) -> str | None:
    """'spot', 'line' or 'plane' when the points span fewer than three dimensions, else None."""
    centred = xyz - xyz.mean(axis=0)
    s = np.linalg.svd(centred, compute_uv=False)
    if s[0] <= FLAT_TOLERANCE * max(1.0, float(np.abs(xyz).max())):
        return "spot"
    rank = int((s > FLAT_TOLERANCE * s[0]).sum())
    return {1: "line", 2: "plane"}.get(rank)


def _cloud_flatness(xyz: np.ndarray, max_points: int, seed: int) -> str | None:
    """_flatness of (a bounded sample of) the cloud, looking at a small sample first: nearly every cloud is solid."""
    rng = np.random.default_rng(seed)
    if len(xyz) > FLATNESS_SAMPLE and _flatness(xyz[sample_rows(len(xyz), FLATNESS_SAMPLE, rng)]) is None:
        return None
    return _flatness(xyz[sample_rows(len(xyz), max_points, np.random.default_rng(seed))])


def _aabb_extent(xyz: np.ndarray) -> tuple[float, float, float]:
    """The axis-aligned box's sides of N×3 points, as three floats."""
    x, y, z = (float(v) for v in aabb_extents(xyz))
    return x, y, z


def _flat(xyz: np.ndarray, shape: str, total: int, notes: list[str]) -> VolumeMeasurement:
    """A cloud with no thickness: volume 0, with its box (one or more sides zero)."""
    sample = xyz[sample_rows(len(xyz), 100_000, np.random.default_rng(0))]
    reason = {"spot": "all points are at one spot", "line": "all points lie on one line",
              "plane": "all points lie on one plane"}[shape] + ": it has no volume"
    return VolumeMeasurement(0.0, "none (the points span no volume)", box=fit_box(sample).refit(xyz),
                             aabb_extent_m=_aabb_extent(xyz), hull_volume_m3=0.0,
                             bare_hull_volume_m3=0.0, points_used=len(xyz), points_total=total, reason=reason,
                             notes=tuple(notes))


def _hull_method(h: CorrectedHull, total: int) -> str:
    used = f"{h.points_used:,} of {total:,} points (random sample)" if h.sampled else f"{h.points_used:,} points"
    if h.noise_m is None:
        return f"convex hull of {used}; not corrected: {h.why_not}"
    noise = f"scan noise {_mm(h.noise_m)} (local plane fits)"
    if h.offset_m <= 0:
        return f"convex hull of {used}; {noise}; not corrected: {h.why_not}"
    return (f"convex hull of {used}; {noise}; the hull faces resting on scanned surfaces ({h.supported_share:.0%} of its "
            f"area) moved inward by {_mm(h.offset_m)}, the mean depth of the points beneath them")


def measure_volume(xyz: np.ndarray, *, room: bool = False, max_hull_points: int = MAX_HULL_POINTS, correct: bool = True,
                   seed: int = 0) -> VolumeMeasurement:
    """Volume of an object's points (noise-corrected convex hull) or a room's shell (floor area × height)."""
    xyz = np.asarray(xyz, dtype=np.float64)
    if xyz.size == 0:
        xyz = xyz.reshape(0, 3)
    if xyz.ndim != 2 or xyz.shape[1] != 3:
        raise ValueError(f"points must be an N×3 array, got shape {xyz.shape}")
    total, notes = len(xyz), []
    if total and not np.isfinite(xyz).all():
        xyz = xyz[np.isfinite(xyz).all(axis=1)]
        notes.append(f"ignored {total - len(xyz):,} point(s) with NaN or infinite coordinates")
    if len(xyz) < 4:
        what = "no points" if not len(xyz) else f"only {len(xyz)} point{'s' if len(xyz) > 1 else ''}"
        return VolumeMeasurement(None, "none", points_used=len(xyz), points_total=total, notes=tuple(notes),
                                 reason=f"{what} with finite coordinates: a volume needs at least 4 points not all on one plane")
    shape = _cloud_flatness(xyz, max_hull_points, seed)
    if shape:
        return _flat(xyz, shape, total, notes)
    try:
        h = corrected_hull(xyz, max_hull_points=max_hull_points, correct=correct, seed=seed)
    except FlatError:  # flat within the hull's tolerance (polytope.py) though not exactly
        return _flat(xyz, "plane", total, notes)
    reason = None
    if h.corrected_volume <= 0:
        reason = f"thinner than the scan noise: nothing is left once the hull's faces move in by {_mm(h.offset_m)}"
    # The box is oriented on the hull as scanned, then drawn tight around the corrected hull.
    hull = VolumeMeasurement(h.corrected_volume, _hull_method(h, total),
                             box=fit_box(h.raw.vertices, h.raw).refit(h.corrected_vertices),
                             aabb_extent_m=_aabb_extent(h.corrected_vertices),
                             hull_volume_m3=h.corrected_volume, bare_hull_volume_m3=h.raw.volume, points_used=h.points_used,
                             points_total=total, noise_m=h.noise_m, offset_m=h.offset_m, reason=reason, notes=tuple(notes))
    return _room(xyz, hull) if room else hull


def _room(xyz: np.ndarray, hull: VolumeMeasurement) -> VolumeMeasurement:
    """A room: floor area of its footprint × floor-to-ceiling height; the shell's hull gives the boxes."""
    levels = room_levels(xyz[:, 2])
    footprint = floor_area(floor_points(xyz, levels))
    notes = list(hull.notes)
    if not levels.floor_found:
        notes.append("no floor plane found: footprint of all points seen from above, height from the lowest points")
    if not levels.ceiling_found:
        notes.append("no ceiling plane found: height to the 99.5th percentile of the points")
    height = max(levels.height, 0.0)
    method = (f"floor area × height: footprint of {footprint.points:,} floor points on a {footprint.cell_m * 100:.0f} cm grid, "
              f"floor and ceiling planes from the height histogram. Boxes: {hull.method}")
    return replace(hull, volume_m3=footprint.area_m2 * height, method=method, floor_area_m2=footprint.area_m2,
                   height_m=height, reason=None, notes=tuple(notes))
