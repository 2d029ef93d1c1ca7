"""Relations to other things applied to candidates: 'next to the sofa', 'on the table', 'between the bed and the
door', 'across from the red chair', 'to the left of the desk', 'with a lamp on it', 'not on the table'.

Each relation is either a fact that holds or not (on, under, above, inside, between) — every candidate it
holds for is kept, and if none quite holds the nearest miss is taken when it is close — or a matter of
degree (near, closest, farthest, at the end of, opposite, facing), decided by contrast (contrast.py): the
candidate clearly nearer (farther …) than the others. A reference is never its own candidate, and only
references in the candidate's own room count.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from scene_agent.language.reading import Relation, UnusedWhy
from scene_agent.resolution.contrast import Margin, at_rank, by_contrast
from scene_agent.resolution.facing import Vector
from scene_agent.resolution.narrowing import Narrowing, rounded
from scene_agent.resolution.places import (
    Spot,
    between_share,
    end_distance,
    gap,
    inside_miss,
    is_above,
    is_on,
    is_under,
    on_miss,
    wall_distance,
)
from scene_agent.resolution.spots import Places
from scene_agent.resolution.viewpoint import Viewpoint

NEAR = Margin(0.12, 0.05)       # 'closest to', 'next to': within 12 cm, or 5 % of the nearest gap, is as near
BESIDE = Margin(0.3, 0.5)        # 'to the left of X' with no viewpoint: those about as near X as the nearest
NEAR_ANY_M = 1.5                # 'by the window' with several windows: this close to any of them
FAR = Margin(0.12, 0.05)        # 'farthest from': within 12 cm, or 5 %, of the farthest
SHARPENED = frozenset({"on", "supporting", "under", "above", "inside"})
FACT_MARGIN = Margin(0.05)      # of several a fact holds for, those that miss by more than this than the best go
MISS_SLACK_M = 0.25             # a fact that holds for none: the nearest miss is kept if it misses by no more
BETWEEN_SHARE = 0.5             # 'between': at least half its footprint in the hull of the two
LISTED_NEAR_M = 0.5             # 'what is next to the bed': every thing this close to it
LISTED_BESIDE_M = 1.0           # 'what is in front of the sofa': every thing on that side this close to it
COUNT_REACH_M = 0.6             # 'with four chairs around it': chairs this close count
WALL_MARGIN = Margin(0.12, 0.1)  # 'closest to the wall': within 12 cm (or 10 %) of the nearest is as near
SIDE_BAND = 0.3                 # 'to the left of X': no further in front of or behind X than its depth and this

Measure = tuple[dict[str, float], set[str] | None, str, Margin]  # values, holds-for (None: by degree), better, margin


def by_relation(codes: list[str], relation: Relation, groups: list[list[str]], places: Places,
                frame: Viewpoint | None, rank: int | None = None, listing: bool = False) -> Narrowing:
    """Keep the candidates the relation holds for (or holds most clearly for), never a reference itself; with `rank`,
    the one at that rank by it ('the second closest to the door': 1). `listing`: every thing it holds for is asked
    for ('what is next to the bed'), so nearness keeps all close enough, not the nearest."""
    refs = [code for group in groups for code in group]
    spot = places.spot
    by_room: dict[str, list[Spot]] = {}
    for r in dict.fromkeys(refs):
        by_room.setdefault(spot(r).room, []).append(spot(r))

    def refs_of(code: str) -> list[Spot]:
        return [r for r in by_room.get(spot(code).room, ()) if r.code != code]

    # Only candidates in a room with a reference count: those elsewhere are never measured (a building's other rooms
    # cost nothing).
    pool = [c for c in codes if spot(c).room in by_room and refs_of(c)] if relation.kind != "between" else codes
    measured = _measure(pool, relation, groups, refs_of, places, frame, listing)
    if listing and measured is not None:
        measured = _listed(measured, relation)
    note: UnusedWhy | None = None
    if measured is None and relation.kind in ("left", "right", "front", "behind"):
        # No viewpoint: left of X is beside X from some side, so those beside it are the few it leaves.
        values = {c: min((gap(spot(c), r) for r in refs_of(c)), default=math.inf) for c in pool}
        measured, note = (values, None, "low", BESIDE), "no_view"
    if measured is None:
        return Narrowing("place", relation.word, tuple(codes), tuple(codes), references=tuple(refs),
                         note="no_front" if relation.kind == "facing" else None)
    values, holds, better, margin = measured
    if holds is not None:
        kept = [c for c in pool if c in holds]
        if len(kept) > 1 and relation.kind in SHARPENED and not listing:  # any that holds only at a stretch (a rug by the bed) goes
            kept = by_contrast({c: values[c] for c in kept}, "low", FACT_MARGIN) or kept
        if relation.negated:
            kept = [c for c in codes if c not in holds]
        elif not kept and not listing:
            near = {c: v for c, v in values.items() if v <= MISS_SLACK_M}
            kept = by_contrast(near, "low", Margin(0.1, 0.5))
    else:
        best = _per_room(values, better, margin, places, rank)
        kept = [c for c in codes if c not in best] if relation.negated else best
    tied = len(kept) > 1 and not relation.negated
    return Narrowing("place", relation.word, tuple(codes), tuple(kept), tied=tied, values=rounded(values),
                     references=tuple(refs), negated=relation.negated, note=note)


def _listed(measured: Measure, relation: Relation) -> Measure:
    """What a place holds when every thing there is asked for: 'what is next to the bed' keeps all within reach (the
    nearest ones when none is), 'what is in front of the sofa' what stands there, not all on that side of the room."""
    distance, holds = measured[0], measured[1]
    if relation.kind == "near" and not relation.count:
        close = {c for c, v in distance.items() if v <= LISTED_NEAR_M}
        return (distance, close, "low", NEAR) if close else measured
    if relation.kind in ("left", "right", "front", "behind") and holds:
        beside = {c for c in holds if distance[c] <= LISTED_BESIDE_M}
        return distance, beside or set(by_contrast({c: distance[c] for c in holds}, "low", NEAR)), "low", NEAR
    return measured


def to_the_walls(relation: Relation) -> bool:
    """'closest to the wall', 'far from the walls': a room's walls are its outline, not things of a scan (which wall
    'the far wall' or 'the yellow wall' is, the outline does not say)."""
    ref = relation.references[0] if len(relation.references) == 1 else None
    return relation.kind in ("closest", "farthest") and ref is not None and ref.head in ("wall", "walls") and \
        not ref.qualified and ref.text.split()[-1:] in (["wall"], ["walls"]) and len(ref.text.split()) <= 2


def by_walls(codes: list[str], relation: Relation, places: Places) -> Narrowing:
    """'closest to the wall', 'furthest from the wall': measured to the room's outline (a room's walls are not things
    of the scan), room by room as any relation."""
    values = {c: wall_distance(places.spot(c), places.room(c)) for c in codes}
    finite = {c: v for c, v in values.items() if math.isfinite(v)}
    best = _per_room(finite, "low" if relation.kind == "closest" else "high", WALL_MARGIN, places)
    kept = [c for c in codes if c not in best] if relation.negated else best
    return Narrowing("place", relation.word, tuple(codes), tuple(kept), tied=len(kept) > 1 and not relation.negated,
                     values=rounded(values), negated=relation.negated)


def _per_room(values: dict[str, float], better: str, margin: Margin, places: Places, rank: int | None = None
              ) -> list[str]:
    """Contrast within each room: 'the chair closest to the window' in a home is each room's closest (several rooms:
    the user says which), unless the words named the room; with `rank`, each room's one at that rank."""
    rooms: dict[str, dict[str, float]] = {}
    for code, value in values.items():
        rooms.setdefault(places.spot(code).room, {})[code] = value
    kept = {c for group in rooms.values()
            for c in (by_contrast(group, better, margin) if rank is None else at_rank(group, better, rank, margin))}  # type: ignore[arg-type]
    return [c for c in values if c in kept]


