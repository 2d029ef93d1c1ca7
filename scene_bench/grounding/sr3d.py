"""Sr3D-style rows written from a scan's boxes, as ReferIt3D's Sr3D was: template sentences of five reference types.

horizontal proximity ("the chair that is close to the desk", "the chair that is far from the desk"), vertical proximity
("the lamp that is above the table"), between ("the stool that is between the sink and the fridge"), support ("the
lamp that is on top of the nightstand", "the table with a tv on top of it") and allocentric ("looking at the front of
the bed, choose the nightstand that is on the left of it": left as seen by someone facing the anchor's front). The
sentences follow the patterns of ReferIt3D's own generator, relation words included ("near" and "close to" mean the
closest, "far from" the farthest). Only an anchor that stands against one wall has an evident front, so no row says "behind" (behind it
is the wall); published Sr3D files do have such rows, and they are read. A row exists only when the relation singles the
target out among the 2–6 objects of its label by a clear margin (`relations.py`) and the anchor's label is unique in
the scan. Each row's sentence is one of several paraphrases, chosen by a generator seeded from the scan id, so the
same boxes always give the same rows; at most one row per reference type per scan keeps big scans from dominating.
"""

from __future__ import annotations

import csv
import itertools
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from scene_agent.errors import SceneAgentError
from scene_agent.language.vocabulary import canonical_label, is_structure_label
from scene_bench.grounding.boxes import GroundBox
from scene_bench.grounding.datasets import SR3D_TYPES, GroundingRow
from scene_bench.grounding.relations import Rect, Thing, allocentric, between, gap, proximity, vertical

CSV_COLUMNS = ("scan_id", "target_id", "utterance", "coarse_reference_type", "reference_type", "anchor_ids",
               "anchors_types", "distractor_ids", "instance_type", "stimulus_id")
GENERIC_LABELS = frozenset({"object", "objects", "stuff", "item", "items"})  # not a class a sentence can name
NEXT_TO_M = 1.0  # a closest target this near may also be "next to" / "beside" the anchor

# The sentence patterns of ReferIt3D's own generator (its published references_to_human_language table): a
# relation's words are one of its listed variants; an imperative ("find", "choose", "select") or none before.
_IMPERATIVES = ("", "find ", "choose ", "select ")
_PLAIN = tuple(f"{verb}the {{t}} that {{is}} {{rel}} the {{a}}" for verb in _IMPERATIVES)
_VIEWED = ("looking at the front of the {a}, choose the {t} that {is} {rel} {it_a}",
           "looking at the front of the {a}, select the {t} that {is} {rel} {it_a}",
           "looking at the front of the {a}, pick the {t} that {is} {rel} the {a}",
           "facing the front of the {a}, choose the {t} that {is} {rel} {it_a}",
           "facing the front of the {a}, select the {t} that {is} {rel} {it_a}",
           "facing the front of the {a}, pick the {t} that {is} {rel} the {a}")
_SEATED = ("facing the {a} from the side you sit on {it_a}, choose the {t} that {is} {rel} {this_a} {a}",
           "looking the {a} from the side you sit on {it_a}, choose the {t} that {is} {rel} {this_a} {a}")
TEMPLATES: dict[str, tuple[str, ...]] = {
    "closest": _PLAIN, "farthest": _PLAIN, "above": _PLAIN, "below": _PLAIN, "supported-by": _PLAIN,
    "next to": tuple(f"{verb}the {{t}} that {{is}} {rel} the {{a}}" for verb in _IMPERATIVES[:3]
                     for rel in ("next to", "beside")),
    "supporting": (*_PLAIN, *(f"{verb}the {{t}} with {{article}} {{a}} {tail}" for verb in _IMPERATIVES
                              for tail in ("on top of {it}", "on {its} top", "on top"))),
    "between": tuple(f"{verb}the {{t}} that {{is}} {middle} the {{a}} and the {{b}}" for verb in _IMPERATIVES[:3]
                     for middle in ("between", "in the middle of", "in the center of")),
    "front": tuple(f"{verb}the {{t}} that {{is}} {{rel}} the {{a}}" for verb in ("choose ", "select ", "find ")),
    "left": _VIEWED, "right": _VIEWED, "back": _VIEWED,
}
RELATION_WORDS = {"supported-by": ("on top of", "on", "lying on"), "supporting": ("supporting",),
                  "above": ("above", "over"), "below": ("below", "under", "beneath", "underneath"),
                  "farthest": ("farthest from", "far from", "far away from"), "closest": ("closer to", "close to", "near"),
                  "front": ("in front of",), "back": ("on the back of", "behind"),
                  "left": ("on the left of", "to the left of", "on the left side of"),
                  "right": ("on the right of", "to the right of", "on the right side of")}
