"""Per-item attributes: written by SceneWriter, measured once for older scenes, cached in attributes.json, refreshed per file."""

from __future__ import annotations

import json
import logging
import os
import shutil
import threading
from pathlib import Path

import numpy as np
import pytest
from small_scene import SMALL_SCENE, box_points, write_small_scene

from scene_agent.errors import NotFoundError, UsageError
from scene_agent.geometry.footprint import MAX_VERTICES, simplify_polygon
from scene_agent.geometry.points import Points
from scene_agent.scene.attributes import (
    ATTRIBUTES_NAME,
    ATTRIBUTES_VERSION,
    PointSource,
    SceneAttributes,
    manifest_items,
    measure_item,
    point_source,
)
from scene_agent.scene.loader import load_scene
from scene_agent.scene.manifest import Bounds, Floor, Room, SceneManifest, load_manifest, manifest_json
from scene_agent.scene.ply import write_points
from scene_agent.scene.writer import SceneWriter
from scene_agent.tools.color import color
from scene_agent.tools.volume import volume

ITEM_COUNT = sum(1 + len(objects) for _, _, rooms in SMALL_SCENE for *_, objects in rooms)
SOURCE = PointSource(file="points/x.ply", size=1, digest="0" * 32)


def _copy(small_scene_path: Path, tmp_path: Path) -> Path:
    """A private copy of the shared small scene (file times kept, so its cache stays valid)."""
    return Path(shutil.copytree(small_scene_path.parent, tmp_path / "scene"))


def _cache(root: Path) -> SceneAttributes:
    return SceneAttributes.model_validate_json((root / ATTRIBUTES_NAME).read_bytes())


def _signed_area(polygon: list[tuple[float, float]]) -> float:
    xy = np.array(polygon)
    return 0.5 * float(np.sum(xy[:, 0] * np.roll(xy[:, 1], -1) - np.roll(xy[:, 0], -1) * xy[:, 1]))


def _measured_again(root: Path) -> tuple[SceneAttributes, list[str]]:
    """A fresh Scene's attributes and the progress lines it printed."""
    scene = load_scene(root)
    lines: list[str] = []
    scene.progress = lines.append
    return scene.attributes(), lines


def test_scene_writer_writes_one_entry_per_room_and_object(small_scene_path: Path) -> None:
    root = small_scene_path.parent
    cache = _cache(root)
    manifest = load_manifest(small_scene_path)
    assert cache.version == ATTRIBUTES_VERSION and cache.scene_id == "small"
    assert list(cache.items) == [code for code, _, _ in manifest_items(manifest)] and len(cache.items) == ITEM_COUNT
    for code, kind, entry in manifest_items(manifest):
        item = cache.items[code]
        assert (item.code, item.kind, item.points) == (code, kind, entry.point_count)
        assert item.source == point_source(root, entry.points_file), "the fingerprint survives the staging rename"
    assert (root / ATTRIBUTES_NAME).stat().st_mode & 0o777 == 0o644
    assert _measured_again(root)[1] == [], "a freshly built scene needs no measuring"


def test_attributes_agree_with_the_colour_and_volume_tools(small_scene_path: Path) -> None:
    scene = load_scene(small_scene_path)
    for code in ("0-1", "1-1", "0-1-1", "0-2-3", "1-3-2"):
        item, colours, size = scene.item_attributes(code), color(scene, code), volume(scene, code)
        assert item.colors[0].basic == colours.dominant.basic
        assert [(c.basic, c.name, c.hex, c.share, c.part) for c in item.colors] == [
            (c.basic, c.name, c.hex, c.share, c.part) for c in colours.clusters]
        assert item.volume_m3 == size.volume_m3
        assert list(item.extent_m) == size.obb.extent_m and item.upright == size.obb.upright
        assert (item.floor_area_m2, item.height_m) == (size.floor_area_m2, size.height_m)
    assert scene.item_attributes("0-1-1").colors[0].basic == "red"
    assert scene.item_attributes("0-1-2").colors[0].basic == "blue"


