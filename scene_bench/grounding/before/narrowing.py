"""The colour, size and place words of the reading before, applied to candidates: its `by_color`, `by_size` (with
its measures: a door's size was its volume) and `by_place` (with its tests for on, under and above). Each returns the
codes kept, in the order given.

The colour measures (`color_match`) and the footprints, gaps, 'between' and corners (`places`) are the product's:
those functions have not changed.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

from scene_agent.language.color_words import ColorWord
from scene_agent.language.size_words import SizeWord
from scene_agent.resolution.color_match import closeness, color_score, lightness
from scene_agent.resolution.places import Spot, corner_distance, gap, is_between, overlap
from scene_agent.scene.attributes import ItemAttributes
from scene_bench.grounding.before.phrase import PlaceWord

AttributesOf = Callable[[str], ItemAttributes]

# Its margins, as they were (the product's modules that hold them have changed).
COLOR_MIN_SHARE = 0.2    # an item "is" a colour when at least this share of its points has it
COLOR_KEEP_RATIO = 0.6   # ... and, when several are, it has at least this share of the best one's
FINE_COLOR_MARGIN = 8.0  # a finer colour name keeps those within this ΔE2000 of the nearest
TONE_MARGIN = 12.0       # "the dark one": within this L* of the darkest is as dark
SIZE_TIE = 0.05          # volumes and areas within 5 % are the same size
LENGTH_TIE_M = 0.03      # lengths within 3 cm are the same length
POSITIVE_STEP = 1.5      # "the large ones": the largest down to the first drop by this factor
ON_BELOW_TOP_M = 0.08    # "on": its bottom may sit this far below the other's top
ON_ABOVE_TOP_M = 0.2     # ... and no higher above it than this
OVERLAP_SHARE = 0.05     # "under" / "above": at least this share of the smaller footprint overlaps
CORNER_REACH_M = 0.6     # "in the corner": its footprint this close to a corner of its room
NEAR_MAX_M = 1.5         # "next to": no further than this
NEAR_MARGIN_M = 0.3      # nearest ties: within max(this, half the nearest gap)


def is_on(a: Spot, b: Spot) -> bool:
    """a rests on b: its bottom at b's top, its centre over b's footprint."""
    resting = b.z_max - ON_BELOW_TOP_M <= a.z_min <= b.z_max + ON_ABOVE_TOP_M
    return resting and a.z_max > b.z_max and b.shape.buffer(0.05).contains(a.center)


def is_under(a: Spot, b: Spot) -> bool:
    """a is under b: their footprints overlap and a stays below b's top, lower than b."""
    return overlap(a, b) >= OVERLAP_SHARE and a.z_max < b.z_max - 0.05 and a.z_min <= b.z_min + 0.05


def is_above(a: Spot, b: Spot) -> bool:
    """a is above b: their footprints overlap and a's bottom is at or over b's top."""
    return overlap(a, b) >= OVERLAP_SHARE and a.z_min >= b.z_max - 0.05


def by_color(codes: list[str], word: ColorWord, attributes: AttributesOf) -> list[str]:
    """Keep the candidates of that colour (and tone); a finer name keeps those nearest to it."""
    items = {code: attributes(code) for code in codes}
    kept = list(codes)
    if word.term is not None:
        scores = {code: color_score(word, item) for code, item in items.items()}
        best = max(scores.values(), default=0.0)
        kept = [c for c in codes if scores[c] >= COLOR_MIN_SHARE and scores[c] >= COLOR_KEEP_RATIO * best]
        if word.rgb is not None and len(kept) > 1:
            near = {c: closeness(word, items[c]) for c in kept}
            nearest = min(near.values())
            kept = [c for c in kept if near[c] <= nearest + FINE_COLOR_MARGIN]
    if word.tone is not None and kept:
        light = {c: lightness(word, items[c]) for c in kept}
        known = {c: v for c, v in light.items() if v is not None}
        if known:
            sign = 1.0 if word.tone == "dark" else -1.0
            extreme = min(sign * v for v in known.values())
            kept = [c for c in kept if c in known and sign * known[c] <= extreme + TONE_MARGIN]
    return kept


def size_value(item: ItemAttributes, measure: str) -> float | None:
    """The number a size word compares: volume (area for flat things), height, length or depth."""
    extent = item.extent_m
    if measure == "size":
        if (extent is not None and extent[2] < 0.05) or item.volume_m3 is None:
            return _footprint_area(item) or None
        return item.volume_m3
    if measure == "height":
        if item.kind == "room" and item.height_m is not None:
            return item.height_m
        return extent[2] if extent is not None and item.upright else item.z_max - item.z_min
    if extent is None:
        return None
    return extent[0] if measure == "length" else extent[1]


def _footprint_area(item: ItemAttributes) -> float:
    points = item.footprint
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True))) / 2


def _same(a: float, b: float, measure: str) -> bool:
    if measure == "size":
        return abs(a - b) <= SIZE_TIE * max(abs(a), abs(b))
    return abs(a - b) <= max(LENGTH_TIE_M, 0.03 * max(abs(a), abs(b)))


def by_size(codes: list[str], word: SizeWord, attributes: AttributesOf) -> list[str]:
    """Keep the biggest (smallest, tallest …) one, or those tied with it; 'the large ones' keeps the clearly large."""
    values = {code: size_value(attributes(code), word.measure) for code in codes}
    known = [(v, c) for c, v in values.items() if v is not None]
    if not known:
        return list(codes)
    ordered = sorted(known, reverse=word.extreme == "max")
    best = ordered[0][0]
    if word.strict:
        kept = {c for v, c in ordered if _same(v, best, word.measure)}
    else:
        kept = {ordered[0][1]}
        for (v1, _), (v2, c2) in itertools.pairwise(ordered):
            low, high = sorted((abs(v1), abs(v2)))
            if high > POSITIVE_STEP * max(low, 1e-9):
                break
            kept.add(c2)
    return [c for c in codes if c in kept]


def by_place(codes: list[str], word: PlaceWord, spot: Callable[[str], Spot], references: list[list[str]]) -> list[str]:
    """Keep the candidates placed as the words say relative to the reference items (never a reference itself)."""
    refs = [code for group in references for code in group]
    pool = [c for c in codes if c not in refs]
    if word.relation == "corner":
        return [c for c in pool if corner_distance(spot(c), spot(spot(c).room)) <= CORNER_REACH_M]
    if word.relation == "between":
        firsts, seconds = [*references, [], []][:2]
        return [c for c in pool if any(is_between(spot(c), spot(x), spot(y)) for x in firsts for y in seconds
                                       if x != y and spot(x).room == spot(c).room == spot(y).room)]
    if word.relation in ("on", "under", "above"):
        test = {"on": is_on, "under": is_under, "above": is_above}[word.relation]
        return [c for c in pool if any(test(spot(c), spot(r)) for r in refs if spot(r).room == spot(c).room)]
    gaps = {c: min((gap(spot(c), spot(r)) for r in refs if spot(r).room == spot(c).room), default=math.inf) for c in pool}
    reachable = {c: g for c, g in gaps.items() if math.isfinite(g)}
    if word.relation == "near":
        reachable = {c: g for c, g in reachable.items() if g <= NEAR_MAX_M}
    if not reachable:
        return []
    if word.relation == "farthest":
        far = max(reachable.values())
        return [c for c in pool if c in reachable and reachable[c] >= far - max(NEAR_MARGIN_M, 0.15 * far)]
    near = min(reachable.values())
    return [c for c in pool if c in reachable and reachable[c] <= near + max(NEAR_MARGIN_M, 0.5 * near)]
