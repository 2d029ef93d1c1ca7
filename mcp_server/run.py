"""Serving the MCP server: over stdio (what hosts launch), or streamable HTTP on a loopback port."""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable
from types import FrameType

import anyio
import uvicorn
from mcp.server.mcpserver import MCPServer

from mcp_server.jobs import Jobs

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
MCP_PATH = "/mcp"


STOPPED = "the MCP server stopped"
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def serve_stdio(server: MCPServer, jobs: Jobs) -> None:
    """Serve on stdin/stdout until the host closes them; jobs still running are stopped (their picks cancelled).

    SIGTERM or SIGINT does the same and ends the process (a second one ends it at once): the SDK reads stdin in a
    thread that nothing interrupts, so the process does not wait for that read to return.
    """
    stopping = threading.Event()

    def end(signum: int) -> None:
        log.info("%s: cancelling the picks still open and stopping", signal.Signals(signum).name)
        jobs.stop_all(STOPPED)
        sys.stderr.flush()
        os._exit(0)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if stopping.is_set():
            os._exit(128 + signum)
        stopping.set()
        threading.Thread(target=end, args=(signum,), name="mcp-stop", daemon=True).start()

    previous = {signum: signal.signal(signum, on_signal) for signum in STOP_SIGNALS}
    try:
        server.run()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        jobs.stop_all(STOPPED)


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
        jobs.stop_all(STOPPED)
        sock.close()