def test_footprint_centre_and_heights_of_a_box() -> None:
    rng = np.random.default_rng(3)
    lo, hi = np.array([1.0, 2.0, 0.5]), np.array([3.0, 2.5, 1.3])
    box = box_points(rng, lo, hi, (30, 160, 40), n=20_000)
    strays = Points(xyz=np.array([[9.0, 9.0, 9.0], [-5.0, 2.2, -3.0], [2.0, -7.0, 0.9]]), rgb=np.zeros((3, 3), dtype=np.uint8))
    points = Points(xyz=np.vstack([box.xyz, strays.xyz]), rgb=np.vstack([box.rgb, strays.rgb]))
    item = measure_item("0-1-1", "object", points, SOURCE)
    assert item.z_min == pytest.approx(0.5, abs=0.01) and item.z_max == pytest.approx(1.3, abs=0.01)
    assert item.center == pytest.approx((2.0, 2.25, 0.9), abs=0.01)
    assert 4 <= len(item.footprint) <= MAX_VERTICES
    assert _signed_area(item.footprint) > 0, "counter-clockwise"
    assert _signed_area(item.footprint) == pytest.approx(2.0 * 0.5, rel=0.03)
    xy = np.array(item.footprint)
    assert (xy >= lo[:2] - 1e-3).all() and (xy <= hi[:2] + 1e-3).all(), "stray points stay out of the footprint"
    assert all(round(v, 3) == v for vertex in item.footprint for v in vertex), "rounded to 1 mm"
    assert item.colors[0].basic == "green" and item.extent_m is not None


def test_an_item_without_points_is_placed_by_its_bounds() -> None:
    empty = Points(xyz=np.zeros((0, 3)), rgb=np.zeros((0, 3), dtype=np.uint8))
    item = measure_item("0-1", "room", empty, SOURCE, Bounds(min=(0.0, 0.0, 0.0), max=(4.0, 3.0, 2.5)))
    assert (item.colors, item.footprint, item.volume_m3, item.extent_m) == ([], [], None, None)
    assert (item.center, item.z_min, item.z_max) == ((2.0, 1.5, 1.25), 0.0, 2.5)


def test_a_round_footprint_is_thinned_to_at_most_32_vertices() -> None:
    angles = np.linspace(0, 2 * np.pi, 1000, endpoint=False)
    circle = np.column_stack([np.cos(angles), np.sin(angles)])
    thin = simplify_polygon(circle)
    assert len(thin) == MAX_VERTICES
    assert _signed_area([tuple(p) for p in thin]) == pytest.approx(np.pi, rel=0.01)


def test_an_older_scene_is_measured_on_first_use_then_read_from_the_cache(small_scene_path: Path, tmp_path: Path) -> None:
    root = _copy(small_scene_path, tmp_path)
    built = _cache(root)
    (root / ATTRIBUTES_NAME).unlink()
    first, lines = _measured_again(root)
    assert lines[0] == f"Measuring {ITEM_COUNT} rooms and objects of scene 'small' once (colours, sizes, places) …"
    assert lines[-1].startswith(f"Measured {ITEM_COUNT} rooms and objects in ")
    assert first == built, "measuring the files gives what the writer measured in memory"
    assert _cache(root) == built
    again, lines = _measured_again(root)
    assert lines == [] and again == built


