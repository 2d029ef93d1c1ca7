"""Where a thing is among its kind or in its room: 'the chair on the left', 'the middle one', 'the top shelf',
'in the corner', 'against the wall', 'in the middle of the room', 'the second from the right'.

Left, right, front and back need a viewpoint: the words' own ('facing the windows, …'), else what the
person sees in the viewer. Without one they are a real ambiguity, never guessed: the few that are on the
left from some side — the outermost of the group — are kept for the user to choose among.
"""

from __future__ import annotations

import itertools
import math
from typing import Literal

from scene_agent.language.reading import Ordinal, Side, UnusedWhy
from scene_agent.resolution.contrast import Margin, at_rank, by_contrast
from scene_agent.resolution.narrowing import Narrowing, rounded
from scene_agent.resolution.places import CORNER_REACH_M, Spot, corner_distance, gap, wall_distance
from scene_agent.resolution.spots import Places
from scene_agent.resolution.viewpoint import Viewpoint

SIDE_MARGIN = Margin(0.2, 0.15)     # 'the left one': within 20 cm (or 15 %) of the leftmost is as far left
SCREEN_MARGIN = Margin(0.02)        # … as a camera draws it: within about 1° of the leftmost
HEIGHT_MARGIN = Margin(0.1, 0.1)    # 'the top shelf'
MIDDLE_MARGIN = Margin(0.2, 0.2)
CENTRE_MARGIN = Margin(0.3, 0.25)   # 'in the middle of the room'
WALL_REACH_M = 0.35                 # 'against the wall'
FLOOR_REACH_M = 0.12                # 'on the floor': its bottom this near the room's floor
CEILING_REACH_M = 0.4               # 'on the ceiling'
TOGETHER_MARGIN = Margin(0.15, 0.3)  # 'side by side': within 15 cm (or 30 %) of the closest pair's gap
ALONE_MARGIN = Margin(0.3, 0.3)     # 'the chair by itself': within 30 cm (or 30 %) of the loneliest is as alone
ALONE_FAR_M = 20.0                  # … and one with no other of its kind in its room is this far from them
SPREAD_M = 0.3                      # a group spread less than this along a line has no order along it
LEVEL_WORDS = frozenset({"upper", "lower"})  # a level, not the very top: 'the upper cabinets'
LEVEL_GAP_M = 0.5                   # … two levels part by at least this much in height
IN_SIGHT_M = 0.1                    # 'on the left' from a viewpoint: among the things at least this far ahead of it
SIGHT_SLOPE = math.tan(math.radians(60))  # … and no more than 60° off the line of sight


def by_side(codes: list[str], side: Side, places: Places, frame: Viewpoint | None) -> Narrowing:
    """Keep the candidates on that side (or in that place); a negated side keeps the others."""
    spots = {c: places.spot(c) for c in codes}
    values: dict[str, float] = {}
    note: UnusedWhy | None = None
    holds: set[str] | None = None
    kind = side.kind
    if kind in ("left", "right", "front", "back", "near", "far"):
        if frame is None:
            kept = _outermost(spots) if kind in ("left", "right", "front", "back") else list(codes)
            return Narrowing("side", side.word, tuple(codes), tuple(kept), tied=len(kept) > 1, note="no_view")
        if kind in ("left", "right") and not _extreme(side.word):
            spots = _in_sight(frame, spots)
        values = {c: _along(frame, s, kind) for c, s in spots.items()}
        drawn = frame.sight is not None and kind in ("left", "right")
        kept = by_contrast(values, "low", SCREEN_MARGIN if drawn else SIDE_MARGIN)
    elif kind in ("top", "bottom"):
        values = {c: (s.z_min + s.z_max) / 2 for c, s in spots.items()}
        kept = (_level(values, kind) if side.word in LEVEL_WORDS else None) or \
            by_contrast(values, "high" if kind == "top" else "low", HEIGHT_MARGIN)
    elif kind == "middle":
        if len(codes) < 3:
            return Narrowing("side", side.word, tuple(codes), tuple(codes), tied=len(codes) > 1,
                             note="middle_of_two")
        values = _off_middle(spots, frame)
        kept = by_contrast(values, "low", MIDDLE_MARGIN)
    elif kind == "center":
        values = {c: math.dist(s.xy, _room_centre(places.room(c))) for c, s in spots.items()}
        kept = by_contrast(values, "low", CENTRE_MARGIN)
    elif kind == "corner":
        values = {c: corner_distance(s, places.room(c)) for c, s in spots.items()}
        holds = {c for c, v in values.items() if v <= CORNER_REACH_M}
        kept = [c for c in codes if c in holds] or by_contrast({c: v for c, v in values.items() if v <= 2 * CORNER_REACH_M},
                                                                "low", Margin(0.2))
    elif kind == "alone":
        values = {c: _apart_from_its_kind(s, places) for c, s in spots.items()}
        kept = by_contrast(values, "high", ALONE_MARGIN)
    elif kind == "together":  # "the two monitors next to each other": those nearest another of them
        values = {c: min((gap(s, o) for o in spots.values() if o.code != c and o.room == s.room), default=math.inf)
                  for c, s in spots.items()}
        kept = by_contrast(values, "low", TOGETHER_MARGIN)
    elif kind in ("floor", "ceiling"):
        room = {c: places.room(c) for c in codes}
        values = {c: (s.z_min - places.floor_level(s.room) if kind == "floor" else room[c].z_max - s.z_max)
                  for c, s in spots.items()}
        holds = {c for c, v in values.items() if v <= (FLOOR_REACH_M if kind == "floor" else CEILING_REACH_M)}
        kept = [c for c in codes if c in holds]
    elif kind == "wall":
        values = {c: wall_distance(s, places.room(c)) for c, s in spots.items()}
        holds = {c for c, v in values.items() if v <= WALL_REACH_M}
        kept = [c for c in codes if c in holds] or by_contrast({c: v for c, v in values.items() if v <= 2 * WALL_REACH_M},
                                                                "low", Margin(0.15))
    else:
        return Narrowing("side", side.word, tuple(codes), tuple(codes))
    if side.negated:
        out = holds if holds is not None else set(kept)
        kept = [c for c in codes if c not in out]
    return Narrowing("side", side.word, tuple(codes), tuple(kept), tied=len(kept) > 1 and not side.negated,
                     values=rounded(values), negated=side.negated, note=note)


