"""Scenes and views over HTTP: the scene manifest, binary point data, and the view manifests the viewer opens."""

from __future__ import annotations

import hashlib

from flask import Blueprint, Response, current_app, jsonify, request

from api_server.bodies import ErrorBody, ItemNames, SceneEntry, SceneList, SceneNames
from api_server.openapi import documented
from api_server.point_data import MEDIA_TYPE, pack_points
from scene_agent.errors import NotFoundError, PointFileError
from scene_agent.language.display_names import zh_object_label, zh_object_words, zh_room_name, zh_room_words
from scene_agent.scene.digest import memo_for
from scene_agent.scene.index import IndexedRoom
from scene_agent.scene.loader import Scene
from scene_agent.scene.manifest import SceneManifest, manifest_json
from scene_agent.selection.views import ViewManifest

bp = Blueprint("scenes", __name__)


def served_scene(scene_id: str) -> Scene:
    """The scene this server serves, if `scene_id` names it; NotFoundError (404) naming both otherwise."""
    scene: Scene = current_app.extensions["scene_agent.scene.loader"]
    if scene_id != scene.scene_id:
        raise NotFoundError(f"this server serves scene '{scene.scene_id}', not '{scene_id}'")
    return scene


@bp.get("/api/scenes")
@documented("The scenes this server serves", tag="scenes", responses={200: SceneList})
def list_scenes() -> Response:
    """One entry per scene (today: the scene the server was started with)."""
    scene: Scene = current_app.extensions["scene_agent.scene.loader"]
    floors, rooms, objects = scene.index.counts
    entry = SceneEntry(scene_id=scene.scene_id, name=scene.manifest.name, url=f"/api/scenes/{scene.scene_id}",
                       floors=floors, rooms=rooms, objects=objects, points=scene.manifest.point_total())
    return jsonify(SceneList(scenes=[entry]).model_dump(mode="json"))


@bp.get("/api/scenes/<scene_id>")
@documented("A scene manifest (floors → rooms → objects with codes, labels, bounds, point counts)", tag="scenes",
            responses={200: SceneManifest, 404: ErrorBody})
def scene_manifest(scene_id: str) -> Response:
    """The manifest as stored; its text is made once per served scene (3 MB and ~130 ms for a 100 M-point block)."""
    scene = served_scene(scene_id)
    text, etag = _manifest_text(scene)
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        response = Response(text, mimetype="application/json")
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


def _manifest_text(scene: Scene) -> tuple[bytes, str]:
    """The served scene's manifest as JSON bytes and their ETag, kept with the app (the loaded scene never changes)."""
    cached: tuple[Scene, bytes, str] | None = current_app.extensions.get("scene_agent.scene.manifest_text")
    if cached is None or cached[0] is not scene:
        text = manifest_json(scene.manifest).encode()
        cached = (scene, text, "manifest-" + hashlib.sha256(text).hexdigest()[:32])
        current_app.extensions["scene_agent.scene.manifest_text"] = cached  # a race only computes it twice
    return cached[1], cached[2]


@bp.get("/api/scenes/<scene_id>/names")
@documented("Every room and object of a scene named for a Chinese reader, with the Chinese words a search finds it by",
            tag="scenes", responses={200: SceneNames, 404: ErrorBody})
def scene_names(scene_id: str) -> Response:
    """From the vocabulary table (scene_agent/language/display_names.py); made once per served scene."""
    scene = served_scene(scene_id)
    cached: tuple[Scene, bytes] | None = current_app.extensions.get("scene_agent.scene.names_text")
    if cached is None or cached[0] is not scene:
        items: list[ItemNames] = []
        for floor in scene.manifest.floors:
            for room in floor.rooms:
                items.append(ItemNames(code=room.code, zh=zh_room_name(room.name, room.type),
                                       words=zh_room_words(room.name, room.type)))
                items.extend(ItemNames(code=obj.code, zh=zh_object_label(obj.label), words=zh_object_words(obj.label))
                             for obj in room.objects)
        cached = (scene, SceneNames(scene_id=scene.scene_id, items=items).model_dump_json().encode())
        current_app.extensions["scene_agent.scene.names_text"] = cached  # a race only computes it twice
    response = Response(cached[1], mimetype="application/json")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/api/scenes/<scene_id>/points/<code>")
@documented("Points of a room (its structure) or an object, in the compact binary form of api_server/point_data.py",
            tag="scenes", responses={200: MEDIA_TYPE, 400: ErrorBody, 404: ErrorBody})
def points(scene_id: str, code: str) -> Response:
    """Quantised positions and colours; cached by the browser until the point file changes."""
    scene = served_scene(scene_id)
    entry = scene.item(code)
    owner = entry.room if isinstance(entry, IndexedRoom) else entry.obj
    # By content (scene/digest.py: one stat while the file is unchanged), so a rewrite that keeps the file's size and
    # times is still sent again.
    found = memo_for(scene.root).digest(owner.points_file)
    if found is None:
        raise PointFileError(f"{owner.points_file}: point file is missing or unreadable")
    etag = f"{code}-{found.digest}"
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        response = Response(pack_points(scene.points(code)), mimetype=MEDIA_TYPE)
        response.headers["X-Point-Count"] = str(owner.point_count)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/manifests/<view>.json")
@documented("A view manifest: what the viewer shows, and for a selection its session", tag="views",
            responses={200: ViewManifest, 404: ErrorBody, 503: ErrorBody})
def view_manifest(view: str) -> Response:
    """The view written by `vis` / the agent; the name never reaches a path unless it is well-formed."""
    data = current_app.config["CHANNEL"].read_view(view)
    if data is None:
        raise NotFoundError(f"no view manifest '{view}' (views are created by `scene-agent vis` or the agent)")
    response = Response(data, mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response
