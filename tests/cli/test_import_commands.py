"""`scene-agent import …` end to end: import, then use the scene with other commands."""

from __future__ import annotations

import json
from pathlib import Path

from cli_run import run_cli
from scan_fixtures import HOVSG_UNTYPED_ROOMS, write_hovsg_graph, write_scannet_scan


def test_import_scannet_then_find(tmp_path: Path) -> None:
    scans = [write_scannet_scan(tmp_path / "scans", name) for name in ("scene0000_00", "scene0001_00")]
    out = run_cli("import", "scannet", *map(str, scans), "--out", str(tmp_path / "two-rooms"), "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert (summary["rooms"], summary["objects"]) == (2, 4)
    tiles = summary["tiles"]  # built with the scene, so the server's first tiles request need not wait
    assert tiles["built"] is True and tiles["points"] == summary["points"]
    assert tiles["directory"] == str(tmp_path / "two-rooms" / "tiles") and (tmp_path / "two-rooms" / "tiles" / "index.json").is_file()
    found = run_cli("find", "couch", "--scene", summary["manifest"], "--json")
    assert [c["code"] for c in json.loads(found.stdout)["candidates"]] == ["0-1-4", "0-2-4"]  # the Couch is ScanNet object 3


def test_import_hovsg_then_info(tmp_path: Path) -> None:
    out = run_cli("import", "hovsg", str(write_hovsg_graph(tmp_path)), "--out", str(tmp_path / "office"))
    assert out.returncode == 0, out.stderr
    assert "Imported 2 room(s) and 5 object(s)" in out.stdout
    assert "Tiles built in" in out.stdout and (tmp_path / "office" / "tiles" / "index.json").is_file()
    info = run_cli("scene", "info", "--scene", str(tmp_path / "office"), "--json")
    assert json.loads(info.stdout)["scene_id"] == "office"


def test_scene_info_shows_a_room_type_inferred_and_why(tmp_path: Path) -> None:
    out = run_cli("import", "hovsg", str(write_hovsg_graph(tmp_path, HOVSG_UNTYPED_ROOMS)), "--out", str(tmp_path / "flat"))
    assert out.returncode == 0, out.stderr
    info = run_cli("scene", "info", "--scene", str(tmp_path / "flat"), "--json")
    rooms = json.loads(info.stdout)["floors"][0]["rooms"]
    assert [(r["type"], r["inferred"]) for r in rooms] == [
        ("bedroom", {"type": "bedroom", "confidence": 0.67, "because": ["bed", "nightstand"]}),
        ("bathroom", {"type": "bathroom", "confidence": 0.8, "because": ["toilet", "sink"]}), ("room", None)]
    table = run_cli("scene", "info", "--scene", str(tmp_path / "flat"), env={"COLUMNS": "200"})
    assert "bedroom (inferred, 67 %: bed, nightstand)" in table.stdout, table.stdout


def test_import_error_is_one_line_exit_1(tmp_path: Path) -> None:
    scan = write_scannet_scan(tmp_path / "scans", "scene0000_00")
    (scan / "scene0000_00.txt").unlink()
    out = run_cli("import", "scannet", str(scan), "--out", str(tmp_path / "out"))
    assert out.returncode == 1
    assert out.stderr.strip() == f"error: {scan / 'scene0000_00.txt'}: missing file"
    assert not (tmp_path / "out").exists()


def test_an_out_directory_that_is_not_empty_is_the_same_import_error_for_every_importer(tmp_path: Path) -> None:
    out = tmp_path / "taken"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    scan = write_scannet_scan(tmp_path / "scans", "scene0000_00")
    for command in (["scannet", str(scan)], ["hovsg", str(write_hovsg_graph(tmp_path))]):
        refused = run_cli("import", *command, "--out", str(out), "--json")
        assert refused.returncode == 1
        assert json.loads(refused.stdout) == {
            "error": "import_failed", "message": f"{out}: directory is not empty (choose another --out, or remove it first)"}
    assert [p.name for p in out.iterdir()] == ["notes.txt"]
