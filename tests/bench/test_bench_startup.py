"""`scene-agent bench startup`: the real command in a subprocess (shape of its JSON and sane numbers, never its speed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import run_cli

COMMANDS = ['python -c "import numpy"', "scene-agent --help", "scene-agent clr 0-3-2", "scene-agent vol 0-3-2",
            'scene-agent find "the chairs in the kitchen"', 'scene-agent ask "how big is the sofa?"']


def test_bench_startup_json(tmp_path: Path) -> None:
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    out = run_cli("bench", "startup", "--repeats", "1", "--json", env={"TMPDIR": str(tmpdir)}, timeout=300)
    assert out.returncode == 0, out.stderr
    [line] = out.stdout.splitlines()
    report = json.loads(line)
    assert set(report) == {"baseline_ms", "rows", "ask_tool", "ask_tool_card_ms", "ask_tool_warm_ms"}
    assert [r["command"] for r in report["rows"]] == COMMANDS
    baseline, *commands = report["rows"]
    assert (baseline["goal"], baseline["met"], baseline["ratio"]) == (None, None, 1.0)
    assert baseline["median_ms"] == report["baseline_ms"] > 0
    for row in commands:
        assert row["runs"] == 1 and 0 < row["min_ms"] <= row["median_ms"] <= row["max_ms"], row
        assert row["ratio"] == pytest.approx(row["median_ms"] / report["baseline_ms"], abs=0.011)  # from unrounded medians
        assert row["goal"] in (2.5, 4.0, 5.0) and isinstance(row["met"], bool)
    assert report["ask_tool"] == "volume" and report["ask_tool_card_ms"] > 0 and report["ask_tool_warm_ms"] > 0
    assert list(tmpdir.iterdir()) == []  # the bench's state directory went with the temporary directory


def test_bench_startup_table_names_every_command() -> None:
    out = run_cli("bench", "startup", "--repeats", "1", timeout=300)
    assert out.returncode == 0, out.stderr
    for name in ("import numpy", "--help", "clr 0-3-2", "vol 0-3-2", "ask", "× the baseline", "card showed"):
        assert name in out.stdout, name


def test_bench_startup_rejects_zero_repeats() -> None:
    out = run_cli("bench", "startup", "--repeats", "0")
    assert out.returncode == 2 and "--repeats" in out.stderr
