"""`scene-agent bench mcp`: the real command in a subprocess, small (shape of its JSON and sane numbers, never its speed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import run_cli

from scene_bench.mcp import row

ROWS = [("mcp", "find", 3), ("mcp", "ask (instant pick)", 3), ("cli", "find", 1), ("cli", "ask (instant pick)", 1)]


def test_bench_mcp_json(tmp_path: Path) -> None:
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    out = run_cli("bench", "mcp", "--n", "3", "--cli-n", "1", "--json", env={"TMPDIR": str(tmpdir)}, timeout=300)
    assert out.returncode == 0, out.stderr
    [line] = out.stdout.splitlines()
    report = json.loads(line)
    assert set(report) == {"results", "mcp_startup_ms", "asked"}
    assert [(r["path"], r["call"], r["n"]) for r in report["results"]] == ROWS
    for result in report["results"]:
        assert set(result) == {"path", "call", "n", "p50_ms", "p99_ms", "mean_ms"}
        assert 0 < result["p50_ms"] <= result["p99_ms"] and result["mean_ms"] > 0, result
    assert report["mcp_startup_ms"] > 0
    # Both paths answered, alike (the bench fails otherwise): the first kitchen chair was picked, and it is red.
    asked = report["asked"]
    assert (asked["question"], asked["status"], asked["codes"]) == ("what's the color of the chair in the kitchen?",
                                                                    "answered", ["0-3-2"])
    assert "red" in asked["answer"]
    assert list(tmpdir.iterdir()) == []  # the API server's state, the picks and the logs went with the temporary directory


def test_a_row_is_the_percentiles_and_mean_of_its_samples() -> None:
    measured = row("cli", "find", [30.0, 10.0, 20.0])
    assert (measured.n, measured.p50_ms, measured.mean_ms) == (3, 20.0, 20.0)
    assert 20.0 < measured.p99_ms <= 30.0


@pytest.mark.parametrize("args", [("--n", "0"), ("--cli-n", "0")])
def test_bench_mcp_rejects_out_of_range_options(args: tuple[str, str]) -> None:
    out = run_cli("bench", "mcp", *args, "--json")
    assert out.returncode == 2
    assert args[0] in out.stderr