def by_position(codes: list[str], ordinal: Ordinal, places: Places, frame: Viewpoint | None) -> Narrowing:
    """'the second from the left', 'third from the top', 'the last one in the row': a rank along an axis."""
    spots = {c: places.spot(c) for c in codes}
    by = ordinal.by
    better: Literal["low", "high"]
    if by in ("top", "bottom"):
        values = {c: (s.z_min + s.z_max) / 2 for c, s in spots.items()}
        better = "high" if by == "top" else "low"
    elif by in ("left", "right", "front", "back") and frame is not None:
        values = {c: _along(frame, s, by) for c, s in spots.items()}
        better = "low"
        if frame.sight is not None and by in ("left", "right"):
            kept = at_rank(values, better, ordinal.index, SCREEN_MARGIN)
            return Narrowing("ordinal", ordinal.word, tuple(codes), tuple(kept), tied=len(kept) > 1, values=rounded(values))
    else:
        # No direction to count from ('second from the left' unseen, 'the last one in the row'): the ones at that rank
        # seen from any side, room by room — the few the words leave, for the user to choose among.
        kept = [c for c in codes if c in _at_rank_from_any_side(spots, ordinal.index, by == "row")]
        return Narrowing("ordinal", ordinal.word, tuple(codes), tuple(kept), tied=len(kept) > 1,
                         note="no_view" if by != "row" else "two_ends")
    kept = at_rank(values, better, ordinal.index, Margin(0.15))
    return Narrowing("ordinal", ordinal.word, tuple(codes), tuple(kept), tied=len(kept) > 1, values=rounded(values))


def _at_rank_from_any_side(spots: dict[str, Spot], index: int, row: bool) -> set[str]:
    """The things at a rank counted from each of eight directions (a row: from its two ends), within each room."""
    rooms: dict[str, dict[str, Spot]] = {}
    for code, spot in spots.items():
        rooms.setdefault(spot.room, {})[code] = spot
    found: set[str] = set()
    for group in rooms.values():
        if row:
            values = _along_row(group)
            found |= set(at_rank(values, "low", index, Margin(0.15))) | set(at_rank(values, "high", index, Margin(0.15)))
            continue
        along = _along_row(group)
        across = _across_row(group)
        for values in (along, across):
            if max(values.values()) - min(values.values()) < SPREAD_M:
                continue  # a row has no rank across it
            found |= set(at_rank(values, "low", index, Margin(0.15))) | set(at_rank(values, "high", index, Margin(0.15)))
    return found


def across_the_line(spot: Spot, kind: str, frame: Viewpoint) -> bool:
    """Whether a thing is clearly on the other side of the line of sight than the side said ('the lamp on the left',
    facing the bed, for a lone lamp to the right of the bed): more than SIDE_MARGIN's absolute part across it."""
    if kind not in ("left", "right"):
        return False
    offset = frame.across(*spot.xy)
    return offset > SIDE_MARGIN.absolute if kind == "left" else offset < -SIDE_MARGIN.absolute


