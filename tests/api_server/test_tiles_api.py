"""The tiles endpoints over real HTTP: built on first use, revalidated by ETag, rebuilt when stale, names checked."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from http_client import call
from scipy.spatial import cKDTree
from small_scene import write_small_scene

from api_server.app import create_app
from api_server.serve import BackgroundServer
from scene_agent.config import Settings
from scene_agent.geometry.points import Points
from scene_agent.scene.manifest import load_manifest
from scene_agent.scene.ply import write_points
from scene_agent.scene.pointcloud import load_points
from scene_agent.selection.channel import SelectionChannel
from scene_agent.tiles.build import TileParams
from scene_agent.tiles.layout import Cube, node_cube, unpack_tile
from scene_agent.tiles.store import TILES_DIR, ensure_tiles


@pytest.fixture
def scene_dir(tmp_path: Path) -> Path:
    return write_small_scene(tmp_path / "scene").parent


@pytest.fixture
def serve_tiles(scene_dir: Path, settings: Settings, channel: SelectionChannel,
                tmp_path: Path) -> Iterator[Callable[..., BackgroundServer]]:
    """`serve_tiles(**config)`: a real server of the small scene, cutting small tiles, with the given app config."""
    started: list[BackgroundServer] = []

    def start(**config: object) -> BackgroundServer:
        app = create_app({"SCENE_PATH": str(scene_dir), "SETTINGS": settings, "CHANNEL": channel,
                          "VIEWER_DIST": str(tmp_path / "dist"), "TILE_PARAMS": TileParams(grid=8, leaf_cap=200), **config})
        started.append(BackgroundServer(app).__enter__())
        return started[-1]

    yield start
    for server in started:
        server.close()


@pytest.fixture
def tiles_server(serve_tiles: Callable[..., BackgroundServer]) -> BackgroundServer:
    return serve_tiles()


def test_index_and_tiles_built_on_first_use(tiles_server: BackgroundServer, scene_dir: Path) -> None:
    assert not (scene_dir / TILES_DIR).exists()
    reply = call("GET", f"{tiles_server.url}/api/tiles/index.json")
    assert reply.status == 200
    assert reply.headers["Content-Type"] == "application/json"
    assert reply.headers["Cache-Control"] == "no-cache" and reply.headers["ETag"]
    index = reply.json()
    assert (scene_dir / TILES_DIR / "index.json").read_bytes() == reply.body
    root = Cube(min=tuple(index["cube"]["min"]), side=index["cube"]["side"])
    total = 0
    for node in index["nodes"]:
        got = call("GET", f"{tiles_server.url}/api/tiles/{node['name']}.bin")
        assert got.status == 200
        assert got.headers["Content-Type"] == "application/vnd.scene-agent.tile"
        assert int(got.headers["X-Point-Count"]) == node["points"]
        tile = unpack_tile(node_cube(root, node["name"]), got.body)
        assert len(tile.items) == node["points"] and int(tile.items.max(initial=0)) < len(index["items"])
        total += node["points"]
    assert total == load_manifest(scene_dir).point_total()


def test_etags_revalidate(tiles_server: BackgroundServer) -> None:
    for path in ("index.json", "r.bin"):
        first = call("GET", f"{tiles_server.url}/api/tiles/{path}")
        again = call("GET", f"{tiles_server.url}/api/tiles/{path}", headers={"If-None-Match": first.headers["ETag"]})
        assert (again.status, again.body, again.headers["ETag"]) == (304, b"", first.headers["ETag"])


def _item_points(url: str, index: dict[str, Any], code: str) -> npt.NDArray[np.float64]:
    """Every point the served tiles give `code`, each tile fetched over HTTP."""
    root = Cube(min=tuple(index["cube"]["min"]), side=index["cube"]["side"])
    item = index["items"].index(code)
    found = []
    for node in index["nodes"]:
        got = call("GET", f"{url}/api/tiles/{node['name']}.bin")
        assert got.status == 200 and int(got.headers["X-Point-Count"]) == node["points"]
        tile = unpack_tile(node_cube(root, node["name"]), got.body)
        found.append(tile.xyz[tile.items == item])
    return np.concatenate(found)


def test_stale_tiles_are_rebuilt_before_they_are_served(serve_tiles: Callable[..., BackgroundServer], scene_dir: Path) -> None:
    server = serve_tiles(TILES_RECHECK_S=0.0)  # the point files looked at on every request (by default once a second)
    first = call("GET", f"{server.url}/api/tiles/index.json")
    first_root = call("GET", f"{server.url}/api/tiles/r.bin")
    chair = next(o for o in load_manifest(scene_dir).objects() if o.code == "0-1-2")
    old = load_points(scene_dir / chair.points_file)
    kept = Points(xyz=old.xyz[:50], rgb=old.rgb[:50])
    write_points(scene_dir / chair.points_file, kept)
    tile = call("GET", f"{server.url}/api/tiles/r.bin", headers={"If-None-Match": first_root.headers["ETag"]})
    assert tile.status == 200 and tile.headers["ETag"] != first_root.headers["ETag"]  # the old build is never confirmed
    again = call("GET", f"{server.url}/api/tiles/index.json", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status == 200 and again.headers["ETag"] != first.headers["ETag"]
    index = again.json()
    assert index["source_digest"] != first.json()["source_digest"]
    assert index["points"] == first.json()["points"] - len(old) + 50
    served = _item_points(server.url, index, "0-1-2")  # the tiles hold the chair's new points, each once
    dist, nearest = cKDTree(kept.xyz).query(served)
    assert len(served) == 50 and dist.max() < 1e-3 and len(set(nearest.tolist())) == 50


def test_tiles_another_process_put_in_place_are_noticed_at_once(tiles_server: BackgroundServer, scene_dir: Path) -> None:
    first = call("GET", f"{tiles_server.url}/api/tiles/index.json")
    root = call("GET", f"{tiles_server.url}/api/tiles/r.bin")
    ensure_tiles(scene_dir, load_manifest(scene_dir), TileParams(grid=16, leaf_cap=200))  # other parameters, other tiles
    # Even within the interval in which the point files are not looked at, the replaced index is noticed: its own
    # parameters are built again, and nothing of the other build is served or confirmed under this build's ETags.
    again = call("GET", f"{tiles_server.url}/api/tiles/r.bin", headers={"If-None-Match": root.headers["ETag"]})
    assert again.status == 304
    assert (scene_dir / TILES_DIR / "r.bin").read_bytes() == root.body
    index = call("GET", f"{tiles_server.url}/api/tiles/index.json")
    assert (index.status, index.body, index.headers["ETag"]) == (200, first.body, first.headers["ETag"])


@pytest.mark.parametrize("damage", ["missing", "cut short"])
def test_a_damaged_tile_is_built_again_not_served(tiles_server: BackgroundServer, scene_dir: Path, damage: str) -> None:
    index = call("GET", f"{tiles_server.url}/api/tiles/index.json").json()
    name = max(index["nodes"], key=lambda n: n["points"])["name"]
    path = scene_dir / TILES_DIR / f"{name}.bin"
    whole = path.read_bytes()
    if damage == "missing":
        path.unlink()
    else:
        path.write_bytes(whole[:-13])  # one point short: the header says more than the file holds
    reply = call("GET", f"{tiles_server.url}/api/tiles/{name}.bin")
    assert reply.status == 200 and reply.body == whole  # the same scene builds the same bytes
    assert path.read_bytes() == whole
    again = call("GET", f"{tiles_server.url}/api/tiles/index.json").json()
    assert again["source_digest"] == index["source_digest"] and again["nodes"] == index["nodes"]


@pytest.mark.parametrize("name", ["r9", "r01234567012345670123", "x", "R", "r0x", "index", "..%2Findex", "..%2F..%2Fscene",
                                  "%2e%2e", "r%00", "r0%2F..%2F..%2Fscene"])
def test_unknown_malformed_or_hostile_tile_names(tiles_server: BackgroundServer, scene_dir: Path, name: str) -> None:
    reply = call("GET", f"{tiles_server.url}/api/tiles/{name}.bin")
    assert reply.status == 404
    assert set(reply.json()) == {"error", "message"} and reply.json()["error"] == "not_found"


def test_a_name_missing_from_the_index_is_404(tiles_server: BackgroundServer) -> None:
    index = call("GET", f"{tiles_server.url}/api/tiles/index.json").json()
    leaf = next(n["name"] for n in index["nodes"] if n["children"] == 0)
    missing = leaf + "0"  # well-formed, but below a leaf
    reply = call("GET", f"{tiles_server.url}/api/tiles/{missing}.bin")
    assert reply.status == 404 and reply.headers["Content-Type"] == "application/json"
    assert reply.json() == {"error": "not_found", "message": f"no tile '{missing}' in the tiles of scene 'small'"}


def test_tiles_are_in_the_openapi_document(tiles_server: BackgroundServer) -> None:
    paths = call("GET", f"{tiles_server.url}/api/openapi.json").json()["paths"]
    assert {"/api/tiles/index.json", "/api/tiles/{node}.bin"} <= set(paths)
    assert paths["/api/tiles/{node}.bin"]["get"]["parameters"][0]["schema"]["pattern"].startswith("^r")
