"""The tiles a server keeps in memory (CurrentTiles): read once, the scene checked once per interval, a replaced
directory noticed at once, a tile never read from another build than the one it is served as."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy.spatial import cKDTree
from small_scene import write_small_scene

from scene_agent.geometry.points import Points
from scene_agent.scene.manifest import SceneManifest, load_manifest
from scene_agent.scene.ply import write_points
from scene_agent.scene.pointcloud import load_points
from scene_agent.tiles import current
from scene_agent.tiles.build import TileParams
from scene_agent.tiles.current import CurrentTiles, ServedTiles
from scene_agent.tiles.layout import Cube, node_cube, unpack_tile
from scene_agent.tiles.store import TILES_DIR, ensure_tiles

PARAMS = TileParams(grid=8, leaf_cap=200)
OTHER_PARAMS = TileParams(grid=16, leaf_cap=200)  # what another process might build the same directory with
RECHECK_S = 1.0


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def scene_dir(tmp_path: Path) -> Path:
    return write_small_scene(tmp_path / "scene").parent


@pytest.fixture
def manifest(scene_dir: Path) -> SceneManifest:
    return load_manifest(scene_dir)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def tiles(scene_dir: Path, manifest: SceneManifest, clock: FakeClock) -> CurrentTiles:
    return CurrentTiles(scene_dir, manifest, PARAMS, recheck_s=RECHECK_S, clock=clock)


def _shrink(scene_dir: Path, manifest: SceneManifest, code: str, keep: int) -> tuple[int, Points]:
    """Rewrite one object's point file with its first `keep` points; how many it had, and the points kept."""
    points_file = next(o for o in manifest.objects() if o.code == code).points_file
    old = load_points(scene_dir / points_file)
    kept = Points(xyz=old.xyz[:keep], rgb=old.rgb[:keep])
    write_points(scene_dir / points_file, kept)
    return len(old), kept


def _item_points(tiles: CurrentTiles, served: ServedTiles, code: str) -> np.ndarray:
    """Every point the build's tiles give `code`, read through `read_tile` as the server does."""
    index = served.state.index
    root = Cube(min=tuple(index["cube"]["min"]), side=index["cube"]["side"])
    item = index["items"].index(code)
    found = []
    for node in index["nodes"]:
        data = tiles.read_tile(served, node["name"])
        assert data is not None
        tile = unpack_tile(node_cube(root, node["name"]), data)
        assert len(tile.items) == node["points"] == served.node_points[node["name"]]
        found.append(tile.xyz[tile.items == item])
    return np.concatenate(found)


def test_the_build_is_read_once_and_the_scene_checked_once_per_interval(tiles: CurrentTiles, clock: FakeClock,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    first = tiles.served()
    assert first.state.built and (tiles.scene_root / TILES_DIR / "index.json").read_bytes() == first.state.index_text
    digests = 0
    real = current.source_digest

    def counted(*args: Any, **kwargs: Any) -> str:
        nonlocal digests
        digests += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(current, "source_digest", counted)
    for _ in range(100):
        assert tiles.served() is first
    assert digests == 0  # within the interval: one stat of the index file a request, no point file looked at
    clock.now += RECHECK_S
    assert tiles.served() is first and digests == 1  # the scene is unchanged: the same build, checked again
    assert tiles.served() is first and digests == 1


def test_a_changed_point_file_is_rebuilt_within_the_interval(tiles: CurrentTiles, clock: FakeClock, scene_dir: Path,
                                                             manifest: SceneManifest) -> None:
    first = tiles.served()
    had, kept = _shrink(scene_dir, manifest, "0-1-2", 50)
    assert tiles.served() is first  # not looked at yet: the build in memory, consistent with itself
    clock.now += RECHECK_S
    rebuilt = tiles.served()
    assert rebuilt.state.built and rebuilt.digest != first.digest
    assert rebuilt.state.index["points"] == first.state.index["points"] - had + 50
    chair = _item_points(tiles, rebuilt, "0-1-2")
    assert len(chair) == 50
    dist, nearest = cKDTree(kept.xyz).query(chair)
    assert dist.max() < 1e-3 and len(set(nearest.tolist())) == 50  # the new points, each once


def test_a_directory_replaced_by_another_build_is_noticed_at_once(tiles: CurrentTiles, scene_dir: Path,
                                                                  manifest: SceneManifest) -> None:
    first = tiles.served()
    ensure_tiles(scene_dir, manifest, OTHER_PARAMS)  # another process, other parameters: another index on disk
    assert not tiles.still_in_place(first)
    assert tiles.read_tile(first, "r") is None  # never the other build's root tile under this build's index
    again = tiles.served()  # within the interval, yet the index file changed: this server's parameters are rebuilt
    assert again.state.built and again.digest == first.digest and again.state.index["grid"] == PARAMS.grid
    assert again.state.index_text == first.state.index_text  # the same scene and parameters give the same bytes
    assert tiles.read_tile(again, "r") == (scene_dir / TILES_DIR / "r.bin").read_bytes()


def test_deleted_tiles_are_built_again(tiles: CurrentTiles, scene_dir: Path) -> None:
    first = tiles.served()
    shutil.rmtree(scene_dir / TILES_DIR)
    again = tiles.served()
    assert again.state.built and again.digest == first.digest and tiles.read_tile(again, "r") is not None
