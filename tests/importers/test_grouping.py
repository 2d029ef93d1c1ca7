"""Grouping points by ids: the counting paths agree with numpy's sorting ones, wide id ranges included."""

from __future__ import annotations

import numpy as np
import pytest

from scene_agent.importers.grouping import DENSE_SPAN, dense_ids, majority, members


@pytest.mark.parametrize("span", [50, DENSE_SPAN * 4])
def test_dense_ids_is_np_unique(span: int) -> None:
    values = np.random.default_rng(3).integers(-1, span, 5000)
    ids, inverse = dense_ids(values)
    want_ids, want_inverse = np.unique(values, return_inverse=True)
    assert np.array_equal(ids, want_ids) and np.array_equal(inverse, want_inverse)


@pytest.mark.parametrize("count", [5, 70_000])  # below and above the 16-bit keys numpy sorts by radix
def test_members_in_index_order(count: int) -> None:
    keys = np.random.default_rng(4).integers(-1, count, 3000)
    groups = members(keys, count)
    assert len(groups) == count
    for key in (0, count - 1, int(keys[keys >= 0][7])):
        assert np.array_equal(groups[key], np.flatnonzero(keys == key))


@pytest.mark.parametrize("n_values", [4, DENSE_SPAN])  # a table of counts, and sorting when the table would be too big
def test_majority_prefers_strong_values_and_the_smaller_on_a_tie(n_values: int) -> None:
    weak = np.zeros(n_values, dtype=bool)
    weak[0] = True
    groups = np.array([0, 0, 0, 1, 1, 2, 2, 2, 2, 4])
    values = np.array([0, 0, 3, 2, 1, 0, 0, 0, 0, 3])
    # group 0: weak 0 twice, 3 once → 3; group 1: a tie → 1; group 2: only weak → 0; group 3: empty; group 4: 3
    assert majority(groups, values, weak, 5).tolist() == [3, 1, 0, -1, 3]
