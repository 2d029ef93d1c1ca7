"""How the offline planner asks the measure tool and words what it measured: the side asked for first and labelled
("Chair 0-3-4 is 0.90 m tall (0.49 m wide, 0.45 m deep)."), a floor area, a distance, whether something fits."""

from __future__ import annotations

from typing import Any

from scene_agent.agent.choices import noun
from scene_agent.language.display_names import inferred_room_said, zh_room_name
from scene_agent.language.intent import QueryIntent
from scene_agent.language.say import Words, metres
from scene_agent.language.words import Lang
from scene_agent.tools.find import Candidate
from scene_agent.tools.measure import MeasureResult, describe
from scene_agent.tools.volume import VolumeResult, m3


def measure_arguments(tool: str, code: str, intent: QueryIntent) -> dict[str, Any]:
    """A tool call's input for one item: the measure tool is told which measurement the question asks for."""
    if tool != "measure":
        return {"code": code}
    return {"measure": "floor_area" if intent.asked_measure == "area" else "dimensions", "code": code}


# Things whose width is their shorter side, as people measure them: a bed is 1.60 m wide and 2.00 m long (a sofa or a
# wardrobe is as wide as its longer side).
LENGTHWISE = frozenset({"bed", "bathtub", "tub", "bunk bed", "crib", "cot", "mattress"})
NARROW = Words("{name} is {d} wide and {w} long ({h} tall).", "{name} 宽 {d}，长 {w}（高 {h}）。")
SIDE = {"height": Words("{name} is {h} tall ({w} wide, {d} deep).", "{name} 高 {h}（宽 {w}，深 {d}）。"),
        "width": Words("{name} is {w} wide and {d} deep ({h} tall).", "{name} 宽 {w}，深 {d}（高 {h}）。"),
        "length": Words("{name} is {w} long and {d} wide ({h} tall).", "{name} 长 {w}，宽 {d}（高 {h}）。"),
        "depth": Words("{name} is {d} deep ({w} wide, {h} tall).", "{name} 深 {d}（宽 {w}，高 {h}）。")}
DIMENSIONS = Words("{name}: {said}.", "{name}：{said}。")
ROOM_AREA = Words("The floor area of {name} is {area:.2f} m².", "{name}的地面面积是 {area:.2f} 平方米。")
OBJECT_AREA = Words("{name} takes up {area:.2f} m² of floor (its footprint seen from above).",
                    "{name}占地 {area:.2f} 平方米（从上方看的投影）。")
NOT_MEASURED = Words("{name} could not be measured ({reason}).", "{name}无法测量（{reason}）。")
EXTREMES = {"height": Words("Tallest: {big} ({big_value}); shortest: {small} ({small_value}).",
                            "最高：{big}（{big_value}）；最矮：{small}（{small_value}）。"),
            "width": Words("Widest: {big} ({big_value}); narrowest: {small} ({small_value}).",
                           "最宽：{big}（{big_value}）；最窄：{small}（{small_value}）。"),
            "length": Words("Longest: {big} ({big_value}); shortest: {small} ({small_value}).",
                            "最长：{big}（{big_value}）；最短：{small}（{small_value}）。"),
            "depth": Words("Deepest: {big} ({big_value}); shallowest: {small} ({small_value}).",
                           "最深：{big}（{big_value}）；最浅：{small}（{small_value}）。"),
            "area": Words("Largest: {big} ({big_value}); smallest: {small} ({small_value}).",
                          "最大：{big}（{big_value}）；最小：{small}（{small_value}）。")}


def _thing(c: Candidate, lang: Lang) -> str:
    if c.kind == "room":
        if lang == "zh":
            return f"{zh_room_name(c.name, c.type or 'room')} {c.code}"
        return f"the {c.name or noun(c, lang)} {c.code}"
    return f"{noun(c, lang)} {c.code}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def value_of(result: MeasureResult, asked: str | None) -> float | None:
    """The one number the question asked for: a side, or the floor area."""
    if asked == "area":
        return result.floor_area_m2
    d = result.dimensions
    if d is None:
        return None
    return {"height": d.height_m, "depth": d.depth_m}.get(asked or "", d.width_m)


