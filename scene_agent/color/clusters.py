"""Dominant colours of a point cloud: shading-aware clustering in CIELAB, stray points dropped.

A scanned surface of one paint spans many brightnesses (faces turned from the light are darker).
Shading scales a colour's linear RGB, which in CIELAB moves it along the straight line from the
colour towards (L*, a*, b*) = (-16, 0, 0) — its "shading line". So:

1. a seeded random sample bounds the work: 20,000 points, whatever the cloud's size (a share is
   then within about ±0.7 % of the whole cloud's);
2. k-means in CIELAB (L* weighted 0.5; k = 8, or fewer when there are fewer distinct colours)
   over-segments on purpose;
3. points far from their k-means centre are strays and are dropped;
4. pieces are merged, closest first, while one lies on the other's shading line (within a
   tolerance that grows with the pieces' own noise) and the group spans no more lightness than
   shading can make: k is thus chosen by the data, and white, gray and black stay apart;
5. groups under 3 % of the points are dropped as specks and strays;
6. a group's colour is that of its best-lit tenth, brightened to full light (shading only darkens,
   so a shaded red chair is named from its lit faces: red, not dark brown);
7. names are the nearest CSS3 colours by CIEDE2000 (`scene_agent.color.science`); groups that get the
   same name are one colour to a person and are joined.

A room's points are its structure: the ceiling (a dense horizontal slab at the top) is dropped,
and the floor (the slab at the bottom) and the walls are clustered apart, each colour tagged with
where it is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scene_agent.color.science import ColorName, brightened, lab_to_srgb, name_lab, srgb_to_lab
from scene_agent.geometry.points import Points

MAX_POINTS = 20_000  # sample size: ±0.7 % on a share (2σ), ~40 ms in all at any cloud size
SEED = 20240611
K_MAX = 8
L_WEIGHT = 0.5  # lightness counts half in k-means: shading moves colours mostly in L*
STRAY_DE = 18.0  # a point this far (weighted ΔE*ab) from its centre, and well outside its spread, is a stray
MIN_SHARE = 0.03  # clusters smaller than this are strays or specks
SHADE_MIN = 0.55  # darkest a shaded face gets, as a ratio of (L*+16): the lit face at 1.0
SHADE_TOL = 3.0  # ΔE*ab off the shading line still counted as the same surface ...
NOISE_K = 3.0  # ... plus this many times the clusters' own scatter about their shading lines
LIT_TOP_PERCENT = 10  # a cluster's well-lit part: its brightest tenth (the top 1 % left out: glints)
LIT_LEVEL = 0.6  # light the well-lit part of a scanned surface is taken to get, of full light (linear)
_BLACK_POINT = np.array([-16.0, 0.0, 0.0])  # where shading takes every colour in (L*, a*, b*)
FEW_POINTS = 30
FIT_POINTS = 4_000  # k-means centres are fitted on this many of the sampled points
CEILING_BAND_M = 0.15  # look for the ceiling slab this close to the top of the room's points
SLAB_FACTOR = 4.0  # a horizontal surface puts this many times more points in a 2 cm height bin than walls do


@dataclass(frozen=True)
class Cluster:
    """One colour of a cloud: its well-lit colour, share of the kept points and palette name."""

    lab: tuple[float, float, float]
    rgb: tuple[int, int, int]
    share: float
    name: ColorName
    part: str | None = None  # rooms: "walls", "floor" or "walls and floor"


@dataclass(frozen=True)
class ColorAnalysis:
    """What `dominant_colors` found: clusters (largest first), how many points it used and how."""

    clusters: tuple[Cluster, ...]
    points_used: int
    points_total: int
    method: str
    reason: str | None = None


def sample_indices(n: int, max_points: int, seed: int = SEED) -> np.ndarray:
    """Sorted indices of a seeded random sample of at most max_points out of n."""
    if n <= max_points:
        return np.arange(n)
    return np.sort(np.random.default_rng(seed).choice(n, size=max_points, replace=False))


def kmeans(x: np.ndarray, k: int, rng: np.random.Generator, iterations: int = 25, tol: float = 0.05) -> np.ndarray:
    """Centres of Lloyd's k-means with k-means++ seeding; fewer than k when the data has fewer distinct points."""
    x = np.asarray(x, dtype=np.float32)
    n = len(x)
    centres = [x[int(rng.integers(n))]]
    d2 = ((x - centres[0]) ** 2).sum(1)
    for _ in range(1, k):
        cumulative = np.cumsum(d2, dtype=np.float64)
        if cumulative[-1] <= 1e-9:
            break
        centres.append(x[min(int(np.searchsorted(cumulative, rng.random() * cumulative[-1])), n - 1)])
        d2 = np.minimum(d2, ((x - centres[-1]) ** 2).sum(1))
    c = np.array(centres)
    for _ in range(iterations):
        labels = nearest(x, c)
        counts = np.bincount(labels, minlength=len(c))
        sums = np.stack([np.bincount(labels, weights=x[:, j], minlength=len(c)) for j in range(x.shape[1])], axis=1)
        new = np.where(counts[:, None] > 0, sums / np.maximum(counts, 1)[:, None], c).astype(np.float32)
        moved = float(np.abs(new - c).max())
        c = new
        if moved < tol:
            break
    return c


