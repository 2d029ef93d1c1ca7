"""How the offline planner words its answers: counts, places, colours, volumes, comparisons, and why nothing was done."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import inflection

from scene_agent.selection.waiter import SelectionResult
from scene_agent.tools.color import ColorResult
from scene_agent.tools.find import Candidate
from scene_agent.tools.volume import VolumeResult, describe

if TYPE_CHECKING:
    from scene_agent.agent.offline_planner import Plan
    from scene_agent.agent.toolbox import CallOutcome


def noun(c: Candidate) -> str:
    """'chair' / 'bedroom' — what a candidate is."""
    return c.label or "object" if c.kind == "object" else (c.type or "room").replace("_", " ")


def name(c: Candidate) -> str:
    """'chair 0-3-2 (Kitchen)' / 'room 1-2 (Master bedroom)'."""
    if c.kind == "room":
        return f"room {c.code} ({c.name or noun(c)})"
    return f"{noun(c)} {c.code} ({c.room_name or c.room_type.replace('_', ' ')})"


def plural(word: str, n: int) -> str:
    """'1 chair', '4 chairs'."""
    return f"{n} {word if n == 1 else inflection.pluralize(word)}"


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _floor_note(chosen: "Plan") -> str:
    found = chosen.found
    if found is None or found.floor is None:
        return ""
    floor_name = next((c.floor_name for c in chosen.candidates if c.floor == found.floor and c.floor_name), None)
    return f"On floor {found.floor}" + (f" ({floor_name})" if floor_name else "") + ": "


def not_found(chosen: "Plan") -> str:
    """Why nothing was found, with what is closest (find's message)."""
    if chosen.notes:
        return " ".join(chosen.notes)
    if chosen.found is not None and chosen.found.message:
        return chosen.found.message
    return "I found nothing matching that in this scene."


def pick_request(chosen: "Plan") -> str:
    """What the agent says before opening the viewer in selection mode."""
    kinds = sorted({noun(c) for c in chosen.candidates})
    what = plural(kinds[0], len(chosen.candidates)) if len(kinds) == 1 else f"{len(chosen.candidates)} candidates"
    listing = ", ".join(name(c) for c in chosen.candidates)
    several = chosen.decision is not None and chosen.decision.multiple
    return f"There are {what}: {listing}. " + ("Please pick the ones you mean in the viewer." if several
                                                else "Please pick the one you mean in the viewer.")


def no_pick(chosen: "Plan", selection: SelectionResult) -> str:
    """The answer when the user did not pick: cancelled, timed out, or the answer was invalid."""
    codes = ", ".join(chosen.candidate_codes)
    if selection.status == "timeout":
        head = f"Nobody picked in the viewer in time ({selection.reason or 'the session expired'}), so I did not answer."
    elif selection.status == "cancelled":
        head = ("The selection was cancelled in the viewer" if selection.cancelled_by == "viewer"
                else "The selection was cancelled") + ", so I did not answer."
    else:
        head = f"The pick could not be used ({selection.reason}), so I did not answer."
    return f"{head} The candidates were {codes}; ask again naming one (e.g. '{chosen.candidate_codes[0]}'), or say 'all of them'."


def listing(chosen: "Plan", objects_in: dict[str, list[Candidate]] | None = None) -> str:
    """Counts ('There are 5 chairs: …'), places ('The sofa 0-2-1 is in the Lounge …') and room contents."""
    intents = set(chosen.intent.intents)
    candidates = list(chosen.candidates)
    prefix = _floor_note(chosen)
    if "count" in intents:
        groups: dict[tuple[str, str], list[Candidate]] = defaultdict(list)
        for c in candidates:
            groups[(noun(c), c.room if c.kind == "object" else f"floor {c.floor}")].append(c)
        heads = sorted({noun(c).rsplit(" ", 1)[-1] for c in candidates})
        total = plural(heads[0], len(candidates)) if len(heads) == 1 else f"{len(candidates)} matching things"
        parts = []
        for (what, _), members in groups.items():
            where = ((members[0].room_name or f"{members[0].room_type.replace('_', ' ')} {members[0].room}")
                     if members[0].kind == "object" else
                     f"floor {members[0].floor}" + (f" ({members[0].floor_name})" if members[0].floor_name else ""))
            parts.append(f"{plural(what, len(members))} in the {where} ({', '.join(m.code for m in members)})"
                         if members[0].kind == "object" else f"{plural(what, len(members))} on {where} "
                         f"({', '.join(f'{m.code} {m.name}' if m.name else m.code for m in members)})")
        verb = "is" if len(candidates) == 1 else "are"
        if len(parts) == 1:
            return f"{prefix}There {verb} {parts[0]}."
        return f"{prefix}There {verb} {total}: {_join(parts)}."
    if "list" in intents and objects_in:
        lines = []
        for c in candidates:
            inside = objects_in.get(c.code, [])
            things = ", ".join(f"{noun(o)} {o.code}" for o in inside) or "nothing"
            lines.append(f"{name(c)[:1].upper()}{name(c)[1:]}: {things}")
        return prefix + "\n".join(lines)
    lines = []
    for c in candidates:
        floor = f"floor {c.floor}" + (f" ({c.floor_name})" if c.floor_name else "")
        if c.kind == "room":
            lines.append(f"{name(c)[:1].upper()}{name(c)[1:]} is on {floor}.")
        else:
            lines.append(f"The {noun(c)} {c.code} is in the {c.room_name or c.room_type.replace('_', ' ')} ({c.room}), on {floor}.")
    return prefix + " ".join(lines)


@dataclass
class Measured:
    """The colour and volume results per code, and the calls that failed."""

    colors: dict[str, ColorResult] = field(default_factory=dict)
    volumes: dict[str, VolumeResult] = field(default_factory=dict)
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    @classmethod
    def collect(cls, outcomes: list["CallOutcome"]) -> "Measured":
        """Sort the outcomes of a step's color/volume calls by code."""
        out = cls()
        for o in outcomes:
            code = o.args.get("code", "?") if isinstance(o.args, dict) else "?"
            if not o.ok:
                out.errors[code].append(f"{o.tool_name} failed: {o.error.message if o.error else 'unknown error'}")
            elif isinstance(o.value, ColorResult):
                out.colors[code] = o.value
            elif isinstance(o.value, VolumeResult):
                out.volumes[code] = o.value
        return out


def _m3(v: float | None) -> str:
    if v is None:
        return "no volume"
    return f"{v:,.0f} m³" if v >= 1000 else f"{v:#.3g}".rstrip(".") + " m³"  # 3 significant digits: 0.140, 1.61, 74.7


def measure_of(result: VolumeResult, measure: str) -> float | None:
    """The number a superlative compares: volume, height, length or floor area."""
    if measure == "volume":
        return result.volume_m3
    if measure == "area":
        return result.floor_area_m2
    extent = result.obb.extent_m if result.obb is not None and result.obb.upright else result.aabb_extent_m
    if extent is None:
        return None
    return extent[2] if measure == "height" else extent[0]


def _unit(measure: str, value: float) -> str:
    return _m3(value) if measure == "volume" else (f"{value:.2f} m²" if measure == "area" else f"{value:.2f} m")


def _item_line(c: Candidate, m: Measured) -> str:
    bits = []
    if c.code in m.colors:
        color = m.colors[c.code]
        if color.dominant is not None:
            rest = [cl.basic for cl in color.clusters[1:3] if cl.basic != color.dominant.basic]
            bits.append(color.dominant.basic + (f" ({color.dominant.name})" if color.dominant.name != color.dominant.basic else "")
                        + (f" with {' and '.join(dict.fromkeys(rest))}" if rest else ""))
        else:
            bits.append("no colour")
    if c.code in m.volumes:
        v = m.volumes[c.code]
        bits.append(_m3(v.volume_m3) + (f", {v.obb.extent_m[0]:.2f} × {v.obb.extent_m[1]:.2f} × {v.obb.extent_m[2]:.2f} m"
                                        if v.obb is not None else ""))
    bits += m.errors.get(c.code, [])
    return f"- {name(c)}: " + "; ".join(bits)


def measured(chosen: "Plan", targets: tuple[str, ...], picked: tuple[str, ...], m: Measured, viewer_url: str | None) -> str:
    """The answer once CLR/VOL ran on the targets (and VIS, when asked to show them)."""
    by_code = {c.code: c for c in chosen.candidates}
    items = [by_code[code] for code in targets if code in by_code]
    parts: list[str] = []
    if picked:
        parts.append(f"You picked {_join([name(by_code[c]) for c in picked if c in by_code])}.")
    if len(items) == 1:
        c = items[0]
        if c.code in m.colors:
            parts.append(m.colors[c.code].summary)
        if c.code in m.volumes:
            parts.append(describe(m.volumes[c.code]) + ".")
        parts += [e + "." for e in m.errors.get(c.code, [])]
    elif items and (m.colors or m.volumes or m.errors):
        parts.append("\n".join(_item_line(c, m) for c in items))
        parts += _comparison(chosen, items, m)
    if viewer_url:
        shown = name(items[0]) if len(items) == 1 else f"{len(items)} items"
        parts.append(f"Showing {shown} in the viewer: {viewer_url}")
    return _floor_note(chosen) + "\n".join(parts) if parts else "Done."


def _comparison(chosen: "Plan", items: list[Candidate], m: Measured) -> list[str]:
    sup = chosen.intent.superlative
    measure = sup.measure if sup else "volume"
    values = [(measure_of(m.volumes[c.code], measure), c) for c in items if c.code in m.volumes]
    values = [(v, c) for v, c in values if v is not None]
    lines: list[str] = []
    if sup is not None and values:
        best = max(values, key=lambda vc: vc[0]) if sup.direction == "max" else min(values, key=lambda vc: vc[0])
        ties = [c for v, c in values if abs(v - best[0]) <= 0.01 * max(abs(best[0]), 1e-9) and c is not best[1]]
        line = f"The {sup.word} is {name(best[1])}: {_unit(measure, best[0])}"
        if ties:
            line += f" (about the same as {', '.join(t.code for t in ties)})"
        lines.append(line + ".")
    elif len(values) >= 2 and "volume" in chosen.intent.measures:
        big = max(values, key=lambda vc: vc[0])
        small = min(values, key=lambda vc: vc[0])
        if big[0] - small[0] <= 0.02 * big[0]:
            low, high = _unit(measure, small[0]), _unit(measure, big[0])
            lines.append(f"They are about the same size ({low} each)." if low == high
                         else f"They are about the same size ({low} to {high}).")
        else:
            lines.append(f"Largest: {name(big[1])} ({_unit(measure, big[0])}); smallest: {name(small[1])} "
                         f"({_unit(measure, small[0])}).")
    colors = {c.code: m.colors[c.code].dominant.basic for c in items if c.code in m.colors and m.colors[c.code].dominant}
    if len(colors) >= 2 and "compare" in chosen.intent.intents:
        distinct = set(colors.values())
        lines.append("They are all " + next(iter(distinct)) + "." if len(distinct) == 1
                     else "Colours: " + ", ".join(f"{code} {basic}" for code, basic in colors.items()) + ".")
    return lines
