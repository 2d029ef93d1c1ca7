"""Where things are relative to each other, from the cached footprints and heights (never the point files).

Distances are gaps: 0 when two footprints touch or overlap and the height ranges meet, otherwise the
straight-line gap between footprint polygons (seen from above) combined with the vertical gap. The
place words of `language/relation_words.py` are decided here with these tolerances (metres).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from scene_agent.language.vocabulary import head_noun
from scene_agent.scene.attributes import ItemAttributes

if TYPE_CHECKING:  # shapely itself is imported where a place word is decided: most questions have none
    from shapely.geometry import Point, Polygon

ON_BELOW_TOP_M = 0.08   # "on": its bottom may sit this far below the other's top (scan noise, soft tops)
ON_ABOVE_TOP_M = 0.2    # ... and no higher above it than this (else it floats: "above")
OVERLAP_SHARE = 0.05    # "under"/"above": at least this share of the smaller footprint overlaps
ON_SUNK_M = 0.1         # "on" a sofa or a shelf: its bottom at least this far above the other's bottom
ON_OVER_M = 0.05        # "on": its centre over the other's footprint grown by this (boxes are rough)
UNDER_EDGE_M = 0.15     # "under": or standing this close to the other's edge (a bin under a sink)
BETWEEN_SLACK_M = 0.1   # "between": the hull of the two grown by this (a picture on the wall between a door and a window)
ABOVE_EDGE_M = 0.3      # "above": or this close beside it, seen from above (a picture on the wall above a desk)
CORNER_REACH_M = 0.6    # "in the corner": its footprint comes this close to a corner of its room
CORNER_ANGLE_DEG = 150  # a room-outline vertex sharper than this is a corner


@dataclass(frozen=True)
class Spot:
    """One item's place: footprint polygon, height range and room."""

    code: str
    room: str
    attributes: ItemAttributes
    label: str | None = None  # the object's label (None for a room): what it is, for which way it faces

    @cached_property
    def shape(self) -> Polygon | Point:
        """The footprint as a polygon (a point at the centre when it has no area)."""
        from shapely.geometry import Point, Polygon

        polygon = Polygon(self.attributes.footprint) if len(self.attributes.footprint) >= 3 else None
        if polygon is None or not polygon.is_valid or polygon.area <= 0:
            return Point(self.attributes.center[:2])
        return polygon

    @property
    def z_min(self) -> float:
        """Bottom (trimmed)."""
        return self.attributes.z_min

    @property
    def z_max(self) -> float:
        """Top (trimmed)."""
        return self.attributes.z_max

    @property
    def center(self) -> Point:
        """The footprint's centre, seen from above."""
        from shapely.geometry import Point

        return Point(self.attributes.center[:2])

    @property
    def area(self) -> float:
        """Footprint area in m²."""
        return float(self.shape.area)

    @property
    def xy(self) -> tuple[float, float]:
        """The footprint's centre, seen from above, as numbers."""
        return float(self.attributes.center[0]), float(self.attributes.center[1])

    @cached_property
    def axes(self) -> tuple[tuple[float, float], float, float]:
        """The footprint's long axis (unit vector) and its length and width (the smallest rectangle around it)."""
        from shapely.geometry import Polygon

        shape = self.shape
        if not isinstance(shape, Polygon):
            return (1.0, 0.0), 0.0, 0.0
        corners = list(shape.minimum_rotated_rectangle.exterior.coords)[:4]
        (x0, y0), (x1, y1), (x2, y2) = corners[0], corners[1], corners[2]
        a, b = math.hypot(x1 - x0, y1 - y0), math.hypot(x2 - x1, y2 - y1)
        if a >= b:
            return ((x1 - x0) / a, (y1 - y0) / a) if a > 0 else (1.0, 0.0), a, b
        return ((x2 - x1) / b, (y2 - y1) / b), b, a

    def ends(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The middles of the footprint's two short sides: where 'the end of the table' is."""
        (ux, uy), length, _ = self.axes
        x, y = self.xy
        return (x - ux * length / 2, y - uy * length / 2), (x + ux * length / 2, y + uy * length / 2)


def gap(a: Spot, b: Spot) -> float:
    """How far apart two items are (0 when they touch): footprint gap and vertical gap combined."""
    flat = float(a.shape.distance(b.shape))
    vertical = max(0.0, a.z_min - b.z_max, b.z_min - a.z_max)
    return math.hypot(flat, vertical)


def _overlap(a: Spot, b: Spot) -> float:
    """Share of the smaller footprint covered by the other."""
    smaller = min(a.area, b.area)
    if smaller <= 0:
        return 1.0 if b.shape.buffer(0.05).contains(a.center) or a.shape.buffer(0.05).contains(b.center) else 0.0
    return float(a.shape.intersection(b.shape).area) / smaller


BUILT_IN = frozenset({"window", "door"})  # part of the building: set in a wall, never resting on a thing


def is_on(a: Spot, b: Spot) -> bool:
    """a rests on b: its centre over b's footprint, its bottom at b's top — or, on something soft or with a seat
    below its top (a pillow on a sofa, a book on a shelf), inside b's upper part and reaching above its bottom. A
    window or a door rests on nothing (the one over a desk is above it)."""
    if a.label and head_noun(a.label.lower()) in BUILT_IN:
        return False
    over = b.shape.buffer(ON_OVER_M).contains(a.center)
    if not over:
        return False
    resting = b.z_max - ON_BELOW_TOP_M <= a.z_min <= b.z_max + ON_ABOVE_TOP_M and a.z_max > b.z_max
    sunk = b.z_min + ON_SUNK_M <= a.z_min <= b.z_max and a.area <= b.area
    return resting or sunk


def is_under(a: Spot, b: Spot, at_edge: bool = True) -> bool:
    """a is under b: their footprints overlap (or, `at_edge`, a stands right by b's edge) and a is lower, below b's
    top."""
    near = _overlap(a, b) >= OVERLAP_SHARE or (at_edge and float(a.shape.distance(b.shape)) <= UNDER_EDGE_M and a.area < b.area)
    return near and a.z_max < b.z_max + 0.05 and (a.z_min + a.z_max) / 2 < (b.z_min + b.z_max) / 2 and a.z_min <= b.z_min + 0.3


def is_above(a: Spot, b: Spot, at_edge: bool = True) -> bool:
    """a is above b: its bottom at or over b's top, and it hangs over b (or, `at_edge`, over b's edge, as a picture on
    the wall above a desk does)."""
    near = _overlap(a, b) >= OVERLAP_SHARE or (at_edge and float(a.shape.distance(b.shape)) <= ABOVE_EDGE_M)
    return near and a.z_min >= b.z_max - 0.1


def is_between(a: Spot, x: Spot, y: Spot) -> bool:
    """a stands between x and y: its centre projects inside the x–y segment, close to the line."""
    from shapely.geometry import LineString

    line = LineString([x.center, y.center])
    length = float(line.length)
    if length < 0.3:
        return False
    along = float(line.project(a.center)) / length
    off = float(line.distance(a.center))
    return 0.1 <= along <= 0.9 and off <= max(0.4, 0.25 * length)


def room_corners(room: Spot) -> list[Point]:
    """The corners of a room's outline: vertices whose inside angle is sharper than CORNER_ANGLE_DEG."""
    from shapely.geometry import Point, Polygon

    if not isinstance(room.shape, Polygon):
        return []
    ring = list(room.shape.exterior.coords)[:-1]
    corners = []
    for i, (x, y) in enumerate(ring):
        (px, py), (nx, ny) = ring[i - 1], ring[(i + 1) % len(ring)]
        v1, v2 = (px - x, py - y), (nx - x, ny - y)
        norm = math.hypot(*v1) * math.hypot(*v2)
        if norm == 0:
            continue
        angle = math.degrees(math.acos(max(-1.0, min(1.0, (v1[0] * v2[0] + v1[1] * v2[1]) / norm))))
        if angle < CORNER_ANGLE_DEG:
            corners.append(Point(x, y))
    return corners


def corner_distance(a: Spot, room: Spot) -> float:
    """How far a's footprint is from the nearest corner of its room (inf when the room has none)."""
    return min((float(a.shape.distance(c)) for c in room_corners(room)), default=math.inf)


def on_miss(a: Spot, b: Spot) -> float:
    """How far a is from resting on b (0 when it does): the vertical gap to b's top plus how far its centre is off b."""
    vertical = max(0.0, b.z_max - ON_BELOW_TOP_M - a.z_min, a.z_min - (b.z_max + ON_ABOVE_TOP_M))
    if a.z_max <= b.z_max:
        vertical = max(vertical, b.z_max - a.z_max)
    off = float(b.shape.distance(a.center))
    return vertical + off


def overlap(a: Spot, b: Spot) -> float:
    """Share of the smaller footprint that the other covers (0–1)."""
    return _overlap(a, b)


def inside_miss(a: Spot, b: Spot) -> float:
    """How far a's centre is from being inside b (0 when it is): outside its footprint, or above or below it."""
    z = (a.z_min + a.z_max) / 2
    vertical = max(0.0, b.z_min - 0.1 - z, z - (b.z_max + 0.1))
    return float(b.shape.distance(a.center)) + vertical


def between_share(a: Spot, x: Spot, y: Spot) -> float:
    """Share of a's footprint inside the hull of x's and y's footprints, seen from above (0 when a overlaps either much)."""
    from shapely.geometry import MultiPoint

    hull = MultiPoint([*_points(x), *_points(y)]).convex_hull.buffer(BETWEEN_SLACK_M)
    area = a.area
    if area <= 0:
        return 1.0 if hull.buffer(0.05).contains(a.center) else 0.0
    if float(a.shape.intersection(x.shape).area) > 0.3 * area or float(a.shape.intersection(y.shape).area) > 0.3 * area:
        return 0.0
    return float(a.shape.intersection(hull).area) / area


def _points(s: Spot) -> list[tuple[float, float]]:
    return [(float(px), float(py)) for px, py in s.attributes.footprint] or [s.xy]


def wall_distance(a: Spot, room: Spot) -> float:
    """How far a's footprint is from its room's outline (its walls), seen from above (inf when the room has none)."""
    from shapely.geometry import Polygon

    if not isinstance(room.shape, Polygon):
        return math.inf
    return float(a.shape.distance(room.shape.exterior))


def end_distance(a: Spot, b: Spot) -> float:
    """How far a is from the nearer end of b (the middle of one of b's short sides)."""
    from shapely.geometry import Point

    return min(float(a.shape.distance(Point(end))) for end in b.ends())
