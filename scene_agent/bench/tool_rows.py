"""One row of `bench tools`: a tool (or its baseline) timed on a cloud of some size."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ToolRow:
    """Median time and peak traced memory of one tool or baseline at one cloud size."""

    tool: str
    points: int
    median_ms: float
    peak_mb: float
