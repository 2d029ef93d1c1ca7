"""The demo block of flats (`demo-scene --size large`): a small block from the same generator, built for real."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from cli_run import run_cli

from scene_agent.cli.scene_cmds import DemoSize, demo_scene_command
from scene_agent.demo import build as demo_build
from scene_agent.demo.block import HUGE, LARGE, BlockSize, block_storeys, flat_rooms
from scene_agent.demo.build import BLOCK_SCENE_ID, build_block_scene, planned_points, write_block
from scene_agent.demo.structure import MAX_SHELL_POINTS
from scene_agent.demo.version import VERSION_FILE
from scene_agent.geometry.points import Points
from scene_agent.scene.codes import is_code, kind_of, parent_of
from scene_agent.scene.loader import load_scene
from scene_agent.scene.manifest import Bounds, SceneManifest, load_manifest
from scene_agent.scene.writer import SceneWriter

SMALL = BlockSize(storeys=2, flats=2)  # four flats, a few million points: the large block's generator, small


class RecordingWriter(SceneWriter):
    """A real SceneWriter that also notes, for every call, which code it got and how many points."""

    def __init__(self, out_dir: Path):
        super().__init__(out_dir)
        self.calls: list[tuple[str, int]] = []

    def add_points(self, code: str, points: Points) -> tuple[str, int, Bounds]:
        self.calls.append((code, len(points)))
        return super().add_points(code, points)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[str, int]]]:
    """The small block written through a RecordingWriter: its directory and the writer's calls."""
    out = tmp_path_factory.mktemp("block") / "block"
    with RecordingWriter(out) as writer:
        writer.finish(write_block(writer, SMALL))
    return out, writer.calls


@pytest.fixture(scope="module")
def manifest(recorded: tuple[Path, list[tuple[str, int]]]) -> SceneManifest:
    return load_manifest(recorded[0])


