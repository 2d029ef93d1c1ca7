"""How the offline planner words its answers, in the language of the question: counts, places, colours, volumes,
comparisons, what the words picked, and why nothing was done."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from scene_agent.agent.choices import common_noun, describe_each, noun
from scene_agent.agent.measure_answers import extremes, how_big, item_line, sized
from scene_agent.agent.plan import Plan
from scene_agent.agent.whats_there import things_there
from scene_agent.language.reading import Reading
from scene_agent.language.say import SIDE_WORDS_ZH, Words, color_name, count, join, label_name, metres, relation_name, room_type_name
from scene_agent.language.words import Lang
from scene_agent.selection.pending import WAIT_CANCELLED
from scene_agent.selection.result import SelectionResult
from scene_agent.tools.color import ColorResult
from scene_agent.tools.find import Candidate, FindResult, Observed
from scene_agent.tools.measure import MeasureResult
from scene_agent.tools.volume import VolumeResult, describe, m3

if TYPE_CHECKING:
    from scene_agent.agent.toolbox import CallOutcome

NOTHING = Words("I found nothing matching that in this scene.", "在这个场景中没有找到相符的东西。")
CANNOT_ASK = Words("I could not ask you to pick in the viewer: {message}", "无法请您在查看器中选择：{message}")
CANNOT_SHOW = Words("I could not open the viewer: {message}", "无法打开查看器：{message}")
FLOOR_NOTE = Words("On floor {floor}{name}: ", "在 {floor} 层{name}：")
THERE_ARE = Words("There are {what}: {listing}. ", "有 {what}：{listing}。")
TIED = Words("'{words}' fits {n} about equally: {listing}. ", "“{words}”同样适合这 {n} 个：{listing}。")
PICK_ONE = Words("Please pick the one you mean in the viewer.", "请在查看器中选择您指的那个。")
PICK_SOME = Words("Please pick the ones you mean in the viewer.", "请在查看器中选择您指的那些。")
TIMEOUT = Words("Nobody picked in the viewer in time ({reason}), so I did not answer.",
                "没有人及时在查看器中选择（{reason}），所以我没有回答。")
CANCELLED_VIEWER = Words("You cancelled the selection, so I did not answer.", "您取消了选择，所以我没有回答。")
CANCELLED = Words("The selection was cancelled, so I did not answer.", "选择已取消，所以我没有回答。")
CANCELLED_BECAUSE = Words("The selection was cancelled ({reason}), so I did not answer.", "选择已取消（{reason}），所以我没有回答。")
UNUSABLE = Words("The pick could not be used ({reason}), so I did not answer.", "无法使用这个选择（{reason}），所以我没有回答。")
ASK_AGAIN = Words(" The candidates were {codes}; ask again naming one (e.g. '{first}'), or say 'all of them'.",
                  "候选是 {codes}；请重新提问并指明其中一个（例如“{first}”），或者说“全部”。")
COUNT_ONE = Words("{prefix}There {verb} {part}.", "{prefix}有{part}。")
COUNT_MANY = Words("{prefix}There {verb} {total}: {parts}.", "{prefix}共有 {total}：{parts}。")
IN_ROOM = Words("{what} in the {where} ({codes})", "{where} 里有 {what}（{codes}）")
ON_FLOOR = Words("{what} on {where} ({codes})", "{where}有 {what}（{codes}）")
ROOM_ON = Words("{name} is on {floor}.", "{name}在{floor}。")
OBJECT_IN = Words("The {noun} {code} is in the {room} ({room_code}), on {floor}.", "{noun} {code} 在{room}（{room_code}），{floor}。")
PICKED = Words("You picked {names}.", "您选择了{names}。")
SHOWING = Words("Showing {what} in the viewer: {url}", "已在查看器中显示{what}：{url}")
ITEMS = Words("{n} items", "{n} 个")
IS_THE = Words("The {words} is {name}{detail}.", "{words}是{name}{detail}。")
SUPERLATIVE = Words("The {word} is {name}: {value}", "{word}的是{name}：{value}")
ABOUT_SAME = Words(" (about the same as {codes})", "（与 {codes} 差不多）")
SAME_SIZE = Words("They are about the same size ({value} each).", "它们大小差不多（各 {value}）。")
SAME_RANGE = Words("They are about the same size ({low} to {high}).", "它们大小差不多（{low} 到 {high}）。")
LARGEST = Words("Largest: {big} ({big_value}); smallest: {small} ({small_value}).",
                "最大：{big}（{big_value}）；最小：{small}（{small_value}）。")
ALL_ONE_COLOR = Words("They are all {color}.", "它们都是{color}。")
COLORS = Words("Colours: {list}.", "颜色：{list}。")
NO_COLOUR = Words("no colour", "无颜色")
FAILED = Words("{tool} failed: {message}", "{tool} 失败：{message}")
DONE = Words("Done.", "完成。")
FLOOR = Words("floor {code}{name}", "{code} 层{name}")
NOTE_BRACKET = Words(" ({text})", "（{text}）")
SIZE_WORDS_ZH = {"biggest": "最大", "largest": "最大", "smallest": "最小", "tallest": "最高", "shortest": "最矮",
                 "longest": "最长", "widest": "最宽", "narrowest": "最窄", "bigger": "大一点", "smaller": "小一点",
                 "taller": "高一点", "shorter": "矮一点"}


def bracket(text: str, lang: Lang) -> str:
    """' (text)' / '（text）'."""
    return NOTE_BRACKET(lang, text=text) if text else ""


def name(c: Candidate, lang: Lang = "en") -> str:
    """'chair 0-3-2 (Kitchen)' / 'room 1-2 (Master bedroom)' — or in Chinese."""
    if c.kind == "room":
        return f"{'房间' if lang == 'zh' else 'room'} {c.code}{bracket(c.name or noun(c, lang), lang)}"
    return f"{noun(c, lang)} {c.code}{bracket(c.room_name or room_type_name(c.room_type, lang), lang)}"


def _floor(c: Candidate, lang: Lang) -> str:
    return FLOOR(lang, code=c.floor, name=bracket(c.floor_name or "", lang))


def _floor_note(chosen: Plan) -> str:
    """Which floor the words chose, and how the words were read: misspellings, words set aside or not used."""
    found = chosen.found
    heard = found.note + " " if found is not None and found.note else ""
    if found is None or found.floor is None:
        return heard
    floor_name = next((c.floor_name for c in chosen.candidates if c.floor == found.floor and c.floor_name), None)
    return FLOOR_NOTE(chosen.lang, floor=found.floor, name=bracket(floor_name or "", chosen.lang)) + heard


def not_found(chosen: Plan) -> str:
    """Why nothing was found, with what is closest (find's message)."""
    if chosen.notes:
        return " ".join(chosen.notes)
    if chosen.found is not None and chosen.found.message:
        return chosen.found.message
    return NOTHING(chosen.lang)


def pick_request(chosen: Plan) -> str:
    """What the agent says before opening the viewer in selection mode, the candidates told apart."""
    lang = chosen.lang
    listing = join(describe_each(chosen.candidates, lang), lang, "or" if lang == "en" else "和")
    several = chosen.decision is not None and chosen.decision.multiple
    tied = chosen.found.tied if chosen.found is not None else None
    if tied is not None:
        head = TIED(lang, words=tied.words, n=len(chosen.candidates), listing=listing)
    else:
        what = common_noun(chosen.candidates, lang)
        known = what not in ("one", "个")
        head = THERE_ARE(lang, what=count(what, len(chosen.candidates), lang) if known else str(len(chosen.candidates)),
                         listing=listing)
    return _floor_note(chosen) + head + (PICK_SOME(lang) if several else PICK_ONE(lang))


def no_pick(chosen: Plan, selection: SelectionResult) -> str:
    """The answer when the user did not pick: cancelled, timed out, or the answer was invalid."""
    lang = chosen.lang
    if selection.status == "timeout":
        head = TIMEOUT(lang, reason=selection.reason or ("the session expired" if lang == "en" else "会话已过期"))
    elif selection.status == "cancelled":
        head = (CANCELLED_VIEWER(lang) if selection.cancelled_by in ("viewer", "words", "host")
                else CANCELLED_BECAUSE(lang, reason=selection.reason) if selection.reason not in (None, WAIT_CANCELLED)
                else CANCELLED(lang))
    else:
        head = UNUSABLE(lang, reason=selection.reason)
    return head + ASK_AGAIN(lang, codes=", ".join(chosen.candidate_codes), first=chosen.candidate_codes[0])


def listing(chosen: Plan, objects_in: dict[str, list[Candidate]] | None = None) -> str:
    """Counts ('There are 5 chairs: …'), places ('The sofa 0-2-1 is in the Lounge …') and room contents."""
    lang = chosen.lang
    intents = set(chosen.intent.intents)
    candidates = list(chosen.candidates)
    if "list" in intents and (there := things_there(chosen, name)) is not None:
        return _floor_note(chosen) + there
    prefix = _floor_note(chosen) + (resolved(chosen) + " " if resolved(chosen) else "")
    if "count" in intents:
        groups: dict[tuple[str, str], list[Candidate]] = defaultdict(list)
        for c in candidates:
            groups[(noun(c, lang), c.room if c.kind == "object" else f"floor {c.floor}")].append(c)
        heads = sorted({label_name((c.label or "").rsplit(" ", 1)[-1], lang) if c.kind == "object" else noun(c, lang)
                        for c in candidates})
        total = count(heads[0], len(candidates), lang) if len(heads) == 1 else (
            f"{len(candidates)} matching things" if lang == "en" else f"{len(candidates)} 个相符的东西")
        parts = []
        for (what, _), members in groups.items():
            first = members[0]
            codes = ", ".join(m.code for m in members)
            if first.kind == "object":
                where = first.room_name or f"{first.room_type.replace('_', ' ')} {first.room}"
                parts.append(IN_ROOM(lang, what=count(what, len(members), lang), where=where, codes=codes))
            else:
                codes = ", ".join(f"{m.code} {m.name}" if m.name else m.code for m in members)
                parts.append(ON_FLOOR(lang, what=count(what, len(members), lang), where=_floor(first, lang), codes=codes))
        verb = "is" if len(candidates) == 1 else "are"
        if len(parts) == 1:
            return COUNT_ONE(lang, prefix=prefix, verb=verb, part=parts[0])
        return COUNT_MANY(lang, prefix=prefix, verb=verb, total=total, parts=join(parts, lang))
    if "list" in intents and objects_in:
        lines = []
        for c in candidates:
            inside = objects_in.get(c.code, [])
            things = ", ".join(f"{noun(o, lang)} {o.code}" for o in inside) or ("nothing" if lang == "en" else "没有东西")
            lines.append(f"{_capital(name(c, lang))}: {things}" if lang == "en" else f"{name(c, lang)}：{things}")
        return prefix + "\n".join(lines)
    lines = []
    for c in candidates:
        if c.kind == "room":
            lines.append(ROOM_ON(lang, name=_capital(name(c, lang)), floor=_floor(c, lang)))
        else:
            lines.append(OBJECT_IN(lang, noun=noun(c, lang), code=c.code, room=c.room_name or c.room_type.replace("_", " "),
                                   room_code=c.room, floor=_floor(c, lang)))
    return prefix + (" " if lang == "en" else "").join(lines)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def resolved(chosen: Plan) -> str:
    """What the colour, size and place words picked: 'The widest wardrobe is wardrobe 1-2-6 (Master bedroom): 1.20 m.'"""
    found, lang = chosen.found, chosen.lang
    if found is None or not found.decided or found.reading is None:
        return ""
    phrase = found.reading
    c = found.candidates[0]
    detail = ""
    observed = c.observed
    size_step = next((s for s in found.steps if s.qualifier == "size"), None)
    place_step = next((s for s in found.steps if s.qualifier == "place"), None)
    if place_step is not None and observed is not None and observed.distance_m is not None and observed.distance_m > 0.05:
        detail = (f", {metres(observed.distance_m, lang)} from it" if lang == "en" else f"，相距 {metres(observed.distance_m, lang)}")
    elif size_step is not None and observed is not None:
        detail = _size_detail(size_step.measure, observed, lang)
    words = _described(phrase, found, lang)
    return IS_THE(lang, words=words, name=name(c, lang), detail=detail)


def _size_detail(measure: str | None, observed: Observed, lang: Lang) -> str:
    if measure == "size" and observed.volume_m3:
        return f": {m3(observed.volume_m3)} m³" if lang == "en" else f"：{m3(observed.volume_m3)} 立方米"
    if observed.size_m and measure in ("height", "length", "depth"):
        value = observed.size_m[{"length": 0, "depth": 1, "height": 2}[measure]]
        return f": {metres(value, lang)}" if lang == "en" else f"：{metres(value, lang)}"
    return ""


def _described(phrase: Reading, found: FindResult, lang: Lang) -> str:
    """The user's description in words: 'red chair', 'plant next to the sofa (0-2-1)' / '沙发（0-2-1）旁边的植物'."""
    c = found.candidates[0]
    what = noun(c, lang)
    color = color_name(phrase.color.word, lang) if phrase.color and phrase.color.term and " " not in phrase.color.word else (
        phrase.color.word if phrase.color else "")
    size = (SIZE_WORDS_ZH.get(phrase.size.word, phrase.size.word) if lang == "zh" else phrase.size.word) if phrase.size else ""
    place = ""
    step = next((s for s in found.steps if s.qualifier in ("place", "side") and len(s.kept) < s.before), None)
    relation = next((r for r in phrase.relations if step is not None and r.word == step.words), None)
    alone = next((sd for sd in phrase.sides if sd.kind == "alone" and step is not None and sd.word == step.words), None)
    if alone is not None:  # "the trash can by itself is trash can 0-1-3"
        place = f"{SIDE_WORDS_ZH['alone']}的" if lang == "zh" else f" {alone.word}"
    elif step is not None and (relation is not None or "corner" in step.words):
        refs = ", ".join((step.reference or [])[:3])
        ref_words = relation.references[0].text.removeprefix("the ").strip() if relation and relation.references else ""
        if lang == "zh":
            place = f"{ref_words}（{refs}）{relation_name(relation.kind, lang)}的" if refs and relation else "角落里的"
        else:
            place = f" {relation.word} the {ref_words} ({refs})" if refs and relation else " in the corner"
    if lang == "zh":
        return f"{place}{size}{color}{'的' if color else ''}{what}"
    return " ".join(w for w in (size, color, what) if w) + place


@dataclass
class Measured:
    """The colour, volume and measure results per code, and the calls that failed."""

    colors: dict[str, ColorResult] = field(default_factory=dict)
    volumes: dict[str, VolumeResult] = field(default_factory=dict)
    sizes: dict[str, MeasureResult] = field(default_factory=dict)
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    @classmethod
    def collect(cls, outcomes: list[CallOutcome], lang: Lang = "en") -> Measured:
        """Sort the outcomes of a step's color/volume calls by code."""
        out = cls()
        for o in outcomes:
            code = o.args.get("code", "?") if isinstance(o.args, dict) else "?"
            match o.value:
                case _ if not o.ok:
                    out.errors[code].append(FAILED(lang, tool=o.tool_name, message=o.error.message if o.error else "?"))
                case ColorResult():
                    out.colors[code] = o.value
                case VolumeResult():
                    out.volumes[code] = o.value
                case MeasureResult():
                    out.sizes[code] = o.value
        return out


def _m3(v: float | None, lang: Lang) -> str:
    if v is None:
        return "no volume" if lang == "en" else "无体积"
    return f"{m3(v)} m³" if lang == "en" else f"{m3(v)} 立方米"


def measure_of(result: VolumeResult, measure: str) -> float | None:
    """The number a superlative compares: volume, height, length, depth or floor area."""
    if measure == "volume":
        return result.volume_m3
    if measure == "area":
        return result.floor_area_m2
    extent = result.obb.extent_m if result.obb is not None and result.obb.upright else result.aabb_extent_m
    if extent is None:
        return None
    return {"height": extent[2], "length": extent[0], "depth": extent[1]}.get(measure, extent[0])


def unit(measure: str, value: float, lang: Lang) -> str:
    if measure == "volume":
        return _m3(value, lang)
    if measure == "area":
        return f"{value:.2f} m²" if lang == "en" else f"{value:.2f} 平方米"
    return metres(value, lang)


def measured_line(c: Candidate, m: Measured, lang: Lang, asked: str | None = None) -> str:
    bits = []
    if c.code in m.colors:
        color = m.colors[c.code]
        if color.dominant is not None:
            rest = [color_name(cl.basic, lang) for cl in color.clusters[1:3] if cl.basic != color.dominant.basic]
            main = color_name(color.dominant.basic, lang)
            if lang == "en" and color.dominant.name != color.dominant.basic:
                main += f" ({color.dominant.name})"
            with_ = (" with " if lang == "en" else "，带") + (" and " if lang == "en" else "和").join(dict.fromkeys(rest)) if rest else ""
            bits.append(main + with_)
        else:
            bits.append(NO_COLOUR(lang))
    if c.code in m.volumes:
        v = m.volumes[c.code]
        box = (f", {v.obb.extent_m[0]:.2f} × {v.obb.extent_m[1]:.2f} × {v.obb.extent_m[2]:.2f} {'m' if lang == 'en' else '米'}"
               if v.obb is not None else "")
        bits.append(_m3(v.volume_m3, lang) + box)
    if c.code in m.sizes:
        bits.append(item_line(m.sizes[c.code], asked, lang))
    bits += m.errors.get(c.code, [])
    return f"- {name(c, lang)}: " + "; ".join(bits) if lang == "en" else f"- {name(c, lang)}：" + "；".join(bits)


def measured(chosen: Plan, targets: tuple[str, ...], picked: tuple[str, ...], m: Measured, viewer_url: str | None) -> str:
    """The answer once CLR/VOL ran on the targets (and VIS, when asked to show them)."""
    lang = chosen.lang
    by_code = {c.code: c for c in (*chosen.candidates, *chosen.listed)}
    items = [by_code[code] for code in targets if code in by_code]
    parts: list[str] = []
    if picked:
        parts.append(PICKED(lang, names=join([name(by_code[c], lang) for c in picked if c in by_code], lang)))
    if line := resolved(chosen):
        parts.append(line)
    if len(items) == 1:
        c = items[0]
        if c.code in m.colors:
            parts.append(m.colors[c.code].summary)
        if c.code in m.volumes:
            if line := _asked_size(c, m.volumes[c.code], chosen.intent.asked_measure, lang):
                parts.append(line)
            parts.append(how_big(c, m.volumes[c.code], lang) or describe(m.volumes[c.code], lang) + ("." if lang == "en" else "。"))
        if c.code in m.sizes:
            parts.append(sized(c, m.sizes[c.code], chosen.intent.asked_measure, lang))
        parts += [e + ("." if lang == "en" else "。") for e in m.errors.get(c.code, [])]
    elif items and (m.colors or m.volumes or m.sizes or m.errors):
        parts.append("\n".join(measured_line(c, m, lang, chosen.intent.asked_measure) for c in items))
        parts += _comparison(chosen, items, m)
        parts += extremes(items, m.sizes, chosen.intent.asked_measure, lang, name)
    if viewer_url:
        shown = name(items[0], lang) if len(items) == 1 else ITEMS(lang, n=len(items))
        parts.append(SHOWING(lang, what=shown, url=viewer_url))
    return _floor_note(chosen) + "\n".join(parts) if parts else DONE(lang)


ASKED_SIZE = {"height": Words("{name} is {value} tall.", "{name} 高 {value}。"),
              "length": Words("{name} is {value} long.", "{name} 长 {value}。"),
              "depth": Words("{name} is {value} deep.", "{name} 深 {value}。")}


def _asked_size(c: Candidate, result: VolumeResult, measure: str | None, lang: Lang) -> str:
    """'Chair 0-3-4 is 0.90 m tall.' when the question asked for a height, length or depth."""
    if measure is None or measure not in ASKED_SIZE:
        return ""
    value = measure_of(result, measure)
    if value is None:
        return ""
    return ASKED_SIZE[measure](lang, name=_capital(f"{noun(c, lang)} {c.code}"), value=metres(value, lang))


def _comparison(chosen: Plan, items: list[Candidate], m: Measured) -> list[str]:
    lang = chosen.lang
    sup = chosen.intent.superlative
    measure = sup.measure if sup else "volume"
    measured = [(measure_of(m.volumes[c.code], measure), c) for c in items if c.code in m.volumes]
    values = [(v, c) for v, c in measured if v is not None]
    lines: list[str] = []
    if sup is not None and values:
        best = max(values, key=lambda vc: vc[0]) if sup.direction == "max" else min(values, key=lambda vc: vc[0])
        ties = [c for v, c in values if abs(v - best[0]) <= 0.01 * max(abs(best[0]), 1e-9) and c is not best[1]]
        word = SIZE_WORDS_ZH.get(sup.word, sup.word) if lang == "zh" else sup.word
        line = SUPERLATIVE(lang, word=word, name=name(best[1], lang), value=unit(measure, best[0], lang))
        if ties:
            line += ABOUT_SAME(lang, codes=", ".join(t.code for t in ties))
        lines.append(line + ("." if lang == "en" else "。"))
    elif len(values) >= 2 and "volume" in chosen.intent.measures:
        big = max(values, key=lambda vc: vc[0])
        small = min(values, key=lambda vc: vc[0])
        if big[0] - small[0] <= 0.02 * big[0]:
            low, high = unit(measure, small[0], lang), unit(measure, big[0], lang)
            lines.append(SAME_SIZE(lang, value=low) if low == high else SAME_RANGE(lang, low=low, high=high))
        else:
            lines.append(LARGEST(lang, big=name(big[1], lang), big_value=unit(measure, big[0], lang),
                                 small=name(small[1], lang), small_value=unit(measure, small[0], lang)))
    dominant = {c.code: m.colors[c.code].dominant for c in items if c.code in m.colors}
    colors = {code: d.basic for code, d in dominant.items() if d is not None}
    if len(colors) >= 2 and "compare" in chosen.intent.intents:
        distinct = set(colors.values())
        lines.append(ALL_ONE_COLOR(lang, color=color_name(next(iter(distinct)), lang)) if len(distinct) == 1
                     else COLORS(lang, list=", ".join(f"{code} {color_name(basic, lang)}" for code, basic in colors.items())))
    return lines
