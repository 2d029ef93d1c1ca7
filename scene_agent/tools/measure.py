"""The `measure` tool: numbers from the geometry — how far apart two things are, one thing's width, depth and
height, a room's floor area, and whether an object fits through a door or window.

Everything comes from the scene's cached attributes (scene/attributes.py), the same oriented boxes, footprints
and floor areas the volume tool and the place words use, so a measurement costs no point loading:

- **dimensions**: the upright oriented box; width is its longer horizontal side, depth the shorter, height the
  vertical (a tilted box gives its three sides, longest first).
- **distance**: between the closest parts (the footprints' gap seen from above, combined with the gap between
  the height ranges; 0 when they touch or overlap) and between the centres.
- **floor_area**: a room's floor (as the volume tool measures it); an object's footprint seen from above.
- **fit**: the object carried through lengthwise, turned as needed: its two shorter sides against the opening's
  width and height, the opening being the door's or window's own scanned size.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field, ValidationError, model_validator

from scene_agent.errors import UsageError, usage_error
from scene_agent.language.say import Words, metres
from scene_agent.language.words import Lang
from scene_agent.language.zh_lexicon import zh_label
from scene_agent.model import Model
from scene_agent.scene.attributes import ItemAttributes
from scene_agent.scene.codes import ItemCode
from scene_agent.scene.index import IndexedRoom
from scene_agent.scene.loader import Scene
from scene_agent.tools.summary import Summary
from scene_agent.tools.tool import Tool

MeasureKind = Literal["distance", "dimensions", "floor_area", "fit"]
# What the `fit` measurement accepts as an opening: the labels of doors and windows (and of a gap named as one).
OPENINGS = frozenset({"door", "doors", "doorway", "doorframe", "door frame", "closet door", "entrance", "gate",
                      "window", "windows", "opening", "archway", "arch", "hatch", "garage door", "sliding door"})


class MeasureInput(Model):
    """Measure with numbers from the geometry: the distance between two rooms or objects (`distance`, from `code` to
    `to`), one room's or object's width, depth and height (`dimensions`), a room's floor area or an object's footprint
    (`floor_area`), or whether an object fits through a door or window (`fit`: `code` the object, `to` the opening)."""

    measure: MeasureKind = Field(description="distance | dimensions | floor_area | fit.")
    code: ItemCode = Field(description="Code of the room ('0-7') or object ('0-7-12') measured, as returned by find "
                                       "(for fit: the object to carry through).")
    to: ItemCode | None = Field(default=None, description="distance: the other room or object; fit: the door or "
                                                          "window. Not given for dimensions and floor_area.")

    @model_validator(mode="after")
    def _to_when_needed(self) -> MeasureInput:
        if self.measure in ("distance", "fit") and self.to is None:
            raise ValueError(f"{self.measure} measures between two things: give `to`")
        if self.measure in ("dimensions", "floor_area") and self.to is not None:
            raise ValueError(f"{self.measure} measures one thing: leave out `to`")
        if self.to is not None and self.to == self.code:
            raise ValueError(f"`code` and `to` are both {self.code}: give two different things")
        return self


class Dimensions(Model):
    """The oriented box's sides in metres."""

    width_m: float = Field(description="The longer horizontal side (upright), or the longest side (tilted).")
    depth_m: float = Field(description="The shorter horizontal side (upright), or the middle side (tilted).")
    height_m: float = Field(description="The vertical side (upright), or the shortest side (tilted).")
    upright: bool = Field(description="The box stands upright (turned about the vertical only).")


class Distance(Model):
    """How far apart two things are, in metres."""

    gap_m: float = Field(description="Between their closest parts; 0 when they touch or overlap.")
    horizontal_gap_m: float = Field(description="The gap between their footprints, seen from above.")
    vertical_gap_m: float = Field(description="The gap between their height ranges (0 when they overlap in height).")
    centre_m: float = Field(description="Between their centres.")


class Fit(Model):
    """Whether the object passes through the opening, carried lengthwise and turned as needed."""

    fits: bool
    object_section_m: list[float] = Field(description="The object's two shorter sides, the cross-section carried through.")
    opening_m: list[float] = Field(description="The opening's [width, height].")
    spare_m: float = Field(description="The smaller room to spare; negative: by how much the object is too big.")


