"""The API server answers its health check over real HTTP on a loopback port, and tells the truth: 503 naming the
directory when picks cannot be written (a full disk, a read-only one)."""

from __future__ import annotations

import json
import subprocess
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from http_client import call
from werkzeug.serving import make_server

from api_server.app import create_app
from api_server.serve import BackgroundServer
from scene_agent.config import Settings


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


@contextmanager
def small_disk(where: Path) -> Iterator[Path]:
    """A 1 MiB file system of its own at `where` (tmpfs; mounting takes root): to fill, or to make read-only."""
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", str(where)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small file system here: {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def _health(server: BackgroundServer) -> tuple[int, dict[str, Any]]:
    reply = call("GET", f"{server.url}/api/health")
    return reply.status, reply.json()


def test_health_says_503_naming_the_directory_when_the_disk_is_full_or_read_only(small_scene_path: Path,
                                                                                 tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        settings = Settings(state_dir=disk / "state", selection_dir=disk / "selections", viewer_url="http://127.0.0.1:9/")
        app = create_app({"SCENE_PATH": str(small_scene_path), "SETTINGS": settings})
        with BackgroundServer(app) as server:
            assert _health(server)[0] == 200
            filler = disk / "filler"
            with filler.open("wb") as f, pytest.raises(OSError, match="No space left"):
                while True:  # the disk fills up
                    f.write(b"\0" * 65536)
                    f.flush()
            status, body = _health(server)
            assert status == 503 and body["status"] == "unavailable"
            assert body["channel"]["message"] == f"cannot write in {settings.sessions_dir}: the disk is full"
            filler.unlink()
            assert _health(server)[0] == 200  # room again: healthy again
            subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
            status, body = _health(server)
            assert status == 503
            assert body["channel"]["message"] == f"cannot write in {settings.sessions_dir}: the file system is read-only"
