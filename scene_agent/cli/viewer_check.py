"""Whether the viewer link a command prints will open: is a scene-agent server answering there, for this scene?"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import urlsplit

from scene_agent.config import DEFAULT_HOST, Settings

if TYPE_CHECKING:
    from scene_agent.scene.loader import Scene


def server_warning(settings: Settings, scene: Scene) -> str | None:
    """Why the viewer link may not work: no server at the viewer URL, or one serving another scene."""
    import urllib.error  # with urllib.request, http.client and ssl: only when a link is checked
    import urllib.request

    url = settings.viewer_origin + "/api/health"
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            served = json.loads(response.read()).get("scene_id")
    except urllib.error.HTTPError as exc:
        with exc:
            said = _said(exc.read())
        return f"the server at {settings.viewer_origin} answers {exc.code}" + (f": {said}" if said else "")
    except (OSError, ValueError):
        return f"no scene-agent server answers at {settings.viewer_origin}; start one with `scene-agent serve` to open the link"
    if served != scene.scene_id:
        return f"the server at {settings.viewer_origin} serves scene '{served}', not '{scene.scene_id}'"
    return None


def _said(body: bytes) -> str:
    """What a health or error body says is wrong, in one line."""
    try:
        data = json.loads(body)
    except ValueError:
        return ""
    if not isinstance(data, dict):
        return ""
    channel = data.get("channel")
    if isinstance(channel, dict) and not channel.get("reachable", True):
        return str(channel.get("message", ""))
    return str(data.get("message", ""))


class Served(NamedTuple):
    """Where the viewer is, said for the user; and the settings to link with (the started server's own address
    when SCENE_AGENT_VIEWER_URL was not set, else the settings as they were)."""

    line: str
    settings: Settings


@contextmanager
def serving(settings: Settings, scene: Scene) -> Iterator[Served]:
    """The API server and viewer for the length of a chat: reuse one that already serves this scene, else start one.

    It listens on loopback at the viewer URL's port.
    """
    from api_server.app import create_app
    from api_server.serve import SERVE_THREADS, BackgroundServer, stream_slots

    if server_warning(settings, scene) is None:
        yield Served(f"Using the scene-agent server already running at {settings.viewer_origin}/", settings)
        return
    port = urlsplit(settings.viewer_url).port or (443 if settings.viewer_url.startswith("https") else 80)
    app = create_app({"SCENE_PATH": str(scene.path), "SETTINGS": settings, "MAX_EVENT_STREAMS": stream_slots(SERVE_THREADS)})
    # the port comes from the viewer URL, not from a flag of the command that serves it
    advice = f"set SCENE_AGENT_VIEWER_URL to a free port (it is {settings.viewer_url})"
    with BackgroundServer(app, host=DEFAULT_HOST, port=port, threads=SERVE_THREADS, advice=advice) as server:
        yield Served(f"Serving scene '{scene.scene_id}' at {server.url}/ for as long as this runs: open it in a browser "
                     "for the 3D viewer and the web chat", app.config["SETTINGS"])
