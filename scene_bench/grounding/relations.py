"""The spatial relations Sr3D-style rows are written from, decided on axis-aligned boxes with clear margins.

Each relation says which one of a class (the 2–7 objects sharing a label) stands in it to an anchor, and only when
the others clearly do not: the closest is at least 0.3 m and 1.5 times nearer than the next; only one of the class
is between the anchors, on the anchor, or in one section around an anchor whose front is evident (it stands
against one wall, beside it, and faces into the room). docs/grounding.md lists the thresholds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Rect = tuple[float, float, float, float]  # a footprint: x0, y0, x1, y1 (metres, x0 ≤ x1, y0 ≤ y1)

MARGIN_M = 0.3          # closest/farthest: the gap to the next one of the class
RATIO = 1.5             # … and the distances' ratio
TOUCH_M = 0.15          # on / supporting: the gap in height between a bottom and a top
OVER_SHARE = 0.5        # on / above / below: the share of a footprint over the other
BETWEEN_T = (0.15, 0.85)  # between: where along the anchors' line the centre is …
BETWEEN_OFF_M = 0.5     # … and how far off it at most
LOOSE_OFF_M = 1.0       # any other of the class within this of the line, near its span, makes it unclear
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
    if d[1] - d[0] >= MARGIN_M and d[1] >= RATIO * d[0]:
        found.append(("closest", ranked[0]))
    if d[-1] - d[-2] >= MARGIN_M and d[-1] >= RATIO * d[-2]:
        found.append(("farthest", ranked[-1]))
    return found


def _vertical(o: Thing, a: Thing) -> str | None:
    """How o stands to a in height: supported-by (on it), supporting (under it, holding it), above, below."""
    shared = overlap(o.footprint, a.footprint)
    of_o, of_a = shared / area(o.footprint), shared / area(a.footprint)
    if abs(o.lo[2] - a.hi[2]) <= TOUCH_M and of_o >= OVER_SHARE and _inside(o.center, a.footprint) \
            and area(o.footprint) <= RATIO * area(a.footprint):
        return "supported-by"
    if abs(a.lo[2] - o.hi[2]) <= TOUCH_M and of_a >= OVER_SHARE and _inside(a.center, o.footprint) \
            and area(a.footprint) <= RATIO * area(o.footprint):
        return "supporting"
    if max(of_o, of_a) >= OVER_SHARE:
        if o.lo[2] - a.hi[2] > TOUCH_M:
            return "above"
        if a.lo[2] - o.hi[2] > TOUCH_M:
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
    """The one of the group clearly between the anchors, touching neither, when no other is near their line."""
    if math.dist(a.center, b.center) < 1.0:
        return None
    placed = {o.id: _along(o, a, b) for o in group}
    inside = [o for o in group if BETWEEN_T[0] <= placed[o.id][0] <= BETWEEN_T[1] and placed[o.id][1] <= BETWEEN_OFF_M
              and not overlap(o.footprint, a.footprint) and not overlap(o.footprint, b.footprint)]
    if len(inside) != 1:
        return None
    near = [o for o in group if o is not inside[0] and -0.1 <= placed[o.id][0] <= 1.1 and placed[o.id][1] <= LOOSE_OFF_M]
    return None if near else inside[0]


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
