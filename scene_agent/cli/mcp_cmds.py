"""`mcp`: scene-agent as an MCP server for any MCP host (Claude Code, Cursor, VS Code, …): over stdio, or streamable
HTTP with --http. Picks happen in our viewer, so the API server must answer at SCENE_AGENT_VIEWER_URL: the one
running there is used, else one is started in this process for as long as the MCP server runs."""

from __future__ import annotations

import logging
import sys
from contextlib import ExitStack
from typing import TYPE_CHECKING, Annotated

import typer

from scene_agent.cli.common import JsonOption, SceneOption
from scene_agent.cli.output import print_json
from scene_agent.cli.viewer_check import serving
from scene_agent.config import load_demo_dir, load_settings
from scene_agent.errors import SceneAgentError

if TYPE_CHECKING:
    from scene_agent.scene.loader import Scene

DEFAULT_MCP_PORT = 8091


class McpServeError(SceneAgentError):
    """The MCP server could not start (its port is taken, say)."""

    code = "mcp_failed"


def mcp_command(
    http: Annotated[bool, typer.Option("--http", help="Serve streamable HTTP on 127.0.0.1 instead of stdio.")] = False,
    port: Annotated[int, typer.Option("--port", min=0, max=65535,
                                      help="With --http: the port (0 picks a free one).")] = DEFAULT_MCP_PORT,
    scene: SceneOption = None,
    json_output: JsonOption = False,
) -> None:
    """Serve the scene's tools over MCP: find, visualize, color, volume, ask, wait_for_selection; scenes as resources."""
    from mcp_server.run import serve_http, serve_stdio  # imports the MCP SDK only here
    from mcp_server.scene_source import SceneSource
    from mcp_server.server import build_server
    from scene_agent.demo.place import demo_is_built, open_scene_or_demo
    from scene_agent.demo.version import SCENE_ID, SCENE_NAME
    from scene_agent.selection.channel import open_channel

    # stdout is the protocol's on stdio: everything for people goes to stderr.
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="scene-agent mcp: %(message)s")
    settings = load_settings()
    channel = open_channel(settings)
    with ExitStack() as stack:

        def opened(loaded: Scene) -> Scene:
            where = stack.enter_context(serving(settings, loaded))
            logging.info("%s; picks travel through %s", where.line, channel.describe())
            return loaded

        if scene is None and not demo_is_built():  # first start: answer the host at once, build meanwhile
            logging.info("first start: building the demo scene in %s (about half a minute); tools that need it answer "
                         "once it is built", load_demo_dir())
            source = SceneSource.building(SCENE_ID, SCENE_NAME, lambda: opened(open_scene_or_demo(None)))
        else:
            source = SceneSource.of(opened(open_scene_or_demo(scene)))  # a wrong --scene fails here, before serving
        server, jobs = build_server(source, settings, channel)
        if not http:
            serve_stdio(server, jobs)
            return

        def listening(url: str) -> None:
            if json_output:
                print_json({"url": url, "scene_id": source.scene_id, "viewer_url": settings.viewer_url})
            logging.info("MCP (streamable HTTP) at %s for scene '%s'", url, source.scene_id)

        try:
            serve_http(server, jobs, port, listening)
        except OSError as exc:
            raise McpServeError(f"{exc}; choose another --port") from None
        except KeyboardInterrupt:
            pass
