"""`scene-agent clr`: the real command in a subprocess (JSON shape, human sentence, exit statuses)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import run_cli


def test_clr_json_on_the_demo_chair() -> None:
    out = run_cli("clr", "0-3-2", "--json")
    assert out.returncode == 0, out.stderr
    [line] = out.stdout.splitlines()
    result = json.loads(line)
    assert {"code", "kind", "dominant", "clusters", "points_used", "method"} <= set(result)
    assert (result["code"], result["kind"], result["label"], result["reason"]) == ("0-3-2", "object", "chair", None)
    assert set(result["dominant"]) == {"name", "basic", "hex", "share"} and result["dominant"]["basic"] == "red"
    for cluster in result["clusters"]:
        assert {"name", "basic", "hex", "rgb", "share"} <= set(cluster) and len(cluster["rgb"]) == 3
    assert sum(c["share"] for c in result["clusters"]) == pytest.approx(1.0, abs=1e-3)
    assert result["points_used"] > 0 and "CIELAB" in result["method"]


def test_clr_human_output_for_a_room(small_scene_path: Path) -> None:
    out = run_cli("clr", "0-2-2", "--scene", str(small_scene_path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Armchair 0-2-2 is red") and "CIEDE2000" in out.stdout
    room = run_cli("clr", "0-1", "--scene", str(small_scene_path))
    assert room.returncode == 0 and room.stdout.startswith("Kitchen 0-1 is ") and "walls" in room.stdout


def test_clr_unknown_and_malformed_codes(small_scene_path: Path) -> None:
    missing = run_cli("clr", "0-1-99", "--scene", str(small_scene_path), "--json")
    assert missing.returncode == 1
    assert json.loads(missing.stdout) == {"error": "not_found", "message": "no object 0-1-99 in scene small"}
    floor = run_cli("clr", "0", "--scene", str(small_scene_path))
    assert floor.returncode == 2 and "floor code" in floor.stderr
