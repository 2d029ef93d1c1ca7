"""`bench tools`, VOL rows: the volume tool beside Open3D's bare convex hull, on the same points, at each size.

The cloud is the L-shaped corner sofa of `bench.shapes` (furniture-sized, non-convex, shaded, 1.5 mm
of scan noise), sampled at each size. Ours is the whole measurement — NaN check, sampled hull,
noise estimate and correction, boxes; the baseline is Open3D building a point cloud from the
same array and computing its convex hull and volume. The two alternate run by run so that
neither gets a warmer machine.

Peak memory is what tracemalloc sees: Python and numpy allocations. Open3D's C++ buffers and
qhull's own work arrays are invisible to it, so the baseline's column is near zero and ours
counts only the numpy side (the sample, depths, plane fits).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np

from scene_agent.geometry.measure import VolumeMeasurement, measure_volume
from scene_agent.scene.pointcloud import open3d_convex_hull_volume
from scene_bench.shapes import known_shape
from scene_bench.tool_rows import ToolRow, peak_traced_mb

DEFAULT_SIZES = (100_000, 1_000_000, 5_000_000)
BENCH_SHAPE = "l-shape"
BENCH_NOISE_M = 0.0015
OURS = "VOL"
BASELINE = "VOL baseline: Open3D convex hull"


def _time_pair(ours: Callable[[], object], baseline: Callable[[], object], repeats: int) -> tuple[list[float], list[float]]:
    """Wall times in ms of both, alternating, after one warm-up run of each."""
    ours(), baseline()
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeats):
        for fn, out in ((ours, times[0]), (baseline, times[1])):
            started = time.perf_counter()
            fn()
            out.append((time.perf_counter() - started) * 1000)
    return times


def bench_volume(sizes: tuple[int, ...] = DEFAULT_SIZES, repeats: int = 5) -> list[ToolRow]:
    """Rows "VOL" and "VOL baseline: Open3D convex hull" at each size: median ms and traced peak MiB."""
    rows: list[ToolRow] = []
    for n in sizes:
        xyz = known_shape(BENCH_SHAPE, n, noise_m=BENCH_NOISE_M, seed=0).points.xyz

        def ours(xyz: np.ndarray = xyz) -> VolumeMeasurement:  # bound per size
            return measure_volume(xyz)

        def baseline(xyz: np.ndarray = xyz) -> tuple[float, int]:
            return open3d_convex_hull_volume(xyz)

        ours_ms, base_ms = _time_pair(ours, baseline, repeats)
        rows.append(ToolRow(OURS, n, round(statistics.median(ours_ms), 2), round(peak_traced_mb(ours)[0], 2)))
        rows.append(ToolRow(BASELINE, n, round(statistics.median(base_ms), 2), round(peak_traced_mb(baseline)[0], 2)))
    return rows
