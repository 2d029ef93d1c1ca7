"""CLR rows of `bench tools`: our colour tool beside a mean colour and k-means on all points, at several sizes.

The cloud is a demo dining chair (red, black legs) sampled to each size, shaded and jittered like
the demo scene, so every row answers the same question: what colour is this chair?
"""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from scene_agent.color.clusters import SEED, dominant_colors, kmeans, nearest
from scene_agent.color.science import name_lab, name_rgb, srgb_to_lab
from scene_agent.demo import furniture, palette
from scene_agent.demo.surfaces import render_parts
from scene_agent.geometry.points import Points
from scene_bench.tool_rows import ToolRow, peak_traced_mb

DEFAULT_SIZES = (100_000, 1_000_000, 5_000_000)
BASELINE_K = 4
BASELINE_ITERATIONS = 10  # Lloyd's iterations of the all-points k-means baseline, capped to keep 5 M points in seconds
SLOW_REPEATS = 1  # timed runs of the k-means baseline at a million points and more (seconds each at 5 M)

TOOL = "CLR"
MEAN = "CLR baseline: mean colour"
KMEANS = f"CLR baseline: k-means k={BASELINE_K} on all points (≤{BASELINE_ITERATIONS} iterations)"


@dataclass(frozen=True)
class ColorAnswer:
    """What one row's method says the chair's colour is, at one size."""

    tool: str
    points: int
    name: str
    basic: str
    share: float


def red_chair(n: int, seed: int = 7) -> Points:
    """n points of a demo dining chair: red seat and back, black legs (about a quarter of the points)."""
    parts = furniture.chair(palette.CHAIR_RED)
    parts = tuple(replace(p, color=palette.BLACK) if i < 4 else p for i, p in enumerate(parts))
    return render_parts(parts, n, (0.0, 0.0, 0.0), 30.0, np.random.default_rng(seed))


def ours(points: Points) -> ColorAnswer:
    """Our tool's answer."""
    top = dominant_colors(points).clusters[0]
    return ColorAnswer(TOOL, len(points), top.name.name, top.name.basic, round(top.share, 4))


def mean_colour(points: Points) -> ColorAnswer:
    """The baseline to beat: the mean RGB of every point, named the same way (CIEDE2000, CSS3)."""
    name = name_rgb(np.rint(points.rgb.mean(axis=0)))
    return ColorAnswer(MEAN, len(points), name.name, name.basic, 1.0)


def kmeans_all(points: Points) -> ColorAnswer:
    """Plain k-means in CIELAB on every point, fixed k, no shading model: the largest cluster's centre, named."""
    lab = srgb_to_lab(points.rgb)
    centres = kmeans(lab, BASELINE_K, np.random.default_rng(SEED), iterations=BASELINE_ITERATIONS)
    counts = np.bincount(nearest(lab, centres), minlength=len(centres))
    top = int(np.argmax(counts))
    name = name_lab(centres[top].astype(np.float64))
    return ColorAnswer(KMEANS, len(points), name.name, name.basic, round(float(counts[top] / counts.sum()), 4))


def _measure(fn: Callable[[], ColorAnswer], repeats: int) -> tuple[float, float, ColorAnswer]:
    """(median ms over `repeats` runs, peak MiB traced in one more run, the answer)."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    peak, answer = peak_traced_mb(fn)
    return statistics.median(times), peak, answer


def bench_color(sizes: tuple[int, ...] = DEFAULT_SIZES, repeats: int = 5) -> list[ToolRow]:
    """For each size: CLR, the mean-colour baseline and the all-points k-means baseline, timed on the same cloud."""
    return [row for row, _ in bench_color_answers(sizes, repeats)]


def bench_color_answers(sizes: tuple[int, ...] = DEFAULT_SIZES, repeats: int = 5) -> list[tuple[ToolRow, ColorAnswer]]:
    """The rows of `bench_color`, each with the answer its method gave (to check it is the same at every size)."""
    ours(red_chair(2_000))  # imports, palette: paid once, not by the first row
    out: list[tuple[ToolRow, ColorAnswer]] = []
    for n in sizes:
        points = red_chair(n)
        for fn in (ours, mean_colour, kmeans_all):
            runs = min(repeats, SLOW_REPEATS) if fn is kmeans_all and n >= 1_000_000 else repeats
            median_ms, peak_mb, answer = _measure(functools.partial(fn, points), runs)
            out.append((ToolRow(answer.tool, n, round(median_ms, 2), round(peak_mb, 2)), answer))
    return out
