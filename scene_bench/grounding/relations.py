"""The spatial relations Sr3D-style rows are written from, decided on axis-aligned boxes with clear margins.

Each relation says which one of a class (the 2–6 objects sharing a label) stands in it to an anchor, and only when
the others clearly do not, with the thresholds ReferIt3D's generator used for Sr3D: the closest (farthest) is at least
0.2 m nearer (farther) than the next; between: at least 51 % of the target's footprint lies in the hull of the two
anchors' footprints, it touches neither, and no other of its class is within 0.3 m of it; on / supporting: bottom and
top within 0.15 m, footprints shared by at least 30 %; above / below: more than 0.06 m apart in height, footprints
shared by at least 20 %; allocentric: one section around an anchor whose front is evident (it stands against one wall,
beside it, and faces into the room). docs/grounding.md lists them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Rect = tuple[float, float, float, float]  # a footprint: x0, y0, x1, y1 (metres, x0 ≤ x1, y0 ≤ y1)

MARGIN_M = 0.2          # closest/farthest: the gap to the next one of the class
RATIO = 1.5             # on / supporting: the one on top is at most this much larger in area than the one below
TOUCH_M = 0.15          # on / supporting: the gap in height between a bottom and a top
SUPPORT_SHARE = 0.3     # on / supporting: the share of the upper one's footprint over the lower one
OVER_SHARE = 0.2        # above / below: the share of either footprint over the other …
APART_M = 0.06          # … and at least this far apart in height
BETWEEN_SHARE = 0.51    # between: the share of the target's footprint in the hull of the anchors' footprints …
BETWEEN_TOUCH = 0.1     # … at most this share of it on either anchor …
BETWEEN_AMBIGUOUS = 0.1  # … no other of its class with more than this in the hull …
BETWEEN_APART_M = 0.3   # … nor within this of it
WALL_GAP_M = 0.3        # an anchor this close to a wall stands against it
SECTION_IN = 0.6        # allocentric: the share of the target's footprint in the section …
SECTION_ELSEWHERE = 0.25  # … at most this of it in any other section (not at a corner) …
SECTION_OUT = 0.05      # … and at most this of every other one of the class
FRONTED_M = (0.5, 0.3)  # an anchor with a front is at least this wide and this tall (a bed, a desk; not a cup)
STRAY = 0.05            # a footprint sharing at most this of the smaller one is not over the other


@dataclass(frozen=True)
class Thing:
    """One object of a scan: its dataset id, its label as the sentences say it, and its box."""

    id: int
    label: str
    lo: tuple[float, float, float]
    hi: tuple[float, float, float]

    @property
    def footprint(self) -> Rect:
        """The box seen from above (at least 1 cm a side)."""
        return _grown((self.lo[0], self.lo[1], self.hi[0], self.hi[1]))

    @property
    def center(self) -> tuple[float, float]:
        """Centre of the footprint."""
        return (self.lo[0] + self.hi[0]) / 2, (self.lo[1] + self.hi[1]) / 2


def _grown(r: Rect, least: float = 0.01) -> Rect:
    x0, y0, x1, y1 = r
    gx, gy = max(0.0, least - (x1 - x0)) / 2, max(0.0, least - (y1 - y0)) / 2
    return x0 - gx, y0 - gy, x1 + gx, y1 + gy


def area(r: Rect) -> float:
    """Area of a footprint."""
    return max(0.0, r[2] - r[0]) * max(0.0, r[3] - r[1])


def overlap(a: Rect, b: Rect) -> float:
    """Area two footprints share."""
    return area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def gap(a: Thing, b: Thing) -> float:
    """Distance between two boxes (0 when they touch or overlap)."""
    parts = [max(0.0, a.lo[i] - b.hi[i], b.lo[i] - a.hi[i]) for i in range(3)]
    return math.hypot(*parts)


def proximity(group: Sequence[Thing], anchor: Thing) -> list[tuple[str, Thing]]:
    """('closest' | 'farthest', the one) when one of the group is clearly nearest to / farthest from the anchor."""
    ranked = sorted(group, key=lambda o: (gap(o, anchor), o.id))
    d = [gap(o, anchor) for o in ranked]
    found = []
    if d[1] - d[0] >= MARGIN_M:
        found.append(("closest", ranked[0]))
    if d[-1] - d[-2] >= MARGIN_M:
        found.append(("farthest", ranked[-1]))
    return found


def _vertical(o: Thing, a: Thing) -> str | None:
    """How o stands to a in height: supported-by (on it), supporting (under it, holding it), above, below."""
    shared = overlap(o.footprint, a.footprint)
    of_o, of_a = shared / area(o.footprint), shared / area(a.footprint)
    if abs(o.lo[2] - a.hi[2]) <= TOUCH_M and of_o >= SUPPORT_SHARE and area(o.footprint) <= RATIO * area(a.footprint):
        return "supported-by"
    if abs(a.lo[2] - o.hi[2]) <= TOUCH_M and of_a >= SUPPORT_SHARE and area(a.footprint) <= RATIO * area(o.footprint):
        return "supporting"
    if max(of_o, of_a) >= OVER_SHARE:
        if o.lo[2] - a.hi[2] > APART_M:
            return "above"
        if a.lo[2] - o.hi[2] > APART_M:
            return "below"
    return None


def _loosely(o: Thing, a: Thing, kind: str) -> bool:
    """Whether o could be read as standing in `kind` (or its neighbour) to a: a little shared footprint, right side."""
    shared = overlap(o.footprint, a.footprint)
    if shared <= STRAY * min(area(o.footprint), area(a.footprint)):
        return False
    if kind in ("supported-by", "above"):
        return o.lo[2] >= a.hi[2] - 0.2
    return o.hi[2] <= a.lo[2] + 0.2


def vertical(group: Sequence[Thing], anchor: Thing) -> list[tuple[str, Thing]]:
    """(relation, the one) for each of the group clearly on / supporting / above / below the anchor, alone of its class."""
    found = []
    for o in group:
        kind = _vertical(o, anchor)
        if kind and not any(_loosely(other, anchor, kind) for other in group if other is not o):
            found.append((kind, o))
    return found


def _inside(p: tuple[float, float], r: Rect) -> bool:
    return r[0] <= p[0] <= r[2] and r[1] <= p[1] <= r[3]


def _along(o: Thing, a: Thing, b: Thing) -> tuple[float, float]:
    """(where along the line a→b o's centre falls, 0…1 between them; its distance off the line)."""
    (ax, ay), (bx, by), (ox, oy) = a.center, b.center, o.center
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = ((ox - ax) * dx + (oy - ay) * dy) / length2
    return t, abs((ox - ax) * dy - (oy - ay) * dx) / math.sqrt(length2)


def between(group: Sequence[Thing], a: Thing, b: Thing) -> Thing | None:
    """The one of the group between the anchors (most of it in the hull of their footprints, on neither), when no
    other of the group is partly there too or close to it."""
    from shapely.geometry import MultiPoint, box

    if overlap(a.footprint, b.footprint) > 0:
        return None
    hull = MultiPoint([*_corners(a.footprint), *_corners(b.footprint)]).convex_hull
    share = {o.id: hull.intersection(box(*o.footprint)).area / area(o.footprint) for o in group}
    inside = [o for o in group if share[o.id] >= BETWEEN_SHARE
              and overlap(o.footprint, a.footprint) <= BETWEEN_TOUCH * area(o.footprint)
              and overlap(o.footprint, b.footprint) <= BETWEEN_TOUCH * area(o.footprint)
              and min(_z_shared(o, a), _z_shared(o, b)) >= 0.2]
    if len(inside) != 1:
        return None
    target = inside[0]
    for o in group:
        if o is not target and (share[o.id] > BETWEEN_AMBIGUOUS or gap(o, target) < BETWEEN_APART_M):
            return None
    return target


def _corners(r: Rect) -> list[tuple[float, float]]:
    return [(r[0], r[1]), (r[2], r[1]), (r[2], r[3]), (r[0], r[3])]


def _z_shared(o: Thing, a: Thing) -> float:
    """How much of o's height range a's shares (0–1)."""
    height = max(o.hi[2] - o.lo[2], 1e-6)
    return max(0.0, min(o.hi[2], a.hi[2]) - max(o.lo[2], a.lo[2])) / height


def facing(anchor: Thing, walls: Sequence[Rect], room: Rect) -> tuple[float, float] | None:
    """The anchor's front (a unit vector along x or y) when it stands against exactly one wall, beside it rather than
    set into it, and so faces away from it into the room; None when that is not evident (a corner, no wall near)."""
    fronts = set()
    middle = ((room[0] + room[2]) / 2, (room[1] + room[3]) / 2)
    lo, hi = anchor.footprint[:2], anchor.footprint[2:]
    for w in walls:
        for axis in (0, 1):
            other = 1 - axis
            if w[2 + axis] - w[axis] > WALL_GAP_M or w[2 + other] - w[other] < 0.5:
                continue  # not a wall running along `other`
            if min(hi[other], w[2 + other]) - max(lo[other], w[other]) < 0.5 * (hi[other] - lo[other]):
                continue  # not alongside the anchor
            if lo[axis] >= w[2 + axis]:
                distance, sign = lo[axis] - w[2 + axis], 1.0
            elif hi[axis] <= w[axis]:
                distance, sign = w[axis] - hi[axis], -1.0
            else:
                return None  # set into the wall (a window, a mirror): which side it faces is not evident
            if distance <= WALL_GAP_M:
                fronts.add((axis, sign))
    if len(fronts) != 1:
        return None
    axis, sign = fronts.pop()
    if sign * (middle[axis] - anchor.center[axis]) <= 0:
        return None  # it would face out of the room: the wall is not the room's
    return (sign, 0.0) if axis == 0 else (0.0, sign)


def _local(r: Rect, origin: tuple[float, float], front: tuple[float, float]) -> Rect:
    """A footprint in the anchor's frame: u along its front, w to the left of someone facing its front."""
    left = (front[1], -front[0])
    corners = [(x - origin[0], y - origin[1]) for x in (r[0], r[2]) for y in (r[1], r[3])]
    us = [x * front[0] + y * front[1] for x, y in corners]
    ws = [x * left[0] + y * left[1] for x, y in corners]
    return min(us), min(ws), max(us), max(ws)


def sections(anchor: Thing, front: tuple[float, float]) -> dict[str, Rect]:
    """The regions in front of, behind, left and right of the anchor (left as seen facing its front), in its frame."""
    u0, w0, u1, w1 = _local(anchor.footprint, anchor.center, front)
    hu, hw = (u1 - u0) / 2, (w1 - w0) / 2
    reach_u, reach_w = min(4 * hu, 1.5) + 0.5, min(4 * hw, 1.5) + 0.5  # twice its depth (width), at most 1.5 m, + 0.5 m
    side = 0.15
    return {"front": (hu, -hw - side, hu + reach_u, hw + side), "back": (-hu - reach_u, -hw - side, -hu, hw + side),
            "left": (-hu - side, hw, hu + side, hw + reach_w), "right": (-hu - side, -hw - reach_w, hu + side, -hw)}


def _level(o: Thing, a: Thing) -> bool:
    """Whether o is level with a (their heights overlap): a picture on the wall over a cabinet is above it, not behind."""
    return min(o.hi[2], a.hi[2]) > max(o.lo[2], a.lo[2])


def allocentric(group: Sequence[Thing], anchor: Thing, walls: Sequence[Rect], room: Rect) -> list[tuple[str, Thing]]:
    """(front | left | right, the one) for each section around a wall-backed anchor that holds one of the group, alone
    of them and clear of the other sections."""
    fp = anchor.footprint
    if max(fp[2] - fp[0], fp[3] - fp[1]) < FRONTED_M[0] or anchor.hi[2] - anchor.lo[2] < FRONTED_M[1]:
        return []
    front = facing(anchor, walls, room)
    if front is None:
        return []
    local = {o.id: _local(o.footprint, anchor.center, front) for o in group}
    regions = sections(anchor, front)
    share = {(o.id, name): overlap(local[o.id], region) / area(local[o.id]) for o in group for name, region in regions.items()}
    found = []
    for name in ("front", "left", "right"):  # behind an anchor against a wall is the wall
        inside = [o for o in group if share[o.id, name] >= SECTION_IN and _level(o, anchor)
                  and all(share[o.id, other] <= SECTION_ELSEWHERE for other in regions if other != name)
                  and overlap(o.footprint, anchor.footprint) <= 0.2 * area(o.footprint)]
        if len(inside) == 1 and all(share[o.id, name] <= SECTION_OUT for o in group if o is not inside[0]):
            found.append((name, inside[0]))
    return found
