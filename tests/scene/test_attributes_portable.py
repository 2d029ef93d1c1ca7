"""attributes.json is keyed by content: a copied, moved or unpacked scene keeps it; a real change is measured again."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest
from scene_copies import copy_without_times, point_files, recolour_in_place, tar_round_trip
from small_scene import SMALL_SCENE

from scene_agent.scene.attributes import ATTRIBUTES_NAME, ATTRIBUTES_VERSION, SceneAttributes
from scene_agent.scene.digest import memo_for
from scene_agent.scene.loader import load_scene

ITEM_COUNT = sum(1 + len(objects) for _, _, rooms in SMALL_SCENE for *_, objects in rooms)


@pytest.fixture
def scene_dir(small_scene_path: Path, tmp_path: Path) -> Path:
    """A private copy of the small scene, with the attributes its writer measured."""
    return Path(shutil.copytree(small_scene_path.parent, tmp_path / "scene"))


def _load(root: Path) -> tuple[SceneAttributes, list[str]]:
    """A fresh Scene's attributes and the progress lines it printed (none: nothing was measured)."""
    scene = load_scene(root)
    lines: list[str] = []
    scene.progress = lines.append
    return scene.attributes(), lines


def _kept_as_is(copy: Path, original: bytes) -> None:
    """Loading the copy measures nothing and leaves its cache byte for byte as it was, yet every file was looked at."""
    attributes, lines = _load(copy)
    assert lines == [], "nothing measured"
    assert (copy / ATTRIBUTES_NAME).read_bytes() == original
    assert len(attributes.items) == ITEM_COUNT
    assert memo_for(copy).hashed == len(point_files(copy)), "each copied file hashed once: its content, not its times"


def test_a_copy_without_file_times_keeps_its_attributes(scene_dir: Path, tmp_path: Path) -> None:
    original = (scene_dir / ATTRIBUTES_NAME).read_bytes()
    _kept_as_is(copy_without_times(scene_dir, tmp_path / "copy"), original)


def test_a_moved_scene_keeps_its_attributes(scene_dir: Path, tmp_path: Path) -> None:
    original = (scene_dir / ATTRIBUTES_NAME).read_bytes()
    _kept_as_is(Path(shutil.move(copy_without_times(scene_dir, tmp_path / "copy"), tmp_path / "moved")), original)


def test_an_unpacked_archive_keeps_its_attributes(scene_dir: Path, tmp_path: Path) -> None:
    original = (scene_dir / ATTRIBUTES_NAME).read_bytes()
    (tmp_path / "unpacked").mkdir()
    _kept_as_is(tar_round_trip(scene_dir, tmp_path / "scene.tar.gz", tmp_path / "unpacked" / "scene"), original)


def test_a_file_rewritten_with_its_size_and_times_kept_is_measured_again(scene_dir: Path) -> None:
    scene = load_scene(scene_dir)
    before = scene.attributes()
    assert before.items["0-1-1"].colors[0].basic == "red"
    scene.points("0-1-1")  # in the process' point cache, as a server that showed it has them
    recolour_in_place(scene_dir / "points" / "0-1-1.ply")
    after, lines = _load(scene_dir)
    assert lines[0].startswith(f"Measuring 1 of {ITEM_COUNT} rooms and objects")
    assert after.items["0-1-1"].colors[0].basic != "red", "measured from the new colours, not the cached points"
    assert after.items["0-1-1"].source.size == before.items["0-1-1"].source.size
    assert after.items["0-1-1"].source.digest != before.items["0-1-1"].source.digest
    assert {c: i for c, i in after.items.items() if c != "0-1-1"} == {c: i for c, i in before.items.items() if c != "0-1-1"}
    assert _load(scene_dir)[1] == [], "cached again"


def test_a_cache_of_the_previous_version_is_measured_again_once(scene_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    """What a scene built by the previous scene-agent holds: version 1, each entry's size and modification time."""
    current = (scene_dir / ATTRIBUTES_NAME).read_bytes()
    old = json.loads(current)
    old["version"] = 1
    for item in old["items"].values():
        item["source"] = {"file": item["source"]["file"], "size": item["source"]["size"], "mtime_ns": 1}
    (scene_dir / ATTRIBUTES_NAME).write_text(json.dumps(old))
    with caplog.at_level(logging.INFO, logger="scene_agent.scene.attributes"):
        attributes, lines = _load(scene_dir)
    assert lines[0].startswith(f"Measuring {ITEM_COUNT} rooms and objects")
    assert [r.levelno for r in caplog.records] == [logging.INFO], "an upgrade, not a problem"
    assert (scene_dir / ATTRIBUTES_NAME).read_bytes() == current and attributes.version == ATTRIBUTES_VERSION
    assert _load(scene_dir)[1] == []


@pytest.mark.parametrize(("digest", "measured"), [("", 1), ("0" * 31, ITEM_COUNT), ("Z" * 32, ITEM_COUNT), (7, ITEM_COUNT)])
def test_an_entry_without_a_valid_digest_is_measured_again(scene_dir: Path, digest: object, measured: int) -> None:
    """An empty digest is an unread file's (it matches no file); anything else not a digest spoils the cache."""
    current = (scene_dir / ATTRIBUTES_NAME).read_bytes()
    spoilt = json.loads(current)
    spoilt["items"]["0-1"]["source"]["digest"] = digest
    (scene_dir / ATTRIBUTES_NAME).write_text(json.dumps(spoilt))
    attributes, lines = _load(scene_dir)
    assert lines[0].startswith(f"Measuring {measured} ")
    assert (scene_dir / ATTRIBUTES_NAME).read_bytes() == current and len(attributes.items) == ITEM_COUNT