def _measure(codes: list[str], relation: Relation, groups: list[list[str]], refs_of: Callable[[str], list[Spot]],
             places: Places, frame: Viewpoint | None, listing: bool = False) -> Measure | None:
    kind = relation.kind
    spot = places.spot
    inf = math.inf

    def least(code: str, f: Callable[[Spot, Spot], float]) -> float:
        return min((f(spot(code), r) for r in refs_of(code)), default=inf)

    if kind in ("near", "closest", "with") and relation.count:
        counts = {c: sum(1 for r in refs_of(c) if gap(spot(c), r) <= COUNT_REACH_M) for c in codes}
        values = {c: float(abs(n - relation.count)) for c, n in counts.items()}
        return values, {c for c, v in values.items() if v == 0}, "low", Margin(0.5)
    if kind in ("near", "closest", "with"):
        values = {c: least(c, gap) for c in codes}
        if kind == "near" and len({r for g in groups for r in g}) > 1:
            # "the chair by the window" with several windows: every chair by one of them is by a window.
            holds = {c for c, v in values.items() if v <= NEAR_ANY_M}
            if len(holds) > 1:
                return values, holds, "low", NEAR
        return values, None, "low", NEAR
    if kind == "farthest":
        return {c: least(c, gap) for c in codes}, None, "high", FAR
    if kind == "on":
        resting = {c: [r for r in refs_of(c) if is_on(spot(c), r)] for c in codes}
        holds = {c for c, under in resting.items() if under}
        # a pillow sunk into a sofa's seat or a bed is as much on it as one on its back: holding is holding
        soft = {c for c, under in resting.items() if any(_soft(r) for r in under)}
        return {c: 0.0 if c in soft else least(c, on_miss) for c in codes}, holds, "low", NEAR
    if kind == "supporting":
        return ({c: min((on_miss(r, spot(c)) for r in refs_of(c)), default=inf) for c in codes},
                {c for c in codes if any(is_on(r, spot(c)) for r in refs_of(c))}, "low", NEAR)
    if kind == "under":
        return ({c: least(c, _under_miss) for c in codes},
                {c for c in codes if any(is_under(spot(c), r, at_edge=not listing) for r in refs_of(c))}, "low", NEAR)
    if kind == "above":
        return ({c: least(c, _above_miss) for c in codes},
                {c for c in codes if any(is_above(spot(c), r, at_edge=not listing) for r in refs_of(c))}, "low", NEAR)
    if kind == "inside":
        values = {c: least(c, inside_miss) for c in codes}
        return values, {c for c, v in values.items() if v == 0}, "low", NEAR
    if kind == "between":
        return _between(codes, groups, places)
    if kind == "end":
        return {c: least(c, end_distance) for c in codes}, None, "low", NEAR
    if kind == "opposite":
        return {c: least(c, lambda a, b: _opposite_miss(a, b, places)) for c in codes}, None, "low", Margin(0.3, 0.3)
    if kind == "facing":
        facings = {c: places.facing(c) for c in codes}
        if all(f is None for f in facings.values()):
            return None
        turned: dict[str, float] = {}
        for c in codes:
            front = facings[c]
            turned[c] = min((_turn_to(spot(c), r, front) for r in refs_of(c)), default=inf)
        return turned, None, "low", Margin(20.0)
    if kind in ("left", "right", "front", "behind"):
        beside = _beside(codes, kind, refs_of, places, frame)
        there = beside[1] if beside is not None else None
        if beside is None or there is None or listing or relation.negated or len(there) < 2:
            return beside  # (not in front of it: none that is)
        # "the lamp in front of the window": the one right in front of it, not all on that side of the room (those
        # about as near are kept: a near tie is asked about)
        return beside[0], set(by_contrast({c: beside[0][c] for c in there}, "low", BESIDE)), "low", NEAR
    return None


