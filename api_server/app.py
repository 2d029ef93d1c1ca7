"""`create_app`: the Flask application factory; everything a request needs comes from app.config."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, jsonify

import scene_agent
from scene_agent.scene import Scene, open_scene


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app for one scene (config SCENE_PATH; default the demo scene)."""
    app = Flask(__name__)
    app.config.from_mapping(SCENE_PATH=None, MAX_CONTENT_LENGTH=64 * 1024)
    if test_config:
        app.config.from_mapping(test_config)
    scene: Scene = open_scene(Path(app.config["SCENE_PATH"]) if app.config["SCENE_PATH"] else None)
    app.extensions["scene_agent.scene"] = scene

    @app.get("/api/health")
    def health():
        floors, rooms, objects = scene.index.counts
        return jsonify(status="ok", version=scene_agent.__version__, scene_id=scene.scene_id,
                       floors=floors, rooms=rooms, objects=objects)

    return app
