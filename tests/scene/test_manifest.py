"""Manifest validation: good manifests load; bad ones name the file, the JSON path and the problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scene_agent.errors import ManifestError
from scene_agent.scene.manifest import load_manifest


def _mutated(small_scene_path: Path, tmp_path: Path, mutate) -> Path:
    data = json.loads(small_scene_path.read_text())
    mutate(data)
    path = tmp_path / "scene.json"
    path.write_text(json.dumps(data))
    return path


def test_small_scene_loads(small_scene_path: Path) -> None:
    manifest = load_manifest(small_scene_path)
    assert manifest.schema_version == 1
    assert [f.code for f in manifest.floors] == ["0", "1"]
    assert len(manifest.rooms()) == 7 and len(manifest.objects()) == 16


def test_directory_is_accepted(small_scene_path: Path) -> None:
    assert load_manifest(small_scene_path.parent).scene_id == "small"


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda d: d["floors"][0]["rooms"][1]["objects"][2].update(code="0-1-3"), "floors[0].rooms[1]: object 0-1-3 is listed in room 0-2"),
        (lambda d: d["floors"][0]["rooms"][0].update(code="0-x"), "floors[0].rooms[0].code: room codes look like F-R"),
        (lambda d: d["floors"][1]["rooms"][0]["objects"][0].update(points_file="../../etc/passwd.ply"),
         "floors[1].rooms[0].objects[0].points_file: must be a relative path"),
        (lambda d: d["floors"][1]["rooms"][0]["objects"][0].update(points_file="/abs/x.ply"), "points_file: must be a relative path"),
        (lambda d: d["floors"][0]["rooms"][0].update(point_count=-3),
         "floors[0].rooms[0].point_count: Input should be greater than or equal to 0"),
        (lambda d: d["floors"][0]["rooms"][0]["bounds"].update(min=[5, 0, 0]),
         "floors[0].rooms[0].bounds: min [5.0, 0.0, 0.0] exceeds max"),
        (lambda d: d.update(units="feet"), "units: Input should be 'meters'"),
        (lambda d: d.update(schema_version=7), "schema_version: this version of scene-agent reads version 1, not 7"),
        (lambda d: d.pop("scene_id"), "scene_id: Field required"),
        (lambda d: d["floors"][0]["rooms"][0]["objects"][0].update(label=7),
         "floors[0].rooms[0].objects[0].label: Input should be a valid string"),
        (lambda d: d["floors"][1]["rooms"].append(dict(d["floors"][1]["rooms"][0])), "code 1-1 appears more than once"),
        (lambda d: d["floors"][0]["rooms"][0].update(colour="red"), "floors[0].rooms[0].colour: Extra inputs are not permitted"),
    ],
)
def test_bad_manifest_names_file_path_and_problem(small_scene_path: Path, tmp_path: Path, mutate, expected: str) -> None:
    path = _mutated(small_scene_path, tmp_path, mutate)
    with pytest.raises(ManifestError) as err:
        load_manifest(path)
    assert str(err.value).startswith(f"{path}: ")
    assert expected in str(err.value)


def test_not_json(tmp_path: Path) -> None:
    path = tmp_path / "scene.json"
    path.write_text('{"scene_id": "x",\n  oops}')
    with pytest.raises(ManifestError, match=r"scene.json: not valid JSON at line 2 column 3"):
        load_manifest(path)


def test_missing_manifest(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match="no such scene manifest"):
        load_manifest(tmp_path / "nope" / "scene.json")
