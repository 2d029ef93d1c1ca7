"""Which objects a description means, as the reading before decided it: the head's matches, then its place, colour
and size words (its `resolve`, as `find(scene, text)` called it: no listed candidates, so no order words).

A place's reference is resolved first, on its own, and its items are never candidates; colour comes next and size
last, so "the biggest chair by the window" is the biggest of the chairs by the window.
"""

from __future__ import annotations

from scene_agent.errors import UsageError
from scene_agent.resolution.matching import entry, match
from scene_agent.resolution.places import Spot
from scene_agent.scene.index import IndexedRoom
from scene_agent.scene.loader import Scene
from scene_bench.grounding.before.narrowing import by_color, by_place, by_size
from scene_bench.grounding.before.query import Description, parse_description
from scene_bench.grounding.before.vocabulary import labelled

MAX_QUERY = 500  # find's input took at most this many characters; a longer one was refused as a usage error
EMPTY_QUERY = "the query is empty: say what to look for, e.g. 'chair' or '0-2-3'"


class _Places:
    """Spots of the scene's items, built on demand."""

    def __init__(self, scene: Scene):
        self.scene = scene
        self.cache: dict[str, Spot] = {}

    def spot(self, code: str) -> Spot:
        if code not in self.cache:
            found = entry(self.scene.index, code)
            room = found.room.code if isinstance(found, IndexedRoom) else found.room.room.code
            self.cache[code] = Spot(code=code, room=room, attributes=self.scene.item_attributes(code))
        return self.cache[code]


def resolve(scene: Scene, description: Description) -> list[str]:
    """The codes a description means in the scene (empty when a step leaves nothing)."""
    codes = list(match(labelled(scene.index), description.spec, related=False).codes)  # as head matching was
    if not codes:
        return []
    phrase = description.phrase
    if phrase.place is not None:
        groups: list[list[str]] = []
        for reference in description.references:
            resolved = resolve(scene, reference)
            if not resolved:
                return []
            groups.append(resolved)
        if groups or phrase.place.relation == "corner":
            codes = by_place(codes, phrase.place, _Places(scene).spot, groups)
            if not codes:
                return []
    if phrase.color is not None:
        codes = by_color(codes, phrase.color, scene.item_attributes)
        if not codes:
            return []
    if phrase.size is not None and len(codes) > 1:
        codes = by_size(codes, phrase.size, scene.item_attributes)
    return codes


def find_codes(scene: Scene, text: str) -> list[str]:
    """The candidates `find(scene, text)` gave, by code: a description read and resolved as the reading before did."""
    if len(text) > MAX_QUERY or not text.strip():
        raise UsageError(EMPTY_QUERY)
    return resolve(scene, parse_description(text.strip(), labelled(scene.index)))
