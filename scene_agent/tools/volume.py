"""The `volume` tool [VOL]: how big a room or object is — volume, oriented box, axis-aligned box; floor area and height of rooms."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, ValidationError

from scene_agent.errors import usage_error
from scene_agent.geometry.measure import VolumeMeasurement, measure_volume
from scene_agent.geometry.room import load_floor_area
from scene_agent.language.display_names import inferred_room_said
from scene_agent.language.say import Words
from scene_agent.language.words import Lang
from scene_agent.language.zh_lexicon import zh_label
from scene_agent.model import Model
from scene_agent.scene.codes import ItemCode, is_code, kind_of
from scene_agent.scene.index import IndexedRoom
from scene_agent.scene.loader import Scene
from scene_agent.scene.room_types import RoomTypeGuess
from scene_agent.tools.summary import Summary
from scene_agent.tools.tool import Tool


class VolumeInput(Model):
    """Measure how big a room or an object is."""

    code: ItemCode = Field(description="Code of the room ('0-7') or object ('0-7-12') to measure, as returned by find.")


class OrientedBox(Model):
    """The smallest box around the thing, upright (turned about the vertical only) unless it lies tilted."""

    extent_m: list[float] = Field(description="[length, width, height] in meters: length ≥ width are horizontal and height "
                                              "vertical when `upright`; otherwise the three sides, longest first.")
    volume_m3: float
    upright: bool = True


class VolumeResult(Model):
    """Volume in m³ with the method named; `reason` says why it is missing (no points) or zero (flat)."""

    code: str
    kind: Literal["room", "object"]
    label: str = Field(description="Object label, or the room's name.")
    volume_m3: float | None = Field(description="Objects: the convex hull with the scan noise taken off. Rooms: floor area × height.")
    method: str = Field(description="How the volume was measured, in words.")
    obb: OrientedBox | None = None
    aabb_volume_m3: float | None = Field(default=None, description="Volume of the axis-aligned bounding box.")
    aabb_extent_m: list[float] | None = None
    hull_volume_m3: float | None = Field(default=None, description="Convex hull, scan noise taken off (rooms: of the shell).")
    bare_hull_volume_m3: float | None = Field(default=None, description="Convex hull of the points as they are (noise included).")
    points_used: int = Field(description="Points that went into the hull.")
    points_total: int = 0
    noise_m: float | None = Field(default=None, description="Scan noise estimated from the points (σ, meters).")
    offset_m: float | None = Field(default=None, description="How far the hull's faces were moved inward.")
    floor_area_m2: float | None = None
    height_m: float | None = None
    reason: str | None = None
    notes: list[str] = Field(default_factory=list)
    inferred: RoomTypeGuess | None = Field(default=None, description="Rooms whose scan named no type: the type inferred "
                                                                      "from what the room holds, and from which objects.")

    def human_summary(self) -> Summary:
        """'0-3-2: 0.123 m³' / '0-3-2: no volume (no points)'."""
        if self.volume_m3 is not None:
            line = f"{self.code}: {self.volume_m3:.3g} m³"
            return Summary(en=line, zh=line)
        reason = self.reason or "?"
        return Summary(en=f"{self.code}: no volume ({reason})", zh=f"{self.code}：无体积（{reason}）")


def _round(v: float | None, digits: int) -> float | None:
    return None if v is None else round(float(v), digits)


def volume_result(code: str, kind: Literal["room", "object"], label: str, m: VolumeMeasurement,
                  inferred: RoomTypeGuess | None = None) -> VolumeResult:
    """A measurement as the tool's result, rounded to what the data supports (0.1 mm, 1 cm³)."""
    obb = None
    if m.box is not None:
        sides = [round(s, 4) for s in m.box.sides()]
        obb = OrientedBox(extent_m=sides, volume_m3=round(m.box.volume, 6), upright=m.box.upright)
    return VolumeResult(
        code=code, kind=kind, label=label, volume_m3=_round(m.volume_m3, 6), method=m.method, obb=obb,
        aabb_volume_m3=_round(m.aabb_volume_m3, 6),
        aabb_extent_m=[round(v, 4) for v in m.aabb_extent_m] if m.aabb_extent_m is not None else None,
        hull_volume_m3=_round(m.hull_volume_m3, 6), bare_hull_volume_m3=_round(m.bare_hull_volume_m3, 6),
        points_used=m.points_used, points_total=m.points_total, noise_m=_round(m.noise_m, 5), offset_m=_round(m.offset_m, 5),
        floor_area_m2=_round(m.floor_area_m2, 3), height_m=_round(m.height_m, 4), reason=m.reason, notes=list(m.notes),
        inferred=inferred,
    )