SEATS = frozenset({"couch", "office chair", "chair", "armchair", "sofa chair"})  # anchors "you sit on"


@dataclass(frozen=True)
class Layout:
    """What Sr3D rows are written from: a scan's objects, its walls (footprints) and its extent seen from above."""

    scan_id: str
    things: list[Thing]
    walls: list[Rect]
    room: Rect


@dataclass(frozen=True)
class Reference:
    """A clear reference: its type, the target, the anchors it is placed by, and the others of its label."""

    kind: str
    target: Thing
    anchors: tuple[Thing, ...]
    distractors: tuple[Thing, ...]


@dataclass(frozen=True)
class Sr3dRow:
    """One generated reference: the sentence, its type, the target and its anchors and distractors."""

    scan_id: str
    target: Thing
    utterance: str
    reference_type: str
    anchors: tuple[Thing, ...]
    distractors: tuple[Thing, ...]

    def stimulus_id(self) -> str:
        """ReferIt3D's stimulus id: scan-label-N-target-distractors."""
        ids = "-".join(str(d.id) for d in self.distractors)
        return f"{self.scan_id}-{self.target.label}-{len(self.distractors) + 1}-{self.target.id}-{ids}"

    def record(self) -> dict[str, str]:
        """The row in the published Sr3D CSV layout (lists written as Python lists, as the published files are)."""
        return {"scan_id": self.scan_id, "target_id": str(self.target.id), "utterance": self.utterance,
                "coarse_reference_type": SR3D_TYPES[self.reference_type], "reference_type": self.reference_type,
                "anchor_ids": repr([a.id for a in self.anchors]), "anchors_types": repr([a.label for a in self.anchors]),
                "distractor_ids": repr([d.id for d in self.distractors]), "instance_type": self.target.label,
                "stimulus_id": self.stimulus_id()}

    def as_row(self, number: int) -> GroundingRow:
        """The row as the benchmark reads it (the same as reading it back from the CSV)."""
        easy = "easy" if len(self.distractors) + 1 <= 2 else "hard"
        return GroundingRow("sr3d", f"generated Sr3D row {number}", self.scan_id, self.target.id, self.utterance,
                            tags=frozenset({easy}), fine_type=self.reference_type,
                            coarse_type=SR3D_TYPES[self.reference_type])


def words(label: str) -> str:
    """A label as a sentence says it: lower case, underscores as spaces."""
    return " ".join(label.replace("_", " ").lower().split())


def layout_of_boxes(scan: str, boxes: Sequence[GroundBox]) -> Layout:
    """The layout of a scan's ground-truth boxes: its objects, its thin wall boxes, the extent of everything."""
    things = [Thing(b.id, words(b.label), _corner(b, -1), _corner(b, 1)) for b in boxes if not is_structure_label(b.label)]
    walls = [r for b in boxes if words(b.label) == "wall" and min(b.size[:2]) <= 0.3
             for r in [(_corner(b, -1)[0], _corner(b, -1)[1], _corner(b, 1)[0], _corner(b, 1)[1])]]
    every = [(_corner(b, -1), _corner(b, 1)) for b in boxes] or [((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))]
    room = (min(lo[0] for lo, _ in every), min(lo[1] for lo, _ in every),
            max(hi[0] for _, hi in every), max(hi[1] for _, hi in every))
    return Layout(scan, things, walls or room_walls(room), room)


def _corner(b: GroundBox, side: int) -> tuple[float, float, float]:
    x, y, z = (c + side * s / 2 for c, s in zip(b.center, b.size, strict=True))
    return x, y, z