def _along(frame: Viewpoint, spot: Spot, kind: str) -> float:
    """The value that is lowest for the thing most to that side, as seen from the frame (a camera's: as drawn)."""
    x, y = spot.xy
    z = (spot.z_min + spot.z_max) / 2
    if kind == "left":
        return frame.screen_x(x, y, z)
    if kind == "right":
        return -frame.screen_x(x, y, z)
    if kind == "front":
        return frame.depth(x, y, z)
    if kind == "back":
        return -frame.depth(x, y, z)
    distance = math.dist((x, y), frame.position[:2])
    return distance if kind == "near" else -distance


def _level(heights: dict[str, float], kind: str) -> list[str] | None:
    """'the upper cabinets', 'the lower one': the things on the upper (lower) of two levels, split where their heights
    part the most, when that gap is clear; None when they stand on one level."""
    ordered = sorted(heights.items(), key=lambda item: item[1])
    gaps = [(b[1] - a[1], k) for k, (a, b) in enumerate(itertools.pairwise(ordered))]
    if not gaps:
        return None
    gap, at = max(gaps)
    if gap < LEVEL_GAP_M:
        return None
    chosen = {c for c, _ in (ordered[at + 1:] if kind == "top" else ordered[:at + 1])}
    return [c for c in heights if c in chosen]


def _extreme(word: str) -> bool:
    """'the far left', 'all the way on the right', 'the leftmost': the very end, wherever it is, not only in sight."""
    return any(w in word for w in ("most", "far", "furthest", "farthest", "all the way", "end"))


def _in_sight(frame: Viewpoint, spots: dict[str, Spot]) -> dict[str, Spot]:
    """The things in front of someone, when two or more are: 'facing the bed, the lamp on the left' is one of the
    lamps they see, not one behind them."""
    ahead = {c: s for c, s in spots.items()
             if (depth := frame.depth(*s.xy, (s.z_min + s.z_max) / 2)) > IN_SIGHT_M
             and abs(frame.across(*s.xy)) <= depth * SIGHT_SLOPE}
    return ahead if len(ahead) > 1 else spots


def _outermost(spots: dict[str, Spot]) -> list[str]:
    """The things at the outside of the group, each clearly outside the others (more than the side margin beyond
    the hull of the rest): each is on the left or the right from some side; a row's two ends, a ring's every one."""
    if len(spots) <= 2:
        return list(spots)
    from shapely.geometry import MultiPoint, Point

    kept = []
    for code, spot in spots.items():
        rest = MultiPoint([s.xy for c, s in spots.items() if c != code]).convex_hull
        if rest.distance(Point(spot.xy)) > SIDE_MARGIN.absolute:
            kept.append(code)
    return kept or list(spots)


def _along_row(spots: dict[str, Spot], turn: float = 0.0) -> dict[str, float]:
    """Each thing's position along the line the group is spread along (its principal axis; `turn`: an axis that
    much turned from it)."""
    xs = [s.xy for s in spots.values()]
    mx, my = sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs)
    sxx = sum((p[0] - mx) ** 2 for p in xs)
    syy = sum((p[1] - my) ** 2 for p in xs)
    sxy = sum((p[0] - mx) * (p[1] - my) for p in xs)
    angle = 0.5 * math.atan2(2 * sxy, sxx - syy) + turn
    ux, uy = math.cos(angle), math.sin(angle)
    return {c: (s.xy[0] - mx) * ux + (s.xy[1] - my) * uy for c, s in spots.items()}


def _across_row(spots: dict[str, Spot]) -> dict[str, float]:
    """Each thing's position across the line the group is spread along (a grid's other axis)."""
    return _along_row(spots, math.pi / 2)


def _off_middle(spots: dict[str, Spot], frame: Viewpoint | None) -> dict[str, float]:
    """How far each thing is from the middle of the group, along the row (or across the view)."""
    if frame is not None:
        along = {c: frame.across(*s.xy) for c, s in spots.items()}
    else:
        along = _along_row(spots)
    ordered = sorted(along.values())
    middle = ordered[len(ordered) // 2] if len(ordered) % 2 else (ordered[len(ordered) // 2 - 1] + ordered[len(ordered) // 2]) / 2
    return {c: abs(v - middle) for c, v in along.items()}


def _room_centre(room: Spot) -> tuple[float, float]:
    centroid = room.shape.centroid
    return float(centroid.x), float(centroid.y)


def _apart_from_its_kind(spot: Spot, places: Places) -> float:
    """How far a thing stands from the nearest other thing of its kind in its room: 'the trash can off by
    itself' is the one farthest from the other trash cans."""
    others = [s for s in places.in_room(spot.room) if s.code != spot.code and s.label == spot.label]
    return min((gap(spot, s) for s in others), default=ALONE_FAR_M)
