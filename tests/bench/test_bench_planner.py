"""`bench planner` scores the offline planner on its suites beside the nouns-only and naive baselines, as a table or JSON."""

from __future__ import annotations

import json

from cli_run import run_cli

from scene_bench.query_suite import KINDS, SUITE
from scene_bench.reference_suite import EXPRESSIONS, REFERENCE_SUITE


def test_bench_planner_json() -> None:
    result = run_cli("bench", "planner", "--json", env={"OPENAI_API_KEY": ""})
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    rows = {(r["part"], r["policy"], r["group"]): r for r in report["results"]}
    assert {group for part, _, group in rows if part == "nouns"} == {*KINDS, "noun", "all"}
    assert {group for part, _, group in rows if part == "references"} >= {*EXPRESSIONS, "all"} - {"ask_several"}
    assert rows[("nouns", "offline rules", "all")]["correct"] == len(SUITE)
    assert rows[("references", "offline rules", "all")]["n"] == len(REFERENCE_SUITE)
    assert rows[("references", "offline rules", "all")]["correct"] > rows[("references", "nouns only (before)", "all")]["correct"]
    assert rows[("nouns", "ask if several", "all")]["correct"] < len(SUITE)
    assert ("references", "ask if several", "all") not in rows  # that baseline is about decisions over nouns only
    assert report["mean_plan_ms"] > 0


def test_bench_planner_table() -> None:
    result = run_cli("bench", "planner")
    assert result.returncode == 0, result.stderr
    assert "bench planner: nouns" in result.stdout and "bench planner: references" in result.stdout
    assert "nouns only (before)" in result.stdout and "ask if several" in result.stdout and "relation" in result.stdout
