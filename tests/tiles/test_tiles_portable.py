"""Tiles are keyed by content: a copied, moved or unpacked scene keeps them; a real change rebuilds them."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from scene_copies import copy_without_times, point_files, recolour_in_place, tar_round_trip
from small_scene import write_small_scene

from scene_agent.scene.digest import memo_for
from scene_agent.scene.manifest import load_manifest
from scene_agent.tiles.build import TileParams
from scene_agent.tiles.current import CurrentTiles
from scene_agent.tiles.layout import Cube, node_cube, unpack_tile
from scene_agent.tiles.store import TILES_DIR, ensure_tiles

PARAMS = TileParams(grid=8, leaf_cap=200)


@pytest.fixture
def scene_dir(tmp_path: Path) -> Path:
    """A small scene with its tiles built."""
    root = write_small_scene(tmp_path / "scene").parent
    assert ensure_tiles(root, load_manifest(root), PARAMS).built
    return root


def _tiles(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((root / TILES_DIR).iterdir())}


def _kept_as_is(copy: Path, original: dict[str, bytes]) -> None:
    """The copy's tiles are current: none rebuilt, every byte as it was, yet every point file was looked at."""
    state = ensure_tiles(copy, load_manifest(copy), PARAMS)
    assert not state.built
    assert _tiles(copy) == original
    assert memo_for(copy).hashed == len(point_files(copy)), "each copied file hashed once: its content, not its times"
    served = CurrentTiles(copy, load_manifest(copy), PARAMS).served()
    assert not served.state.built and served.state.index_text == original["index.json"]


def test_a_copy_without_file_times_keeps_its_tiles(scene_dir: Path, tmp_path: Path) -> None:
    original = _tiles(scene_dir)
    _kept_as_is(copy_without_times(scene_dir, tmp_path / "copy"), original)


def test_a_moved_scene_keeps_its_tiles(scene_dir: Path, tmp_path: Path) -> None:
    original = _tiles(scene_dir)
    _kept_as_is(Path(shutil.move(copy_without_times(scene_dir, tmp_path / "copy"), tmp_path / "moved")), original)


def test_an_unpacked_archive_keeps_its_tiles(scene_dir: Path, tmp_path: Path) -> None:
    original = _tiles(scene_dir)
    (tmp_path / "unpacked").mkdir()
    _kept_as_is(tar_round_trip(scene_dir, tmp_path / "scene.tar.gz", tmp_path / "unpacked" / "scene"), original)


def _item_colours(root: Path, index: dict, code: str) -> np.ndarray:
    """The colours the tiles give `code`'s points."""
    cube = Cube(min=tuple(index["cube"]["min"]), side=index["cube"]["side"])
    item = index["items"].index(code)
    tiles = [unpack_tile(node_cube(cube, n["name"]), (root / TILES_DIR / f"{n['name']}.bin").read_bytes()) for n in index["nodes"]]
    return np.concatenate([t.rgb[t.items == item] for t in tiles])


def test_a_file_rewritten_with_its_size_and_times_kept_rebuilds_the_tiles(scene_dir: Path) -> None:
    manifest = load_manifest(scene_dir)
    before = ensure_tiles(scene_dir, manifest, PARAMS)
    assert (_item_colours(scene_dir, before.index, "0-1-1") == (200, 30, 30)).all()
    new = recolour_in_place(scene_dir / "points" / "0-1-1.ply")
    after = ensure_tiles(scene_dir, manifest, PARAMS)
    assert after.built and after.source_digest != before.source_digest
    colours = _item_colours(scene_dir, after.index, "0-1-1")
    assert len(colours) == len(new) and (colours == (55, 225, 225)).all()
    assert not ensure_tiles(scene_dir, manifest, PARAMS).built
