"""The built web viewer (viewer/dist) at `/`; until it is built, a 404 that says how to build it."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, current_app, send_from_directory

bp = Blueprint("viewer", __name__)

NOT_BUILT = ("The web viewer is not built (viewer/dist is missing). Build it with `cd viewer && npm ci && npm run build` "
             "(`make run` does this for you when the checkout has a viewer/), then reload this page. "
             "The API works without it: see /api/openapi.json.")


def viewer_dist() -> Path:
    """Where the built viewer is looked for (config VIEWER_DIST)."""
    return Path(current_app.config["VIEWER_DIST"])


def viewer_built(dist: Path) -> bool:
    """True when dist holds a built viewer."""
    return (dist / "index.html").is_file()


@bp.get("/")
def index() -> Response:
    """The viewer page (its URL parameters select the view and the mode)."""
    dist = viewer_dist()
    if not viewer_built(dist):
        return Response(NOT_BUILT + "\n", status=404, mimetype="text/plain")
    response = send_from_directory(dist, "index.html")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/assets/<path:name>")
def asset(name: str) -> Response:
    """Vite's hashed bundles: safe to cache for long (send_from_directory refuses paths outside dist)."""
    response = send_from_directory(viewer_dist() / "assets", name, max_age=365 * 24 * 3600)
    return response
