"""The API server answers its health check over real HTTP on a loopback port."""

from __future__ import annotations

import json
import threading
import urllib.request
from pathlib import Path

from werkzeug.serving import make_server

from api_server.app import create_app


def test_health_over_http(small_scene_path: Path) -> None:
    app = create_app({"SCENE_PATH": str(small_scene_path)})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.server_port}/api/health", timeout=10) as response:
            body = json.loads(response.read())
        assert response.status == 200
        assert body == {**body, "status": "ok", "scene_id": "small", "floors": 2, "rooms": 7, "objects": 16}
    finally:
        server.shutdown()
        thread.join(timeout=10)
