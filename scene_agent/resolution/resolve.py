"""Which rooms or objects a description means: the head's matches, then its order, place, colour and size words.

A place word's reference ("the sofa" in "the plant next to the sofa") is resolved first, on its
own; its items are never candidates. Order words ("the second one") only apply to a listed set
(`within`: the last answer's candidates, or a pending pick's). Superlatives come last, so "the
biggest chair by the window" is the biggest of the chairs by the window.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scene_agent.language.phrase import names_nothing
from scene_agent.resolution.matching import Missing, entry, match
from scene_agent.resolution.narrowing import Narrowing, by_color, by_order, by_place, by_size
from scene_agent.resolution.places import Spot
from scene_agent.resolution.query import Description
from scene_agent.scene.codes import parent_of
from scene_agent.scene.index import IndexedRoom
from scene_agent.scene.loader import Scene


@dataclass(frozen=True)
class Resolution:
    """What a description resolved to, and how: the head's matches, each qualifier's step, or why nothing fits."""

    description: Description
    considered: tuple[str, ...]
    codes: tuple[str, ...]
    floor: str | None = None
    narrowings: tuple[Narrowing, ...] = ()
    missing: Missing | None = None
    reference: Resolution | None = None  # a place's reference that matched nothing
    fallback_rooms: tuple[str, ...] = ()

    @property
    def failed(self) -> Narrowing | None:
        """The qualifier that left nothing, if one did."""
        last = self.narrowings[-1] if self.narrowings else None
        return last if last is not None and not last.kept else None


@dataclass
class _Places:
    """Spots of the scene's items, built on demand."""

    scene: Scene
    cache: dict[str, Spot] = field(default_factory=dict)

    def spot(self, code: str) -> Spot:
        if code not in self.cache:
            found = entry(self.scene.index, code)
            room = found.room.code if isinstance(found, IndexedRoom) else found.room.room.code
            self.cache[code] = Spot(code=code, room=room, attributes=self.scene.item_attributes(code))
        return self.cache[code]


def _names_nothing(description: Description) -> bool:
    spec = description.spec
    return names_nothing(description.phrase.head) or not (spec.codes or spec.object_labels or spec.room_types or
                                                          spec.room_names or spec.floor is not None or spec.generic)


def resolve(scene: Scene, description: Description, within: list[str] | None = None,
            taken: list[str] | None = None) -> Resolution:
    """The codes a description means in the scene (among `within` when given), with each step that got there."""
    listed = within is not None
    if listed and _names_nothing(description):
        base: tuple[str, ...] = tuple(within or ())
        found = None
        hinted = {r.room.code for w in description.spec.name_words for r in scene.index.rooms_by_name_word[w]}
        if hinted:  # "the guest one", "the one in the kids room": a word of a room's name places it
            base = tuple(c for c in base if c in hinted or parent_of(c) in hinted) or base
    else:
        found = match(scene.index, description.spec)
        base = tuple(c for c in found.codes if within is None or c in within)
        if within and not base and found.codes:
            # "the one in the kitchen", "the one upstairs" among listed objects: the rooms named hold the one meant.
            rooms = set(found.codes)
            base = tuple(c for c in within if parent_of(c) in rooms)
        if not base:
            missing = found.missing or Missing("unlisted", found.codes)  # named, but not among the listed ones
            return Resolution(description, (), (), floor=found.floor, missing=missing)
    floor = found.floor if found else None
    fallback = found.fallback_rooms if found else ()
    steps: list[Narrowing] = []
    codes = list(base)
    phrase = description.phrase
    places = _Places(scene)

    def done(reference: Resolution | None = None) -> Resolution:
        return Resolution(description, base, tuple(codes), floor, tuple(steps), reference=reference, fallback_rooms=fallback)

    if phrase.order is not None and listed:
        steps.append(by_order(codes, phrase.order, taken))
        codes = list(steps[-1].kept)
        if not codes:
            return done()
    if phrase.place is not None:
        groups: list[list[str]] = []
        for reference in description.references:
            resolved = resolve(scene, reference)
            if not resolved.codes:
                codes = []
                return done(resolved)
            groups.append(list(resolved.codes))
        if groups or phrase.place.relation == "corner":
            steps.append(by_place(codes, phrase.place, places.spot, groups, places.spot))
            codes = list(steps[-1].kept)
            if not codes:
                return done()
    if phrase.color is not None:
        steps.append(by_color(codes, phrase.color, scene.item_attributes))
        codes = list(steps[-1].kept)
        if not codes:
            return done()
    if phrase.size is not None and len(codes) > 1:
        steps.append(by_size(codes, phrase.size, scene.item_attributes))
        codes = list(steps[-1].kept)
    return done()
