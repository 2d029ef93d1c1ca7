"""The `find` tool: the rooms and objects a description means, by code, label, room and floor, narrowed by colour,
size and place words (in the query itself, or given as structured filters), in English or Chinese."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator

from scene_agent.errors import UsageError
from scene_agent.language.color_words import color_word
from scene_agent.language.grammar import read
from scene_agent.language.reading import Reading, Relation, Side
from scene_agent.language.relation_words import RelationKind, SideKind
from scene_agent.language.size_words import size_words
from scene_agent.language.words import Lang, detect_language
from scene_agent.model import Model
from scene_agent.resolution.color_match import dominant_term
from scene_agent.resolution.matching import entry
from scene_agent.resolution.outcome import Resolution
from scene_agent.resolution.query import Description, describe, parse_description, scene_lexicon
from scene_agent.resolution.resolve import resolve
from scene_agent.resolution.viewpoint import Viewpoint
from scene_agent.scene.index import IndexedObject
from scene_agent.scene.loader import Scene
from scene_agent.scene.manifest import Bounds
from scene_agent.tools.find_messages import nothing_found, reading_note
from scene_agent.tools.summary import Summary, codes_shown, codes_shown_zh
from scene_agent.tools.tool import Tool

EMPTY_QUERY = "the query is empty: say what to look for, e.g. 'chair' or '0-2-3'"
MAX_ATTRIBUTED = 60  # candidates listed with their measured colour and size (a big find lists only codes and places)


class SizeFilter(Model):
    """Pick by size: the biggest or smallest (strict), or the clearly big or small ones."""

    measure: Literal["size", "height", "length", "depth"] = Field(
        default="size", description="size: volume (floor area for flat things); height; length: the longest side "
                                    "('longest', 'widest'); depth: the shorter side.")
    extreme: Literal["max", "min"] = Field(description="max: biggest/tallest/longest; min: smallest/shortest.")
    strict: bool = Field(default=True, description="true: only the extreme one ('the biggest', 'the bigger one'); "
                                                   "false: the clearly big ones ('the large cabinet').")


class RelationFilter(Model):
    """Pick by place, relative to other things named in words."""

    relation: RelationKind | Literal["corner"] = Field(
        description="near: next to/beside/by; closest/farthest: to/from the reference (by contrast: the clearly "
                    "nearest); on, supporting (the reference is on it), under, above, inside; between: reference and "
                    "reference2; end: at the end of; opposite: across from; left, right, front, behind: of the "
                    "reference (as the viewer sees it); facing; with: has the reference on or at it; corner: in a "
                    "corner of its room (no reference).")
    reference: str | None = Field(default=None, max_length=200,
                                  description="What it is placed relative to, in words: 'the sofa', 'window'.")
    reference2: str | None = Field(default=None, max_length=200, description="The second thing, for 'between'.")
    negated: bool = Field(default=False, description="True for 'not next to the window', 'not on the table'.")

    @model_validator(mode="after")
    def _references(self) -> RelationFilter:
        if self.relation != "corner" and not (self.reference or "").strip():
            raise ValueError(f"relation '{self.relation}' needs a reference: what it is {self.relation} of/to")
        if self.relation == "between" and not (self.reference2 or "").strip():
            raise ValueError("relation 'between' needs reference2: the second thing")
        return self


class FindInput(Model):
    """Find rooms or objects in the scene."""

    query: str = Field(
        max_length=500,
        description="What to look for in the user's words (English or Chinese): 'chair', 'chairs in the kitchen', "
                    "'the bedroom on floor 1', 'couch', 'the red chair', 'the plant next to the sofa', or a code such as "
                    "'0-2-3'. Colour, size and place words in it are understood too.")
    color: str | None = Field(default=None, max_length=40,
                              description="A colour the thing has: a basic term ('red', 'grey'), a common name ('navy', "
                                          "'beige'), or a tone ('dark', 'light', 'dark blue').")
    size: SizeFilter | None = None
    relation: RelationFilter | None = None
    side: SideKind | None = Field(default=None, description="Where among its kind or in its room: left, right, middle, "
                                                            "front, back (as the viewer sees them), top, bottom, corner, "
                                                            "center (of the room), wall (against a wall), alone (apart "
                                                            "from others of its kind), together (the ones side by side).")
    exclude: list[str] | None = Field(default=None, max_length=10,
                                      description="Descriptions of what it is not: 'the red one', 'the office chair'.")
    within: list[str] | None = Field(default=None, max_length=500,
                                     description="Only among these codes, in the order they were listed (e.g. the "
                                                 "candidates of the last answer): then 'the second one' or 'the red one' "
                                                 "picks among them.")

    @field_validator("query")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError(EMPTY_QUERY)
        return v.strip()


class Observed(Model):
    """What was measured of a candidate (the cached colours and sizes), as the prompt and the answer use it."""

    color: str | None = Field(default=None, description="Main colour as a basic colour term.")
    color_hex: str | None = None
    volume_m3: float | None = None
    size_m: list[float] | None = Field(default=None, description="Oriented box: length, width, height in meters.")
    distance_m: float | None = Field(default=None, description="Gap to what the place words refer to, in meters.")


class Candidate(Model):
    """One matching room or object."""

    code: str
    kind: Literal["room", "object"]
    label: str | None = Field(default=None, description="Object label, e.g. 'chair'.")
    type: str | None = Field(default=None, description="Room type, e.g. 'bedroom'.")
    name: str | None = Field(default=None, description="Room display name.")
    room: str = Field(description="Code of the room (for a room, its own code).")
    room_type: str
    room_name: str | None = None
    floor: str
    floor_name: str | None = None
    bounds: Bounds
    points: int
    observed: Observed | None = None


class Step(Model):
    """One part of the description applied to the candidates: a colour, size, shape, place, side, order or exclusion."""

    qualifier: Literal["color", "material", "size", "shape", "place", "side", "order", "ordinal", "exclude"]
    words: str = Field(description="The words that did it, e.g. 'red', 'biggest', 'next to'.")
    before: int = Field(description="Candidates before this step.")
    kept: list[str]
    tied: bool = Field(default=False, description="Several kept because they are too close to tell apart by these words.")
    reference: list[str] | None = Field(default=None, description="Place words: the codes they refer to.")
    measure: str | None = None
    negated: bool = False
    note: str | None = Field(default=None, description="Why these words could not narrow (e.g. no viewpoint).")
    set_aside: bool = Field(default=False, description="The words fit none of the candidates, so they were not used.")


class UnusedWord(Model):
    """Words of the description that did not narrow the candidates, and why."""

    word: str
    why: str


class FindResult(Model):
    """Candidates for a description; when empty, `message` says what is missing and what exists instead."""

    query: str
    candidates: list[Candidate]
    floor: str | None = Field(default=None, description="The floor the query was limited to, if any.")
    message: str | None = None
    suggestions: list[str] = Field(default_factory=list)
    considered: list[str] = Field(default_factory=list, description="What the words named before colour, size, place "
                                                                    "and order narrowed it (when they did).")
    steps: list[Step] = Field(default_factory=list, description="How colour, size, place and order words narrowed it.")
    note: str | None = Field(default=None, description="Something to tell the user about how the words were read.")
    reading: Reading | None = Field(default=None, description="How the description was read: what it names, what "
                                                              "narrows it, where the speaker stands.")
    used_words: list[str] = Field(default_factory=list, description="The words that said which thing is meant.")
    unused_words: list[UnusedWord] = Field(default_factory=list, description="Words that did not narrow it, and why.")
    corrections: list[list[str]] = Field(default_factory=list, description="Misspelt words and what they were read as.")

    @property
    def tied(self) -> Step | None:
        """The last step, when it left several too close to tell apart."""
        return self.steps[-1] if self.steps and self.steps[-1].tied and len(self.candidates) > 1 else None

    @property
    def decided(self) -> bool:
        """True when qualifiers took several candidates down to one."""
        return len(self.candidates) == 1 and any(len(s.kept) < s.before for s in self.steps)

    def human_summary(self) -> Summary:
        """'2 candidates: 0-6, 1-5' / 'nothing found'."""
        codes = [c.code for c in self.candidates]
        if not codes:
            return Summary(en="nothing found", zh="未找到")
        return Summary(en=f"{len(codes)} candidate{'' if len(codes) == 1 else 's'}: {codes_shown(codes)}",
                       zh=f"{len(codes)} 个候选：{codes_shown_zh(codes)}")


def candidate(scene: Scene, code: str, observed: Observed | None = None) -> Candidate:
    """The find result's record of one room or object."""
    found = entry(scene.index, code)
    if isinstance(found, IndexedObject):
        obj, room = found.obj, found.room
        return Candidate(code=code, kind="object", label=found.label, room=room.room.code, room_type=room.type,
                         room_name=room.room.name, floor=room.floor.code, floor_name=room.floor.name, bounds=obj.bounds,
                         points=obj.point_count, observed=observed)
    r = found.room
    return Candidate(code=code, kind="room", type=found.type, name=r.name, room=r.code, room_type=found.type, room_name=r.name,
                     floor=found.floor.code, floor_name=found.floor.name, bounds=r.bounds, points=r.point_count,
                     observed=observed)


