"""Convex hulls of scanned points, with the outward bias that scan noise gives them measured and taken off.

A hull is spanned by the outermost points. With scan noise those are the points pushed furthest
out, so the hull of a noisy scan sits outside the true surface: a few percent of the volume at
1–2 mm of noise on furniture-sized things, tens of percent on thin ones (a table top, a rug).

What we do (no constant fitted to any shape):

1. Scan noise σ: planes fitted to small neighbourhoods; the spread of the points about them.
2. Depth of a sample of points below the hull. Where a surface lies flush under a hull face (a
   "supported" face), the true surface is where its points are on average, so the mean depth of
   those points is exactly how far the hull sits outside it.
3. Faces that bridge a gap (between chair legs, across the notch of an L, under a rug whose
   underside was not scanned) have no surface beneath them: their points are deeper than noise
   can explain. They rest on a few extreme points and are left alone. A face counts as
   supported when, with its neighbouring faces, it has at least 30 % of the points within noise
   range that the surface density predicts.
4. The offset is the mean depth of the points under supported faces, taken within the noise
   peak (found by its mode, half-width from its uncontaminated inner side). If there is no clear
   peak — not as narrow as the noise, or further out than noise can push a hull — nothing is
   corrected: better a hull a few percent large than one cut into.
5. Supported faces move inward by that offset; the volume is that of the resulting polytope.

Large clouds: the hull is taken of a random sample of at most `max_hull_points` points. The
sample's hull sits a little lower than the full cloud's, and the measured offset is smaller by
the same amount, so the corrected volume does not depend on the sample size while the time stays
bounded.

Time (docs/volume.md has the figures): the hull drops the points that cannot be its vertices
before they are hulled (polytope.py); the noise is measured on a second thread meanwhile, since
neither needs the other; the plane fits' smallest eigenvalues are solved in closed form; the
moved-in polytope's volume comes from the hull dual to it, without hulling its corners again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from scene_agent.geometry.polytope import BLAS_CHUNK, FlatError, Hull, halfspace_polytope

if TYPE_CHECKING:
    from pykdtree.kdtree import KDTree


def _load_kdtree() -> type[KDTree]:
    """pykdtree's k-d tree, answering queries on the calling thread alone.

    pykdtree spreads a query over OpenMP threads (OMP_NUM_THREADS, read once, as its OpenMP runtime loads).
    For our 2,000 seeds that does not pay: the first query waits 2–3 ms for the threads to start, and after
    each query they spin for milliseconds on the CPU the hull, built meanwhile, needs (VOL took a quarter
    longer on two CPUs; docs/volume.md). The process's environment is left as it was; a setting made there is kept.
    """
    unset = "OMP_NUM_THREADS" not in os.environ
    if unset:
        os.environ["OMP_NUM_THREADS"] = "1"
    try:
        from pykdtree.kdtree import KDTree
    finally:
        if unset:
            os.environ.pop("OMP_NUM_THREADS", None)
    return KDTree


_KDTREE = _load_kdtree()

MAX_HULL_POINTS = 150_000
NOISE_POOL = 40_000  # points in the k-d tree used for local plane fits
NOISE_SEEDS = 2_000  # neighbourhoods fitted
NEIGHBOURS = 8
NOISE_QUANTILE = 0.25  # neighbourhoods straddling two surfaces fit badly: use the better-fitting quarter
RADIUS_OVER_NOISE = 12.0  # k-NN picks points that share the seed's noise unless the radius is ≫ σ
DEPTH_SAMPLE = 8_000  # points whose depth below the hull is measured (fewer when the hull has many faces)
DEPTH_BUDGET = 16_000_000  # probe points × hull faces, to bound the time on huge hulls
MIN_POINTS_FOR_CORRECTION = 200
SUPPORT_SHARE = 0.3  # share of the expected points a face needs within noise range to count as supported
SUPPORT_RINGS = 3  # neighbouring faces pooled with each face
PEAK_WIDTH_MAX = 1.5  # the depth peak may be at most this many σ wide (inner side) to be noise
PEAK_DEPTH_MAX = 6.0  # noise pushes a hull out by at most ~√(2 ln n)·σ ≈ 5.3σ for a million points
PEAK_SHARE_MIN = 0.4  # share of the window within one width of the mode (flat distributions ~0.33)
MAX_PLAUSIBLE_NOISE = 0.02  # beyond any indoor scanner: the plane fits measured the shape, not the noise
SIDE_BY_SIDE_POINTS = 20_000  # from this size the noise is measured on a second thread while the hull is built
FINE_HULL_FACES = 30_000  # a hull with more faces rests on most points: noise is below what the sampling shows


@dataclass(frozen=True)
class NoiseEstimate:
    """Scan noise σ (m) and the density of points on the surfaces (points per m²)."""

    sigma_m: float
    points_per_m2: float


@dataclass(frozen=True)
class CorrectedHull:
    """The hull of the points used, and the same hull with its supported faces moved inward by the noise offset."""

    raw: Hull
    corrected_vertices: np.ndarray
    corrected_volume: float
    offset_m: float
    noise_m: float | None
    supported_share: float
    points_used: int
    sampled: bool
    why_not: str | None = None  # why no correction was made, when none was


def sample_rows(n: int, k: int, rng: np.random.Generator) -> np.ndarray:
    """k distinct row indices out of n, sorted (all rows when k ≥ n)."""
    if k >= n:
        return np.arange(n)
    rows = rng.choice(n, size=k, replace=False)
    if k < n // 16:
        return np.sort(rows)
    chosen = np.zeros(n, dtype=bool)  # a large share: marking is cheaper than sorting
    chosen[rows] = True
    return np.flatnonzero(chosen)


def _plane_fits(pool: np.ndarray, rng: np.random.Generator) -> tuple[float, float, float]:
    """(σ, median k-NN radius, points per m²) from planes fitted to the k-NN neighbourhoods of some seeds."""
    tree = _KDTREE(pool)  # pykdtree: scipy's cKDTree's neighbours, without importing scipy (docs/volume.md)
    seeds = pool[sample_rows(len(pool), NOISE_SEEDS, rng)]
    dist2, idx = tree.query(seeds, k=NEIGHBOURS + 1, sqr_dists=True)  # the seed itself and its neighbours
    nbhd = pool[idx.astype(np.intp)]
    centred = nbhd - nbhd.mean(axis=1, keepdims=True)
    rss = _least_scatter(centred).clip(min=0.0)
    # The residual sum of squares of a plane through m points is σ²·χ²(m−3); compare quantiles.
    nu = NEIGHBOURS + 1 - 3
    sigma = float(np.sqrt(quantile(rss, NOISE_QUANTILE) / _chi2_quantile(NOISE_QUANTILE, nu)))
    radius2 = dist2[:, -1]
    density = NEIGHBOURS / (np.pi * float(np.mean(radius2)) + 1e-300)  # π r_k² ρ has mean k on a surface
    return sigma, float(np.sqrt(median(radius2))), density


def _least_scatter(centred: np.ndarray) -> np.ndarray:
    """Smallest eigenvalue of each neighbourhood's 3×3 scatter matrix (n×k×3 centred points), in closed form.

    The trigonometric solution of the characteristic cubic (Smith's method): the same values as a
    batched eigvalsh, with no per-matrix LAPACK call.
    """
    x, y, z = centred[..., 0], centred[..., 1], centred[..., 2]
    a, b, c = (x * x).sum(axis=1), (y * y).sum(axis=1), (z * z).sum(axis=1)
    d, e, f = (x * y).sum(axis=1), (x * z).sum(axis=1), (y * z).sum(axis=1)
    mean = (a + b + c) / 3.0
    a, b, c = a - mean, b - mean, c - mean
    off = d * d + e * e + f * f
    p = np.sqrt((a * a + b * b + c * c + 2.0 * off) / 6.0)
    safe = np.where(p > 0, p, 1.0)
    det = (a * (b * c - f * f) - d * (d * c - f * e) + e * (d * f - b * e)) / safe**3
    angle = np.arccos(np.clip(det / 2.0, -1.0, 1.0)) / 3.0
    least: np.ndarray = mean + 2.0 * p * np.cos(angle + 2.0 * np.pi / 3.0)
    return least


def quantile(x: np.ndarray, q: float) -> float:
    """np.quantile(x, q) of finite 1-D data, the same value (its default, linear method), by one partition.

    np.quantile and np.median import numpy.ma on first use (7 ms of every one-shot `vol`); this is
    their arithmetic: the value at position q·(n − 1), interpolated from the far end when past halfway.
    """
    position = (len(x) - 1) * q
    below = int(np.floor(position))
    above = min(below + 1, len(x) - 1)
    part = np.partition(x, [below, above])
    a, b, t = float(part[below]), float(part[above]), position - below
    return b - (b - a) * (1.0 - t) if t >= 0.5 else a + (b - a) * t


def median(x: np.ndarray) -> float:
    """np.median(x) of finite 1-D data, the same value (see `quantile` on why not np.median)."""
    half = len(x) // 2
    if len(x) % 2:
        return float(np.partition(x, half)[half])
    part = np.partition(x, [half - 1, half])
    return (float(part[half - 1]) + float(part[half])) / 2.0


def _chi2_quantile(q: float, nu: int) -> float:
    """The q-quantile of χ² with nu degrees of freedom (Wilson–Hilferty; within 1 % for nu ≥ 3)."""
    from statistics import NormalDist  # tiny, and only here

    z = NormalDist().inv_cdf(q)
    quantile: float = nu * (1 - 2 / (9 * nu) + z * np.sqrt(2 / (9 * nu))) ** 3
    return quantile


def estimate_noise(xyz: np.ndarray, rng: np.random.Generator) -> NoiseEstimate | None:
    """Scan noise and surface density from local plane fits; None when there are too few points."""
    if len(xyz) < MIN_POINTS_FOR_CORRECTION:
        return None
    pool = xyz[sample_rows(len(xyz), NOISE_POOL, rng)]
    sigma, radius, density = _plane_fits(pool, rng)
    if sigma > 0 and radius < RADIUS_OVER_NOISE * sigma:
        # Dense points: thin them until neighbourhoods are wide compared with the noise.
        keep = max(int(len(pool) * (radius / (RADIUS_OVER_NOISE * sigma)) ** 2), 300)
        pool = pool[sample_rows(len(pool), keep, rng)]
        sigma, radius, density = _plane_fits(pool, rng)
    # density is of the pool; scale it to the whole cloud
    return NoiseEstimate(sigma, density * len(xyz) / len(pool))


def depths(points: np.ndarray, equations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Signed distance of each point below the hull surface (negative outside) and the index of the nearest face."""
    origin = points.mean(axis=0)
    # float32 about a local origin: micrometre precision at room scale, half the time of float64
    normals = equations[:, :3].T.astype(np.float32)
    offsets = (equations[:, 3] + equations[:, :3] @ origin).astype(np.float32)
    local = (points - origin).astype(np.float32)
    depth, face = np.empty(len(points)), np.empty(len(points), dtype=np.int64)
    chunk = max(BLAS_CHUNK // (3 * len(equations)), 64)  # see polytope.py on the chunk size
    for start in range(0, len(points), chunk):
        height = local[start:start + chunk] @ normals
        height += offsets
        nearest = height.argmax(axis=1)
        face[start:start + chunk] = nearest
        depth[start:start + chunk] = -np.take_along_axis(height, nearest[:, None], axis=1)[:, 0]
    return depth, face


def half_sample_mode(x: np.ndarray) -> float:
    """The mode of 1-D data (Bickel's half-sample mode): keep the densest half until three values are left."""
    x = np.sort(x)
    while len(x) > 3:
        half = (len(x) + 1) // 2
        i = int(np.argmin(x[half - 1:] - x[: len(x) - half + 1]))
        x = x[i:i + half]
    return float(x.mean())


def _pooled(hull: Hull, values: np.ndarray) -> np.ndarray:
    """Each face's value plus its neighbours' out to SUPPORT_RINGS rings (a diffusion over the face graph)."""
    pooled = values.astype(float)
    for _ in range(SUPPORT_RINGS):
        pooled = pooled + pooled[hull.neighbours].sum(axis=1)
    return pooled


@dataclass(frozen=True)
class Offset:
    """How far the supported faces sit outside the surface, and which faces those are."""

    offset_m: float
    supported: np.ndarray
    why_not: str | None = None


def hull_offset(hull: Hull, depth: np.ndarray, face: np.ndarray, noise: NoiseEstimate, probes_per_m2: float) -> Offset:
    """The mean depth of surface points under the supported faces, when they show a clear noise peak."""
    sigma = noise.sigma_m
    expected = _pooled(hull, probes_per_m2 * hull.triangle_areas())
    lo, hi = -3.0 * sigma, 8.0 * sigma
    supported = np.zeros(len(hull.equations), dtype=bool)
    centre = width = 0.0
    for _ in range(2):  # a broad window first, then one fitted to the peak found
        window = (depth > lo) & (depth < hi)
        supported = _pooled(hull, np.bincount(face[window], minlength=len(supported))) >= SUPPORT_SHARE * expected
        under = depth[window & supported[face]]
        inner = under[under > 1e-9]  # hull vertices sit at depth 0 exactly; they would make a false mode
        if len(inner) < 30:
            return Offset(0.0, supported, "no surface lies flush under the hull")
        centre = half_sample_mode(inner)
        below = centre - inner[inner < centre]  # the inner side of the peak: no deeper surfaces mixed in
        width = max(median(below) / 0.6745 if len(below) > 5 else sigma, 1e-6)
        lo, hi = min(-1e-9, centre - 3 * width), centre + 3 * width
    under = depth[(depth > lo) & (depth < hi) & supported[face]]
    share = float(np.mean(np.abs(under - centre) <= width))
    if width > PEAK_WIDTH_MAX * sigma or centre > PEAK_DEPTH_MAX * sigma or share < PEAK_SHARE_MIN:
        return Offset(0.0, supported, "the points under the hull show no clear noise peak (surfaces closer together "
                                      "than the point spacing, or curved between sparse points)")
    return Offset(max(float(under.mean()), 0.0), supported)


def inner_offset(hull: Hull, offset: float, faces: np.ndarray) -> tuple[np.ndarray, float]:
    """Vertices and volume of the hull with the chosen faces moved inward by `offset` (empty when nothing is left)."""
    if offset <= 0.0 or not faces.any():
        return hull.vertices, hull.volume
    equations = hull.equations.copy()
    equations[faces, 3] += offset
    inside = hull.vertices.mean(axis=0)
    if -(equations[:, :3] @ inside + equations[:, 3]).max() <= 1e-9:
        inside = _deepest_point(equations)
        if inside is None:
            return np.zeros((0, 3)), 0.0
    try:
        return halfspace_polytope(equations, inside)
    except FlatError:
        return np.zeros((0, 3)), 0.0


def _deepest_point(equations: np.ndarray) -> np.ndarray | None:
    """The centre of the largest ball inside the half-spaces (Chebyshev centre), or None if there is no room."""
    from scipy.optimize import linprog  # rarely needed, slow to import

    a = np.hstack([equations[:, :3], np.ones((len(equations), 1))])
    res = linprog([0, 0, 0, -1], A_ub=a, b_ub=-equations[:, 3], bounds=[(None, None)] * 3 + [(0, None)], method="highs")
    if not res.success or res.x[3] <= 1e-7:
        return None
    centre: np.ndarray = res.x[:3]  # scipy's result is untyped
    return centre


def _usable_cpus() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _hull_and_noise(used: np.ndarray, xyz: np.ndarray, rng: np.random.Generator,
                    correct: bool) -> tuple[Hull, NoiseEstimate | None]:
    """The hull of `used` and, when correcting, the scan noise of `xyz`, measured side by side on large clouds.

    The two are independent and both spend their time outside the GIL (the hull, the k-d tree, numpy), so
    a second core halves the wait. Only the noise estimate draws from `rng`, so the results are the same
    either way.
    """
    if not correct:
        return Hull.of(used), None
    if len(xyz) < SIDE_BY_SIDE_POINTS or _usable_cpus() < 2:
        raw = Hull.of(used)
        return raw, estimate_noise(xyz, rng)
    from concurrent.futures import ThreadPoolExecutor  # large clouds only: 2 ms of every one-shot `vol` otherwise

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="scan-noise") as worker:
        noise = worker.submit(estimate_noise, xyz, rng)
        raw = Hull.of(used)
        return raw, noise.result()


def corrected_hull(xyz: np.ndarray, *, max_hull_points: int = MAX_HULL_POINTS, correct: bool = True,
                   seed: int = 0) -> CorrectedHull:
    """The hull of (a bounded sample of) the points, with the noise offset of its supported faces taken off."""
    rng = np.random.default_rng(seed)
    used = xyz[sample_rows(len(xyz), max_hull_points, rng)] if len(xyz) > max_hull_points else xyz
    raw, noise = _hull_and_noise(used, xyz, rng, correct)
    sampled = len(used) < len(xyz)

    def uncorrected(noise_m: float | None, why: str) -> CorrectedHull:
        return CorrectedHull(raw, raw.vertices, raw.volume, 0.0, noise_m, 0.0, len(used), sampled, why)

    if not correct:
        return uncorrected(None, "correction turned off")
    if noise is None:
        return uncorrected(None, f"too few points (under {MIN_POINTS_FOR_CORRECTION}) to measure the scan noise")
    if noise.sigma_m < 1e-5:
        return uncorrected(noise.sigma_m, "no scan noise found")
    if noise.sigma_m > MAX_PLAUSIBLE_NOISE:
        return uncorrected(None, "the scan noise could not be measured (surfaces closer together than the point spacing)")
    if len(raw.equations) > FINE_HULL_FACES:
        # Most points are hull vertices only when the noise is smaller than the sag of the surface
        # between neighbouring points (micrometres); the bias is then negligible.
        return uncorrected(noise.sigma_m, "the hull rests on most points, so the noise is too small to bias it")
    n_probe = int(np.clip(DEPTH_BUDGET // len(raw.equations), 500, DEPTH_SAMPLE))
    probes = xyz[sample_rows(len(xyz), n_probe, rng)]
    depth, face = depths(probes, raw.equations)
    found = hull_offset(raw, depth, face, noise, noise.points_per_m2 * len(probes) / len(xyz))
    if found.offset_m <= 0:
        return uncorrected(noise.sigma_m, found.why_not or "no offset found")
    corners, volume = inner_offset(raw, found.offset_m, found.supported)
    share = float(raw.triangle_areas()[found.supported].sum() / max(raw.area, 1e-300))
    return CorrectedHull(raw, corners, volume, found.offset_m, noise.sigma_m, share, len(used), sampled)
