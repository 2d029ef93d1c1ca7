"""`bench tools` runs CLR and VOL beside their baselines and prints one JSON line (no speed is asserted)."""

from __future__ import annotations

import json

from cli_run import run_cli


def test_bench_tools_json_rows() -> None:
    result = run_cli("bench", "tools", "--sizes", "3000,6000", "--repeats", "1", "--json", timeout=300)
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)["results"]
    tools = [r["tool"] for r in rows]
    assert tools[:3] == ["CLR", "CLR baseline: mean colour", tools[2]] and tools[2].startswith("CLR baseline: k-means")
    assert tools[-2:] == ["VOL", "VOL baseline: Open3D convex hull"]
    assert sorted({r["points"] for r in rows}) == [3000, 6000]
    assert len(rows) == 2 * 5
    for row in rows:
        assert set(row) == {"tool", "points", "median_ms", "peak_mb"}
        assert row["median_ms"] > 0 and row["peak_mb"] >= 0


def test_bench_tools_rejects_bad_sizes() -> None:
    result = run_cli("bench", "tools", "--sizes", "many")
    assert result.returncode == 2
    assert "--sizes" in result.stderr
