"""The tables of `bench grounding`: right / asks / wrong per policy, overall and by dataset, part, Sr3D reference type,
Nr3D tag and ScanRefer's unique / multiple, why rows went wrong, and the share of words `find` left unused.

The headline ("all") leaves out the Nr3D rows whose listener could not find the target either (`correct_guess`
False), as ReferIt3D does; they have a row of their own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scene_bench.grounding.datasets import DATASETS, PARTS
from scene_bench.grounding.run import VERDICTS, WRONG_REASONS, RowResult, RunResult

LISTENERS_MISSED = "nr3d, listeners missed"
# (table, group, which rows): the order the tables show them in; "  " marks a finer group under the one above.
SR3D_GROUPS = [("horizontal proximity", "horizontal", None), ("  closest", None, "closest"), ("  farthest", None, "farthest"),
               ("between", "between", None), ("vertical proximity", "vertical", None), ("  above", None, "above"),
               ("  below", None, "below"), ("support", "support", None), ("  on", None, "supported-by"),
               ("  supporting", None, "supporting"), ("allocentric", "allocentric", None), ("  left", None, "left"),
               ("  right", None, "right"), ("  front", None, "front"), ("  back", None, "back")]
NR3D_TAGS = ("spatial", "colour", "shape", "view-dependent", "view-independent", "easy", "hard")
SCANREFER_TAGS = ("unique", "multiple")


@dataclass
class Tally:
    """One policy's verdicts on one group of rows."""

    verdicts: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)

    def share(self, verdict: str, n: int) -> float:
        """A verdict's share of the group, in percent."""
        return 100.0 * self.verdicts[verdict] / n if n else 0.0


@dataclass
class Group:
    """One line of a table: a group of rows and how each policy did on them."""

    table: str
    group: str
    n: int
    tallies: dict[str, Tally]
    words: int = 0
    words_unused: int = 0
    words_known: bool = False

    @property
    def unused_share(self) -> float | None:
        """Share of the descriptions' words find left unused, in percent; None when find does not say."""
        return 100.0 * self.words_unused / self.words if self.words_known and self.words else None

    def as_json(self) -> dict[str, Any]:
        """The group as JSON."""
        share = self.unused_share
        return {"table": self.table, "group": self.group.strip(), "n": self.n,
                "unused_words_percent": None if share is None else round(share, 1),
                "policies": {name: {**{v: t.verdicts[v] for v in VERDICTS},
                                    **{f"{v}_percent": round(t.share(v, self.n), 1) for v in VERDICTS},
                                    "wrong_reasons": {r: t.reasons[r] for r in WRONG_REASONS}}
                             for name, t in self.tallies.items()}}


@dataclass
class GroundingReport:
    """Everything `bench grounding` prints."""

    policies: list[str]
    groups: list[Group]
    meta: dict[str, Any]

    def tables(self) -> list[str]:
        """The tables' names, in order."""
        return list(dict.fromkeys(g.table for g in self.groups))

    def as_json(self) -> dict[str, Any]:
        """The report as one JSON document."""
        return {**self.meta, "policies": self.policies, "groups": [g.as_json() for g in self.groups]}


def _group(table: str, name: str, results: Sequence[RowResult], policies: Sequence[str]) -> Group:
    group = Group(table, name, len(results), {p: Tally() for p in policies})
    for result in results:
        for policy in policies:
            outcome = result.outcomes[policy]
            group.tallies[policy].verdicts[outcome.verdict] += 1
            if outcome.reason:
                group.tallies[policy].reasons[outcome.reason] += 1
        if result.words is not None:
            group.words_known = True
            group.words += result.words[0]
            group.words_unused += result.words[1]
    return group


def build_report(run: RunResult, policies: Sequence[str], meta: dict[str, Any]) -> GroundingReport:
    """Group the scored rows into the tables."""
    fair = [r for r in run.results if r.row.fair]
    groups: list[Group] = [_group("overall", "all", fair, policies)]

    def add(table: str, name: str, rows: Sequence[RowResult]) -> None:
        if rows:
            groups.append(_group(table, name, rows, policies))

    for dataset in DATASETS:
        add("overall", dataset, [r for r in fair if r.row.dataset == dataset])
    add("overall", LISTENERS_MISSED, [r for r in run.results if not r.row.fair])
    for part in PARTS:
        add("part", part, [r for r in fair if r.row.part == part])
    sr3d = [r for r in fair if r.row.dataset == "sr3d"]
    for name, coarse, fine in SR3D_GROUPS:
        add("Sr3D reference type", name, [r for r in sr3d if (r.row.coarse_type == coarse if coarse else r.row.fine_type == fine)])
    add("Sr3D reference type", "unknown type", [r for r in sr3d if r.row.coarse_type is None])
    for dataset, title, tags in (("nr3d", "Nr3D tags", NR3D_TAGS), ("scanrefer", "ScanRefer tags", SCANREFER_TAGS)):
        for tag in tags:
            add(title, tag, [r for r in fair if r.row.dataset == dataset and tag in r.tags])
    meta = {**meta, "rows_scored": len(run.results), "rows_skipped": dict(run.skipped),
            "listeners_missed": sum(not r.row.fair for r in run.results), "errors": run.errors,
            "seconds": round(run.seconds, 1)}
    return GroundingReport(list(policies), groups, meta)
