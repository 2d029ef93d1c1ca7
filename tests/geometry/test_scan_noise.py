"""geometry/hull.py: the pieces the corrected hull is made of, and that measuring it side by side changes nothing."""

from __future__ import annotations

import numpy as np
import pytest

from scene_agent.geometry import hull as hull_module
from scene_agent.geometry.hull import _least_scatter, corrected_hull, sample_rows
from scene_bench.shapes import known_shape


@pytest.mark.parametrize(("n", "k"), [(100_000, 40_000), (100_000, 8_000), (100_000, 2_000), (1_000, 999), (50, 80)])
def test_sample_rows_are_the_sorted_choice(n, k):
    rows = sample_rows(n, k, np.random.default_rng(3))
    expected = np.arange(n) if k >= n else np.sort(np.random.default_rng(3).choice(n, size=k, replace=False))
    assert np.array_equal(rows, expected)


@pytest.mark.parametrize("thickness", [1e-3, 1e-5, 0.0])
def test_least_scatter_is_the_smallest_eigenvalue(thickness):
    rng = np.random.default_rng(0)
    rotation = np.linalg.qr(rng.normal(size=(3, 3)))[0]
    points = (rng.normal(size=(2_000, 9, 3)) * [0.03, 0.02, thickness]) @ rotation.T + [2.0, -1.0, 0.5]
    centred = points - points.mean(axis=1, keepdims=True)
    reference = np.linalg.eigvalsh(np.einsum("nki,nkj->nij", centred, centred))[:, 0]
    assert np.allclose(_least_scatter(centred), reference, rtol=1e-6, atol=1e-15)


def test_side_by_side_changes_nothing(monkeypatch):
    xyz = known_shape("l-shape", 60_000, noise_m=0.0015, seed=6).points.xyz
    monkeypatch.setattr(hull_module, "SIDE_BY_SIDE_POINTS", 1)
    together = corrected_hull(xyz)
    again = corrected_hull(xyz)
    monkeypatch.setattr(hull_module, "SIDE_BY_SIDE_POINTS", 10**9)
    alone = corrected_hull(xyz)
    for other in (again, alone):
        assert other.corrected_volume == together.corrected_volume
        assert other.noise_m == together.noise_m and other.offset_m == together.offset_m
        assert np.array_equal(other.corrected_vertices, together.corrected_vertices)


@pytest.mark.parametrize("n", [1, 2, 5, 200, 1999, 2000])
@pytest.mark.parametrize("q", [0.0, 0.1, 0.25, 0.5, 0.9, 1.0])
def test_quantile_and_median_are_numpys_to_the_bit(n, q):
    rng = np.random.default_rng(n)
    for scale in (1e-12, 1e-6, 1.0):
        x = rng.random(n) * scale
        assert hull_module.quantile(x, q) == float(np.quantile(x, q))
        assert hull_module.median(x) == float(np.median(x))
