"""`bench planner` scores the offline planner's decisions on the query suite beside the naive baseline, as a table or JSON."""

from __future__ import annotations

import json

from cli_run import run_cli
from scene_agent.bench.query_suite import KINDS, SUITE


def test_bench_planner_json() -> None:
    result = run_cli("bench", "planner", "--json", env={"OPENAI_API_KEY": ""})
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    rows = {(r["policy"], r["kind"]): r for r in report["results"]}
    assert {kind for _, kind in rows} == {*KINDS, "all"}
    assert rows[("offline rules", "all")]["n"] == len(SUITE)
    assert rows[("offline rules", "all")]["correct"] == len(SUITE) and report["misses"]["offline rules"] == []
    assert rows[("ask if several (baseline)", "all")]["correct"] < len(SUITE)
    assert report["mean_plan_ms"] > 0


def test_bench_planner_table() -> None:
    result = run_cli("bench", "planner")
    assert result.returncode == 0, result.stderr
    assert "ask if several (baseline)" in result.stdout and "ask_several" in result.stdout
