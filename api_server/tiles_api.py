"""Level-of-detail tiles of the served scene (scene_agent/tiles): the index and one binary tile per octree node.

Both are built on the first request that finds them missing or stale (the scene's point files or manifest changed),
so what is served always matches the scene; the ETag names the build (its source digest), so a browser revalidates
for free while nothing changed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from flask import Blueprint, Response, current_app, request

from api_server.bodies import ErrorBody, TilesIndex
from api_server.openapi import documented
from scene_agent.errors import NotFoundError, PointFileError
from scene_agent.scene.loader import Scene
from scene_agent.tiles.build import TileParams
from scene_agent.tiles.layout import MEDIA_TYPE, NODE_NAME_RE
from scene_agent.tiles.source import manifest_digest
from scene_agent.tiles.store import INDEX_NAME, TilesState, ensure_tiles

bp = Blueprint("tiles", __name__)
_sha_lock = threading.Lock()
_points_by_node: dict[str, dict[str, int]] = {}  # source digest → node name → points, for the index last served


def _node_points(state: TilesState) -> dict[str, int]:
    digest = state.index["source_digest"]
    found = _points_by_node.get(digest)
    if found is None:
        found = {n["name"]: n["points"] for n in state.index["nodes"]}
        _points_by_node.clear()
        _points_by_node[digest] = found
    return found


def _tiles() -> TilesState:
    scene: Scene = current_app.extensions["scene_agent.scene.loader"]
    with _sha_lock:  # the served manifest never changes in a running server: its digest is computed once
        sha = current_app.extensions.get("scene_agent.tiles.manifest_sha")
        if sha is None:
            sha = current_app.extensions["scene_agent.tiles.manifest_sha"] = manifest_digest(scene.manifest)
    params: TileParams | None = current_app.config.get("TILE_PARAMS")
    return ensure_tiles(scene.root, scene.manifest, params, manifest_sha=sha)


def _cached(body_of: Callable[[], bytes], etag: str, mimetype: str) -> Response:
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        response = Response(body_of(), mimetype=mimetype)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/api/tiles/index.json")
@documented("The level-of-detail tiles' index of the served scene: cube, spacing per level, item codes, nodes "
            "(format in docs/scene-format.md); built on first use", tag="scenes", responses={200: TilesIndex})
def tiles_index() -> Response:
    """The index file as stored; its ETag is the digest of the scene it was built from."""
    state = _tiles()
    return _cached(lambda: (state.directory / INDEX_NAME).read_bytes(), f"tiles-{state.index['source_digest']}",
                   "application/json")


@bp.get("/api/tiles/<node>.bin")
@documented("One tile: the points an octree node holds, each with its item id (binary form in docs/scene-format.md)",
            tag="scenes", responses={200: MEDIA_TYPE, 404: ErrorBody})
def tile(node: str) -> Response:
    """A node named in the index; any other name is 404 and never reaches a path."""
    if not NODE_NAME_RE.fullmatch(node):
        raise NotFoundError(f"no tile '{node}' (tile names look like r, r0, r07)")
    state = _tiles()
    points = _node_points(state).get(node)
    if points is None:
        raise NotFoundError(f"no tile '{node}' in the tiles of scene '{state.index['scene_id']}'")

    def body() -> bytes:
        try:
            return (state.directory / f"{node}.bin").read_bytes()
        except OSError as exc:
            raise PointFileError(f"tile {node}: {exc.strerror}") from None

    response = _cached(body, f"tiles-{state.index['source_digest'][:32]}-{node}", MEDIA_TYPE)
    response.headers["X-Point-Count"] = str(points)
    return response
