"""The tiles of a real small scene: every point exactly once with its item, deterministic bytes, staleness, bounded reads."""

from __future__ import annotations

import shutil
import weakref
from pathlib import Path

import numpy as np
import pytest
from scipy.spatial import cKDTree
from small_scene import write_small_scene

from scene_agent.geometry.points import Points
from scene_agent.scene.manifest import load_manifest
from scene_agent.scene.ply import write_points
from scene_agent.scene.pointcloud import load_points
from scene_agent.tiles import build, source
from scene_agent.tiles.build import TileParams
from scene_agent.tiles.layout import Cube, node_cube, unpack_tile
from scene_agent.tiles.store import TILES_DIR, ensure_tiles

# Small enough that the 9,200 points of the small scene make a tree several levels deep, and that the root is
# read in chunks (the streaming path) while its children are read whole.
PARAMS = TileParams(grid=8, leaf_cap=200, chunk=1000)


@pytest.fixture
def scene_dir(tmp_path: Path) -> Path:
    return write_small_scene(tmp_path / "scene").parent


def _tiles(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((directory / TILES_DIR).iterdir())}


def _decoded(directory: Path, index: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    root = Cube(min=tuple(index["cube"]["min"]), side=index["cube"]["side"])
    parts = [unpack_tile(node_cube(root, n["name"]), (directory / TILES_DIR / f"{n['name']}.bin").read_bytes())
             for n in index["nodes"]]
    for node, tile in zip(index["nodes"], parts, strict=True):
        assert len(tile.items) == node["points"]
    return (np.concatenate([t.xyz for t in parts]), np.concatenate([t.rgb for t in parts]),
            np.concatenate([t.items for t in parts]))


def test_every_point_once_with_its_item(scene_dir: Path) -> None:
    manifest = load_manifest(scene_dir)
    state = ensure_tiles(scene_dir, manifest, PARAMS)
    index = state.index
    assert state.built and state.depth >= 3 and state.tile_count > 20
    assert index["items"] == [c for r in manifest.rooms() for c in [r.code, *(o.code for o in r.objects)]]
    xyz, rgb, items = _decoded(scene_dir, index)
    assert len(items) == index["points"] == manifest.point_total()
    # Quantised to 1/65535 of a node's cube, at worst the root's.
    tolerance = index["cube"]["side"] / 65535 * 0.5 * np.sqrt(3) + 1e-6
    for item, (code, points_file) in enumerate(source.item_table(manifest)):
        assert index["items"][item] == code
        expected = load_points(scene_dir / points_file)
        mine = items == item
        assert mine.sum() == len(expected), code
        dist, nearest = cKDTree(expected.xyz).query(xyz[mine])
        assert dist.max() <= tolerance, code
        assert len(set(nearest.tolist())) == len(expected), code  # each of the item's points exactly once
        assert np.array_equal(rgb[mine], expected.rgb[nearest]), code


def test_nodes_and_children_agree(scene_dir: Path) -> None:
    index = ensure_tiles(scene_dir, load_manifest(scene_dir), PARAMS).index
    names = {n["name"] for n in index["nodes"]}
    for node in index["nodes"]:
        children = {node["name"] + str(d) for d in range(8) if node["children"] >> d & 1}
        assert children <= names
        assert all(n["name"] in children for n in index["nodes"] if n["name"][:-1] == node["name"] and len(n["name"]) > 1)
        if node["children"] == 0:
            assert node["points"] <= PARAMS.leaf_cap
        else:  # an inner node keeps at most one point a voxel
            assert node["points"] <= PARAMS.grid ** 3
    assert len(index["spacing"]) == index["depth"] + 1
    assert index["spacing"][0] == index["cube"]["side"] / PARAMS.grid


def test_same_scene_same_bytes_whatever_the_chunk(scene_dir: Path) -> None:
    manifest = load_manifest(scene_dir)
    ensure_tiles(scene_dir, manifest, PARAMS)
    first = _tiles(scene_dir)
    shutil.rmtree(scene_dir / TILES_DIR)
    ensure_tiles(scene_dir, manifest, TileParams(grid=PARAMS.grid, leaf_cap=PARAMS.leaf_cap, chunk=10_000_000))
    assert _tiles(scene_dir) == first  # streamed in chunks or read whole: the same tiles, the same index


def test_up_to_date_tiles_are_kept_and_stale_ones_rebuilt(scene_dir: Path) -> None:
    manifest = load_manifest(scene_dir)
    assert ensure_tiles(scene_dir, manifest, PARAMS).built
    assert not ensure_tiles(scene_dir, manifest, PARAMS).built
    chair = next(o for o in manifest.objects() if o.code == "0-1-1")
    old = load_points(scene_dir / chair.points_file)
    write_points(scene_dir / chair.points_file, Points(xyz=old.xyz[:100], rgb=old.rgb[:100]))
    state = ensure_tiles(scene_dir, manifest, PARAMS)
    assert state.built
    _, _, items = _decoded(scene_dir, state.index)
    assert (items == state.index["items"].index("0-1-1")).sum() == 100
    assert not ensure_tiles(scene_dir, manifest, PARAMS).built
    assert ensure_tiles(scene_dir, manifest, TileParams(grid=16, leaf_cap=200)).built  # other parameters: other tiles


def test_a_failed_build_leaves_the_old_tiles_and_no_staging(scene_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = load_manifest(scene_dir)
    ensure_tiles(scene_dir, manifest, PARAMS)
    before = _tiles(scene_dir)
    calls = 0
    real = build.pack_tile

    def failing(cube: Cube, records: np.ndarray) -> bytes:
        nonlocal calls
        calls += 1
        if calls > 5:
            raise OSError("disk full")
        return real(cube, records)

    monkeypatch.setattr(build, "pack_tile", failing)
    with pytest.raises(OSError, match="disk full"):
        ensure_tiles(scene_dir, manifest, TileParams(grid=16, leaf_cap=200))
    assert _tiles(scene_dir) == before
    assert sorted(p.name for p in scene_dir.iterdir()) == ["attributes.json", "points", "scene.json", TILES_DIR]


def test_point_files_are_read_one_at_a_time(scene_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounded memory by construction: when a point file is read, the records of at most one earlier file are alive
    (the loop's variable until the next arrives), and no chunk read from a spill file exceeds the chunk size."""
    alive: list[weakref.ref[np.ndarray]] = []
    most_alive = 0
    real_read = source.read_records

    def read(path: Path, item: int) -> tuple[np.ndarray, int]:
        nonlocal most_alive
        most_alive = max(most_alive, sum(ref() is not None for ref in alive))
        records, dropped = real_read(path, item)
        alive.append(weakref.ref(records))
        return records, dropped

    chunk_sizes: list[int] = []
    real_chunks = build._spill_chunks

    def chunks(path: Path, chunk: int):
        for records in real_chunks(path, chunk):
            chunk_sizes.append(len(records))
            yield records

    monkeypatch.setattr(source, "read_records", read)
    monkeypatch.setattr(build, "_spill_chunks", chunks)
    manifest = load_manifest(scene_dir)
    ensure_tiles(scene_dir, manifest, PARAMS)
    assert len(alive) == 3 * len(source.item_table(manifest))  # bounds, then the root's two passes
    assert most_alive <= 1
    assert chunk_sizes and max(chunk_sizes) <= PARAMS.chunk
