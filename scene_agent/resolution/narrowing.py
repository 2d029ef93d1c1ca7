"""Narrowing candidates by what the words say about them: colour, size, place and order.

Each step takes the candidates (codes, in the order they were listed) and keeps those that fit. Where
the words pick one by an extreme ("the biggest", "the closest to the window", "the dark one") and
two or more come out within a margin of each other, all of those are kept and marked `tied`: they
are too close to tell apart by the words, so the user is asked among exactly those. Nothing kept
means nothing fits; `values` then says what each candidate has, for the answer to name.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from scene_agent.language.color_words import ColorWord
from scene_agent.language.order_words import OrderWord
from scene_agent.language.place_words import PlaceWord
from scene_agent.language.size_words import SizeWord
from scene_agent.resolution.color_match import closeness, color_score, dominant_term, lightness
from scene_agent.resolution.places import CORNER_REACH_M, Spot, corner_distance, gap, is_above, is_between, is_on, is_under
from scene_agent.scene.attributes import ItemAttributes

NarrowingKind = Literal["color", "size", "place", "order"]

COLOR_MIN_SHARE = 0.2    # an item "is" a colour when at least this share of its points has it
COLOR_KEEP_RATIO = 0.6   # ... and, when several are, it has at least this share of the best one's
FINE_COLOR_MARGIN = 8.0  # a finer colour name keeps those within this ΔE2000 of the nearest
TONE_MARGIN = 12.0       # "the dark one": within this L* of the darkest is as dark
SIZE_TIE = 0.05          # volumes and areas within 5 % are the same size
LENGTH_TIE_M = 0.03      # lengths within 3 cm are the same length
POSITIVE_STEP = 1.5      # "the large ones": the largest down to the first drop by this factor
NEAR_MAX_M = 1.5         # "next to": no further than this
NEAR_MARGIN_M = 0.3      # nearest ties: within max(this, half the nearest gap)


@dataclass(frozen=True)
class Narrowing:
    """One qualifier applied: what the words were, the candidates before, the ones kept and what decided."""

    kind: NarrowingKind
    words: str
    before: tuple[str, ...]
    kept: tuple[str, ...]
    tied: bool = False
    values: dict[str, float | str | None] = field(default_factory=dict)
    references: tuple[str, ...] = ()
    measure: str | None = None


AttributesOf = Callable[[str], ItemAttributes]


def by_color(codes: list[str], word: ColorWord, attributes: AttributesOf) -> Narrowing:
    """Keep the candidates of that colour (and tone); a finer name keeps those nearest to it."""
    items = {code: attributes(code) for code in codes}
    values: dict[str, float | str | None] = {code: dominant_term(item) for code, item in items.items()}
    kept = list(codes)
    tied = False
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
            tied = len(kept) > 1
    return Narrowing("color", word.word, tuple(codes), tuple(kept), tied=tied, values=values)


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


def by_size(codes: list[str], word: SizeWord, attributes: AttributesOf) -> Narrowing:
    """Keep the biggest (smallest, tallest …) one, or those tied with it; 'the large ones' keeps the clearly large."""
    values = {code: size_value(attributes(code), word.measure) for code in codes}
    known = [(v, c) for c, v in values.items() if v is not None]
    if not known:
        return Narrowing("size", word.word, tuple(codes), tuple(codes), values=dict(values), measure=word.measure)
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
    chosen = tuple(c for c in codes if c in kept)
    return Narrowing("size", word.word, tuple(codes), chosen, tied=len(chosen) > 1, values=dict(values),
                     measure=word.measure)


def by_place(codes: list[str], word: PlaceWord, spot: Callable[[str], Spot], references: list[list[str]],
             room_spot: Callable[[str], Spot]) -> Narrowing:
    """Keep the candidates placed as the words say relative to the reference items (never a reference itself)."""
    refs = [code for group in references for code in group]
    pool = [c for c in codes if c not in refs]
    if word.relation == "corner":
        distance = {c: corner_distance(spot(c), room_spot(spot(c).room)) for c in pool}
        kept = [c for c in pool if distance[c] <= CORNER_REACH_M]
        return Narrowing("place", word.word, tuple(codes), tuple(kept), values=_rounded(distance))
    if word.relation == "between":
        firsts, seconds = [*references, [], []][:2]
        kept = [c for c in pool if any(is_between(spot(c), spot(x), spot(y)) for x in firsts for y in seconds
                                        if x != y and spot(x).room == spot(c).room == spot(y).room)]
        return Narrowing("place", word.word, tuple(codes), tuple(kept), references=tuple(refs))
    gaps = {c: min((gap(spot(c), spot(r)) for r in refs if spot(r).room == spot(c).room), default=math.inf) for c in pool}
    if word.relation in ("on", "under", "above"):
        test = {"on": is_on, "under": is_under, "above": is_above}[word.relation]
        kept = [c for c in pool if any(test(spot(c), spot(r)) for r in refs if spot(r).room == spot(c).room)]
        return Narrowing("place", word.word, tuple(codes), tuple(kept), values=_rounded(gaps), references=tuple(refs))
    reachable = {c: g for c, g in gaps.items() if math.isfinite(g)}
    if word.relation == "near":
        reachable = {c: g for c, g in reachable.items() if g <= NEAR_MAX_M}
    if not reachable:
        return Narrowing("place", word.word, tuple(codes), (), values=_rounded(gaps), references=tuple(refs))
    if word.relation == "farthest":
        far = max(reachable.values())
        kept = [c for c in pool if c in reachable and reachable[c] >= far - max(NEAR_MARGIN_M, 0.15 * far)]
    else:
        near = min(reachable.values())
        kept = [c for c in pool if c in reachable and reachable[c] <= near + max(NEAR_MARGIN_M, 0.5 * near)]
    return Narrowing("place", word.word, tuple(codes), tuple(kept), tied=len(kept) > 1, values=_rounded(gaps),
                     references=tuple(refs))


def _rounded(values: dict[str, float]) -> dict[str, float | str | None]:
    return {c: (round(v, 2) if math.isfinite(v) else None) for c, v in values.items()}


def by_order(codes: list[str], word: OrderWord, taken: list[str] | None = None) -> Narrowing:
    """Keep the n-th, the last, the others, both or all of the listed candidates."""
    return Narrowing("order", word.word, tuple(codes), tuple(word.pick(codes, taken)))
