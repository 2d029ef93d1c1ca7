"""Which rooms or objects a description means: the head's matches, then every other part of its reading.

Order of steps: a listed position ('the second one', among `within` only); what is excluded ('not the red
one'); facts that hold or not (on, under, inside, between, in the corner, against the wall); what is decided
by contrast (near, farthest, opposite, left of …, the left one, the middle one); colour, material and shape
(a colour that fits none the places left but others they ruled out offers both); then left, right, front and
back when nothing says from where (the weakest words: 'the red chair on the left' is the left of the red chairs);
last size and rank ('the biggest', 'the second largest'), so that 'the biggest chair by the window' is the
biggest of the chairs by the window. A reference is resolved on its own first and is never a candidate. A
reference the scene has nothing of, or a side with no viewpoint, does not stop the search: the words are set
aside (`unused`, with why) and the rest decides, or the user is asked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from scene_agent.language.color_words import ColorWord
from scene_agent.language.reading import Reading, Relation, Side, Unused, names_nothing
from scene_agent.language.relation_words import PLACING
from scene_agent.language.words import singular_phrase
from scene_agent.resolution.attachment import hoisted
from scene_agent.resolution.facing import view_frame
from scene_agent.resolution.matching import Missing, hinted_rooms, match
from scene_agent.resolution.naming import exactly_named, loosely_named, named_otherwise
from scene_agent.resolution.narrowing import Narrowing, by_color, by_material, by_order, by_rank, by_shape, by_size
from scene_agent.resolution.outcome import Resolution
from scene_agent.resolution.placing import kin_in_rooms, rooms_of_references, says_where
from scene_agent.resolution.query import Description, describe
from scene_agent.resolution.relating import by_relation, by_walls, to_the_walls
from scene_agent.resolution.sides import across_the_line, by_position, by_side
from scene_agent.resolution.spots import Places, places_of
from scene_agent.resolution.viewpoint import Viewpoint
from scene_agent.scene.codes import kind_of, parent_of
from scene_agent.scene.loader import Scene

FACTS = frozenset({"on", "supporting", "under", "above", "inside", "between"})
PLACES = frozenset({"corner", "wall", "floor", "ceiling", "top", "bottom", "alone", "together"})
VIEW_SIDES = frozenset({"left", "right", "front", "back"})
SIZE_MEASURES = frozenset({"size", "height", "length", "depth"})
EVERY_THING = frozenset({"everything", "anything", "stuff"})  # 'everything on the desk': all of them, as 'things' does
# Words about the thing that fit none of the candidates are set aside (said so), never left to say "none": a scan's
# colours are dull, its boxes rough, people's words rougher. Only a listed position ('the fifth one') can be wrong.
SET_ASIDE = frozenset({"color", "place", "side", "ordinal", "shape", "material", "exclude"})


def _names_nothing(description: Description) -> bool:
    spec = description.spec
    return names_nothing(description.reading.head) or not (spec.codes or spec.object_labels or spec.room_types or
                                                           spec.room_names or spec.floor is not None or spec.generic)


def resolve(scene: Scene, description: Description, within: list[str] | None = None, taken: list[str] | None = None,
            viewpoint: Viewpoint | None = None, places: Places | None = None, rooms: frozenset[str] | None = None
            ) -> Resolution:
    """The codes a description means in the scene (among `within` when given), with each step that got there.

    `rooms`: only things in these rooms matter (a reference to candidates there): a building's other rooms cost
    nothing.
    """
    places = places or places_of(scene)
    listed = within is not None
    reading = description.reading
    if listed and _names_nothing(description):
        base: tuple[str, ...] = tuple(within or ())
        found = None
        hinted = hinted_rooms(scene.index, description.spec.name_words) or set()
        if hinted:  # "the guest one", "the one in the kids room": a word of a room's name places it
            base = tuple(c for c in base if c in hinted or parent_of(c) in hinted) or base
    else:
        found = match(scene.index, description.spec)
        base = tuple(c for c in found.codes if within is None or c in within)
        if rooms is not None:
            inside = tuple(c for c in base if parent_of(c) in rooms or c in rooms)
            if not inside and (kin := kin_in_rooms(scene, description.spec, rooms)) is not None:
                found, inside = kin, kin.codes
            base = inside or base
        elif within is None and not says_where(description.spec) and (placed := rooms_of_references(scene, reading)):
            base = tuple(c for c in base if parent_of(c) in placed) or base
        if within and not base and found.codes:
            named = set(found.codes)  # "the one in the kitchen" among listed objects: the rooms named hold it
            base = tuple(c for c in within if parent_of(c) in named)
        if not base and not found.codes and within is None and (other := named_otherwise(scene, description)):
            return resolve(scene, other, None, taken, viewpoint, places, rooms)
        if not base:
            missing = found.missing or Missing("unlisted", found.codes)
            return Resolution(description, (), (), floor=found.floor, missing=missing, unused=reading.unused)
    if found is not None and found.instead:
        said = description.reading.said or " ".join(found.instead_of)
        description = replace(description, reading=replace(
            description.reading, unused=(*description.reading.unused, Unused(said, "instead", found.instead[0]))))
        reading = description.reading
    if found is not None and found.untyped_for:
        description = replace(description, reading=replace(description.reading, unused=(
            *description.reading.unused, *(Unused(t.replace("_", " "), "untyped") for t in found.untyped_for))))
        reading = description.reading
    if not listed:
        base = exactly_named(scene, description, base)
    loose = loosely_named(scene, description, base)
    if reading.view is not None and not listed:
        by_room = _by_view_room(scene, places, reading, base)
        if len(by_room) > 1:
            return _pooled(description, base, found.floor if found else None, by_room, scene, places, viewpoint, loose,
                           found.fallback_rooms if found else ())
        base = by_room[0] if by_room else base
    run = _Run(scene, places, list(base), viewpoint, loose)
    run.nameless = description.nameless
    run.resolve(reading, listed, taken)
    if run.reading is not None and run.reading is not reading:  # a clause moved to the thing meant (attachment.py): shown where it was used
        description = replace(description, reading=run.reading)
    return Resolution(description, base, tuple(run.codes), found.floor if found else None, tuple(run.steps),
                      reference=run.empty_reference, fallback_rooms=found.fallback_rooms if found else (),
                      unused=tuple(reading.unused) + tuple(run.unused), frame=run.frame)


def _by_view_room(scene: Scene, places: Places, reading: Reading, base: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The candidates room by room, for a viewpoint said in words: it stands in one room ('facing the bed' in each
    bedroom), so only rooms holding what it names count, and each is read from its own. Rooms as candidates stay
    together."""
    if any(c.count("-") != 2 for c in base):
        return [base]
    rooms = list(dict.fromkeys(parent_of(c) for c in base))
    view = reading.view
    named = view.toward or view.at if view is not None else None
    if named is not None and len(rooms) > 1:
        things = resolve(scene, describe(named, scene.index), places=places).codes
        holding = {parent_of(c) for c in things}
        rooms = [r for r in rooms if r in holding] or rooms
    return [tuple(c for c in base if parent_of(c) == room) for room in rooms]


