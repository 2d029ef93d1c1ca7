"""`scene-agent bench viewer` on a scene where "the chair" names many chairs (a small block of flats, 48 of them): the
pick among all of them is measured too, and says what its first view shows (shape and sense of the figures, never
their speed). On the small scene (5 chairs) there is no such row: tests/bench/test_bench_viewer.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser_fixtures import CHROMIUM, VIEWER_DIST
from cli_run import run_cli
from small_scene import FLAT_CHAIR_CODES, write_flats

MANY_FIELDS = {"view", "lod", "candidates", "runs", "manifest_ms", "first_frame_ms", "ready_ms", "framed", "framed_min_px",
               "candidates_visible", "labels_drawn", "baseline"}
READABLE = 12  # viewer/src/viewer/panel/labelLayout.ts


@pytest.fixture(autouse=True)
def _browser_and_viewer() -> None:
    if not Path(CHROMIUM).exists() or not (VIEWER_DIST / "index.html").is_file():
        pytest.fail("bench viewer needs Chromium and a built viewer: `make test` provides both")


def test_bench_viewer_measures_a_pick_among_many(tmp_path: Path) -> None:
    scene = write_flats(tmp_path / "flats")
    out = run_cli("bench", "viewer", "--scene", str(scene), "--runs", "1", "--clicks", "1", "--json", timeout=300)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert {"loads", "picks", "many"} <= set(report) and len(report["loads"]) == 3  # the other rows are still there
    many = report["many"]
    assert set(many) == MANY_FIELDS, many
    assert many["candidates"] == len(FLAT_CHAIR_CODES) and many["runs"] == 1 and many["lod"] in ("items", "tiles")
    assert 0 < many["manifest_ms"] <= many["first_frame_ms"] <= many["ready_ms"], many
    # a first group big enough to pick, not all 48 small; the labels few enough to read
    assert 0 < many["framed"] < many["candidates"] and many["framed_min_px"] >= 40, many
    assert many["framed"] <= many["candidates_visible"] < many["candidates"], many
    assert 0 < many["labels_drawn"] <= READABLE, many
    # the baseline beside it: every candidate framed at once, each smaller than the first view's smallest
    base = many["baseline"]
    assert base["framed"] == many["candidates"] and base["framed_min_px"] < many["framed_min_px"], many
    assert base["candidates_visible"] >= many["candidates_visible"] and 0 < base["labels_drawn"] <= READABLE, many

    table = run_cli("bench", "viewer", "--scene", str(scene), "--runs", "1", "--clicks", "1", timeout=300, env={"COLUMNS": "220"})
    assert table.returncode == 0, table.stderr
    for words in ("bench viewer: a pick among many flats", "48 chairs", "framed min px", "on screen", "labels",
                  "baseline: every candidate framed (Frame all)",
                  f"The first view frames {many['framed']} of the 48 candidates"):
        assert words in table.stdout, table.stdout
