"""`bench grounding --scene`: what one description costs `find` on a large building beside a home.

The same descriptions run on both scenes. "one flat" descriptions name a room, and on a scene whose rooms are named
by group ("Kitchen, flat 4A") they name that group too ("the red chair in the kitchen of flat 4A"): the same
question asked of a bigger building, which should cost about the same. "whole building" ones are the same words on
both, so they name every chair of the building: what a description costs as the candidates grow. Each description
runs once untimed, then `repeats` times; the tables give the median and 90th percentile per description and per set,
and the ratio scene / baseline beside the goal (`GOAL_RATIO`).
"""

from __future__ import annotations

import functools
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scene_agent.scene.loader import Scene, load_scene
from scene_agent.tools.find import find

GOAL_RATIO = 1.5  # find on the large building within this many times its cost on the home
SETS = ("one flat", "whole building")

# (set, construct, template): {kitchen} / {bedroom} name one room of that type (`room_words`).
DESCRIPTIONS: tuple[tuple[str, str, str], ...] = (
    ("one flat", "colour, room", "the red chair in {kitchen}"),
    ("one flat", "next to", "the chair next to the table in {kitchen}"),
    ("one flat", "on, room", "the lamp on the nightstand in {bedroom}"),
    ("one flat", "view and side", "facing the bed in {bedroom}, the nightstand on the left"),
    ("one flat", "ordinal size", "the second largest bed in {bedroom}"),
    ("one flat", "exclusion", "the chairs in {kitchen} but not the red one"),
    ("one flat", "opposite", "the chair opposite the red chair in {kitchen}"),
    ("whole building", "colour, room", "the red chair in the kitchen"),
    ("whole building", "next to", "the chair next to the table"),
    ("whole building", "on, room", "the lamp on the nightstand in the bedroom"),
    ("whole building", "view and side", "facing the bed, the nightstand on the left"),
    ("whole building", "ordinal size", "the second largest bed"),
    ("whole building", "exclusion", "not the red chair"),
    ("whole building", "opposite", "the chair opposite the red chair"),
)


def room_words(scene: Scene, room_type: str) -> str:
    """Words naming one room of a type: 'the kitchen', or with the group its name gives ('Kitchen, flat 4A' → 'the
    kitchen of flat 4A'), the first such room's."""
    for room in scene.index.rooms_by_type.get(room_type, []):
        name = room.room.name or ""
        if ", " in name:
            return f"the {room_type.replace('_', ' ')} of {name.rsplit(', ', 1)[1]}"
    return f"the {room_type.replace('_', ' ')}"


def descriptions_for(scene: Scene, templates: tuple[tuple[str, str, str], ...] = DESCRIPTIONS) -> list[str]:
    """The descriptions' words on this scene."""
    slots = {"kitchen": room_words(scene, "kitchen"), "bedroom": room_words(scene, "bedroom")}
    return [template.format(**slots) for _, _, template in templates]


def percentile(values: list[float], share: float) -> float:
    """The value at `share` (0–1) of the sorted values (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered), max(1, math.ceil(share * len(ordered)))) - 1]


@dataclass(frozen=True)
class Timing:
    """One description on one scene: its words, how many candidates find gave, and the times of its runs."""

    text: str
    candidates: int
    first_ms: float
    runs_ms: tuple[float, ...]

    @property
    def median_ms(self) -> float:
        """Median of the timed runs."""
        return statistics.median(self.runs_ms)

    @property
    def p90_ms(self) -> float:
        """90th percentile of the timed runs."""
        return percentile(list(self.runs_ms), 0.9)

    def as_json(self) -> dict[str, Any]:
        """The timing as JSON."""
        return {"text": self.text, "candidates": self.candidates, "first_ms": round(self.first_ms, 3),
                "median_ms": round(self.median_ms, 3), "p90_ms": round(self.p90_ms, 3)}


@dataclass(frozen=True)
class SceneTimes:
    """Every description's timing on one scene, and what loading it took (not part of any description's cost)."""

    label: str
    path: str
    scene_id: str
    objects: int
    rooms: int
    load_ms: float
    attributes_ms: float
    timings: tuple[Timing, ...]

    def pooled(self, chosen: list[int]) -> tuple[float, float]:
        """(median, p90) over every timed run of the chosen descriptions."""
        runs = [ms for i in chosen for ms in self.timings[i].runs_ms]
        return statistics.median(runs), percentile(runs, 0.9)

    def as_json(self) -> dict[str, Any]:
        """The scene's part of the report (descriptions apart)."""
        return {"label": self.label, "path": self.path, "scene_id": self.scene_id, "objects": self.objects,
                "rooms": self.rooms, "load_ms": round(self.load_ms, 1), "attributes_ms": round(self.attributes_ms, 1)}