SOFT = frozenset({"sofa", "couch", "bed", "armchair", "sofa chair", "loveseat", "futon", "ottoman", "bunk bed", "mattress"})


def _soft(spot: Spot) -> bool:
    """Whether things sink into it: a sofa, a bed."""
    label = (spot.label or "").lower()
    return label in SOFT or label.split()[-1:] in (["sofa"], ["couch"], ["bed"])


def _under_miss(a: Spot, b: Spot) -> float:
    """How far a is from being under b: off b's footprint, plus how far its top rises over b's."""
    return float(a.shape.distance(b.shape)) + max(0.0, a.z_max - b.z_max)


def _above_miss(a: Spot, b: Spot) -> float:
    """How far a is from being above b: off b's footprint, plus how far its bottom sinks below b's top."""
    return float(a.shape.distance(b.shape)) + max(0.0, b.z_max - a.z_min)


def _between(codes: list[str], groups: list[list[str]], places: Places) -> Measure:
    """Between two things (or two of several: 'between the two windows', 'in the middle of the other plants'); with
    one thing only ('in the middle of the table') it is nearest that thing's middle."""
    spot = places.spot
    values: dict[str, float] = {}
    single = len(groups) == 1 and len(groups[0]) == 1
    for c in codes:
        room = spot(c).room
        if len(groups) >= 2:
            pairs = [(x, y) for x in groups[0] for y in groups[1] if x != y and c not in (x, y)]
        else:
            members = [g for g in (groups[0] if groups else []) if g != c]
            pairs = [(x, y) for i, x in enumerate(members) for y in members[i + 1:]]
        pairs = [(x, y) for x, y in pairs if spot(x).room == room == spot(y).room]
        if single:
            ref = spot(groups[0][0])
            values[c] = math.dist(spot(c).xy, ref.xy) if ref.code != c and ref.room == room else math.inf
            continue
        share = max((between_share(spot(c), spot(x), spot(y)) for x, y in pairs), default=0.0)
        values[c] = 1.0 - share
    if single:
        return values, None, "low", NEAR
    return values, {c for c, v in values.items() if v <= 1.0 - BETWEEN_SHARE}, "low", Margin(0.1)


