"""`scene-agent serve` in a subprocess: where it listens, a selection answered through it, stopping, errors."""

from __future__ import annotations

import json
import signal
import socket
import stat
from pathlib import Path

import pytest
from cli_proc import Spawner, http, start_serve, submit
from cli_run import run_cli

from api_server.app import REPO_ROOT
from scene_agent.config import Settings
from scene_agent.demo.place import open_scene_or_demo
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.files.store import SessionStore
from scene_agent.tools.visualize import VisualizeInput, open_view


def test_serve_answers_a_selection_then_stops_on_sigterm(small_scene_path: Path, spawn: Spawner, tmp_path: Path) -> None:
    process, info = start_serve(spawn, small_scene_path)
    assert info["host"] == "127.0.0.1" and info["port"] > 0 and info["scene_id"] == "small"
    assert info["url"] == f"http://127.0.0.1:{info['port']}/"
    status, health = http("GET", info["url"] + "api/health")
    assert (status, health["status"], health["scene_id"]) == (200, "ok", "small")

    # The agent side, in this process, with the same directories as the server.
    settings = Settings(state_dir=tmp_path / "state", selection_dir=tmp_path / "selections", viewer_url=info["url"])
    vis, _ = open_view(open_scene_or_demo(small_scene_path), VisualizeInput(codes=["0-2-2", "0-2-3"], selection_mode=True),
                       settings, SelectionChannel(FileBackend(settings)))
    claim = SessionStore(settings).claim_waiting(vis.session_id or "")  # this test is the waiting agent
    status, state = http("GET", f"{info['url']}api/sessions/{vis.session_id}")
    assert (status, state["status"], state["candidates"]) == (200, "pending", ["0-2-2", "0-2-3"])
    assert http("GET", f"{info['url']}manifests/{vis.view}.json")[1]["session_id"] == vis.session_id

    assert submit(info["url"].rstrip("/"), vis.session_id, "0-2-3")[0] == 200
    selection_file = Path(vis.selection_file)
    assert selection_file.parent == tmp_path / "selections"
    assert stat.S_IMODE(selection_file.stat().st_mode) == 0o600
    answer = json.loads(selection_file.read_text())
    assert (answer["session_id"], answer["status"]) == (vis.session_id, "confirmed")
    assert answer["selections"] == [{"itemCode": "0-2-3", "type": "object", "label": "armchair"}]
    assert "submitted_at" in answer
    assert http("GET", f"{info['url']}api/sessions/{vis.session_id}")[1]["status"] == "confirmed"
    claim.release()

    process.proc.send_signal(signal.SIGTERM)
    assert process.finish() == 0, "".join(process.stderr)
    assert "Traceback" not in "".join(process.stderr)


def test_serve_stops_on_sigint(small_scene_path: Path, spawn: Spawner) -> None:
    process, info = start_serve(spawn, small_scene_path)
    assert http("GET", info["url"] + "api/health")[0] == 200
    process.proc.send_signal(signal.SIGINT)
    assert process.finish() == 0, "".join(process.stderr)
    assert "Traceback" not in "".join(process.stderr)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "sigint"])
def test_serve_stops_on_a_signal_right_after_saying_where_it_listens(small_scene_path: Path, spawn: Spawner,
                                                                     stop: signal.Signals) -> None:
    process, _ = start_serve(spawn, small_scene_path)
    process.proc.send_signal(stop)
    assert process.finish() == 0, "".join(process.stderr)


def test_port_in_use(small_scene_path: Path, env: dict[str, str]) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = run_cli("serve", "--port", str(port), "--scene", str(small_scene_path), env=env, timeout=60)
        as_json = run_cli("serve", "--port", str(port), "--scene", str(small_scene_path), "--json", env=env, timeout=60)
    assert out.returncode == 1
    assert f"127.0.0.1:{port} is already in use" in out.stderr
    assert "Traceback" not in out.stderr + out.stdout
    assert as_json.returncode == 1
    assert json.loads(as_json.stdout)["error"] == "serve_failed"


def test_human_output_names_the_url_and_the_viewer_url_to_set(small_scene_path: Path, spawn: Spawner) -> None:
    process = spawn("serve", "--port", "0", "--scene", str(small_scene_path))
    line = process.line()
    assert "serving scene 'small'" in line and "http://127.0.0.1:" in line
    url = line.split(" at ")[-1].strip()
    process.wait_stderr(f"SCENE_AGENT_VIEWER_URL={url}")  # the env points elsewhere (port 9)


def test_the_built_viewer_is_served_at_the_root(small_scene_path: Path, spawn: Spawner) -> None:
    # `make test` builds viewer/dist first; an unbuilt one is tested in tests/api_server/test_scenes_api.py.
    assert (REPO_ROOT / "viewer" / "dist" / "index.html").is_file(), "build the viewer: make viewer"
    _, info = start_serve(spawn, small_scene_path)
    status, text = http("GET", info["url"])
    assert status == 200 and '<aside id="chat"' in text and "/assets/" in text
    assert http("GET", info["url"] + "api/health")[1]["viewer_built"] is True


def test_the_viewer_port_in_use_says_how_mcp_and_chat_choose_another(small_scene_path: Path, env: dict[str, str]) -> None:
    """`mcp` and `chat` serve the viewer at SCENE_AGENT_VIEWER_URL's port: taken by something else, the advice names
    that variable (neither command takes a --port for the viewer)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        viewer = {**env, "SCENE_AGENT_VIEWER_URL": f"http://localhost:{port}/"}
        out = run_cli("mcp", "--scene", str(small_scene_path), env=viewer, timeout=60)
    assert out.returncode == 1, out.stderr
    assert f"127.0.0.1:{port} is already in use" in out.stderr
    assert "SCENE_AGENT_VIEWER_URL" in out.stderr and "--port" not in out.stderr, out.stderr
    assert "Traceback" not in out.stderr + out.stdout