def _observed(scene: Scene, code: str, distance: float | None) -> Observed:
    item = scene.item_attributes(code)
    hex_ = item.colors[0].hex if item.colors else None
    return Observed(color=dominant_term(item), color_hex=hex_, volume_m3=item.volume_m3,
                    size_m=list(item.extent_m) if item.extent_m else None, distance_m=distance)


def _with_filters(description: Description, spec: FindInput, scene: Scene) -> Description | str:
    """The description with the structured filters in place of the words' own parts (or why a filter is unusable)."""
    if spec.color is None and spec.size is None and spec.relation is None and spec.side is None and not spec.exclude:
        return description
    reading = description.reading
    colors, size, relations, sides, excluded = reading.colors, reading.size, reading.relations, reading.sides, reading.excluded
    if spec.color is not None:
        color, used = color_word(spec.color.lower().split())
        if color is None or used != len(spec.color.split()):
            return spec.color
        colors = (color,)
    if spec.size is not None:
        size = size_words(spec.size.measure, spec.size.extreme, spec.size.strict)
    lexicon = scene_lexicon(scene.index)
    if spec.relation is not None:
        r = spec.relation
        if r.relation == "corner":
            sides = (Side("in a corner", "corner", negated=r.negated),)
            relations = ()
        else:
            references = tuple(read(text, lexicon) for text in (r.reference, r.reference2) if text)
            relations = (Relation(r.relation, r.relation, references, negated=r.negated),)
    if spec.side is not None:
        sides = (*sides, Side(spec.side, spec.side))
    if spec.exclude:
        excluded = (*excluded, *(read(text, lexicon) for text in spec.exclude if text.strip()))
    merged = replace(reading, colors=colors, size=size, relations=relations, sides=sides, excluded=excluded)
    return describe(merged, scene.index)


