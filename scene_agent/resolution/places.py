"""Where things are relative to each other, from the cached footprints and heights (never the point files).

Distances are gaps: 0 when two footprints touch or overlap and the height ranges meet, otherwise the
straight-line gap between footprint polygons (seen from above) combined with the vertical gap. The
place words of `language/place_words.py` are decided here with these tolerances (metres).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from scene_agent.scene.attributes import ItemAttributes

if TYPE_CHECKING:  # shapely itself is imported where a place word is decided: most questions have none
    from shapely.geometry import Point, Polygon

ON_BELOW_TOP_M = 0.08   # "on": its bottom may sit this far below the other's top (scan noise, soft tops)
ON_ABOVE_TOP_M = 0.2    # ... and no higher above it than this (else it floats: "above")
OVERLAP_SHARE = 0.05    # "under"/"above": at least this share of the smaller footprint overlaps
CORNER_REACH_M = 0.6    # "in the corner": its footprint comes this close to a corner of its room
CORNER_ANGLE_DEG = 150  # a room-outline vertex sharper than this is a corner


@dataclass(frozen=True)
class Spot:
    """One item's place: footprint polygon, height range and room."""

    code: str
    room: str
    attributes: ItemAttributes

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


def is_on(a: Spot, b: Spot) -> bool:
    """a rests on b: its bottom at b's top, its centre over b's footprint."""
    resting = b.z_max - ON_BELOW_TOP_M <= a.z_min <= b.z_max + ON_ABOVE_TOP_M
    return resting and a.z_max > b.z_max and b.shape.buffer(0.05).contains(a.center)


def is_under(a: Spot, b: Spot) -> bool:
    """a is under b: their footprints overlap and a stays below b's top, lower than b."""
    return _overlap(a, b) >= OVERLAP_SHARE and a.z_max < b.z_max - 0.05 and a.z_min <= b.z_min + 0.05


def is_above(a: Spot, b: Spot) -> bool:
    """a is above b: their footprints overlap and a's bottom is at or over b's top."""
    return _overlap(a, b) >= OVERLAP_SHARE and a.z_min >= b.z_max - 0.05


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
