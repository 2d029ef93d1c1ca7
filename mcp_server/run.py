"""Serving the MCP server: over stdio (what hosts launch), or streamable HTTP on a loopback port."""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable

import anyio
import uvicorn
from mcp.server.mcpserver import MCPServer

from mcp_server.jobs import Jobs

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
MCP_PATH = "/mcp"


def serve_stdio(server: MCPServer, jobs: Jobs) -> None:
    """Serve on stdin/stdout until the host closes them; jobs still running are stopped (their picks cancelled)."""
    try:
        server.run()
    finally:
        jobs.stop_all("the MCP server stopped")


def serve_http(server: MCPServer, jobs: Jobs, port: int, on_listening: Callable[[str], None]) -> None:
    """Serve streamable HTTP at http://127.0.0.1:PORT/mcp (PORT 0: a free one) until interrupted.

    The socket is bound before the server starts, so `on_listening(url)` names the port really used.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}") from None
    app = server.streamable_http_app(host=HOST)
    http = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))

    async def run() -> None:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(http.serve, [sock])
            while not http.started:
                await anyio.sleep(0.02)
            on_listening(f"http://{HOST}:{sock.getsockname()[1]}{MCP_PATH}")

    try:
        anyio.run(run)
    finally:
        jobs.stop_all("the MCP server stopped")
        sock.close()
