"""`bench planner`: the offline planner's decisions on the query suite, beside the naive "ask whenever several match" rule."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from scene_agent.agent.disambiguation import Decision, ask_prompt
from scene_agent.agent.offline_planner import Plan, plan
from scene_agent.bench.query_suite import KINDS, SUITE, SuiteQuery
from scene_agent.index import SceneIndex
from scene_agent.tools.find import FindResult, find

POLICIES = ("offline rules", "ask if several (baseline)")


@dataclass(frozen=True)
class PlannerRow:
    """One policy's score on one decision kind."""

    policy: str
    kind: str
    n: int
    correct: int

    @property
    def percent(self) -> float:
        """Share of the kind's queries decided right, in percent."""
        return 100.0 * self.correct / self.n if self.n else 0.0


@dataclass
class PlannerReport:
    """Scores per policy and kind, the misses, and how long planning took."""

    rows: list[PlannerRow]
    misses: dict[str, list[str]] = field(default_factory=dict)
    mean_plan_ms: float = 0.0

    def as_json(self) -> dict:
        """The report as one JSON document."""
        return {"results": [{"policy": r.policy, "kind": r.kind, "n": r.n, "correct": r.correct,
                             "percent": round(r.percent, 1)} for r in self.rows],
                "misses": self.misses, "mean_plan_ms": round(self.mean_plan_ms, 3)}


def _naive_finder(index: SceneIndex):
    def finder(target: str) -> tuple[FindResult, Decision | None]:
        found = find(index, target)
        several = len(found.candidates) > 1
        return found, Decision(needs_selection=several, act_on="one", reason="several match",
                               prompt=ask_prompt(found.candidates, False) if several else None) if several else None
    return finder


def judge(item: SuiteQuery, chosen: Plan) -> bool:
    """Right decision and right candidates."""
    return chosen.kind == item.kind and chosen.candidate_codes == item.candidates


def bench_planner(index: SceneIndex) -> PlannerReport:
    """Run the suite through the offline rules and through the baseline."""
    report = PlannerReport(rows=[])
    elapsed = 0.0
    for policy in POLICIES:
        correct = {kind: 0 for kind in KINDS}
        misses: list[str] = []
        for item in SUITE:
            started = time.perf_counter()
            chosen = plan(item.query, index) if policy == POLICIES[0] else plan(item.query, index, finder=_naive_finder(index))
            if policy == POLICIES[0]:
                elapsed += time.perf_counter() - started
            if judge(item, chosen):
                correct[item.kind] += 1
            else:
                misses.append(f"{item.query!r}: {chosen.kind} {list(chosen.candidate_codes)} (want {item.kind})")
        for kind in KINDS:
            report.rows.append(PlannerRow(policy, kind, sum(1 for q in SUITE if q.kind == kind), correct[kind]))
        report.rows.append(PlannerRow(policy, "all", len(SUITE), sum(correct.values())))
        report.misses[policy] = misses
    report.mean_plan_ms = 1000 * elapsed / len(SUITE)
    return report