def nearest(x: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Index of the nearest centre for each row (squared Euclidean distance)."""
    x = np.asarray(x, dtype=np.float32)
    c = np.asarray(centres, dtype=np.float32)
    index: np.ndarray = np.argmin((c**2).sum(1)[None, :] - 2.0 * (x @ c.T), axis=1)
    return index


def _off_shading_line(p: np.ndarray, q: np.ndarray) -> tuple[float, float]:
    """(t, d): how much of the lighter colour's (L*+16) the darker keeps, and how far (ΔE*ab) it is off its shading line."""
    lit, dark = (p, q) if p[0] >= q[0] else (q, p)
    v, w = lit - _BLACK_POINT, dark - _BLACK_POINT
    t = float(w @ v) / max(float(v @ v), 1e-9)
    return t, float(np.linalg.norm(w - t * v))


def _line_residuals(lab: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """Each colour's distance (ΔE*ab) from the shading line through `centre`: its noise under the shading model."""
    v = centre - _BLACK_POINT
    w = lab - _BLACK_POINT
    t = (w @ v) / max(float(v @ v), 1e-9)
    residuals: np.ndarray = np.linalg.norm(w - t[:, None] * v[None, :], axis=1)
    return residuals


def _merge(centres: np.ndarray, counts: np.ndarray, noise: np.ndarray) -> list[list[int]]:
    """Group sub-clusters that are one surface under different light, closest pair first.

    k-means also cuts a noisy blob of one colour into pieces side by side in a*/b*; they come
    back together because the distance allowed off the shading line grows with the pieces' own
    noise. Lightness is checked on every member, so a chain of merges never spans more than
    shading can (white, gray and black stay apart).
    """
    groups = [[i] for i in range(len(centres))]
    sums = [centres[i] * counts[i] for i in range(len(centres))]
    weights = [float(counts[i]) for i in range(len(centres))]
    sq_noise = [noise[i] ** 2 * counts[i] for i in range(len(centres))]
    while True:
        best: tuple[float, int, int] | None = None
        for i in range(len(groups)):
            for j in range(i + 1, len(groups)):
                lightness = centres[groups[i] + groups[j], 0] + 16.0
                t, d = _off_shading_line(sums[i] / weights[i], sums[j] / weights[j])
                sigma = np.sqrt((sq_noise[i] + sq_noise[j]) / (weights[i] + weights[j]))
                same_surface = lightness.min() >= SHADE_MIN * lightness.max() and t >= SHADE_MIN and d <= SHADE_TOL + NOISE_K * sigma
                if same_surface and (best is None or d < best[0]):
                    best = (d, i, j)
        if best is None:
            return groups
        _, i, j = best
        groups[i] += groups.pop(j)
        for stats in (sums, weights, sq_noise):
            stats[i] = stats[i] + stats.pop(j)


def _lit_colour(lab: np.ndarray) -> np.ndarray:
    """A cluster's colour in full light: its best-lit tenth (median Lab), brightened by 1/LIT_LEVEL in linear light."""
    lo, hi = np.percentile(lab[:, 0], [100 - LIT_TOP_PERCENT, 99])
    bright = lab[(lab[:, 0] >= lo) & (lab[:, 0] <= hi)]
    return brightened(np.median(bright if len(bright) else lab, axis=0), 1.0 / LIT_LEVEL)


def room_structure(xyz: np.ndarray) -> tuple[np.ndarray, np.ndarray | None, str]:
    """(keep, on_floor, note) for a room shell's points: the ceiling slab is dropped, the floor slab marked (None: no floor seen)."""
    n = len(xyz)
    z = xyz[:, 2]
    lo, hi = np.percentile(z, [0.5, 99.5]) if n else (0.0, 0.0)
    if n < FEW_POINTS or hi - lo < 1.0:
        return np.ones(n, dtype=bool), None, "all points (too low to tell walls, floor and ceiling apart)"
    edges = np.arange(lo - 0.05, hi + 0.07, 0.02)
    counts, _ = np.histogram(z, bins=edges)
    centres = (edges[:-1] + edges[1:]) / 2
    middle = (centres > lo + 0.3 * (hi - lo)) & (centres < lo + 0.7 * (hi - lo))
    slab = counts > max(SLAB_FACTOR * float(np.median(counts[middle])), 0.002 * n)
    top = slab & (centres >= hi - CEILING_BAND_M)
    bottom = slab & (centres <= lo + CEILING_BAND_M)
    keep = z < edges[:-1][top].min() - 0.02 if top.any() else np.ones(n, dtype=bool)
    on_floor = (z <= edges[1:][bottom].max() + 0.02) & keep if bottom.any() else None
    note = (f"walls and floor; ceiling dropped ({int((~keep).sum()):,} sampled points above {edges[:-1][top].min() - 0.02:.2f} m)"
            if top.any() else "walls and floor (no ceiling slab found)")
    return keep, on_floor, note


def _part(floor_fraction: float) -> str:
    return "floor" if floor_fraction >= 2 / 3 else "walls" if floor_fraction <= 1 / 3 else "walls and floor"


def _empty(total: int, why: str) -> ColorAnalysis:
    return ColorAnalysis((), 0, total, "none", reason=f"{why}: no colour to report")


def _surface_groups(lab: np.ndarray, rng: np.random.Generator) -> tuple[list[np.ndarray], int, int]:
    """(rows of each colour, number of inlier points, k) for one set of Lab colours: k-means, strays out, shading merged."""
    weighted = lab * np.array([L_WEIGHT, 1.0, 1.0])
    distinct = len(np.unique(np.round(lab, 1) @ np.array([1e8, 1e4, 1.0])))
    # Centres from a few thousand points are as good as from all; every point is then assigned.
    fit = weighted if len(weighted) <= FIT_POINTS else weighted[rng.choice(len(weighted), FIT_POINTS, replace=False)]
    centres = kmeans(fit, min(K_MAX, distinct), rng)
    labels = nearest(weighted, centres)
    dist = np.linalg.norm(weighted - centres[labels], axis=1)
    spread = np.array([np.median(dist[labels == c]) if (labels == c).any() else 0.0 for c in range(len(centres))])
    inlier = dist <= np.maximum(STRAY_DE, 3.0 * spread[labels])
    members = [rows for rows in (np.flatnonzero(inlier & (labels == c)) for c in range(len(centres))) if len(rows)]
    sub_lab = np.array([np.median(lab[rows], axis=0) for rows in members])
    noise = np.array([np.sqrt(np.mean(_line_residuals(lab[rows], c) ** 2)) for rows, c in zip(members, sub_lab, strict=True)])
    groups = _merge(sub_lab, np.array([len(rows) for rows in members], dtype=float), noise)
    return [np.concatenate([members[i] for i in g]) for g in groups], int(inlier.sum()), len(centres)


def dominant_colors(points: Points, *, max_points: int = MAX_POINTS, structure: bool = False) -> ColorAnalysis:
    """The few colours that make up a cloud, largest first; `structure` for a room shell (walls and floor only)."""
    total = len(points)
    if total == 0:
        return _empty(0, "the point cloud is empty")
    idx = sample_indices(total, max_points)
    # Rows whose position is NaN/inf are broken records, not points: skip them (only the sample is checked).
    finite = np.isfinite(points.xyz[idx]).all(axis=1)
    idx = idx[finite]
    if len(idx) == 0:
        return _empty(total, "no point has finite coordinates")
    rgb, on_floor, scope = points.rgb[idx], None, ""
    if structure:
        keep, on_floor, note = room_structure(points.xyz[idx])
        rgb, scope = rgb[keep], note + "; "
        on_floor = on_floor[keep] if on_floor is not None else None
    if len(rgb) == 0:
        return _empty(total, "no wall or floor points")
    lab = srgb_to_lab(rgb)
    # A room's walls and floor are clustered apart: a grey carpet must not pass for shaded peach walls.
    parts = [np.flatnonzero(~on_floor), np.flatnonzero(on_floor)] if on_floor is not None else [np.arange(len(lab))]
    rng = np.random.default_rng(SEED)
    groups: list[np.ndarray] = []
    inliers, ks = 0, []
    for rows in (r for r in parts if len(r)):
        found, count, k = _surface_groups(lab[rows], rng)
        groups += [rows[g] for g in found]
        inliers += count
        ks.append(k)
    kept = [(rows, lit, name) for rows, lit, name in _name_groups(lab, groups) if len(rows) >= MIN_SHARE * inliers]
    kept_total = sum(len(rows) for rows, _, _ in kept)
    clusters = tuple(sorted(
        (Cluster(lab=_lab_triple(lit), rgb=_rgb_triple(lab_to_srgb(lit[None])[0]),
                 share=len(rows) / kept_total, name=name,
                 part=_part(float(on_floor[rows].mean())) if on_floor is not None else None)
         for rows, lit, name in kept),
        key=lambda c: -c.share))
    sampled = f"all {total:,}" if total <= max_points else f"a seeded random {len(idx):,} of {total:,}"
    skipped = f"; {int((~finite).sum()):,} sampled points with non-finite coordinates skipped" if not finite.all() else ""
    k_text = f"k={ks[0]}" if len(ks) == 1 else f"k={'/'.join(map(str, ks))} for walls/floor"
    method = (f"{scope}k-means ({k_text}, L* weight {L_WEIGHT}) in CIELAB on {sampled} points; "
              f"shaded parts merged with their lit surface; {1.0 - kept_total / len(lab):.1%} stray points dropped; "
              f"colour of each cluster's best-lit tenth in full light, named by CIEDE2000 against the CSS3 palette{skipped}")
    few = len(lab) < FEW_POINTS
    reason = f"only {len(lab)} point{'s' if len(lab) != 1 else ''}: too few for a reliable colour" if few else None
    return ColorAnalysis(clusters, len(lab), total, method, reason=reason)


def _lab_triple(lab: np.ndarray) -> tuple[float, float, float]:
    """A CIELAB colour (L*, a*, b*) as three floats rounded to 0.01."""
    l_star, a_star, b_star = (round(float(v), 2) for v in lab)
    return l_star, a_star, b_star


def _rgb_triple(rgb: np.ndarray) -> tuple[int, int, int]:
    """An sRGB colour as three ints."""
    red, green, blue = (int(v) for v in rgb)
    return red, green, blue


def _name_groups(lab: np.ndarray, groups: list[np.ndarray]) -> list[tuple[np.ndarray, np.ndarray, ColorName]]:
    """(rows, full-light colour, name) per group; groups that get the same name are one colour to a person."""
    by_name: dict[str, list[np.ndarray]] = {}
    first: dict[str, tuple[np.ndarray, ColorName]] = {}
    for rows in groups:
        lit = _lit_colour(lab[rows])
        name = name_lab(lit)
        by_name.setdefault(name.name, []).append(rows)
        first.setdefault(name.name, (lit, name))
    out = []
    for key, parts in by_name.items():
        if len(parts) == 1:
            out.append((parts[0], *first[key]))
        else:
            rows = np.concatenate(parts)
            lit = _lit_colour(lab[rows])
            out.append((rows, lit, name_lab(lit)))
    return out
