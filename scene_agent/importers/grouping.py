"""Grouping millions of points by small integer ids (labels, instances, rooms) without sorting them where counting
will do: `bench import` reads 5 M points, and each comparison sort of them costs a third of a second."""

from __future__ import annotations

import numpy as np

DENSE_SPAN = 1 << 22  # ids spanning at most this many values are counted in a table (32 MiB)
RADIX_KEYS = 1 << 16  # numpy's stable sort is a radix sort for 16-bit integers


def dense_ids(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct values, each value's index among them), as np.unique(values, return_inverse=True) gives them."""
    if len(values) == 0:
        return np.zeros(0, dtype=values.dtype), np.zeros(0, dtype=np.int64)
    lo, hi = int(values.min()), int(values.max())
    if hi - lo > DENSE_SPAN:
        ids, inverse = np.unique(values, return_inverse=True)
        return ids, inverse.astype(np.int64)
    present = np.bincount(values - lo, minlength=hi - lo + 1) > 0
    lookup = np.cumsum(present) - 1
    return np.flatnonzero(present) + lo, lookup[values - lo]


def members(keys: np.ndarray, count: int) -> list[np.ndarray]:
    """For each key 0…count-1, the indices that hold it, in index order; a key of -1 belongs to none."""
    shifted = keys + 1
    if count + 1 < RADIX_KEYS:
        shifted = shifted.astype(np.uint16)
    order = np.argsort(shifted, kind="stable")
    sizes = np.bincount(shifted, minlength=count + 1)
    groups: list[np.ndarray] = np.split(order, np.cumsum(sizes)[:-1])[1:]
    return groups


def majority(groups: np.ndarray, values: np.ndarray, weak: np.ndarray, n_groups: int) -> np.ndarray:
    """Per group 0…n_groups-1, its most common value 0…len(weak)-1 (ties: the smaller), a weak one only when the group
    holds no other; -1 for a group that holds none."""
    n_values = len(weak)
    keys = groups.astype(np.int64) * n_values + values
    if n_groups * n_values <= DENSE_SPAN:
        counts = np.bincount(keys, minlength=n_groups * n_values).reshape(n_groups, n_values)
        strong = np.where(weak[None, :], 0, counts)
        best: np.ndarray = np.argmax(strong, axis=1).astype(np.int64)
        only_weak = strong.max(axis=1) == 0
        best[only_weak] = np.argmax(counts[only_weak], axis=1)
        best[counts.sum(axis=1) == 0] = -1
        return best
    found, counts = np.unique(keys, return_counts=True)
    group, value = np.divmod(found, n_values)
    order = np.lexsort((-counts, weak[value], group))
    best = np.full(n_groups, -1, dtype=np.int64)
    firsts = np.unique(group[order], return_index=True)[1]
    best[group[order][firsts]] = value[order][firsts]
    return best
