"""`scene-agent bench viewer`: the real command in a subprocess on the small scene (shape of its output, never its speed)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from browser_fixtures import CHROMIUM, VIEWER_DIST
from cli_run import run_cli
from small_scene import write_small_scene

RUN_FIELDS = {"scene", "renderer", "frame_ms", "frame_ms_p50", "points_drawn_max", "agreed", "loads", "picks"}
LOAD_FIELDS = {"view", "lod", "items", "points", "points_drawn_max", "runs", "manifest_ms", "first_frame_ms", "ready_ms"}
PICK_FIELDS = {"method", "view", "lod", "points", "clicks", "hits", "unanswered", "pick_p50_ms", "pick_p95_ms",
               "click_to_frame_p50_ms"}
RATIOS = {"first_frame", "orbit_frame", "ready", "frame", "gpu_pick"}
SMALL_SCENE_POINTS = 23 * 400


@pytest.fixture(autouse=True)
def _browser_and_viewer() -> None:
    if not Path(CHROMIUM).exists() or not (VIEWER_DIST / "index.html").is_file():
        pytest.fail("bench viewer needs Chromium and a built viewer: `make test` provides both")


def _check_run(run: dict[str, Any], clicks: int) -> None:
    """One scene's part of the document: every key, sane values (never speeds)."""
    assert set(run) >= RUN_FIELDS and run["scene"] == "small"
    assert run["renderer"] and run["frame_ms"] > 0 and run["frame_ms_p50"] > 0 and 0 <= run["agreed"] <= clicks
    views = [row["view"] for row in run["loads"]]
    assert views == ["whole scene (small)", "room 0-1 (view)", "3 chairs (selection)"]  # the kitchen holds the most chairs
    for row in run["loads"]:
        assert set(row) == LOAD_FIELDS and row["runs"] == 1, row
        assert row["lod"] in ("items", "tiles"), row
        assert 0 < row["points_drawn_max"] <= row["points"], row
        assert 0 < row["manifest_ms"] <= row["first_frame_ms"] <= row["ready_ms"], row
    whole = run["loads"][0]
    assert (whole["points"], whole["items"]) == (SMALL_SCENE_POINTS, 23)
    assert whole["points_drawn_max"] <= run["points_drawn_max"] <= SMALL_SCENE_POINTS
    assert [row["method"] for row in run["picks"]] == ["gpu", "raycast"]
    for row in run["picks"]:
        assert set(row) == PICK_FIELDS, row
        assert row["view"] == "all 7 rooms (selection)" and row["lod"] in ("items", "tiles"), row
        assert (row["points"], row["clicks"], row["unanswered"]) == (SMALL_SCENE_POINTS, clicks, 0), row
        assert 0 <= row["hits"] <= clicks and row["pick_p50_ms"] <= row["pick_p95_ms"], row


def test_bench_viewer_json(small_scene_path: Path) -> None:
    out = run_cli("bench", "viewer", "--scene", str(small_scene_path), "--runs", "1", "--clicks", "2", "--json", timeout=300)
    assert out.returncode == 0, out.stderr
    [line] = out.stdout.splitlines()
    report = json.loads(line)
    assert set(report) == RUN_FIELDS  # no baseline: no baseline, ratios or goals
    _check_run(report, clicks=2)


def test_bench_viewer_baseline_json(small_scene_path: Path) -> None:
    out = run_cli("bench", "viewer", "--scene", str(small_scene_path), "--baseline-scene", str(small_scene_path),
                  "--runs", "1", "--clicks", "1", "--json", timeout=600)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert set(report) == RUN_FIELDS | {"baseline", "ratios", "goals"}
    _check_run(report, clicks=1)
    _check_run(report["baseline"], clicks=1)
    assert set(report["baseline"]) == RUN_FIELDS
    assert set(report["ratios"]) == RATIOS
    for name, ratio in report["ratios"].items():
        assert isinstance(ratio, float) and math.isfinite(ratio) and ratio > 0, (name, ratio)
    assert report["ratios"]["first_frame"] == pytest.approx(
        report["loads"][0]["first_frame_ms"] / report["baseline"]["loads"][0]["first_frame_ms"], rel=0.01)
    assert report["ratios"]["orbit_frame"] == pytest.approx(report["frame_ms_p50"] / report["baseline"]["frame_ms_p50"], rel=0.01)
    goals = report["goals"]
    assert set(goals) == {"first_frame", "orbit_frame", "gpu_picks_hit"}
    assert goals["first_frame"]["max_ratio"] == goals["orbit_frame"]["max_ratio"] == 1.5
    assert all(isinstance(goal["met"], bool) for goal in goals.values())


def test_bench_viewer_table_with_baseline(small_scene_path: Path) -> None:
    out = run_cli("bench", "viewer", "--scene", str(small_scene_path), "--baseline-scene", str(small_scene_path),
                  "--runs", "1", "--clicks", "1", timeout=600, env={"COLUMNS": "200"})
    assert out.returncode == 0, out.stderr
    for words in ("bench viewer: loading", "first frame ms", "drawn max", "Orbiting the whole scene", "bench viewer: picking",
                  "GPU id picking", "Raycaster (CPU)", "against the baseline", "orbiting frame ms (p50)", "≤ 1.5×"):
        assert words in out.stdout, out.stdout
    assert out.stdout.count("bench viewer: loading") == 2  # the baseline's tables, then the scene's


def test_bench_viewer_over_tiles(tmp_path: Path) -> None:
    """--lod tiles draws every view from tiles (built in the scene's directory: a scene of this test's own)."""
    scene = write_small_scene(tmp_path / "small")
    out = run_cli("bench", "viewer", "--scene", str(scene), "--lod", "tiles", "--runs", "1", "--clicks", "2", "--json",
                  timeout=300)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert [row["lod"] for row in report["loads"] + report["picks"]] == ["tiles"] * 5
    for row in report["loads"]:
        assert 0 < row["points_drawn_max"] <= row["points"], row
    for row in report["picks"]:  # whatever the raycast baseline makes of tiles, the row is there and adds up
        assert row["hits"] + row["unanswered"] <= row["clicks"] == 2, row


@pytest.mark.parametrize("option", ["--scene", "--baseline-scene"])
def test_bench_viewer_names_a_missing_scene(option: str, tmp_path: Path, small_scene_path: Path) -> None:
    missing = tmp_path / "no-such-scene"
    args = {"--scene": str(small_scene_path), option: str(missing)}
    out = run_cli("bench", "viewer", *(part for pair in args.items() for part in pair))
    assert out.returncode == 2, out.stdout
    assert f"{option} {missing}" in out.stderr and "no scene manifest" in out.stderr, out.stderr


@pytest.mark.parametrize("args", [("--runs", "0"), ("--clicks", "0")])
def test_bench_viewer_rejects_out_of_range_options(args: tuple[str, str]) -> None:
    out = run_cli("bench", "viewer", *args, "--json")
    assert out.returncode == 2
    assert args[0] in out.stderr