def room_walls(room: Rect, thickness: float = 0.05) -> list[Rect]:
    """Four walls just outside a rectangular room (for scans whose walls are not boxes of their own)."""
    x0, y0, x1, y1 = room
    return [(x0 - thickness, y0, x0, y1), (x1, y0, x1 + thickness, y1), (x0, y0 - thickness, x1, y0),
            (x0, y1, x1, y1 + thickness)]


def references(layout: Layout) -> list[Reference]:
    """Every clear reference in the layout."""
    by_label: dict[str, list[Thing]] = defaultdict(list)
    for t in layout.things:
        by_label[t.label].append(t)
    canonical: dict[str, int] = defaultdict(int)
    for t in layout.things:
        canonical[canonical_label(t.label) or t.label] += 1
    usable = {label for label in by_label if label not in GENERIC_LABELS and any(c.isalpha() for c in label)}
    anchors = [g[0] for label, g in sorted(by_label.items()) if len(g) == 1 and label in usable
               and canonical[canonical_label(label) or label] == 1]
    found: list[Reference] = []
    for label in sorted(usable):
        group = sorted(by_label[label], key=lambda t: t.id)
        if not 2 <= len(group) <= 6:
            continue
        others = {t.id: tuple(o for o in group if o is not t) for t in group}
        for a in anchors:
            for kind, target in [*proximity(group, a), *vertical(group, a),
                                 *allocentric(group, a, layout.walls, layout.room)]:
                found.append(Reference(kind, target, (a,), others[target.id]))
        for a, b in itertools.combinations(anchors, 2):
            if (middle := between(group, a, b)) is not None:
                found.append(Reference("between", middle, (a, b), others[middle.id]))
    return found


def _plural(label: str) -> bool:
    last = label.split()[-1] if label else ""
    return last.endswith("s") and not last.endswith(("ss", "us", "is"))


def _sentence(kind: str, target: Thing, anchors: tuple[Thing, ...], rng: random.Random, near: bool) -> str:
    choices = TEMPLATES["next to"] if near and rng.random() < 0.5 else TEMPLATES[kind]
    if kind in ("left", "right", "back") and anchors[0].label in SEATS and rng.random() < 0.3:
        choices = _SEATED
    many, anchor_many = _plural(target.label), _plural(anchors[0].label)
    return rng.choice(choices).format(
        t=target.label, a=anchors[0].label, b=anchors[-1].label, rel=rng.choice(RELATION_WORDS.get(kind, ("",))),
        it="them" if many else "it", its="their" if many else "its", has="have" if many else "has",
        it_a="them" if anchor_many else "it", this_a="these" if anchor_many else "this",
        article="" if anchor_many else "a", **{"is": "are" if many else "is"}).replace("  ", " ")


def generate(layout: Layout, seed: int = 0) -> list[Sr3dRow]:
    """At most one row per reference type for the scan, each a clear reference in one of its paraphrases."""
    rng = random.Random(f"sr3d:{seed}:{layout.scan_id}")
    by_kind: dict[str, list[Reference]] = defaultdict(list)
    for ref in references(layout):
        by_kind[ref.kind].append(ref)
    rows = []
    for kind in SR3D_TYPES:
        if not by_kind[kind]:
            continue
        chosen = rng.choice(by_kind[kind])
        target, anchors, distractors = chosen.target, chosen.anchors, chosen.distractors
        if kind == "between" and rng.random() < 0.5:
            anchors = anchors[::-1]
        near = kind == "closest" and gap(target, anchors[0]) <= NEXT_TO_M
        rows.append(Sr3dRow(layout.scan_id, target, _sentence(kind, target, anchors, rng, near), kind, anchors, distractors))
    return rows


def write_csv(rows: Iterable[Sr3dRow], path: Path) -> int:
    """Write rows in the published Sr3D CSV layout; how many were written."""
    count = 0
    try:
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=CSV_COLUMNS)
            writer.writeheader()
            for row in rows:
                writer.writerow(row.record())
                count += 1
    except OSError as exc:
        raise SceneAgentError(f"{path}: cannot write the Sr3D rows ({exc.strerror})") from None
    return count
