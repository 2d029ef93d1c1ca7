"""`scene-agent vis` as a user runs it: view-only output, and `--select` answered through a real API server."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from cli_proc import Spawner, http, start_serve, submit
from cli_run import run_cli
from vis_helpers import CHAIRS, chair, finish, start_select

from api_server.serve import BackgroundServer

# --- view-only ----------------------------------------------------------------------------------


def test_view_only_room(small_scene_path: Path, env: dict[str, str], server: BackgroundServer, tmp_path: Path) -> None:
    out = run_cli("vis", "0-1", "--json", "--scene", str(small_scene_path), env=env)
    assert out.returncode == 0, out.stderr
    vis = json.loads(out.stdout)
    assert (vis["status"], vis["mode"], vis["requires_selection"], vis["objects"]) == ("ok", "room", False, ["0-1"])
    assert "session_id" not in vis and "no scene-agent server" not in out.stderr
    path = f"/manifests/{vis['view']}.json"
    assert vis["viewer_url"] == f"{server.url}/?manifest={path}"
    assert (tmp_path / "state" / "views" / f"{vis['view']}.json").is_file()
    status, manifest = http("GET", server.url + path)
    assert status == 200
    assert (manifest["focus"], manifest["selection"], manifest["scene_id"]) == (["0-1"], False, "small")
    items = {item["code"]: item["role"] for item in manifest["items"]}
    assert items == {"0-1": "focus", "0-1-1": "context", "0-1-2": "context", "0-1-3": "context", "0-1-4": "context"}


def test_floor_expands_to_its_rooms_and_warns_without_server(small_scene_path: Path, env: dict[str, str]) -> None:
    out = run_cli("vis", "1", "--json", "--scene", str(small_scene_path), env=env)
    assert out.returncode == 0, out.stderr
    vis = json.loads(out.stdout)
    assert (vis["mode"], vis["objects"]) == ("multi-room", ["1-1", "1-2", "1-3", "1-4"])
    assert "no scene-agent server answers at http://127.0.0.1:9" in out.stderr


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["9-9", "--json"], 1, '"error": "not_found"'),
        (["0-1-99"], 1, "0-1-99"),
        (["kitchen", "--json"], 2, '"error": "bad_usage"'),
        (["0-1", "--multiple"], 2, "--multiple and --prompt need --select"),
        (["0", "--select"], 2, "a floor code cannot be picked"),
    ],
)
def test_bad_codes_and_usage(small_scene_path: Path, env: dict[str, str], args: list[str], status: int, message: str) -> None:
    out = run_cli("vis", *args, "--scene", str(small_scene_path), env=env)
    assert out.returncode == status
    assert message in out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr


# --- selection, answered through the in-process server -------------------------------------------


def test_select_confirmed_end_to_end(small_scene_path: Path, spawn: Spawner, server: BackgroundServer, tmp_path: Path) -> None:
    process, vis = start_select(spawn, small_scene_path, *CHAIRS)
    sid = vis["session_id"]
    assert (vis["requires_selection"], vis["mode"], vis["objects"]) == (True, "objects", list(CHAIRS))
    query = parse_qs(urlsplit(vis["viewer_url"]).query)
    assert query == {"manifest": [f"/manifests/select-{sid}.json"], "selectionMode": ["true"], "sessionId": [sid],
                     "prompt": ["Which chair do you mean? Pick it, then Confirm"]}
    assert vis["viewer_url"].startswith(server.url + "/?")
    assert http("GET", f"{server.url}/api/sessions/{sid}")[1]["status"] == "pending"
    assert submit(server.url, sid, "0-1-2")[0] == 200
    status, result = finish(process)
    assert status == 0
    assert (result["session_id"], result["status"], result["selections"]) == (sid, "confirmed", [chair("0-1-2")])
    assert not Path(vis["selection_file"]).exists()  # consumed
    assert Path(vis["selection_file"]).parent == tmp_path / "selections"


def test_select_multiple_two_picks(small_scene_path: Path, spawn: Spawner, server: BackgroundServer) -> None:
    process, vis = start_select(spawn, small_scene_path, *CHAIRS, extra=("--multiple", "--prompt", "Which two?"))
    assert parse_qs(urlsplit(vis["viewer_url"]).query)["prompt"] == ["Which two?"]
    assert submit(server.url, vis["session_id"], "0-1-3", "0-1-1")[0] == 200
    status, result = finish(process)
    assert status == 0
    assert (result["status"], result["selections"]) == ("confirmed", [chair("0-1-3"), chair("0-1-1")])


def test_cancel_in_viewer(small_scene_path: Path, spawn: Spawner, server: BackgroundServer) -> None:
    process, vis = start_select(spawn, small_scene_path, *CHAIRS)
    assert http("POST", f"{server.url}/api/cancel-selection", {"session_id": vis["session_id"]})[0] == 200
    status, result = finish(process)
    assert status == 1
    assert (result["status"], result["cancelled_by"], result["selections"]) == ("cancelled", "viewer", [])


def test_timeout_expires_the_session(small_scene_path: Path, spawn: Spawner, server: BackgroundServer) -> None:
    process, vis = start_select(spawn, small_scene_path, *CHAIRS, timeout="1")
    status, result = finish(process)
    assert status == 1
    assert (result["status"], result["selections"]) == ("timeout", [])
    assert "1 s" in result["reason"]
    sid = vis["session_id"]
    assert http("GET", f"{server.url}/api/sessions/{sid}")[1]["status"] == "expired"
    code, body = submit(server.url, sid, "0-1-1")
    assert (code, body["error"]) == (410, "session_expired")


def test_invalid_pick_is_refused_and_the_wait_goes_on(small_scene_path: Path, spawn: Spawner, server: BackgroundServer) -> None:
    process, vis = start_select(spawn, small_scene_path, *CHAIRS)
    sid = vis["session_id"]
    code, body = submit(server.url, sid, "0-1-4")
    assert (code, body["error"]) == (422, "invalid_selection") and "0-1-4" in body["message"]
    assert (submit(server.url, sid, "0-1-1", "0-1-2")[0]) == 422  # one pick only
    assert not Path(vis["selection_file"]).exists()  # a refused request writes nothing
    assert process.proc.poll() is None
    assert http("GET", f"{server.url}/api/sessions/{sid}")[1]["status"] == "pending"
    assert submit(server.url, sid, "0-1-3")[0] == 200
    status, result = finish(process)
    assert (status, result["status"], result["selections"]) == (0, "confirmed", [chair("0-1-3")])


def test_polling_backend_still_gets_the_pick(small_scene_path: Path, spawn: Spawner, server: BackgroundServer) -> None:
    process, vis = start_select(spawn, small_scene_path, *CHAIRS, env={"SCENE_AGENT_SELECTION_WATCH": "polling"})
    assert submit(server.url, vis["session_id"], "0-1-1")[0] == 200
    status, result = finish(process)
    assert (status, result["status"], result["selections"]) == (0, "confirmed", [chair("0-1-1")])


# --- Ctrl-C -------------------------------------------------------------------------------------


def assert_cancelled_by_caller(server: BackgroundServer, sid: str) -> None:
    """The session is closed for good: the server reports it cancelled and refuses a late pick with 409."""
    assert http("GET", f"{server.url}/api/sessions/{sid}")[1]["status"] == "cancelled"
    code, body = submit(server.url, sid, "0-1-1")
    assert (code, body["error"]) == (409, "already_answered")


def test_ctrl_c_while_waiting_cancels(small_scene_path: Path, spawn: Spawner, server: BackgroundServer) -> None:
    # Human output says "Waiting …" on stderr (not a terminal) just before the wait begins.
    process = spawn("vis", *CHAIRS, "--select", "--timeout", "30", "--scene", str(small_scene_path))
    lines = [process.line() for _ in range(3)]  # what to do, the link, the session
    assert "pick in the viewer" in lines[0] and "selectionMode=true" in lines[1]
    sid = lines[2].split()[1]
    process.wait_stderr("Waiting up to 30 s")
    process.proc.send_signal(signal.SIGINT)
    assert process.finish() == 1
    assert "Cancelled here; nothing was picked" in "".join(process.stdout)
    assert "Traceback" not in "".join(process.stderr)
    assert_cancelled_by_caller(server, sid)


def test_ctrl_c_right_after_the_first_line_cancels(small_scene_path: Path, spawn: Spawner, server: BackgroundServer) -> None:
    process, vis = start_select(spawn, small_scene_path, *CHAIRS)
    process.proc.send_signal(signal.SIGINT)
    status, result = finish(process)
    assert status == 1, "".join(process.stderr)
    assert (result["status"], result["cancelled_by"], result["selections"]) == ("cancelled", "caller", [])
    assert_cancelled_by_caller(server, vis["session_id"])


# --- the server restarts while the agent waits ----------------------------------------------------


def test_pick_reaches_the_waiting_vis_across_a_server_restart(small_scene_path: Path, spawn: Spawner) -> None:
    first, info = start_serve(spawn, small_scene_path)
    origin = info["url"].rstrip("/")
    process, vis = start_select(spawn, small_scene_path, *CHAIRS, env={"SCENE_AGENT_VIEWER_URL": info["url"]})
    assert vis["viewer_url"].startswith(info["url"] + "?")
    assert http("GET", f"{origin}/api/sessions/{vis['session_id']}")[1]["status"] == "pending"
    first.proc.send_signal(signal.SIGTERM)
    assert first.finish() == 0
    _, info2 = start_serve(spawn, small_scene_path)
    assert http("GET", info2["url"] + "api/health")[1]["scene_id"] == "small"
    assert process.proc.poll() is None
    assert submit(info2["url"].rstrip("/"), vis["session_id"], "0-1-2")[0] == 200
    status, result = finish(process)
    assert (status, result["status"], result["selections"]) == (0, "confirmed", [chair("0-1-2")])
