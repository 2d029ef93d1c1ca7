"""Narrowing candidates by what the words say about the things themselves: colour, material, size, shape, order.

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

import numpy as np

from scene_agent.language.color_words import ColorWord
from scene_agent.language.order_words import OrderWord
from scene_agent.language.reading import UnusedWhy
from scene_agent.language.size_words import SizeWord
from scene_agent.resolution.color_match import closeness, color_distance, color_score, dominant_term, fitting_lab, lightness, loose_score
from scene_agent.resolution.contrast import Margin, at_rank, by_contrast
from scene_agent.scene.attributes import ItemAttributes

NarrowingKind = Literal["color", "material", "size", "shape", "place", "side", "order", "ordinal", "exclude"]

COLOR_MIN_SHARE = 0.2    # an item "is" a colour when at least this share of its points has it
COLOR_KEEP_RATIO = 0.6   # ... and, when several are, it has at least this share of the best one's
FINE_COLOR_MARGIN = 8.0  # a finer colour name keeps those within this ΔE2000 of the nearest
TONE_MARGIN = 12.0       # "the dark one": within this L* of the darkest is as dark
THIN = 0.2               # a thing thinner than this share of its middle side is flat (a door): its face is its size
SIZE_TIE = 0.05          # volumes and areas within 5 % are the same size
LENGTH_TIE_M = 0.03      # lengths within 3 cm are the same length
POSITIVE_STEP = 1.5      # "the large ones": the largest down to the first drop by this factor
TWIN_DE = 8.0            # main colours this near (ΔE2000) are too alike to tell apart by a colour word on a scan
COLOR_ABSENT = 10.0       # no basic term fits and no candidate's colour is within this ΔE2000 (in full light): none has it
COLOR_MARGIN = Margin(6.0)  # … and within this of the nearest is as near
GRADED_COLOR_MAX = 18.0   # a material's colours: this near
SOFT_MARGIN = Margin(6.0)  # a material's colours: only ever a hint


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
    negated: bool = False
    note: UnusedWhy | None = None  # why the words could not narrow (no viewpoint, no front): then they kept all
    set_aside: bool = False  # the words fit none of the candidates, so they were not used (all kept)


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
        if not kept:  # no basic term fits: the dull colours that may carry the name (a bluish grey for "blue")
            loose = {code: loose_score(word, item) for code, item in items.items()}
            most = max(loose.values(), default=0.0)
            kept = [c for c in codes if loose[c] >= COLOR_MIN_SHARE and loose[c] >= COLOR_KEEP_RATIO * most]
            tied = len(kept) > 1
        if word.rgb is not None and len(kept) > 1:
            close = {c: closeness(word, items[c]) for c in kept}
            nearest = min(close.values())
            kept = [c for c in kept if close[c] <= nearest + FINE_COLOR_MARGIN]
        twins = _color_twins(word, kept, codes, items)
        if twins:
            kept = [c for c in codes if c in kept or c in twins]
            tied = True
    if word.tone is not None and kept:
        light = {c: lightness(word, items[c]) for c in kept}
        known = {c: v for c, v in light.items() if v is not None}
        if known:
            sign = 1.0 if word.tone == "dark" else -1.0
            extreme = min(sign * v for v in known.values())
            kept = [c for c in kept if c in known and sign * known[c] <= extreme + TONE_MARGIN]
            tied = len(kept) > 1
    return Narrowing("color", word.word, tuple(codes), tuple(kept), tied=tied, values=values)


def _color_twins(word: ColorWord, kept: list[str], codes: list[str], items: dict[str, ItemAttributes]) -> set[str]:
    """Candidates left out whose main colour is too near the colour a kept one was kept for to tell apart by a colour
    word: a scan's colours shift with the light, so 'the white sink' may be the one measured just off-white beside a
    white one."""
    from scene_agent.color.science import delta_e2000

    mains = {c: items[c].colors[0].lab for c in codes if items[c].colors}
    chosen = [lab for c in kept if (lab := fitting_lab(word, items[c])) is not None]
    if not chosen:
        return set()
    out = [c for c in codes if c not in kept and c in mains]
    if not out:
        return set()
    a = np.array([mains[c] for c in out], dtype=np.float64)
    twins = set()
    for lab in chosen:
        d = delta_e2000(a, np.array(lab, dtype=np.float64)[None, :])
        twins |= {c for c, v in zip(out, np.atleast_1d(d), strict=True) if v <= TWIN_DE}
    return twins


def size_value(item: ItemAttributes, measure: str) -> float | None:
    """The number a size word compares: volume (area for flat things), height, length or depth."""
    extent = item.extent_m
    if measure == "size":
        if _flat(item):
            return _footprint_area(item) or None
        if extent is not None and sorted(extent)[0] < THIN * sorted(extent)[1]:
            big, middle = sorted(extent)[2], sorted(extent)[1]
            return big * middle  # a door, a picture, a whiteboard: how big is its face, not its thickness
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


def _flat(item: ItemAttributes) -> bool:
    return (item.extent_m is not None and item.extent_m[2] < 0.05) or item.volume_m3 is None


def _bulk(item: ItemAttributes) -> float:
    """A thing's volume; a flat one's, its area times its thickness (a centimetre at least)."""
    if not _flat(item) and item.volume_m3 is not None:
        return item.volume_m3
    return _footprint_area(item) * max(item.extent_m[2] if item.extent_m is not None else 0.0, 0.01)


def by_size(codes: list[str], word: SizeWord, attributes: AttributesOf) -> Narrowing:
    """Keep the biggest (smallest, tallest …) one, or those tied with it; 'the large ones' keeps the clearly large.
    Flat things (rugs) are sized by their area among their kind, but by their volume beside things of bulk: 'the big
    thing in the lounge' is the sofa, not the rug under it."""
    items = {code: attributes(code) for code in codes}
    mixed = word.measure == "size" and len({_flat(item) for item in items.values()}) > 1
    values = {code: _bulk(item) if mixed else size_value(item, word.measure) for code, item in items.items()}
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