def _pooled(description: Description, base: tuple[str, ...], floor: str | None, by_room: list[tuple[str, ...]],
            scene: Scene, places: Places, viewpoint: Viewpoint | None, loose: frozenset[str],
            fallback_rooms: tuple[str, ...]) -> Resolution:
    """The reading resolved in each room on its own and the rooms' picks pooled ('facing the bed, the lamp on the left'
    with three bedrooms: the left lamp of each, for the user to choose among). Each room's steps are kept, in order."""
    steps: list[Narrowing] = []
    unused: list[Unused] = list(description.reading.unused)
    frame: Viewpoint | None = None
    kept_rooms = {parent_of(c) for group in by_room for c in group}
    dropped = tuple(c for c in base if parent_of(c) not in kept_rooms)
    if dropped:
        view = description.reading.view
        named = (view.toward or view.at) if view is not None else None
        words = f"{view.word} {named.text}".strip() if view is not None and named is not None else ""
        steps.append(Narrowing("place", words, base, tuple(c for c in base if c not in dropped)))
    sides = [side.kind for side in description.reading.sides if side.kind in ("left", "right") and not side.negated]
    runs: list[tuple[_Run, bool]] = []  # each room's run, and whether its lone candidate is clearly on the other side
    for group in by_room:
        run = _Run(scene, places, list(group), viewpoint, loose & frozenset(group))
        run.lone_sides = False
        run.resolve(description.reading, False, None)
        frame = frame or run.frame
        other_side = len(run.codes) == 1 and run.frame is not None and run.frame.source == "words" and any(
            across_the_line(places.spot(run.codes[0]), side, run.frame) for side in sides)
        runs.append((run, other_side))
    # The rooms where every word holds; else those where only some were set aside; else all (the side set aside).
    chosen = ([r for r in runs if not r[1] and not any(step.set_aside for step in r[0].steps)]
              or [r for r in runs if not r[1]] or runs)
    codes: list[str] = []
    for run, other_side in chosen:
        codes += run.codes
        steps += run.steps
        if other_side:
            steps.append(Narrowing("side", description.reading.sides[0].word, tuple(run.codes), tuple(run.codes),
                                   set_aside=True))
        unused += [u for u in run.unused if u not in unused]
    kept = tuple(c for c in base if c in set(codes))
    return Resolution(description, base, kept, floor, tuple(steps), fallback_rooms=fallback_rooms, unused=tuple(unused),
                      frame=frame)