def _opposite_miss(a: Spot, b: Spot, places: Places) -> float:
    """How far a is from straight across b: across the thing between them (a table), or across the room from b's
    front. Lower is better."""
    mid = ((a.xy[0] + b.xy[0]) / 2, (a.xy[1] + b.xy[1]) / 2)
    from shapely.geometry import Point

    middle = Point(mid)
    between = [s for s in places.in_room(a.room) if s.code not in (a.code, b.code) and s.shape.distance(middle) <= 0.1]
    if between:
        centre = min(between, key=lambda s: s.area).xy
        return math.dist(mid, centre)
    front = places.facing(b.code)
    if front is None:
        return math.inf
    dx, dy = a.xy[0] - b.xy[0], a.xy[1] - b.xy[1]
    norm = math.hypot(dx, dy) or 1.0
    cos = (dx * front[0] + dy * front[1]) / norm
    return 1.0 + (1.0 - cos) * 3.0 if cos > 0.5 else math.inf


def _turn_to(a: Spot, b: Spot, facing: Vector | None) -> float:
    """The angle (degrees) between a's facing and the direction from a to b."""
    if facing is None:
        return math.inf
    dx, dy = b.xy[0] - a.xy[0], b.xy[1] - a.xy[1]
    norm = math.hypot(dx, dy) or 1.0
    return math.degrees(math.acos(max(-1.0, min(1.0, (dx * facing[0] + dy * facing[1]) / norm))))


def _beside(codes: list[str], kind: str, refs_of: Callable[[str], list[Spot]], places: Places,
            frame: Viewpoint | None) -> Measure | None:
    """Left of / right of / in front of / behind a reference, as seen from the frame (the words' or the viewer's);
    in front of and behind without one: the reference's own front, where its geometry shows it."""
    spot = places.spot
    holds: set[str] = set()
    values: dict[str, float] = {}
    for c in codes:
        best = math.inf
        for r in refs_of(c):
            seen = frame or _in_front_of(r, places) if kind in ("front", "behind") else frame
            if seen is None:
                return None
            dx = seen.across(*spot(c).xy) - seen.across(*r.xy)
            dy = seen.ahead(*spot(c).xy) - seen.ahead(*r.xy)
            # On that side of the reference: further off to that side than in front or behind it (beyond its own depth
            # and a band), as Sr3D's sections around a thing are drawn.
            half_across, half_ahead = _half_extents(r, seen)
            fits = {"left": dx < -0.05 and abs(dy) <= abs(dx) + half_ahead + SIDE_BAND,
                    "right": dx > 0.05 and abs(dy) <= abs(dx) + half_ahead + SIDE_BAND,
                    "front": dy < -0.05 and abs(dx) <= abs(dy) + half_across + SIDE_BAND,
                    "behind": dy > 0.05 and abs(dx) <= abs(dy) + half_across + SIDE_BAND}[kind]
            if fits:
                holds.add(c)
                best = min(best, gap(spot(c), r))
        values[c] = best
    return values, holds, "low", NEAR


def _half_extents(spot: Spot, frame: Viewpoint) -> tuple[float, float]:
    """Half the footprint's width across the view and half its depth along it."""
    points = spot.attributes.footprint or [spot.xy]
    across = [frame.across(x, y) for x, y in points]
    ahead = [frame.ahead(x, y) for x, y in points]
    return (max(across) - min(across)) / 2, (max(ahead) - min(ahead)) / 2


def _in_front_of(reference: Spot, places: Places) -> Viewpoint | None:
    """Someone standing in front of the reference and looking at it, when its front is known."""
    front = places.facing(reference.code)
    if front is None:
        return None
    x, y = reference.xy
    return Viewpoint.looking((x + 2 * front[0], y + 2 * front[1], 1.6), (x, y, 1.0), source="facing")
