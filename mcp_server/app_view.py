"""The viewer inside the conversation: scene-agent as an MCP App (the MCP Apps extension, `io.modelcontextprotocol/ui`).

`ask` and `visualize` name the resource `ui://scene-agent/viewer.html`: the viewer page built as one self-contained
HTML file (viewer/dist/mcp-app.html, the same viewer as the served page, in its MCP-App mode). A host that renders
MCP Apps shows it in the conversation in a sandboxed frame and hands it each call's result; the page opens the view
or the pick that result names. Points, manifests and the pick itself travel between that frame and the API server,
whose origin the resource declares (its `connectDomains`, the only place the frame may reach): a scene's points
are megabytes of binary files that the browser fetches and caches as it does on the served page, which tool calls
(JSON through the host) would carry slowly. The API server answers a frame from another origin only when that origin
is allowed (SCENE_AGENT_APP_ORIGINS; `null` for a sandboxed frame without an origin of its own).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp.server.apps import APP_MIME_TYPE, Apps
from mcp.server.mcpserver.resources import FileResource

from scene_agent.config import Settings

VIEW_URI = "ui://scene-agent/viewer.html"
VIEW_FILE = Path(__file__).resolve().parent.parent / "viewer" / "dist" / "mcp-app.html"

__all__ = ["VIEW_URI", "apps_extension", "view_meta"]


def view_meta() -> dict[str, Any]:
    """A tool's `_meta` naming the viewer as its UI (both the current key and the flat one older hosts read)."""
    return {"ui": {"resourceUri": VIEW_URI}, "ui/resourceUri": VIEW_URI}


def apps_extension(settings: Settings) -> Apps:
    """The MCP Apps extension with the viewer page, allowed to reach the API server at the viewer URL's origin."""
    apps = Apps()
    origin = settings.viewer_origin
    apps.add_resource(FileResource(
        uri=VIEW_URI, name="scene-agent viewer", title="3D viewer",
        description="The scene's 3D point-cloud viewer: the view a call opened, or the pick it waits for.",
        path=VIEW_FILE, mime_type=APP_MIME_TYPE,
        meta={"ui": {"csp": {"connectDomains": [origin], "resourceDomains": [origin]}, "prefersBorder": False}}))
    return apps