def _them(reading: Reading | None) -> bool:
    """Whether a view looks at what it picks among: 'facing them', 'when viewing them all'."""
    return reading is not None and not reading.head and reading.text.split()[:1] in (["them"], ["those"], ["these"])


class _Run:
    """One resolution's steps over the candidates, stopping at the first that leaves nothing."""

    def __init__(self, scene: Scene, places: Places, codes: list[str], camera: Viewpoint | None,
                 loose: frozenset[str] = frozenset()):
        self.scene, self.places, self.codes, self.camera, self.loose = scene, places, codes, camera, loose
        self.steps: list[Narrowing] = []
        self.unused: list[Unused] = []
        self.frame: Viewpoint | None = camera
        self.empty_reference: Resolution | None = None
        self.lone_sides = True  # a lone candidate on the other side than said is set aside and said (not when pooled)
        self.nameless = False  # the words name no kind (Description.nameless): where it is is all they say
        self.reading: Reading | None = None  # the reading as resolved

    def step(self, narrowing: Narrowing | Callable[[list[str]], Narrowing]) -> bool:
        """Record a step (given as the narrowing, or as how to narrow some codes); False when it left nothing.

        Given as how to narrow, candidates named exactly and those named by their last word only are narrowed apart
        and kept together: 'the chair far from the table' may mean the farthest chair or the farthest office chair."""
        if not isinstance(narrowing, Narrowing):
            narrowing = self._apart(narrowing)
        if not narrowing.kept and narrowing.kind in SET_ASIDE and narrowing.before and not (
                self.nameless and narrowing.kind == "place" and not narrowing.note):
            self.unused.append(Unused(narrowing.words, "fits_none"))
            narrowing = replace(narrowing, kept=narrowing.before, tied=False, set_aside=True)
            self.steps.append(narrowing)
            return True
        self.steps.append(narrowing)
        if narrowing.note:
            self.unused.append(Unused(narrowing.words, narrowing.note))
        self.codes = list(narrowing.kept)
        return bool(self.codes)

    def _apart(self, narrow: Callable[[list[str]], Narrowing]) -> Narrowing:
        """The step read both ways — over every candidate, and over those the scene itself calls what the words say —
        and, where the two readings pick differently, both picks kept for the user to choose between."""
        exact = [c for c in self.codes if c not in self.loose]
        every = narrow(self.codes)
        if not exact or len(exact) == len(self.codes) or set(every.kept) <= set(exact):
            return every
        strict = narrow(exact)
        kept = set(every.kept) | set(strict.kept)
        codes = tuple(c for c in self.codes if c in kept)
        return replace(every, kept=codes, tied=len(codes) > 1 and not every.negated)

    def resolve(self, reading: Reading, listed: bool, taken: list[str] | None) -> None:
        attributes = self.scene.item_attributes
        reading = self.reading = hoisted(reading, self._means)
        if reading.order is not None and listed and not self.step(by_order(self.codes, reading.order, taken)):
            return
        for excluded in reading.excluded:
            if not self._exclude(excluded):
                return
        self.frame = self._frame(reading) or self.camera
        relations: list[tuple[Relation, list[list[str]]]] = []
        walls = [r for r in reading.relations if to_the_walls(r)]
        for relation in reading.relations:
            if relation in walls:
                continue
            groups = self._references(relation)
            if groups is not None:
                relations.append((relation, groups))
        if self.empty_reference is not None and not self.codes:
            return
        for relation, groups in relations:
            if relation.kind in FACTS and not self.step(self._relating(relation, groups)(self.codes)):
                return
        for side in reading.sides:
            if side.kind in PLACES and side.kind not in ("top", "bottom") and not self._side(side):
                return
        placed_among = list(self.codes)
        for relation in walls:
            if not self.step(by_walls(self.codes, relation, self.places)):
                return
        ordinal = reading.ordinal
        # "the second closest chair to the door": the ordinal counts along the relation, not along a row
        ranked = next((r for r, _ in relations if r.kind in ("closest", "farthest")), None) \
            if ordinal is not None and ordinal.by == "row" and ordinal.index >= 0 else None
        for relation, groups in relations:
            rank = ordinal.index if ordinal is not None and relation is ranked else None
            if relation.kind not in FACTS and not self.step(self._relating(relation, groups, rank)):
                return
        # "the closest chair on the left": nearest among those on the left, so nearness comes last
        unseen = [s for s in reading.sides if self.frame is None and s.kind in VIEW_SIDES and not s.negated]
        for side in sorted(reading.sides, key=lambda s: s.kind in ("near", "far")):
            if (side.kind not in PLACES or side.kind in ("top", "bottom")) and side not in unseen and not self._side(side):
                return
        for color in reading.colors:
            if not self._color(color, placed_among):
                return
        for material in reading.materials:
            self.step(by_material(self.codes, material, attributes))
        for shape in reading.shapes:
            self.step(by_shape(self.codes, shape, attributes))
        for side in unseen:
            if not self._side(side):
                return
        if reading.size is not None and len(self.codes) > 1:
            self.step(by_size(self.codes, reading.size, attributes))
        if ordinal is not None and ranked is None and not (reading.order is not None and listed) and len(self.codes) > 1:
            if ordinal.by in SIZE_MEASURES:
                self.step(by_rank(self.codes, ordinal.word, ordinal.by, ordinal.index, attributes,
                                  largest_first=not ordinal.smallest_first))
            else:
                self.step(by_position(self.codes, ordinal, self.places, self.frame))

    def _color(self, color: ColorWord, placed_among: list[str]) -> bool:
        """A colour among those the places left; where it fits none of them but fits others the places ruled out, the
        words disagree with the scan (a colour measured off, a place misjudged): both are offered."""
        attributes = self.scene.item_attributes
        narrowing = by_color(self.codes, color, attributes)
        if narrowing.kept or len(placed_among) == len(self.codes):
            return self.step(narrowing)
        elsewhere = by_color(placed_among, color, attributes)
        if not elsewhere.kept or len(elsewhere.kept) == len(placed_among):
            return self.step(narrowing)
        both = set(self.codes) | set(elsewhere.kept)
        kept = tuple(c for c in placed_among if c in both)
        return self.step(Narrowing("color", color.word, tuple(self.codes), kept, tied=True, values=narrowing.values))

    def _relating(self, relation: Relation, groups: list[list[str]], rank: int | None = None
                  ) -> Callable[[list[str]], Narrowing]:
        """How a relation narrows some codes (for `step` to read it over both namings)."""
        listing = self.nameless and bool(self.reading and (self.reading.plural or self.reading.head in EVERY_THING))
        return lambda codes: by_relation(codes, relation, groups, self.places, self.frame, rank, listing)

    def _side(self, side: Side) -> bool:
        if len(self.codes) <= 1 and not side.negated and side.kind not in ("corner", "wall", "floor", "ceiling"):
            frame = self.frame
            if (self.codes and self.lone_sides and frame is not None and frame.source == "words"
                    and across_the_line(self.places.spot(self.codes[0]), side.kind, frame)):
                # 'facing the bed, the lamp on the right' where the only lamp is at its left: said, then set aside
                return self.step(Narrowing("side", side.word, tuple(self.codes), ()))
            return True
        return self.step(by_side(self.codes, side, self.places, self.frame))

    def _exclude(self, excluded: Reading) -> bool:
        """'not the red one', 'except the office chair': whatever those words pick among the candidates goes."""
        described = describe(excluded, self.scene.index)
        inner = resolve(self.scene, described, within=list(self.codes), places=self.places)
        out = set(inner.codes)
        if not out or out >= set(self.codes):  # (none is in the room said not to be it: the words hold, and are used)
            if out or described.spec.object_labels or excluded.qualified or not says_where(described.spec):
                self.unused.append(Unused(excluded.text or "not …", "excludes_none"))
            return True
        kept = tuple(c for c in self.codes if c not in out)
        return self.step(Narrowing("exclude", f"not {excluded.text}".strip(), tuple(self.codes), kept, tied=len(kept) > 1))

    def _references(self, relation: Relation) -> list[list[str]] | None:
        """The codes each reference of a relation means; None when the scene has nothing it could mean (the relation
        is then set aside, and said so)."""
        groups: list[list[str]] = []
        rooms = frozenset(self.places.spot(c).room for c in self.codes)
        for ref in relation.references:
            # read from where the speaker stands, too: 'facing the bed, the lamp on the nightstand on the left'
            described = describe(ref, self.scene.index)
            resolved = resolve(self.scene, described, places=self.places, rooms=rooms, viewpoint=self.frame)
            if resolved.codes and ref.said in described.spec.unknown_words:  # "the fireplace in the kitchen": not the
                resolved = resolve(self.scene, describe(replace(ref, head=ref.said), self.scene.index))  # kitchen
            if not resolved.codes and resolved.missing is None and ref.qualified:
                bare = replace(ref, colors=(), size=None, shapes=(), materials=(), relations=(), sides=(), ordinal=None)
                resolved = resolve(self.scene, describe(bare, self.scene.index), places=self.places, rooms=rooms)
                if resolved.codes:
                    self.unused.append(Unused(ref.text, "none_fits", ref.head))
            if not resolved.codes:
                if self.nameless and not self._describes():  # "what is on the piano" with no piano: nothing is, and why
                    self.empty_reference, self.codes = resolved, []
                    return None
                if not ref.head or (resolved.missing is not None and resolved.missing.kind in ("label", "words", "room")):
                    said = singular_phrase(ref.said) if ref.said else ref.head or ref.text  # not 'fireplace kitchen'
                    self.unused.append(Unused(f"{relation.word} {ref.text}".strip(), "no_such", said))
                    return None
                self.empty_reference = resolved
                self.unused.append(Unused(f"{relation.word} {ref.text}".strip(), "none_fits", ref.head))
                return None
            if relation.kind not in PLACING and all(kind_of(c) == "room" for c in resolved.codes):
                # "the table furthest from the kitchen": a room is no thing to measure from (its own things are in it)
                self.unused.append(Unused(f"{relation.word} {ref.text}".strip(), "by_a_room", ref.head))
                return None
            self.unused += [u for u in resolved.unused if u not in self.unused]  # "the bed closest to the window"
            groups.append(list(resolved.codes))
        return groups if groups or relation.kind == "between" else None

    def _describes(self) -> bool:
        """Whether the words say what the thing is like (colour, size, shape, material), not only where it is."""
        reading = self.reading
        return reading is not None and bool(reading.colors or reading.size or reading.shapes or reading.materials)

    def _means(self, reference: Reading) -> frozenset[str]:
        rooms = frozenset(self.places.spot(c).room for c in self.codes)
        return frozenset(resolve(self.scene, describe(reference, self.scene.index), places=self.places, rooms=rooms).codes)

    def _frame(self, reading: Reading) -> Viewpoint | None:
        """The viewpoint the words give ('facing the bed', 'as you enter'), when the scene shows where that is."""
        view = reading.view
        if view is None or not self.codes:
            return None
        # "facing them", "viewing them all": the candidates themselves are looked at
        toward = [self.places.spot(c) for c in self.codes] if _them(view.toward) else self._things(view.toward)
        at = self._things(view.at)
        room = self.places.room(self.codes[0])
        others = self.places.in_room(room.code)
        frame = view_frame(view, toward, at, room, others, [self.places.spot(c) for c in self.codes],
                           self.places.doors(room.code))
        if frame is None:
            self.unused.append(Unused(view.word, "not_there"))
        return frame

    def _things(self, reading: Reading | None) -> list:  # type: ignore[type-arg]
        if reading is None:
            return []
        rooms = frozenset(self.places.spot(c).room for c in self.codes)
        resolved = resolve(self.scene, describe(reading, self.scene.index), places=self.places, rooms=rooms)
        return [self.places.spot(c) for c in resolved.codes]
