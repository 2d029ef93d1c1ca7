"""Which way things face, and where someone stands when the words say ('facing the bed', 'as you enter').

Scenes carry no orientation, so it is read from the geometry where the geometry shows it: a seat faces the
table, desk or screen it stands at; a bed faces away from its head (where two nightstands flank it or its
pillows lie, else the end against a wall); anything else with its back to a wall faces into the room. Where
none of that holds, the facing is unknown (None), and words that need it ('in front of the table' in the
middle of a room) leave a real choice instead of a guess.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from scene_agent.language.reading import View
from scene_agent.language.vocabulary import head_noun
from scene_agent.resolution.places import Spot, gap, wall_distance
from scene_agent.resolution.viewpoint import Viewpoint

Vector = tuple[float, float]

SEATS = frozenset({"chair", "office chair", "armchair", "sofa", "stool", "bench", "seat", "toilet", "ottoman"})
SEATED_AT = frozenset({"table", "desk", "dining table", "coffee table", "tv", "monitor", "counter", "kitchen counter",
                       "piano", "whiteboard", "computer tower", "laptop", "keyboard"})
SEAT_REACH_M = 1.2     # a seat this close to a table faces it
WALL_REACH_M = 0.4     # a thing this close to a wall has its back to it
VIEW_DISTANCE_M = 2.0  # where someone stands to look at a thing's front
MIN_OFFSET_M = 0.5     # a thing this close to the room's middle gives no direction to look from the middle


def unit(dx: float, dy: float) -> Vector | None:
    """The direction of (dx, dy), or None when it is too short to have one."""
    norm = math.hypot(dx, dy)
    return (dx / norm, dy / norm) if norm > 1e-6 else None


def facing_of(item: Spot, room: Spot, others: Iterable[Spot]) -> Vector | None:
    """The direction the item's front faces, seen from above, where the geometry shows it; None otherwise."""
    kind = _kind(item.label)
    if kind in SEATS:
        # A table at its side (an end table by a sofa) is not what it faces: only one it is turned towards, in front.
        tables = [o for o in others if o.code != item.code and _kind(o.label) in SEATED_AT and gap(item, o) <= SEAT_REACH_M
                  and not (kind == "sofa" and _kind(o.label) not in ("coffee table", "tv", "table"))]
        if tables:
            nearest = min(tables, key=lambda o: gap(item, o))
            return unit(nearest.xy[0] - item.xy[0], nearest.xy[1] - item.xy[1])
    if kind == "bed" and (front := _bed_front_by_things(item, others)) is not None:
        return front
    return away_from_wall(item, room)


BESIDE_BED_M = 0.6   # a nightstand this close to a bed stands by its head
HEAD_OFFSET_M = 0.2  # … and the nightstands (or the pillows) this far from its middle, along one of its axes, mark it


def _bed_front_by_things(bed: Spot, others: Iterable[Spot]) -> Vector | None:
    """A bed faces away from its head, and its head is where the two nightstands flank it or its pillows lie
    (whichever axis of the bed that is: a wide bed's head may be on a long side of its box)."""
    from shapely.geometry import Point

    others = list(others)
    stands = [o for o in others if o.code != bed.code and _kind(o.label) == "nightstand" and gap(bed, o) <= BESIDE_BED_M]
    pillows = [o for o in others if o.code != bed.code and _kind(o.label) == "pillow"
               and bed.shape.buffer(0.05).contains(Point(o.xy))]
    marks = stands if len(stands) >= 2 else pillows
    if not marks:
        return None
    dx = sum(m.xy[0] for m in marks) / len(marks) - bed.xy[0]
    dy = sum(m.xy[1] for m in marks) / len(marks) - bed.xy[1]
    (ux, uy), _, _ = bed.axes
    along, across = dx * ux + dy * uy, dx * -uy + dy * ux
    if max(abs(along), abs(across)) < HEAD_OFFSET_M:
        return None
    head = (ux, uy) if abs(along) >= abs(across) else (-uy, ux)
    sign = 1.0 if (along if abs(along) >= abs(across) else across) > 0 else -1.0
    return -sign * head[0], -sign * head[1]


def away_from_wall(item: Spot, room: Spot) -> Vector | None:
    """Into the room, for a thing with its back (a bed: its head end) against a wall; None when it stands free."""
    from shapely.geometry import Point, Polygon
    from shapely.ops import nearest_points

    if not isinstance(room.shape, Polygon) or wall_distance(item, room) > WALL_REACH_M:
        return None
    outline = room.shape.exterior
    if _kind(item.label) == "bed":
        ends = [Point(end) for end in item.ends()]
        near = [(float(outline.distance(end)), k) for k, end in enumerate(ends)]
        (d0, k0), (d1, _) = sorted(near)
        if d0 > WALL_REACH_M + 0.2 or d1 - d0 < 0.3:
            return None
        head, foot = ends[k0], ends[1 - k0]
        return unit(foot.x - head.x, foot.y - head.y)
    centre = Point(item.xy)
    wall_point = nearest_points(outline, centre)[0]
    inward = room.shape.centroid
    dx, dy = centre.x - wall_point.x, centre.y - wall_point.y
    if dx * (inward.x - wall_point.x) + dy * (inward.y - wall_point.y) < 0:
        dx, dy = -dx, -dy  # set into the wall or past it (a window): it still faces into the room
    if abs(dx) < 1e-6 and abs(dy) < 1e-6:
        return unit(inward.x - wall_point.x, inward.y - wall_point.y)
    return unit(dx, dy)