class MeasureResult(Model):
    """One measurement; `reason` says why it is missing (a thing with no measured box)."""

    measure: MeasureKind
    code: str
    kind: Literal["room", "object"]
    label: str = Field(description="The object's label, or the room's name.")
    to: str | None = None
    to_kind: Literal["room", "object"] | None = None
    to_label: str | None = None
    dimensions: Dimensions | None = None
    distance: Distance | None = None
    floor_area_m2: float | None = None
    fit: Fit | None = None
    reason: str | None = None

    def human_summary(self) -> Summary:
        """The measurement in one line: '0-3-4: 0.49 × 0.45 × 0.90 m (W × D × H)'."""
        return Summary(en=f"{self.code}: {describe(self, 'en')}", zh=f"{self.code}：{describe(self, 'zh')}")


def _named(scene: Scene, code: str) -> tuple[Literal["room", "object"], str]:
    found = scene.item(code)  # UsageError for a floor code, NotFoundError for an unknown one
    if isinstance(found, IndexedRoom):
        return "room", found.room.display_name
    return "object", found.label


def dimensions_of(attributes: ItemAttributes) -> Dimensions | None:
    """Width, depth and height from the item's oriented box; None when it has none."""
    if attributes.extent_m is None:
        return None
    length, width, height = attributes.extent_m
    return Dimensions(width_m=round(length, 3), depth_m=round(width, 3), height_m=round(height, 3), upright=attributes.upright)


def distance_between(a: ItemAttributes, b: ItemAttributes) -> Distance:
    """The gap between two items' closest parts and between their centres."""
    from shapely.geometry import MultiPoint, Point, Polygon  # imported by the place words anyway; only when measuring

    def shape(item: ItemAttributes) -> Polygon | Point | MultiPoint:
        footprint = item.footprint
        polygon = Polygon(footprint) if len(footprint) >= 3 else None
        if polygon is not None and polygon.is_valid and polygon.area > 0:
            return polygon
        return MultiPoint(footprint) if footprint else Point(item.center[:2])

    horizontal = float(shape(a).distance(shape(b)))
    vertical = max(0.0, a.z_min - b.z_max, b.z_min - a.z_max)
    centre = math.dist(a.center, b.center)
    return Distance(gap_m=round(math.hypot(horizontal, vertical), 3), horizontal_gap_m=round(horizontal, 3),
                    vertical_gap_m=round(vertical, 3), centre_m=round(centre, 3))


def footprint_area(attributes: ItemAttributes) -> float | None:
    """The area of an item's footprint seen from above (its convex hull), in m²."""
    points = attributes.footprint
    if len(points) < 3:
        return None
    twice = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, [*points[1:], points[0]], strict=True))
    return abs(twice) / 2


def fit_through(thing: ItemAttributes, opening: ItemAttributes) -> Fit | None:
    """Whether `thing` passes through `opening` lengthwise (its two shorter sides against the opening's width and
    height); None when either has no box."""
    if thing.extent_m is None or opening.extent_m is None:
        return None
    section = sorted(thing.extent_m)[:2]
    width, _, height = opening.extent_m if opening.upright else sorted(opening.extent_m, reverse=True)
    hole = sorted((width, height))
    spare = min(hole[0] - section[0], hole[1] - section[1])
    return Fit(fits=spare >= 0, object_section_m=[round(s, 3) for s in section], opening_m=[round(width, 3), round(height, 3)],
               spare_m=round(spare, 3))