def _unit(asked: str | None, value: float, lang: Lang) -> str:
    if asked == "area":
        return f"{value:.2f} m²" if lang == "en" else f"{value:.2f} 平方米"
    return metres(value, lang)


def sized(c: Candidate, result: MeasureResult, asked: str | None, lang: Lang) -> str:
    """One sentence with the measurement the question asked for, the asked side first and every side labelled."""
    name = _capital(_thing(c, lang))
    if result.floor_area_m2 is not None and result.kind == "room":
        return ROOM_AREA(lang, name=_thing(c, lang), area=result.floor_area_m2)
    if result.floor_area_m2 is not None:
        return OBJECT_AREA(lang, name=name, area=result.floor_area_m2)
    d = result.dimensions
    if d is None:
        return NOT_MEASURED(lang, name=name, reason=result.reason or "?")
    if asked == "width" and d.upright and c.kind == "object" and (c.label or "") in LENGTHWISE:
        return NARROW(lang, name=name, w=metres(d.width_m, lang), d=metres(d.depth_m, lang), h=metres(d.height_m, lang))
    if asked in SIDE and d.upright:
        return SIDE[asked](lang, name=name, w=metres(d.width_m, lang), d=metres(d.depth_m, lang), h=metres(d.height_m, lang))
    return DIMENSIONS(lang, name=name, said=describe(result, lang))


def item_line(result: MeasureResult, asked: str | None, lang: Lang) -> str:
    """The measurement for one of several items, after its name: '0.90 m tall (0.49 m wide, 0.45 m deep)'."""
    value = value_of(result, asked)
    d = result.dimensions
    if value is None:
        return describe(result, lang)
    if asked == "area" or asked not in SIDE or d is None or not d.upright:
        return describe(result, lang)
    return SIDE[asked](lang, name="", w=metres(d.width_m, lang), d=metres(d.depth_m, lang),
                       h=metres(d.height_m, lang)).strip().removeprefix("is ").rstrip(".。")


def extremes(items: list[Candidate], sizes: dict[str, MeasureResult], asked: str | None, lang: Lang,
             name: Any) -> list[str]:
    """'Tallest: chair 0-3-5 (0.95 m); shortest: chair 0-3-2 (0.88 m).' when several were measured."""
    values = [(v, c) for c in items if c.code in sizes and (v := value_of(sizes[c.code], asked)) is not None]
    if len(values) < 2:
        return []
    big = max(values, key=lambda vc: vc[0])
    small = min(values, key=lambda vc: vc[0])
    if big[0] - small[0] <= 0.01:
        return []
    said = EXTREMES.get(asked or "", EXTREMES["width"])
    return [said(lang, big=name(big[1], lang), big_value=_unit(asked, big[0], lang), small=name(small[1], lang),
                 small_value=_unit(asked, small[0], lang))]


BIG = {"object": Words("{name} is {box}; its volume is {m3} m³ (convex hull).", "{name}：{box}；体积 {m3} 立方米（凸包）。"),
       "room": Words("{name} is {box}; floor {area:.2f} m², volume {m3} m³.", "{name}：{box}；地面 {area:.2f} 平方米，体积 {m3} 立方米。")}
BOX = Words("{w} wide × {d} deep × {h} tall", "宽 {w} × 深 {d} × 高 {h}")


def how_big(c: Candidate, result: VolumeResult, lang: Lang) -> str | None:
    """'Sofa 0-2-1 is 2.20 m wide × 0.95 m deep × 0.86 m tall; its volume is 1.61 m³ (convex hull).' — the box first, as
    people picture a size; None when there is no upright box to say it with."""
    box = result.obb
    if box is None or not box.upright or result.volume_m3 is None:
        return None
    length, width, height = box.extent_m
    said = BOX(lang, w=metres(length, lang), d=metres(width, lang), h=metres(height, lang))
    if result.kind == "room":
        if result.floor_area_m2 is None:
            return None
        guess = result.inferred  # a type inferred from the room's objects is said to be one
        named = inferred_room_said(c.code, guess.type, guess.because, lang) if guess else _capital(_thing(c, lang))
        return BIG["room"](lang, name=named, box=said, area=result.floor_area_m2, m3=m3(result.volume_m3))
    return BIG["object"](lang, name=_capital(_thing(c, lang)), box=said, m3=m3(result.volume_m3))