def group_facing(items: Sequence[Spot], room: Spot, others: Sequence[Spot]) -> Vector | None:
    """The facing several things share (within 45°), or None."""
    facings = [facing_of(item, room, others) for item in items]
    if not facings or any(f is None for f in facings):
        return None
    fx, fy = sum(f[0] for f in facings if f), sum(f[1] for f in facings if f)
    mean = unit(fx, fy)
    if mean is None or any(f is not None and f[0] * mean[0] + f[1] * mean[1] < math.cos(math.radians(45)) for f in facings):
        return None
    return mean


def centre_of(items: Sequence[Spot]) -> tuple[float, float, float]:
    """The middle of several things (z: their mean height)."""
    n = len(items)
    return (sum(s.xy[0] for s in items) / n, sum(s.xy[1] for s in items) / n,
            sum((s.z_min + s.z_max) / 2 for s in items) / n)


def view_frame(view: View, toward: Sequence[Spot], at: Sequence[Spot], room: Spot, others: Sequence[Spot],
               candidates: Sequence[Spot], doors: Sequence[Spot]) -> Viewpoint | None:
    """Where someone stands and looks, from the view words and the things they name; None when the scene does not say."""
    if view.kind == "entering":
        way_in = at or doors  # "as you enter through the white door": that door; else the room's only one
        if not way_in or any(s.label is None for s in way_in) or _spread(way_in) > WAY_IN_SPREAD_M:  # a room is no way in
            return None
        return Viewpoint.looking(centre_of(way_in), _room_middle(room), source="words")
    if at and view.kind != "back_to":  # "standing at the door", "viewing from the foot of the bed": looking at them
        position = _part_point(at, view.at.part if view.at else None, room, others)
        goal = (_part_point(toward, view.toward.part if view.toward else None, room, others) if toward
                else centre_of(candidates) if candidates else _room_middle(room))
        return Viewpoint.looking(position, goal, source="words")
    if view.kind == "back_to" and toward:
        position = centre_of(toward)
        return Viewpoint.looking(position, _room_middle(room), source="words")
    if not toward:
        return None
    looked_at = centre_of(toward)
    front = group_facing(toward, room, others)
    part = view.toward.part if view.toward is not None else None
    if front is not None and part in FOOT_PARTS:
        front = (-front[0], -front[1])  # "looking toward the foot of the bed": from its head end
    if front is None and len(toward) > 1:
        front = _row_facing(toward, room)
    if front is not None:
        position = (looked_at[0] + VIEW_DISTANCE_M * front[0], looked_at[1] + VIEW_DISTANCE_M * front[1], looked_at[2])
        return Viewpoint.looking(position, looked_at, source="words")
    middle = _room_middle(room)
    if math.hypot(looked_at[0] - middle[0], looked_at[1] - middle[1]) < MIN_OFFSET_M:
        return None
    return Viewpoint.looking(middle, looked_at, source="words")


WAY_IN_SPREAD_M = 2.5  # doors this close together are one way in ("the double doors")


def _spread(items: Sequence[Spot]) -> float:
    """How far apart the things stand (the largest distance between two of their middles)."""
    return max((math.dist(a.xy, b.xy) for a in items for b in items), default=0.0)


FOOT_PARTS = frozenset({"foot", "foot end", "far end", "back", "back side", "rear"})
HEAD_PARTS = frozenset({"head", "headboard", "head end"})


def _part_point(items: Sequence[Spot], part: str | None, room: Spot, others: Sequence[Spot]) -> tuple[float, float, float]:
    """Where a thing's part is: the middle of its head end or foot end (a bed's head is against the wall), else its
    middle."""
    centre = centre_of(items)
    if part not in FOOT_PARTS | HEAD_PARTS or len(items) != 1:
        return centre
    front = facing_of(items[0], room, others)
    if front is None:
        return centre
    _, length, _ = items[0].axes
    sign = 1.0 if part in FOOT_PARTS else -1.0
    return centre[0] + sign * front[0] * length / 2, centre[1] + sign * front[1] * length / 2, centre[2]


def _row_facing(items: Sequence[Spot], room: Spot) -> Vector | None:
    """The side a row of things is seen from: across the line they stand along, from the room's middle's side."""
    xs = [s.xy for s in items]
    mx, my = sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs)
    sxx = sum((p[0] - mx) ** 2 for p in xs)
    syy = sum((p[1] - my) ** 2 for p in xs)
    sxy = sum((p[0] - mx) * (p[1] - my) for p in xs)
    if sxx + syy < 0.05:
        return None
    angle = 0.5 * math.atan2(2 * sxy, sxx - syy)
    across = (-math.sin(angle), math.cos(angle))
    middle = _room_middle(room)
    toward_middle = (middle[0] - mx) * across[0] + (middle[1] - my) * across[1]
    if abs(toward_middle) < MIN_OFFSET_M:
        return None
    return across if toward_middle > 0 else (-across[0], -across[1])


def _room_middle(room: Spot) -> tuple[float, float, float]:
    centroid = room.shape.centroid
    return float(centroid.x), float(centroid.y), (room.z_min + room.z_max) / 2


def _kind(label: str | None) -> str:
    if not label:
        return ""
    return label if label in SEATS or label in SEATED_AT or label == "bed" else head_noun(label)