def _ms(fn: Callable[[], Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    value = fn()
    return value, (time.perf_counter() - started) * 1000


def time_scene(label: str, manifest: Path, repeats: int, templates: tuple[tuple[str, str, str], ...] = DESCRIPTIONS,
               say: Callable[[str], None] = lambda line: None) -> SceneTimes:
    """Load a scene and its cached attributes, then time find on each description."""
    scene, load_ms = _ms(lambda: load_scene(manifest))
    _, attributes_ms = _ms(scene.attributes)
    find(scene, "chair")  # imports and caches every find has paid once: not one description's cost
    timings: list[Timing] = []
    for text in descriptions_for(scene, templates):
        result, first = _ms(functools.partial(find, scene, text))
        runs = tuple(_ms(functools.partial(find, scene, text))[1] for _ in range(repeats))
        timings.append(Timing(text, len(result.candidates), first, runs))
    say(f"{label}: {len(timings)} descriptions × {repeats} runs on {scene.scene_id}")
    return SceneTimes(label, str(manifest), scene.scene_id, scene.index.counts[2], scene.index.counts[1], load_ms,
                      attributes_ms, tuple(timings))


@dataclass(frozen=True)
class SpeedReport:
    """Both scenes' timings, side by side, with the ratios scene / baseline."""

    baseline: SceneTimes
    scene: SceneTimes
    templates: tuple[tuple[str, str, str], ...]
    repeats: int

    def summary(self) -> list[dict[str, Any]]:
        """Per set of descriptions and for all: pooled median and p90 on each scene, their ratios, the goal."""
        rows = []
        for name in (*SETS, "all"):
            chosen = [i for i, (kind, _, _) in enumerate(self.templates) if name in (kind, "all")]
            if not chosen:
                continue
            base, big = self.baseline.pooled(chosen), self.scene.pooled(chosen)
            ratio = big[0] / base[0] if base[0] else None
            rows.append({"set": name, "descriptions": len(chosen), "baseline_median_ms": round(base[0], 3),
                         "baseline_p90_ms": round(base[1], 3), "scene_median_ms": round(big[0], 3),
                         "scene_p90_ms": round(big[1], 3), "ratio_median": None if ratio is None else round(ratio, 2),
                         "ratio_p90": round(big[1] / base[1], 2) if base[1] else None,
                         "goal_met": None if ratio is None else ratio <= GOAL_RATIO})
        return rows

    def as_json(self) -> dict[str, Any]:
        """The report as one JSON document."""
        return {"goal_ratio": GOAL_RATIO, "repeats": self.repeats, "baseline": self.baseline.as_json(),
                "scene": self.scene.as_json(), "summary": self.summary(),
                "descriptions": [{"set": kind, "construct": construct, "template": template,
                                  "baseline": b.as_json(), "scene": s.as_json(),
                                  "ratio_median": round(s.median_ms / b.median_ms, 2) if b.median_ms else None}
                                 for (kind, construct, template), b, s in
                                 zip(self.templates, self.baseline.timings, self.scene.timings, strict=True)]}


def bench_speed(scene: Path, baseline: Path, *, repeats: int = 20, templates: tuple[tuple[str, str, str], ...] = DESCRIPTIONS,
                say: Callable[[str], None] = lambda line: None) -> SpeedReport:
    """Time find on the descriptions over the baseline scene, then over the scene."""
    base = time_scene("baseline", baseline, repeats, templates, say)
    big = time_scene("scene", scene, repeats, templates, say)
    return SpeedReport(base, big, templates, repeats)
