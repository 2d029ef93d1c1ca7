"""`bench planner`: the offline planner on its suites (nouns; referring expressions; held out), beside baselines run
in the same process: the planner reading nouns only (every word a noun, room, floor or code word, as before colour,
size, place and order words and Chinese were understood), and, on the noun suite, the naive "ask whenever several
match" over the same find results."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from scene_agent.agent.disambiguation import Decision, ask_prompt, rules_decision
from scene_agent.agent.offline_planner import Finder, plan
from scene_agent.agent.plan import Memory, Plan
from scene_agent.agent.planner import Exchange
from scene_agent.resolution.matching import match
from scene_agent.resolution.query import parse_query
from scene_agent.scene.loader import Scene
from scene_agent.tools.find import FindResult, candidate, find
from scene_bench.query_suite import KINDS, SUITE
from scene_bench.reference_suite import EXPRESSIONS, HELD_OUT, REFERENCE_SUITE, ReferenceQuery

POLICIES = ("offline rules", "nouns only (before)", "ask if several")
PARTS = ("nouns", "references", "held out")


@dataclass(frozen=True)
class PlannerRow:
    """One policy's score on one group of queries (a decision kind or an expression kind) of one part."""

    part: str
    policy: str
    group: str
    n: int
    correct: int

    @property
    def percent(self) -> float:
        """Share of the group's queries decided right, in percent."""
        return 100.0 * self.correct / self.n if self.n else 0.0


@dataclass
class PlannerReport:
    """Scores per part, policy and group, the misses, and how long planning took."""

    rows: list[PlannerRow]
    misses: dict[str, list[str]] = field(default_factory=dict)
    mean_plan_ms: float = 0.0

    def as_json(self) -> dict[str, Any]:
        """The report as one JSON document."""
        return {"results": [{"part": r.part, "policy": r.policy, "group": r.group, "n": r.n, "correct": r.correct,
                             "percent": round(r.percent, 1)} for r in self.rows],
                "misses": self.misses, "mean_plan_ms": round(self.mean_plan_ms, 3)}


def _noun_only(scene: Scene, query: str) -> Finder:
    """Every word of the description read as a noun, room, floor or code word (colour, size and place words ignored)."""
    def finder(arguments: dict[str, Any]) -> tuple[FindResult, Decision | None]:
        matched = match(scene.index, parse_query(arguments["query"], scene.index))
        found = FindResult(query=arguments["query"], candidates=[candidate(scene, c) for c in matched.codes])
        return found, rules_decision(query, found.candidates) if len(found.candidates) > 1 else None
    return finder


def _ask_if_several(scene: Scene) -> Finder:
    def finder(arguments: dict[str, Any]) -> tuple[FindResult, Decision | None]:
        found = find(scene, **arguments)
        several = len(found.candidates) > 1
        return found, Decision(needs_selection=True, act_on="one", reason="several match",
                               prompt=ask_prompt(found.candidates, False)) if several else None
    return finder


def run_query(scene: Scene, item: ReferenceQuery, policy: str) -> Plan:
    """Plan a suite query under a policy, its earlier turns first (each remembered as carried out)."""
    history: list[Exchange] = []
    for query in (*item.history, item.query):
        finder = {POLICIES[0]: None, POLICIES[1]: _noun_only(scene, query), POLICIES[2]: _ask_if_several(scene)}[policy]
        if policy == POLICIES[1]:  # nouns only: the planner understands none of its optional kinds of words
            chosen = plan(query, scene, tuple(history), finder, understands=frozenset())
        else:
            chosen = plan(query, scene, tuple(history), finder)
        memory = Memory(chosen.intent, chosen.listed or chosen.candidates, chosen.targets)
        history.append(Exchange(query=query, answer="", status="answered", codes=chosen.targets, memory=memory))
    return chosen


def judge(item: ReferenceQuery, chosen: Plan) -> bool:
    """Right decision and right candidates."""
    return chosen.kind == item.kind and chosen.candidate_codes == tuple(item.candidates)


def _as_reference(q: Any) -> ReferenceQuery:
    return q if isinstance(q, ReferenceQuery) else ReferenceQuery(q.query, q.kind, q.candidates, "noun")


def bench_planner(scene: Scene) -> PlannerReport:
    """Run the suites through the offline rules and both baselines."""
    report = PlannerReport(rows=[])
    parts = {"nouns": [_as_reference(q) for q in SUITE], "references": list(REFERENCE_SUITE), "held out": list(HELD_OUT)}
    elapsed, planned = 0.0, 0
    scene.attributes()  # measured (or read) once, outside the timing
    for part, items in parts.items():
        if not items:
            continue
        for policy in POLICIES if part == "nouns" else POLICIES[:2]:
            right: list[tuple[ReferenceQuery, bool]] = []
            for item in items:
                started = time.perf_counter()
                chosen = run_query(scene, item, policy)
                if policy == POLICIES[0]:
                    elapsed += time.perf_counter() - started
                    planned += 1
                ok = judge(item, chosen)
                right.append((item, ok))
                if not ok and policy == POLICIES[0]:
                    report.misses.setdefault(part, []).append(
                        f"{item.query!r}: {chosen.kind} {list(chosen.candidate_codes)} (want {item.kind} {list(item.candidates)})")
            groups = [*KINDS, *(e for e in EXPRESSIONS if any(i.expression == e for i, _ in right)), "all"]
            for group in groups:
                members = [ok for i, ok in right if group in ("all", i.kind, i.expression)]
                if members:
                    report.rows.append(PlannerRow(part, policy, group, len(members), sum(members)))
    report.mean_plan_ms = 1000 * elapsed / max(planned, 1)
    return report
