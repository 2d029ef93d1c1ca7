"""Level-of-detail tiles of the served scene (scene_agent/tiles): the index and one binary tile per octree node.

Both are built on the first request that finds them missing, and again on the first after the scene's point files
changed (noticed within TILES_RECHECK_S: scene_agent/tiles/current.py), so what is served matches the scene; the
build in use is kept in memory, and a tile is served only under the index and ETag of the build it was read from.
The ETag names the build (its source digest), so a browser revalidates for free while nothing changed.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, request

from api_server.bodies import ErrorBody, TilesIndex
from api_server.openapi import documented
from scene_agent.errors import BusyError, NotFoundError
from scene_agent.tiles.current import CurrentTiles
from scene_agent.tiles.layout import MEDIA_TYPE, NODE_NAME_RE

bp = Blueprint("tiles", __name__)
READ_ATTEMPTS = 3  # a tile read while another build replaced the directory is read again, from the new build


def current_tiles() -> CurrentTiles:
    """The served scene's tiles."""
    tiles: CurrentTiles = current_app.extensions["scene_agent.tiles"]  # set by create_app (api_server/app.py)
    return tiles


def _revalidated(etag: str) -> bool:
    """Whether the request's If-None-Match names this ETag: then a 304 answers it and nothing is read."""
    return request.if_none_match.contains(etag)


def _response(body: bytes | None, etag: str, mimetype: str) -> Response:
    """200 with `body`, or 304 when it is None; either way with the ETag, revalidated before each use."""
    response = Response(status=304) if body is None else Response(body, mimetype=mimetype)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/api/tiles/index.json")
@documented("The level-of-detail tiles' index of the served scene: cube, spacing per level, item codes, nodes "
            "(format in docs/scene-format.md); built on first use", tag="scenes", responses={200: TilesIndex})
def tiles_index() -> Response:
    """The index file as stored; its ETag is the digest of the scene it was built from."""
    served = current_tiles().served()
    etag = f"tiles-{served.digest}"
    return _response(None if _revalidated(etag) else served.state.index_text, etag, "application/json")


@bp.get("/api/tiles/<node>.bin")
@documented("One tile: the points an octree node holds, each with its item id (binary form in docs/scene-format.md)",
            tag="scenes", responses={200: MEDIA_TYPE, 404: ErrorBody, 503: ErrorBody})
def tile(node: str) -> Response:
    """A node named in the index; any other name is 404 and never reaches a path."""
    if not NODE_NAME_RE.fullmatch(node):
        raise NotFoundError(f"no tile '{node}' (tile names look like r, r0, r07)")
    tiles = current_tiles()
    for _ in range(READ_ATTEMPTS):
        served = tiles.served()
        points = served.node_points.get(node)
        if points is None:
            raise NotFoundError(f"no tile '{node}' in the tiles of scene '{served.state.index['scene_id']}'")
        etag = f"tiles-{served.digest[:32]}-{node}"
        if _revalidated(etag):
            return _response(None, etag, MEDIA_TYPE)
        data = tiles.read_tile(served, node)
        if data is not None:
            response = _response(data, etag, MEDIA_TYPE)
            response.headers["X-Point-Count"] = str(points)
            return response
    raise BusyError(f"the tiles were rebuilt {READ_ATTEMPTS} times while tile '{node}' was read; try again")