def prepare_volume(code: str) -> None:
    """Load what measuring `code` needs on first use (a room's floor area: its image morphology), so that a timed
    call shows the measurement alone."""
    if is_code(code) and kind_of(code) == "room":
        load_floor_area()


def volume(scene: Scene, code: str) -> VolumeResult:
    """Measure a room or object of the scene; SceneAgentError for malformed or unknown codes."""
    try:
        code = VolumeInput(code=code).code
    except ValidationError as exc:
        raise usage_error(exc) from None
    entry = scene.item(code)  # UsageError for a floor code, NotFoundError for one the scene does not have
    points = scene.points(code)
    if isinstance(entry, IndexedRoom):
        return volume_result(code, "room", entry.room.display_name, measure_volume(points.xyz, room=True),
                             entry.room.inferred)
    return volume_result(code, "object", entry.label, measure_volume(points.xyz))


def m3(v: float) -> str:
    """A volume's number as people read it: 3 significant digits ('0.140', '1.61', '74.7'), whole above 1000."""
    return f"{v:,.0f}" if v >= 1000 else f"{v:#.3g}".rstrip(".")


def _short(v: float) -> str:
    return f"{v:,.0f}" if v >= 1000 else f"{v:.3g}"


HEAD = Words("{name} {code}: ", "{name} {code}：")
HEAD_INFERRED = Words("{room}: ", "{room}：")
NO_VOLUME = Words("no volume ({reason})", "无法得出体积（{reason}）")
VOLUME = Words("{m3} m³ ({how})", "{m3} 立方米（{how}）")
HOW = {"room": Words("floor area × height", "地面面积 × 高度"), "object": Words("convex hull", "凸包")}
ROOM_SIZE = Words("; floor {area:.2f} m², height {height:.2f} m", "；地面 {area:.2f} 平方米，高 {height:.2f} 米")
BOX = {True: Words("; oriented box {l:.2f} × {w:.2f} × {h:.2f} m", "；包围盒 {l:.2f} × {w:.2f} × {h:.2f} 米"),
       False: Words("; tilted box {l:.2f} × {w:.2f} × {h:.2f} m", "；倾斜包围盒 {l:.2f} × {w:.2f} × {h:.2f} 米")}


def describe(result: VolumeResult, lang: Lang = "en") -> str:
    """One line for people: 'Sofa 0-2-1: 1.02 m³ (convex hull); oriented box 2.10 × 0.92 × 0.85 m' (or in Chinese)."""
    label = zh_label(result.label) if lang == "zh" and result.kind == "object" else result.label
    head = HEAD(lang, name=label[:1].upper() + label[1:], code=result.code)
    if result.inferred is not None:  # a type inferred from the room's objects is said to be one
        head = HEAD_INFERRED(lang, room=inferred_room_said(result.code, result.inferred.type, result.inferred.because, lang))
    if result.volume_m3 is None:
        return head + NO_VOLUME(lang, reason=result.reason)
    text = head + VOLUME(lang, m3=_short(result.volume_m3), how=HOW[result.kind](lang))
    if result.kind == "room" and result.floor_area_m2 is not None and result.height_m is not None:
        text += ROOM_SIZE(lang, area=result.floor_area_m2, height=result.height_m)
    if result.obb is not None:
        length, width, height = result.obb.extent_m
        text += BOX[result.obb.upright](lang, l=length, w=width, h=height)
    return text


TOOL = Tool("volume", VolumeInput, VolumeResult, lambda ctx, args: volume(ctx.scene, args.code), aliases=("vol",),
            prepare=lambda args: prepare_volume(args.code),
            returns="Returns the volume in m³ with its method, the oriented box (length × width × height) and, for rooms, "
                    "floor area and height.",
            read_only=True)
