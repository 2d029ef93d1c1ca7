"""One row of `bench tools` (a tool or its baseline timed on a cloud of some size), and the traced-memory probe benches share."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class ToolRow:
    """Median time and peak traced memory of one tool or baseline at one cloud size."""

    tool: str
    points: int
    median_ms: float
    peak_mb: float


def peak_traced_mb(fn: Callable[[], T]) -> tuple[float, T]:
    """Run fn once under tracemalloc: (peak MiB of Python and numpy allocations, its result)."""
    tracemalloc.start()
    try:
        result = fn()
        return tracemalloc.get_traced_memory()[1] / 2**20, result
    finally:
        tracemalloc.stop()