def find(scene: Scene, query: str, *, color: str | None = None, size: SizeFilter | dict[str, Any] | None = None,
         relation: RelationFilter | dict[str, Any] | None = None, within: list[str] | None = None, lang: Lang | None = None,
         taken: list[str] | None = None, viewpoint: Viewpoint | None = None) -> FindResult:
    """Candidates matching a description; an empty list comes with a message naming what is missing and what exists.

    `within` resolves among listed codes (a follow-up's or a pending pick's), where order words apply.
    """
    try:
        spec = FindInput(query=query, color=color, size=size, relation=relation, within=within)
    except ValidationError as exc:
        if any(e["loc"] == ("query",) for e in exc.errors()):
            raise UsageError(EMPTY_QUERY) from None
        raise
    lang = lang or detect_language(spec.query) or "en"
    description = _with_filters(parse_description(spec.query, scene.index, numbers=within is not None), spec, scene)
    if isinstance(description, str):
        return FindResult(query=spec.query, candidates=[], message=nothing_found(None, scene, lang, unknown_color=description))
    unknown = [code for code in spec.within or [] if code not in scene.index.rooms and code not in scene.index.objects]
    if unknown:
        raise UsageError(f"within: not rooms or objects of scene {scene.scene_id}: {', '.join(unknown[:5])}")
    resolution = resolve(scene, description, within=spec.within, taken=taken, viewpoint=viewpoint)
    return result_of(scene, spec.query, resolution, lang)


def result_of(scene: Scene, query: str, resolution: Resolution, lang: Lang) -> FindResult:
    """The tool's result for a resolution: candidates with what was measured of them, the steps, or why none."""
    steps = [Step(qualifier=n.kind, words=n.words, before=len(n.before), kept=list(n.kept), tied=n.tied,
                  reference=list(n.references) or None, measure=n.measure, negated=n.negated, note=n.note,
                  set_aside=n.set_aside)
             for n in resolution.narrowings]
    reading = resolution.description.reading
    words = {"reading": reading, "used_words": list(reading.used),
             "unused_words": [UnusedWord(word=u.word, why=u.why) for u in resolution.unused],
             "corrections": [list(pair) for pair in reading.corrections]}
    considered = list(resolution.considered) if resolution.narrowings else []
    if not resolution.codes:
        message = nothing_found(resolution, scene, lang)
        suggestions = list(resolution.missing.suggestions or resolution.missing.elsewhere) if resolution.missing else []
        return FindResult(query=query, candidates=[], floor=resolution.floor, message=message, suggestions=suggestions,
                          considered=considered, steps=steps, **words)
    distances = next((n.values for n in reversed(resolution.narrowings) if n.kind == "place"), {})
    measured = len(resolution.codes) > 1 or resolution.narrowings
    codes = list(resolution.codes)
    candidates = [candidate(scene, code, _observed(scene, code, _number(distances.get(code)))
                            if measured and i < MAX_ATTRIBUTED else None) for i, code in enumerate(codes)]
    note = reading_note(resolution, scene, lang)
    return FindResult(query=query, candidates=candidates, floor=resolution.floor, considered=considered, steps=steps,
                      note=note, **words)


def _number(value: object) -> float | None:
    return value if isinstance(value, float) else None


TOOL = Tool("find", FindInput, FindResult,
            lambda ctx, args: find(ctx.scene, args.query, color=args.color, size=args.size, relation=args.relation,
                                   within=args.within, lang=ctx.lang, viewpoint=ctx.viewpoint),
            returns="Returns candidates with code, kind, label or room type, room, floor, bounds and what was measured "
                    "(colour, size, distance); `steps` say how colour, size and place words narrowed them; when several "
                    "are left, `disambiguation` says whether to ask the user which one.",
            read_only=True)