def measure(scene: Scene, measure: str, code: str, to: str | None = None) -> MeasureResult:
    """One measurement in the scene; SceneAgentError for malformed or unknown codes and for a fit through something
    that is not an opening."""
    try:
        args = MeasureInput.model_validate({"measure": measure, "code": code, "to": to})
    except ValidationError as exc:
        raise usage_error(exc) from None
    kind, label = _named(scene, args.code)
    result = MeasureResult(measure=args.measure, code=args.code, kind=kind, label=label)
    item = scene.item_attributes(args.code)
    if args.measure == "dimensions":
        dims = dimensions_of(item)
        return result.model_copy(update={"dimensions": dims, "reason": None if dims else "no points to measure"})
    if args.measure == "floor_area" or args.to is None:
        area = item.floor_area_m2 if kind == "room" else footprint_area(item)
        return result.model_copy(update={"floor_area_m2": None if area is None else round(area, 3),
                                         "reason": None if area is not None else "no floor to measure"})
    to_kind, to_label = _named(scene, args.to)
    result = result.model_copy(update={"to": args.to, "to_kind": to_kind, "to_label": to_label})
    other = scene.item_attributes(args.to)
    if args.measure == "distance":
        return result.model_copy(update={"distance": distance_between(item, other)})
    if kind != "object":
        raise UsageError(f"fit measures an object through a door or window, and {args.code} is a room")
    if to_kind != "object" or to_label.lower() not in OPENINGS:
        raise UsageError(f"fit measures an object through a door or window: {args.to} is "
                         f"{'a ' + to_label if to_kind == 'object' else 'a room'}, not an opening")
    fit = fit_through(item, other)
    return result.model_copy(update={"fit": fit, "reason": None if fit else "no points to measure"})


def _name(label: str, kind: str, lang: Lang) -> str:
    return zh_label(label) if lang == "zh" and kind == "object" else label


DIMENSIONS = Words("{w} wide × {d} deep × {h} tall", "宽 {w} × 深 {d} × 高 {h}")
TILTED = Words("{w} × {d} × {h} (a tilted box)", "{w} × {d} × {h}（倾斜的包围盒）")
APART = Words("{gap} apart at the closest ({centre} centre to centre)", "最近处相距 {gap}（中心相距 {centre}）")
TOUCHING = Words("touching ({centre} centre to centre)", "相互接触（中心相距 {centre}）")
FLOOR_AREA = {"room": Words("floor area {area:.2f} m²", "地面面积 {area:.2f} 平方米"),
              "object": Words("footprint {area:.2f} m²", "占地 {area:.2f} 平方米")}
FITS = {True: Words("fits through {to}: its {a} × {b} cross-section against a {w} × {h} opening ({spare} to spare)",
                    "能通过{to}：截面 {a} × {b}，开口 {w} × {h}（富余 {spare}）"),
        False: Words("does not fit through {to}: its {a} × {b} cross-section against a {w} × {h} opening ({spare} too big)",
                     "无法通过{to}：截面 {a} × {b}，开口 {w} × {h}（超出 {spare}）")}
NONE = Words("not measured ({reason})", "无法测量（{reason}）")


def describe(result: MeasureResult, lang: Lang = "en") -> str:
    """The measurement in words, without the thing's name: '0.49 m wide × 0.45 m deep × 0.90 m tall'."""
    if result.dimensions is not None:
        d = result.dimensions
        said = DIMENSIONS if d.upright else TILTED
        return said(lang, w=metres(d.width_m, lang), d=metres(d.depth_m, lang), h=metres(d.height_m, lang))
    if result.floor_area_m2 is not None:
        return FLOOR_AREA[result.kind](lang, area=result.floor_area_m2)
    if result.distance is not None:
        gap, centre = result.distance.gap_m, metres(result.distance.centre_m, lang)
        return (APART(lang, gap=metres(gap, lang), centre=centre) if gap >= 0.005 else TOUCHING(lang, centre=centre))
    if result.fit is not None and result.to is not None:
        f = result.fit
        to = f"{_name(result.to_label or '', 'object', lang)} {result.to}"
        return FITS[f.fits](lang, to=to, a=metres(f.object_section_m[0], lang), b=metres(f.object_section_m[1], lang),
                            w=metres(f.opening_m[0], lang), h=metres(f.opening_m[1], lang), spare=metres(abs(f.spare_m), lang))
    return NONE(lang, reason=result.reason or "?")


TOOL = Tool("measure", MeasureInput, MeasureResult,
            lambda ctx, args: measure(ctx.scene, args.measure, args.code, args.to),
            returns="Returns the measurement in metres: dimensions (width, depth, height), distance (gap between the "
                    "closest parts and centre to centre), floor_area_m2, or fit (fits, the object's cross-section, the "
                    "opening, the room to spare).",
            read_only=True)