def rounded(values: dict[str, float]) -> dict[str, float | str | None]:
    """Values as a step reports them: 2 decimals, None where there is none."""
    return {c: (round(v, 2) if math.isfinite(v) else None) for c, v in values.items()}


MATERIAL_COLORS: dict[str, tuple[str, ...]] = {
    "wooden": ("brown", "orange"), "wood": ("brown", "orange"), "leather": ("brown", "black"), "metal": ("gray", "white"),
    "metallic": ("gray", "white"), "steel": ("gray", "white"), "chrome": ("gray", "white"), "marble": ("white", "gray"),
    "wicker": ("brown", "orange"), "cardboard": ("brown", "orange"), "paper": ("white", "brown"),
}


def by_material(codes: list[str], material: str, attributes: AttributesOf) -> Narrowing:
    """A material read as the colours it usually has ('wooden': browns): a hint that narrows only where it tells
    things apart, never to nothing."""
    terms = MATERIAL_COLORS.get(material)
    if not terms:
        return Narrowing("material", material, tuple(codes), tuple(codes), note="no_colour")
    distance = {c: min(color_distance(ColorWord(word=t, term=t), attributes(c)) for t in terms) for c in codes}
    kept = by_contrast({c: d for c, d in distance.items() if d <= GRADED_COLOR_MAX}, "low", SOFT_MARGIN) or list(codes)
    return Narrowing("material", material, tuple(codes), tuple(kept), tied=len(kept) > 1, values=rounded(distance))


SHAPE_MARGIN = Margin(0.15)
RECTANGLE_RATIO = 0.85  # a footprint narrower than this share of its length is a rectangle, not a square


def _upright_and_thin(extent: tuple[float, float, float]) -> bool:
    """A door, a picture, a whiteboard: its shape is its face's, which the footprint does not show."""
    return extent[1] < THIN * extent[0] and extent[2] > extent[1]


def by_shape(codes: list[str], shape: str, attributes: AttributesOf) -> Narrowing:
    """'the square table', 'the round one', 'the long bench': footprint proportions, by contrast; a hint only."""
    ratio: dict[str, float] = {}
    for c in codes:
        extent = attributes(c).extent_m
        if extent is not None and extent[0] > 0 and not _upright_and_thin(extent):
            ratio[c] = extent[1] / extent[0]  # width / length: 1 for a square, small for a long thing
    if not ratio:
        return Narrowing("shape", shape, tuple(codes), tuple(codes))
    if shape in ("round", "square"):
        kept = by_contrast(ratio, "high", SHAPE_MARGIN)
    elif shape == "rectangular":  # any not square: 'a rectangular table' describes it more often than it contrasts
        kept = [c for c, r in ratio.items() if r <= RECTANGLE_RATIO] or by_contrast(ratio, "low", SHAPE_MARGIN)
    elif shape == "long":
        kept = by_contrast(ratio, "low", SHAPE_MARGIN)
    elif shape == "flat":
        heights = {c: attributes(c).z_max - attributes(c).z_min for c in codes}
        kept = by_contrast(heights, "low", Margin(0.05, 0.3))
    else:
        kept = list(codes)
    if shape != "flat":
        kept = [c for c in codes if c in kept or c not in ratio]  # a door's shape is not read: it stays
    return Narrowing("shape", shape, tuple(codes), tuple(kept or codes), tied=len(kept) > 1, values=rounded(ratio))


RANK_TIE = {"size": Margin(0.0, SIZE_TIE), "height": Margin(LENGTH_TIE_M, 0.03), "length": Margin(LENGTH_TIE_M, 0.03),
            "depth": Margin(LENGTH_TIE_M, 0.03)}


def by_rank(codes: list[str], word: str, measure: str, index: int, attributes: AttributesOf, largest_first: bool = True
            ) -> Narrowing:
    """'the second largest bed', 'the third tallest': the one at that rank by size, with any too close to tell apart."""
    values = {c: v for c in codes if (v := size_value(attributes(c), measure)) is not None}
    kept = at_rank(values, "high" if largest_first else "low", index, RANK_TIE.get(measure, Margin(0.05)))
    return Narrowing("ordinal", word, tuple(codes), tuple(kept), tied=len(kept) > 1, values=rounded(values), measure=measure)


def by_order(codes: list[str], word: OrderWord, taken: list[str] | None = None) -> Narrowing:
    """Keep the n-th, the last, the others, both or all of the listed candidates."""
    return Narrowing("order", word.word, tuple(codes), tuple(word.pick(codes, taken)))