def _files(root: Path) -> dict[str, bytes]:
    """Every file's bytes, by path within the scene (attributes.json included: it records no file times)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_large_block_has_at_least_20_million_points() -> None:
    # Counted from the plans, which the build below agrees with point for point.
    assert planned_points(block_storeys(LARGE)) >= 20_000_000


def test_the_huge_block_has_at_least_100_million_points() -> None:
    assert planned_points(block_storeys(HUGE)) >= 100_000_000


def test_the_plan_counts_what_the_build_writes(manifest: SceneManifest) -> None:
    assert manifest.point_total() == planned_points(block_storeys(SMALL))


def test_the_product_loads_it_with_its_measured_attributes(recorded: tuple[Path, list[tuple[str, int]]]) -> None:
    scene = load_scene(recorded[0])
    lines: list[str] = []
    scene.progress = lines.append
    attributes = scene.attributes()
    assert scene.scene_id == BLOCK_SCENE_ID and scene.scene_id != "demo"
    assert len(attributes.items) == len(scene.manifest.rooms()) + len(scene.manifest.objects())
    assert lines == []  # the cache the build wrote is current: nothing is measured again
    assert not (recorded[0] / VERSION_FILE).exists()  # never taken for the demo home by demo/place.py


def test_codes_are_valid_unique_and_numbered_in_order(manifest: SceneManifest) -> None:
    assert [f.code for f in manifest.floors] == [str(s) for s in range(SMALL.storeys)]
    codes = [f.code for f in manifest.floors] + [r.code for r in manifest.rooms()] + [o.code for o in manifest.objects()]
    assert len(codes) == len(set(codes))
    for floor in manifest.floors:
        assert kind_of(floor.code) == "floor"
        assert [r.code for r in floor.rooms] == [f"{floor.code}-{n}" for n in range(1, len(floor.rooms) + 1)]
        for room in floor.rooms:
            assert is_code(room.code) and kind_of(room.code) == "room" and parent_of(room.code) == floor.code
            assert [o.code for o in room.objects] == [f"{room.code}-{n}" for n in range(1, len(room.objects) + 1)]
            assert all(kind_of(o.code) == "object" for o in room.objects)


def test_every_flat_is_named_on_its_storey(manifest: SceneManifest) -> None:
    for floor in manifest.floors:
        flats = {room.name.rpartition(", flat ")[2] for room in floor.rooms}
        assert flats == {f"{floor.code}{letter}" for letter in "AB"}


def test_rooms_of_a_storey_do_not_overlap() -> None:
    for plan in block_storeys(LARGE):
        for a, b in itertools.combinations(plan.rooms, 2):
            overlap_x = min(a.rect.x1, b.rect.x1) - max(a.rect.x0, b.rect.x0)
            overlap_y = min(a.rect.y1, b.rect.y1) - max(a.rect.y0, b.rect.y0)
            assert overlap_x <= 0 or overlap_y <= 0, (plan.code, a.name, b.name)


def _flat_signature(storey: int, index: int) -> tuple[object, ...]:
    """What makes a flat look like itself, wherever it stands: rooms, finishes, wall colours, items and their colours."""
    return tuple(
        (room.name.rpartition(", flat ")[0], room.floor_finish, room.wall_color,
         tuple((item.label, tuple(part.color for part in item.parts)) for item in room.items))
        for room in flat_rooms(storey, index)
    )


def test_no_two_flats_of_the_large_block_are_alike() -> None:
    signatures = [_flat_signature(s, f) for s in range(LARGE.storeys) for f in range(LARGE.flats)]
    assert len(set(signatures)) == len(signatures)
    # Both of the home's storeys serve as flats, and some flats do without some rooms.
    room_sets = {tuple(room[0] for room in sig) for sig in signatures}
    assert len(room_sets) > 2


def test_the_same_flat_is_planned_the_same_way_every_time() -> None:
    assert _flat_signature(3, 1) == _flat_signature(3, 1)


def test_the_writer_gets_one_room_or_object_at_a_time(recorded: tuple[Path, list[tuple[str, int]]], manifest: SceneManifest) -> None:
    _, calls = recorded
    # Each call carries exactly one manifest entry's points, rooms followed by their objects, in code order:
    # the build holds no more than one room's shell (at most MAX_SHELL_POINTS) at a time.
    expected = [(e.code, e.point_count) for room in manifest.rooms() for e in [room, *room.objects]]
    assert calls == expected
    assert max(n for _, n in calls) <= MAX_SHELL_POINTS < manifest.point_total() // 20


def test_two_builds_are_byte_for_byte_identical(recorded: tuple[Path, list[tuple[str, int]]], tmp_path: Path) -> None:
    again = build_block_scene(tmp_path / "again", SMALL).parent
    first, second = _files(recorded[0]), _files(again)
    assert sorted(first) == sorted(second)
    for name in first:
        assert first[name] == second[name], name


def test_a_block_needs_storeys_and_lettered_flats() -> None:
    for storeys, flats in ((0, 2), (2, 0), (1, 27)):
        with pytest.raises(ValueError, match="demo block"):
            BlockSize(storeys, flats)


def test_the_large_size_builds_its_tiles_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The command itself, in this process, with a one-flat block in place of the large one (same code path)."""
    real = demo_build.build_block_scene
    monkeypatch.setattr(demo_build, "build_block_scene",
                        lambda out, size, overwrite=False: real(out, BlockSize(storeys=1, flats=1), overwrite=overwrite))
    demo_scene_command(out=tmp_path / "block", size=DemoSize.large, json_output=True)
    summary = json.loads(capsys.readouterr().out)
    assert summary["size"] == "large" and summary["points"] == load_manifest(tmp_path / "block").point_total()
    tiles = summary["tiles"]
    assert tiles["built"] is True and tiles["points"] == summary["points"] and tiles["seconds"] > 0
    index = json.loads((tmp_path / "block" / "tiles" / "index.json").read_text())
    assert (index["scene_id"], len(index["nodes"]), index["tile_bytes"]) == (BLOCK_SCENE_ID, tiles["tiles"], tiles["bytes"])


@pytest.mark.parametrize("size", ["large", "huge"])
def test_the_block_sizes_need_an_out_directory(size: str) -> None:
    refused = run_cli("demo-scene", "--size", size)
    assert refused.returncode == 2 and f"--size {size} needs --out" in refused.stderr