def test_progress_goes_to_stderr_by_default(small_scene_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _copy(small_scene_path, tmp_path)
    (root / ATTRIBUTES_NAME).unlink()
    load_scene(root).attributes()
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("Measuring ")


def test_a_changed_point_file_is_measured_again_alone(small_scene_path: Path, tmp_path: Path) -> None:
    root = _copy(small_scene_path, tmp_path)
    before = _cache(root)
    write_points(root / "points" / "0-1-1.ply", box_points(np.random.default_rng(5), np.zeros(3), np.ones(3), (30, 30, 200), n=500))
    after, lines = _measured_again(root)
    assert lines[0].startswith(f"Measuring 1 of {ITEM_COUNT} rooms and objects of scene 'small'")
    assert after.items["0-1-1"].points == 500 and after.items["0-1-1"].colors[0].basic == "blue"
    assert after.items["0-1-1"].source == point_source(root, "points/0-1-1.ply")
    assert {c: i for c, i in after.items.items() if c != "0-1-1"} == {c: i for c, i in before.items.items() if c != "0-1-1"}
    assert _cache(root) == after


def test_entries_of_codes_the_manifest_no_longer_lists_are_dropped(small_scene_path: Path, tmp_path: Path) -> None:
    root = _copy(small_scene_path, tmp_path)
    manifest = load_manifest(root)
    room = manifest.floors[0].rooms[0]
    smaller = manifest.model_copy(update={"floors": [manifest.floors[0].model_copy(update={"rooms": [
        room.model_copy(update={"objects": room.objects[1:]}), *manifest.floors[0].rooms[1:]]}), *manifest.floors[1:]]})
    (root / "scene.json").write_text(manifest_json(smaller))
    attributes, lines = _measured_again(root)
    assert lines == [] and "0-1-1" not in attributes.items and len(attributes.items) == ITEM_COUNT - 1
    assert list(_cache(root).items) == list(attributes.items)


@pytest.mark.parametrize("spoil", [
    lambda data: b"{ not json",
    lambda data: data[: len(data) // 2],
    lambda data: data.replace(b'"version": 2', b'"version": 3', 1),
    lambda data: data.replace(b'"scene_id": "small"', b'"scene_id": "another"', 1),
    lambda data: data.replace(b'"points": 400', b'"points": "many"', 1),
    lambda data: data.replace(b'"items": {\n    "0-1": {"code": "0-1"', b'"items": {\n    "0-1": {"code": "0-2"', 1),
    lambda data: json.dumps([1, 2, 3]).encode(),
    lambda data: b"\xff\xfe" + data,
], ids=["malformed", "truncated", "wrong-version", "foreign-scene", "bad-field", "code-mismatch", "not-an-object", "not-utf8"])
def test_a_spoilt_cache_is_measured_again(small_scene_path: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture, spoil) -> None:
    root = _copy(small_scene_path, tmp_path)
    built = _cache(root)
    spoilt = spoil((root / ATTRIBUTES_NAME).read_bytes())
    assert spoilt != (root / ATTRIBUTES_NAME).read_bytes()
    (root / ATTRIBUTES_NAME).write_bytes(spoilt)
    with caplog.at_level(logging.WARNING, logger="scene_agent.scene.attributes"):
        attributes, lines = _measured_again(root)
    assert [r.getMessage() for r in caplog.records if str(root / ATTRIBUTES_NAME) in r.getMessage()], caplog.text
    assert lines[0].startswith(f"Measuring {ITEM_COUNT} rooms and objects")
    assert attributes == built and _cache(root) == built


def test_a_symlink_at_the_cache_is_not_followed_but_replaced(small_scene_path: Path, tmp_path: Path,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    root = _copy(small_scene_path, tmp_path)
    target = tmp_path / "elsewhere.json"
    target.write_bytes((root / ATTRIBUTES_NAME).read_bytes())  # even a valid cache is not read through a link
    target_bytes = target.read_bytes()
    (root / ATTRIBUTES_NAME).unlink()
    (root / ATTRIBUTES_NAME).symlink_to(target)
    with caplog.at_level(logging.WARNING, logger="scene_agent.scene.attributes"):
        attributes, lines = _measured_again(root)
    assert "symbolic link" in caplog.text and str(root / ATTRIBUTES_NAME) in caplog.text
    assert lines and len(attributes.items) == ITEM_COUNT
    assert not (root / ATTRIBUTES_NAME).is_symlink() and _cache(root) == attributes
    assert target.read_bytes() == target_bytes


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def test_a_read_only_scene_is_measured_in_memory(small_scene_path: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    root = _copy(small_scene_path, tmp_path)
    (root / ATTRIBUTES_NAME).unlink()
    before = _files(root)
    root.chmod(0o555)
    try:
        if os.access(root, os.W_OK):
            pytest.skip("running as root: chmod does not stop writing")
        with caplog.at_level(logging.WARNING, logger="scene_agent.scene.attributes"):
            attributes, lines = _measured_again(root)
        assert len(attributes.items) == ITEM_COUNT and lines
        assert f"{root / ATTRIBUTES_NAME}: cannot be written" in caplog.text
        assert _files(root) == before, "no cache and no temp file left"
    finally:
        root.chmod(0o755)


def test_a_cache_that_cannot_be_replaced_is_kept_in_memory(small_scene_path: Path, tmp_path: Path,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    """A directory planted at attributes.json: neither readable nor replaceable, even by root."""
    root = _copy(small_scene_path, tmp_path)
    (root / ATTRIBUTES_NAME).unlink()
    (root / ATTRIBUTES_NAME).mkdir()
    (root / ATTRIBUTES_NAME / "keep").write_text("keep")
    before = _files(root)
    with caplog.at_level(logging.WARNING, logger="scene_agent.scene.attributes"):
        attributes, lines = _measured_again(root)
    assert len(attributes.items) == ITEM_COUNT and lines
    assert f"{root / ATTRIBUTES_NAME}: cannot be written" in caplog.text
    assert _files(root) == before, "no temp file left, the planted directory untouched"


def test_a_missing_point_file_leaves_that_item_empty_and_uncached(small_scene_path: Path, tmp_path: Path,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    root = _copy(small_scene_path, tmp_path)
    (root / "points" / "0-2-1.ply").unlink()
    with caplog.at_level(logging.WARNING, logger="scene_agent.scene.attributes"):
        attributes, _ = _measured_again(root)
    sofa = attributes.items["0-2-1"]
    assert sofa.colors == [] and sofa.volume_m3 is None and "0-2-1.ply" in caplog.text
    assert sofa.center == pytest.approx(load_scene(root).index.objects["0-2-1"].obj.bounds.center, abs=5e-4)
    assert "0-2-1" not in _cache(root).items and len(_cache(root).items) == ITEM_COUNT - 1
    assert _measured_again(root)[1][0].startswith(f"Measuring 1 of {ITEM_COUNT}"), "tried again next time"


class _WatchedLock:
    """A lock that tells when a second thread has come to it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count_lock = threading.Lock()
        self.entries = 0
        self.second_arrived = threading.Event()

    def __enter__(self) -> _WatchedLock:
        with self._count_lock:
            self.entries += 1
            if self.entries >= 2:
                self.second_arrived.set()
        self._lock.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


def test_two_threads_asking_at_once_measure_once(small_scene_path: Path, tmp_path: Path) -> None:
    root = _copy(small_scene_path, tmp_path)
    (root / ATTRIBUTES_NAME).unlink()
    scene = load_scene(root)
    watched = _WatchedLock()
    scene._attributes_lock = watched  # to hold the first measurement until the second thread asks
    lines: list[str] = []
    overlapped: list[bool] = []

    def progress(line: str) -> None:
        if line.startswith("Measuring"):
            overlapped.append(watched.second_arrived.wait(timeout=30))
        lines.append(line)

    scene.progress = progress
    results: list[SceneAttributes] = []
    threads = [threading.Thread(target=lambda: results.append(scene.attributes())) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert overlapped == [True], "the second thread asked while the first was measuring"
    assert len(results) == 2 and results[0] is results[1]
    assert sum(line.startswith("Measuring") for line in lines) == 1


def test_item_attributes_refuse_floor_and_unknown_codes(small_scene_path: Path) -> None:
    scene = load_scene(small_scene_path)
    with pytest.raises(UsageError):
        scene.item_attributes("0")
    with pytest.raises(NotFoundError):
        scene.item_attributes("0-9")
    assert scene.item_attributes("1-2").kind == "room"


def test_the_writer_caches_only_what_the_manifest_lists_and_builds_repeat(small_scene_path: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    with SceneWriter(tmp_path / "one") as writer:
        rel, count, bounds = writer.add_points("0-1", box_points(rng, np.zeros(3), np.array([3.0, 3.0, 2.5]), (200, 200, 200)))
        writer.add_points("0-1-1", box_points(rng, np.zeros(3), np.ones(3), (200, 0, 0)))  # written, then left out
        writer.finish(SceneManifest(scene_id="one", name="One room", floors=[Floor(code="0", rooms=[
            Room(code="0-1", type="kitchen", points_file=rel, point_count=count, bounds=bounds)])]))
    assert list(_cache(tmp_path / "one").items) == ["0-1"]
    write_small_scene(tmp_path / "again")
    first, again = ((d / ATTRIBUTES_NAME).read_text() for d in (small_scene_path.parent, tmp_path / "again"))
    assert first == again, "two builds write the same bytes"
    assert again.count("\n") == ITEM_COUNT + 6, "one item per line"
