"""Picking by contrast, as people mean it: 'the door near the suitcase' is the door clearly nearer than the others.

A graded step gives each candidate a value (a gap, a lightness, a height …). The best is kept, with every
candidate too close to it to tell apart by these words: one left means the words decided; several left
is a near tie, so the user is asked among exactly those. The margin is the larger of an absolute and a
relative part, so 0.10 m apart is a tie at 0.2 m and at 3 m, and 0.5 m apart is a tie at 3 m but not at
0.2 m.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

Better = Literal["low", "high"]


@dataclass(frozen=True)
class Margin:
    """How far from the best a value may be and still count as 'as good': max(absolute, relative × |best|)."""

    absolute: float
    relative: float = 0.0

    def of(self, best: float) -> float:
        """The margin around a best value."""
        return max(self.absolute, self.relative * abs(best))


def by_contrast(values: Mapping[str, float], better: Better, margin: Margin) -> list[str]:
    """The codes whose value is the best or within the margin of it (their order kept); none when no value is finite."""
    known = {code: v for code, v in values.items() if math.isfinite(v)}
    if not known:
        return []
    sign = 1.0 if better == "low" else -1.0
    best = min(sign * v for v in known.values())
    reach = margin.of(best)
    return [code for code, v in known.items() if sign * v <= best + reach]


def ranked(values: Mapping[str, float], better: Better) -> list[str]:
    """The codes with a finite value, best first."""
    sign = 1.0 if better == "low" else -1.0
    return sorted((c for c, v in values.items() if math.isfinite(v)), key=lambda c: sign * values[c])


def at_rank(values: Mapping[str, float], better: Better, index: int, margin: Margin) -> list[str]:
    """The code at a rank ('the second largest': index 1; the last: -1), with any too close to it to tell apart."""
    order = ranked(values, better)
    if not order or index >= len(order) or -index > len(order):
        return []
    chosen = values[order[index]]
    reach = margin.of(chosen)
    tied = [c for c in order if abs(values[c] - chosen) <= reach]
    return [c for c in values if c in tied]
