"""The real `scene-agent` command in a subprocess: output, JSON shapes and exit statuses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import run_cli

from scene_agent.scene.manifest import load_manifest


def test_scene_info_json(small_scene_path: Path) -> None:
    out = run_cli("scene", "info", "--scene", str(small_scene_path), "--json")
    assert out.returncode == 0, out.stderr
    info = json.loads(out.stdout)
    assert info["scene_id"] == "small"
    assert [f["code"] for f in info["floors"]] == ["0", "1"]
    kitchen = info["floors"][0]["rooms"][0]
    assert (kitchen["code"], kitchen["type"], kitchen["points"]) == ("0-1", "kitchen", 400)
    assert kitchen["objects"][0] == {**kitchen["objects"][0], "code": "0-1-1", "label": "chair", "points": 400}


def test_scene_info_table(small_scene_path: Path) -> None:
    out = run_cli("scene", "info", "--scene", str(small_scene_path.parent))
    assert out.returncode == 0, out.stderr
    assert "Small test home" in out.stdout and "Master bedroom" in out.stdout and "office chair" in out.stdout


def test_find_json_and_table(small_scene_path: Path) -> None:
    out = run_cli("find", "couch", "--scene", str(small_scene_path), "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["query"] == "couch"
    [sofa] = result["candidates"]
    assert {k: sofa[k] for k in ("code", "kind", "label", "room", "floor")} == {
        "code": "0-2-1", "kind": "object", "label": "sofa", "room": "0-2", "floor": "0"}
    assert set(sofa["bounds"]) == {"min", "max"} and "type" not in sofa
    table = run_cli("find", "chairs in the kitchen on floor 0", "--scene", str(small_scene_path))
    assert table.returncode == 0 and "Limited to floor 0 (Ground floor)" in table.stdout and "0-1-3" in table.stdout


def test_find_says_how_it_read_the_words(small_scene_path: Path) -> None:
    # Words that fit nothing are set aside, and the table says so above the candidates; --json has the reading.
    table = run_cli("find", "the purple chiar", "--scene", str(small_scene_path))
    assert table.returncode == 0, table.stderr
    assert "I read 'chiar' as chair." in table.stdout and "There is no purple chair" in table.stdout
    assert "5 match(es)" in table.stdout
    result = json.loads(run_cli("find", "the cozy chair next to the piano", "--scene", str(small_scene_path),
                                "--json").stdout)
    assert result["reading"]["head"] == "chair" and result["reading"]["relations"][0]["kind"] == "near"
    assert {"word": "cozy", "why": "describes"} in result["unused_words"]
    assert "There is no piano here" in result["note"]


def test_find_nothing_exits_1_with_closest(small_scene_path: Path) -> None:
    out = run_cli("find", "piano", "--scene", str(small_scene_path), "--json")
    assert out.returncode == 1
    result = json.loads(out.stdout)
    assert result["candidates"] == [] and "piano" in result["message"]


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["find", "  "], 2, "query is empty"),
        (["find", "chair", "--scene", "/nonexistent/scene.json"], 1, "/nonexistent/scene.json: no such scene manifest"),
        (["scene", "info", "--scene", "/etc/hostname"], 1, "/etc/hostname: not valid JSON"),
        (["frobnicate"], 2, "No such command"),
        (["find"], 2, "Missing argument"),
    ],
)
def test_bad_input_one_line_no_traceback(small_scene_path: Path, args: list[str], status: int, message: str) -> None:
    out = run_cli(*args)
    assert out.returncode == status
    assert message in out.stderr
    assert "Traceback" not in out.stderr + out.stdout


def test_error_as_json() -> None:
    out = run_cli("scene", "info", "--scene", "/nonexistent", "--json")
    assert out.returncode == 1
    assert json.loads(out.stdout) == {"error": "invalid_manifest", "message": "/nonexistent: no such scene manifest"}


def test_bench_scene_json(small_scene_path: Path) -> None:
    out = run_cli("bench", "scene", "--scene", str(small_scene_path), "--objects", "300", "--repeats", "2", "--json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)["results"]
    assert {r["scene"] for r in rows} == {"demo", "synthetic-300"}
    assert {r["objects"] for r in rows} == {16, 300}
    assert all(r["median_ms"] > 0 and r["peak_mb"] > 0 for r in rows)
    assert "json.load (baseline)" in {r["step"] for r in rows}


def test_default_scene_is_built_once_on_first_use_even_by_two_processes(tmp_path: Path) -> None:
    demo_dir = tmp_path / "demo"
    env = {**os.environ, "SCENE_AGENT_DEMO_DIR": str(demo_dir)}
    procs = [subprocess.Popen([sys.executable, "-m", "scene_agent", "find", "chairs in the kitchen", "--json"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for _ in range(2)]
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=300)
        assert proc.returncode == 0, stderr
        assert len(json.loads(stdout)["candidates"]) == 4
    assert load_manifest(demo_dir).scene_id == "demo"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".demo.lock", "demo"]


def test_demo_scene_command_rebuilds_identically_and_refuses_foreign_dirs(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    first = run_cli("demo-scene", "--out", str(out), "--json", timeout=300)
    assert first.returncode == 0, first.stderr
    summary = json.loads(first.stdout)
    assert (summary["floors"], summary["rooms"], summary["objects"]) == (2, 12, 80)
    assert summary["size"] == "home"
    assert summary["bytes"] == sum(p.stat().st_size for p in out.rglob("*") if p.is_file())  # the tiles included
    tiles = summary["tiles"]  # built with the scene (docs/cli.md: under 2 s for the home)
    assert tiles["built"] is True and tiles["directory"] == str(out / "tiles")
    assert tiles["points"] == summary["points"] and tiles["tiles"] >= 1
    assert tiles["bytes"] == sum(p.stat().st_size for p in (out / "tiles").glob("*.bin"))
    assert json.loads(run_cli("scene", "tiles", "--scene", str(out), "--json").stdout)["built"] is False  # and current
    before = {p.name: p.read_bytes() for p in (out / "points").iterdir()} | {"scene.json": (out / "scene.json").read_bytes()}
    again = run_cli("demo-scene", "--out", str(out), timeout=300)
    assert again.returncode == 0, again.stderr
    assert "Tiles built in" in again.stdout and f"{tiles['tiles']:,} tiles, {tiles['bytes']:,} bytes" in again.stdout
    after = {p.name: p.read_bytes() for p in (out / "points").iterdir()} | {"scene.json": (out / "scene.json").read_bytes()}
    assert after == before
    foreign = tmp_path / "photos"
    foreign.mkdir()
    (foreign / "cat.jpg").write_bytes(b"meow")
    refused = run_cli("demo-scene", "--out", str(foreign))
    assert refused.returncode == 1 and "will not replace a non-empty directory" in refused.stderr
    assert [p.name for p in foreign.iterdir()] == ["cat.jpg"]


def test_scene_tiles_builds_then_confirms(tmp_path: Path) -> None:
    from small_scene import write_small_scene

    manifest = write_small_scene(tmp_path / "scene")
    first = run_cli("scene", "tiles", "--scene", str(manifest), "--json")
    assert first.returncode == 0, first.stderr
    built = json.loads(first.stdout)
    assert built["built"] is True and built["points"] == load_manifest(manifest).point_total()
    assert built["tiles"] >= 1 and built["bytes"] > 0 and built["directory"] == str(tmp_path / "scene" / "tiles")
    assert (tmp_path / "scene" / "tiles" / "index.json").is_file()
    again = run_cli("scene", "tiles", "--scene", str(manifest.parent))
    assert again.returncode == 0, again.stderr
    assert "up to date" in again.stdout and f"{built['tiles']} tiles" in again.stdout
