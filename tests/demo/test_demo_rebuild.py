"""ensure_demo_scene: build when missing, rebuild when built by another generator version, else leave alone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scene_agent.demo import build as demo_build
from scene_agent.demo.place import ensure_demo_scene
from scene_agent.demo.version import DEMO_VERSION, VERSION_FILE
from scene_agent.scene.attributes import ATTRIBUTES_NAME
from scene_agent.scene.manifest import load_manifest


def _files(root: Path) -> dict[str, bytes]:
    """Every file's bytes, by path within the scene (attributes.json included: it records no file times)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The files of a demo that ensure_demo_scene built into an empty place (the one real build here besides the rebuild test)."""
    parent = tmp_path_factory.mktemp("first-use")
    directory = parent / "demo"
    assert ensure_demo_scene(directory) == directory / "scene.json"
    assert sorted(p.name for p in parent.iterdir()) == [".demo.lock", "demo"]
    return _files(directory)


@pytest.fixture
def no_build(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """Replace the builder with a recorder: the test sees whether a build was asked for, and none runs."""
    calls: list[tuple] = []
    monkeypatch.setattr(demo_build, "build_demo_scene", lambda *args, **kwargs: calls.append((args, kwargs)))
    return calls


def _copy(files: dict[str, bytes], directory: Path) -> Path:
    for name, data in files.items():
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_bytes(data)
    return directory


def test_first_use_writes_the_stamp(built: dict[str, bytes]) -> None:
    assert built[VERSION_FILE] == f"{DEMO_VERSION}\n".encode()
    assert "scene.json" in built and "points/0-7-1.ply" in built and ATTRIBUTES_NAME in built


def test_an_up_to_date_demo_is_used_as_it_is(built: dict[str, bytes], tmp_path: Path, no_build: list[tuple]) -> None:
    directory = _copy(built, tmp_path / "demo")
    assert ensure_demo_scene(directory) == directory / "scene.json"
    assert no_build == []
    assert not (tmp_path / ".demo.lock").exists(), "the up-to-date path takes no lock"


@pytest.mark.parametrize("stamp", [None, "1\n", "", "not a number\n", f"{DEMO_VERSION + 1}\n"])
def test_a_missing_or_different_stamp_asks_for_a_rebuild(
    built: dict[str, bytes], tmp_path: Path, no_build: list[tuple], stamp: str | None
) -> None:
    directory = _copy(built, tmp_path / "demo")
    if stamp is None:
        (directory / VERSION_FILE).unlink()
    else:
        (directory / VERSION_FILE).write_text(stamp)
    ensure_demo_scene(directory)
    assert no_build == [((directory,), {"overwrite": True})]


def test_a_stale_demo_is_rebuilt_in_place_completely(built: dict[str, bytes], tmp_path: Path) -> None:
    """What a checkout that built an older demo sees: old stamp, old files, a room the new layout lacks."""
    directory = _copy(built, tmp_path / "demo")
    (directory / VERSION_FILE).write_text(f"{DEMO_VERSION - 1}\n")
    (directory / "points" / "0-7.ply").unlink()
    (directory / "points" / "0-3-2.ply").write_bytes(b"an old chair")
    (directory / "points" / "0-9.ply").write_bytes(b"a room that is gone")
    assert ensure_demo_scene(directory) == directory / "scene.json"
    assert _files(directory) == built
    assert sorted(p.name for p in tmp_path.iterdir()) == [".demo.lock", "demo"], "no staging or old copy left behind"
    assert len(load_manifest(directory).rooms()) == 12


def test_a_failed_rebuild_leaves_the_old_demo_untouched(
    built: dict[str, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = _copy(built, tmp_path / "demo")
    (directory / VERSION_FILE).write_text(f"{DEMO_VERSION - 1}\n")
    before = _files(directory)
    rooms_rendered = []

    def render_then_fail(*args, **kwargs):  # fails after a few rooms' files have been written
        rooms_rendered.append(1)
        if len(rooms_rendered) == 3:
            raise RuntimeError("disk full")
        return real_render(*args, **kwargs)

    real_render = demo_build.render_shell
    monkeypatch.setattr(demo_build, "render_shell", render_then_fail)
    with pytest.raises(RuntimeError, match="disk full"):
        ensure_demo_scene(directory)
    assert _files(directory) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".demo.lock", "demo"]


def test_another_scene_in_the_demo_place_is_left_alone(small_scene_path: Path, tmp_path: Path, no_build: list[tuple]) -> None:
    directory = tmp_path / "demo"
    shutil.copytree(small_scene_path.parent, directory)
    before = _files(directory)
    assert ensure_demo_scene(directory) == directory / "scene.json"
    assert no_build == [] and _files(directory) == before


def test_an_unreadable_manifest_without_stamp_is_left_alone(tmp_path: Path, no_build: list[tuple]) -> None:
    directory = tmp_path / "demo"
    directory.mkdir()
    (directory / "scene.json").write_text("{ not json")
    assert ensure_demo_scene(directory) == directory / "scene.json"
    assert no_build == [] and (directory / "scene.json").read_text() == "{ not json"


def test_the_environment_names_the_demo_place(built: dict[str, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              no_build: list[tuple]) -> None:
    directory = _copy(built, tmp_path / "elsewhere")
    (directory / VERSION_FILE).write_text("1\n")
    monkeypatch.setenv("SCENE_AGENT_DEMO_DIR", str(directory))
    ensure_demo_scene()
    assert no_build == [((directory,), {"overwrite": True})]
