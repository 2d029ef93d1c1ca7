"""`create_app`: the Flask application factory; everything a request needs comes from app.config."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, jsonify, request
from flask.json.provider import DefaultJSONProvider
from flask_cors import CORS

import scene_agent
from api_server import chat_api, objects_api, scenes_api, selection_api, tiles_api, viewer_files
from api_server.bodies import ChannelState, Health
from api_server.chat_runs import ChatRuns
from api_server.errors import error_response, register_error_handlers
from api_server.hosts import HostCheck
from api_server.openapi import build_openapi, documented
from scene_agent.config import Settings, load_allowed_hosts, load_app_origins, load_settings
from scene_agent.demo.place import open_scene_or_demo
from scene_agent.fileio import sweep_temp_files, tighten_private_dir
from scene_agent.scene.loader import Scene
from scene_agent.selection.channel import open_channel
from scene_agent.selection.selection_file import PREFIX as SELECTION_FILE_PREFIX
from scene_agent.tiles.current import RECHECK_S, CurrentTiles
from scene_agent.tools.question import DEFAULT_QUESTION_TIMEOUT_S

log = logging.getLogger(__name__)

REPO_ROOT = Path(__file__).resolve().parent.parent
MAX_BODY_BYTES = 64 * 1024
# A pick asked from the web page: someone new to the viewer may still be looking around after a minute (the
# page also offers "more time"); the CLI's and the agent's own default stays DEFAULT_TIMEOUT_S.
WEB_SELECTION_TIMEOUT_S = 300.0


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app for one scene (config SCENE_PATH, default the demo scene), SETTINGS (default from the environment)
    and the selection CHANNEL (default the one SETTINGS name: files, or Redis with a broker)."""
    app = Flask(__name__)
    assert isinstance(app.json, DefaultJSONProvider)  # Flask's default; sort_keys is an attribute of it
    app.json.sort_keys = False  # bodies keep the field order of their models
    app.config.from_mapping(
        SCENE_PATH=None, SETTINGS=None, MAX_CONTENT_LENGTH=MAX_BODY_BYTES, VIEWER_DIST=str(REPO_ROOT / "viewer" / "dist"),
        # The web chat: how long its runs wait for a pick or an answer; which planner a new conversation gets
        # (None: the OpenAI planner when OPENAI_API_KEY is set, read when the conversation starts, else offline).
        CHAT_SELECTION_TIMEOUT=WEB_SELECTION_TIMEOUT_S, CHAT_QUESTION_TIMEOUT=DEFAULT_QUESTION_TIMEOUT_S, PLANNER_FACTORY=None,
        # Event streams: a keepalive comment this often; a stream ends after SSE_MAX_S and the browser resumes it;
        # at most MAX_EVENT_STREAMS at once, so readers never hold every server thread (serve runs 16).
        SSE_KEEPALIVE_S=15.0, SSE_MAX_S=300.0, MAX_EVENT_STREAMS=8,
        # Host headers answered besides the server's own address (None: SCENE_AGENT_ALLOWED_HOSTS), and the
        # addresses it is bound to (make_server adds them).
        ALLOWED_HOSTS=None, BIND_HOSTS=(),
        # Origins of pages elsewhere that may use the API, as an MCP host's frame showing the viewer does (None:
        # SCENE_AGENT_APP_ORIGINS); the configured viewer's own origin always may.
        APP_ORIGINS=None,
        # Where sessions, outcomes, picks and views live (scene_agent/selection/channel.py); None: open_channel(SETTINGS).
        CHANNEL=None,
        # True for `scene-agent serve`: submits and cancels run in a process of their own (selection/files/deliverer.py).
        DELIVER_IN_CHILD=False,
        # How the level-of-detail tiles are cut (scene_agent/tiles/build.py TileParams); None: the defaults. How
        # often, at most, the served tiles are checked against the scene's point files (scene_agent/tiles/current.py).
        TILE_PARAMS=None, TILES_RECHECK_S=RECHECK_S)
    if test_config:
        app.config.from_mapping(test_config)
    if app.config["SETTINGS"] is None:
        app.config["SETTINGS"] = load_settings()
    if app.config["ALLOWED_HOSTS"] is None:
        app.config["ALLOWED_HOSTS"] = load_allowed_hosts() or ()
    if app.config["APP_ORIGINS"] is None:
        app.config["APP_ORIGINS"] = load_app_origins()
    if app.config["CHANNEL"] is None:
        app.config["CHANNEL"] = open_channel(app.config["SETTINGS"])
    if app.config["DELIVER_IN_CHILD"]:
        app.config["CHANNEL"].deliver_in_child()
    _tidy_state(app.config["SETTINGS"])
    # Selection files that a server which died mid-delivery left for nobody are removed.
    app.config["CHANNEL"].recover()
    scene: Scene = open_scene_or_demo(Path(app.config["SCENE_PATH"]) if app.config["SCENE_PATH"] else None)
    app.extensions["scene_agent.scene.loader"] = scene
    app.extensions["scene_agent.tiles"] = CurrentTiles(scene.root, scene.manifest, app.config["TILE_PARAMS"],
                                                       recheck_s=app.config["TILES_RECHECK_S"])
    # Cross-origin requests only from the configured viewer (e.g. a Vite dev server) and the app origins (an MCP host's
    # frame showing the viewer); same-origin needs none.
    origins = [app.config["SETTINGS"].viewer_origin, *app.config["APP_ORIGINS"]]
    CORS(app, resources={r"/api/*": {"origins": origins}, r"/manifests/*": {"origins": origins}})
    app.extensions["scene_agent.chat"] = ChatRuns(
        scene, app.config["SETTINGS"], app.config["CHANNEL"], make_planner=app.config["PLANNER_FACTORY"],
        selection_timeout=app.config["CHAT_SELECTION_TIMEOUT"], question_timeout=app.config["CHAT_QUESTION_TIMEOUT"])
    register_error_handlers(app)
    viewer_netloc = urlsplit(app.config["SETTINGS"].viewer_url).netloc

    @app.before_request
    def check_host() -> Response | None:
        check = HostCheck.of(tuple(app.config["BIND_HOSTS"]), viewer_netloc, tuple(app.config["ALLOWED_HOSTS"]))
        port = str(request.environ.get("SERVER_PORT", ""))
        if check.allows(request.host, port):
            return None
        return error_response("misdirected_request", f"this server does not answer for the host '{request.host}'; it "
                              f"answers for {check.describe(port)} (SCENE_AGENT_ALLOWED_HOSTS adds more)", 421)

    @app.after_request
    def vary_by_origin(response: Response) -> Response:
        response.vary.add("Origin")  # the CORS headers differ by Origin, so caches must key on it
        return response

    for blueprint in (selection_api.bp, scenes_api.bp, objects_api.bp, tiles_api.bp, chat_api.bp, viewer_files.bp):
        app.register_blueprint(blueprint)

    @app.get("/api/health")
    @documented("The server is up; which scene it serves; whether picks can travel", responses={200: Health, 503: Health})
    def health() -> Response:
        floors, rooms, objects = scene.index.counts
        checked = app.config["CHANNEL"].health()
        channel = ChannelState(kind=checked.kind, where=checked.where, reachable=checked.reachable, message=checked.message)
        body = Health(status="ok" if checked.reachable else "unavailable", version=scene_agent.__version__,
                      scene_id=scene.scene_id, floors=floors, rooms=rooms, objects=objects,
                      viewer_built=viewer_files.viewer_built(Path(app.config["VIEWER_DIST"])), channel=channel)
        response = jsonify(body.model_dump())
        response.status_code = 200 if checked.reachable else 503
        return response

    @app.get("/api/openapi.json")
    def openapi() -> Response:
        return jsonify(build_openapi(app))

    return app


def serve_viewer_at(app: Flask, url: str) -> None:
    """The app is served at `url` (make_server calls this once bound): the web chat's agents link there, unless the
    settings were given a viewer URL (SCENE_AGENT_VIEWER_URL: a page behind a proxy keeps its address). Before any
    conversation starts, since each conversation's agent keeps the settings it was made with."""
    if "scene_agent.chat" not in app.extensions:
        return  # not an app of create_app's (a test's stub server)
    settings = app.config["SETTINGS"].served_at(url)
    app.config["SETTINGS"] = settings
    app.extensions["scene_agent.chat"].settings = settings


TEMP_FILE_AGE_S = 600.0  # a write_atomic temp file this old was left by a process that died mid-write


def _tidy_state(settings: Settings) -> None:
    """At start: the state directory owner-only, and temp files that crashed writers left behind swept away."""
    if tighten_private_dir(settings.state_dir):
        log.warning("%s could be used by other users; it is now owner-only (0700)", settings.state_dir)
    for directory in (settings.sessions_dir, settings.views_dir):
        sweep_temp_files(directory, TEMP_FILE_AGE_S)
    sweep_temp_files(settings.selection_dir, TEMP_FILE_AGE_S, prefix="." + SELECTION_FILE_PREFIX)
