"""`serve`: the API server (selection hand-off, scenes, views, the built viewer) on a production WSGI server."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from scene_agent.cli.common import JsonOption, SceneOption
from scene_agent.cli.output import console, err_console, print_json
from scene_agent.config import DEFAULT_HOST, DEFAULT_PORT, load_settings


def serve_command(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (loopback by default).")] = DEFAULT_HOST,
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0 picks a free one).")] = DEFAULT_PORT,
    threads: Annotated[int, typer.Option("--threads", min=2, max=1024,
                                         help="Request worker threads; all but 16 (at most half) may serve chat event "
                                              "streams.")] = 128,
    scene: SceneOption = None,
    json_output: JsonOption = False,
) -> None:
    """Serve the API, the viewer and the scene until Ctrl-C."""
    from api_server.app import create_app
    from api_server.serve import make_server, stream_slots
    from api_server.viewer_files import NOT_BUILT, viewer_built

    app = create_app({"SCENE_PATH": str(scene) if scene else None, "SETTINGS": load_settings(),
                      "MAX_EVENT_STREAMS": stream_slots(threads), "DELIVER_IN_CHILD": True})
    server = make_server(app, host, port, threads)
    url = f"http://{host}:{server.effective_port}/"
    # The web chat's links: this server's own address, unless SCENE_AGENT_VIEWER_URL says otherwise (make_server).
    settings = app.config["SETTINGS"]
    loaded = app.extensions["scene_agent.scene.loader"]
    channel = app.config["CHANNEL"]
    health = channel.health()
    # SIGTERM (systemd, docker stop) and Ctrl-C end the loop cleanly; installed before we say we are listening, so
    # a signal sent as soon as the caller reads that line is handled too. waitress stops its workers either way.
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: sys.exit(0))
    if json_output:
        print_json({"url": url, "host": host, "port": int(server.effective_port), "scene_id": loaded.scene_id,
                    "viewer_url": settings.viewer_url,
                    "channel": {"kind": health.kind, "where": health.where, "reachable": health.reachable}})
    else:
        console.print(f"scene-agent serving scene '{escape(loaded.scene_id)}' ({escape(loaded.manifest.name)}) at {url}\n"
                      f"  Open {url} in a browser: the viewer and the chat. API: {url}api/openapi.json · Ctrl-C stops\n"
                      f"  Picks travel through {escape(channel.describe())}")
        if not health.reachable:
            err_console.print(f"[yellow]warning:[/] {escape(health.message)}; selections answer 503 until it is back")
        elif health.warning:
            err_console.print(f"[yellow]note:[/] {escape(health.warning)}")
        if not viewer_built(Path(app.config["VIEWER_DIST"])):
            err_console.print(f"[yellow]note:[/] {escape(NOT_BUILT)}")
        if host not in ("127.0.0.1", "localhost", "::1"):
            err_console.print(f"[yellow]warning:[/] listening on {escape(host)}: anyone who can reach it can answer selections")
        served = {f"http://{host}:{server.effective_port}", f"http://localhost:{server.effective_port}"}
        if settings.viewer_origin not in served:
            err_console.print(f"[yellow]note:[/] viewer links point at {settings.viewer_origin}; set "
                              f"SCENE_AGENT_VIEWER_URL={url} so that `vis` and `ask` link to this server")
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        app.extensions["scene_agent.chat"].shutdown()  # runs waiting on a pick or an answer end as cancelled
        server.task_dispatcher.shutdown()
