"""`scene-agent bench viewer`: the real command in a subprocess on the small scene (shape of its output, never its speed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser_fixtures import CHROMIUM, VIEWER_DIST
from cli_run import run_cli

LOAD_FIELDS = {"view", "items", "points", "runs", "manifest_ms", "first_frame_ms", "ready_ms"}
PICK_FIELDS = {"method", "points", "clicks", "hits", "pick_p50_ms", "pick_p95_ms", "click_to_frame_p50_ms"}
SMALL_SCENE_POINTS = 23 * 400


@pytest.fixture(autouse=True)
def _browser_and_viewer() -> None:
    if not Path(CHROMIUM).exists() or not (VIEWER_DIST / "index.html").is_file():
        pytest.fail("bench viewer needs Chromium and a built viewer: `make test` provides both")


def test_bench_viewer_json(small_scene_path: Path) -> None:
    out = run_cli("bench", "viewer", "--scene", str(small_scene_path), "--runs", "1", "--clicks", "2", "--json", timeout=300)
    assert out.returncode == 0, out.stderr
    [line] = out.stdout.splitlines()
    report = json.loads(line)
    assert set(report) == {"renderer", "frame_ms", "agreed", "loads", "picks"}
    assert report["renderer"] and report["frame_ms"] > 0 and 0 <= report["agreed"] <= 2
    views = [row["view"] for row in report["loads"]]
    assert views == ["whole scene (small)", "room 0-1 (view)", "3 chairs (selection)"]  # the kitchen holds the most chairs
    for row in report["loads"]:
        assert set(row) == LOAD_FIELDS and row["runs"] == 1, row
        assert 0 < row["manifest_ms"] <= row["first_frame_ms"] <= row["ready_ms"], row
    assert report["loads"][0]["points"] == SMALL_SCENE_POINTS and report["loads"][0]["items"] == 23
    assert [row["method"] for row in report["picks"]] == ["gpu", "raycast"]
    for row in report["picks"]:
        assert set(row) == PICK_FIELDS, row
        assert (row["points"], row["clicks"]) == (SMALL_SCENE_POINTS, 2), row
        assert 0 <= row["hits"] <= 2 and row["pick_p50_ms"] <= row["pick_p95_ms"], row


def test_bench_viewer_table(small_scene_path: Path) -> None:
    out = run_cli("bench", "viewer", "--scene", str(small_scene_path), "--runs", "1", "--clicks", "1", timeout=300,
                  env={"COLUMNS": "200"})
    assert out.returncode == 0, out.stderr
    for words in ("bench viewer: loading", "first frame ms", "bench viewer: picking", "GPU id picking", "Raycaster (CPU)"):
        assert words in out.stdout, out.stdout


@pytest.mark.parametrize("args", [("--runs", "0"), ("--clicks", "0")])
def test_bench_viewer_rejects_out_of_range_options(args: tuple[str, str]) -> None:
    out = run_cli("bench", "viewer", *args, "--json")
    assert out.returncode == 2
    assert args[0] in out.stderr
