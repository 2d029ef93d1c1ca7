"""Objects from labels alone: the points of one label cut into the parts that touch, on a voxel grid.

A cloud with a label per point but no instance ids (semantic segmentation) says "these points are chairs", not which
chair. Points in voxels that touch (the 26 around a voxel) belong to one part; two chairs a few voxels apart are two
parts. The voxel is three times the scan's typical point spacing, so that one surface does not fall apart into
specks, and things half a dozen spacings apart stay apart. docs/cli.md ("Labelled point clouds") says so for people.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

MIN_VOXEL_M, MAX_VOXEL_M = 0.02, 0.5
VOXEL_OVER_SPACING = 3.0  # at 2, a randomly sampled surface sheds a point in a hundred as specks
MIN_PART_POINTS = 20  # a smaller part is a speck of mislabelled points: it stays with the room
SPACING_POOL = 200_000  # points the spacing is measured among (a sample of a larger cloud)
SPACING_QUERIES = 2_000
# Half of the 26 neighbours: each touching pair of voxels is found once, from its lower one.
HALF_NEIGHBOURS = [d for d in itertools.product((-1, 0, 1), repeat=3) if d > (0, 0, 0)]
MAX_KEY = 2**62


def split_voxel(xyz: np.ndarray, seed: int = 0) -> float:
    """The voxel side (metres) parts are found on: VOXEL_OVER_SPACING × the median nearest-neighbour distance,
    within MIN_VOXEL_M…MAX_VOXEL_M."""
    from pykdtree.kdtree import KDTree

    n = len(xyz)
    if n < 2:
        return MIN_VOXEL_M
    rng = np.random.default_rng(seed)
    pool = xyz if n <= SPACING_POOL else xyz[rng.choice(n, SPACING_POOL, replace=False)]
    pool = np.ascontiguousarray(pool, dtype=np.float64)
    queries = pool[rng.choice(len(pool), min(SPACING_QUERIES, len(pool)), replace=False)]
    distances, _ = KDTree(pool).query(queries, k=2)
    # A scan samples surfaces: keeping m of n points widens the spacing by √(n / m).
    spacing = float(np.median(distances[:, 1])) * math.sqrt(len(pool) / n)
    return float(np.clip(VOXEL_OVER_SPACING * spacing, MIN_VOXEL_M, MAX_VOXEL_M))


def connected_parts(xyz: np.ndarray, voxel: float) -> tuple[np.ndarray, int]:
    """Each point's part (0…k-1, numbered by each part's first point) and k."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    if len(xyz) == 0:
        return np.zeros(0, dtype=np.int64), 0
    span = xyz.max(axis=0) - xyz.min(axis=0)
    while np.prod(span / voxel + 3) > MAX_KEY:  # a label spread over kilometres: coarser voxels keep keys in int64
        voxel *= 2
    # +1: every neighbour of an occupied voxel has a coordinate ≥ 0 and < dims, so a voxel's key is one integer.
    cells = np.floor((xyz - xyz.min(axis=0)) / voxel).astype(np.int64) + 1
    dims = cells.max(axis=0) + 2
    keys = (cells[:, 0] * dims[1] + cells[:, 1]) * dims[2] + cells[:, 2]
    occupied, voxel_of_point = np.unique(keys, return_inverse=True)
    lower, upper = [], []
    for dx, dy, dz in HALF_NEIGHBOURS:
        neighbour = occupied + (dx * dims[1] + dy) * dims[2] + dz
        at = np.minimum(np.searchsorted(occupied, neighbour), len(occupied) - 1)
        there = occupied[at] == neighbour
        lower.append(np.flatnonzero(there))
        upper.append(at[there])
    a, b = np.concatenate(lower), np.concatenate(upper)
    graph = coo_matrix((np.ones(len(a), dtype=np.int8), (a, b)), shape=(len(occupied), len(occupied)))
    count, part_of_voxel = connected_components(graph, directed=False)
    part = part_of_voxel[voxel_of_point]
    _, first = np.unique(part, return_index=True)
    rank = np.empty(count, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(count)
    return rank[part], int(count)
