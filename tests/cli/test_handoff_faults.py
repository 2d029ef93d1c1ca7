"""The hand-off when processes die: the waiting `vis --select` killed by a signal, the server killed mid-delivery.

Each test drives real processes (`python -m scene_agent vis --select`, `… serve`) over real files and HTTP.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from cli_proc import Spawner, http, start_serve, submit
from crash import crash_env
from http_client import call
from vis_helpers import CHAIRS, chair, finish, start_select

from api_server.serve import BackgroundServer
from scene_agent.config import Settings
from scene_agent.scene.loader import load_scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.files.store import SessionStore
from scene_agent.tools.visualize import VisualizeInput, open_view


def settings_of(env: dict[str, str]) -> Settings:
    return Settings(state_dir=Path(env["SCENE_AGENT_STATE_DIR"]), selection_dir=Path(env["SCENE_AGENT_SELECTION_DIR"]),
                    viewer_url=env["SCENE_AGENT_VIEWER_URL"])


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_close_the_session_as_ctrl_c_does(small_scene_path: Path, spawn: Spawner, server: BackgroundServer,
                                                              signum: int) -> None:
    process, vis = start_select(spawn, small_scene_path, *CHAIRS)
    process.proc.send_signal(signum)
    status, result = finish(process)
    assert status == 1, "".join(process.stderr)
    assert (result["status"], result["cancelled_by"]) == ("cancelled", "caller")
    sid = vis["session_id"]
    assert http("GET", f"{server.url}/api/sessions/{sid}")[1]["status"] == "cancelled"
    code, body = submit(server.url, sid, "0-1-1")
    assert (code, body["error"]) == (409, "already_answered")
    assert not Path(vis["selection_file"]).exists()


def test_a_killed_waiter_takes_no_pick(small_scene_path: Path, spawn: Spawner, server: BackgroundServer) -> None:
    process, vis = start_select(spawn, small_scene_path, *CHAIRS)
    sid = vis["session_id"]
    assert http("GET", f"{server.url}/api/sessions/{sid}")[1]["waiting"] is True
    process.proc.kill()
    process.proc.wait(10)
    state = http("GET", f"{server.url}/api/sessions/{sid}")[1]
    assert (state["status"], state["waiting"]) == ("pending", False)
    code, body = submit(server.url, sid, "0-1-1")
    assert (code, body["error"]) == (410, "nobody_waiting")
    assert "nobody is waiting" in body["message"]
    assert not Path(vis["selection_file"]).exists()
    assert SessionStore(settings_of(spawn.env)).outcome(sid) is None  # nothing recorded either


def crashing_server(spawn: Spawner, scene: Path, point: str) -> str:
    """`serve` whose delivery process (scene_agent/selection/files/deliverer.py) kills itself (SIGKILL) at `point` of a
    delivery; returns its origin."""
    process = spawn("serve", "--port", "0", "--json", "--scene", str(scene), env=crash_env(point))
    return str(process.json_line()["url"]).rstrip("/")


def submit_to_dying_server(origin: str, session_id: str, code: str) -> None:
    """The process that records the answer dies while delivering it: the server says so (503, send it again)."""
    reply = call("POST", f"{origin}/api/submit-selection", {"session_id": session_id, "selections": [{"itemCode": code}]})
    assert (reply.status, reply.json()["error"]) == (503, "selection_not_delivered"), reply.body
    assert "send it again" in reply.json()["message"]


def test_server_killed_after_writing_the_file_the_waiter_takes_the_answer(small_scene_path: Path, spawn: Spawner) -> None:
    origin = crashing_server(spawn, small_scene_path, "after_selection_file")
    process, vis = start_select(spawn, small_scene_path, *CHAIRS, env={"SCENE_AGENT_VIEWER_URL": origin + "/"})
    submit_to_dying_server(origin, vis["session_id"], "0-1-2")
    status, result = finish(process)
    assert (status, result["status"], result["selections"]) == (0, "confirmed", [chair("0-1-2")])
    store = SessionStore(settings_of(spawn.env))
    assert store.outcome(vis["session_id"]).by == "viewer"  # the answer recorded before the process died
    code, body = submit(origin, vis["session_id"], "0-1-2")  # the server, still up, starts another and refuses a second
    assert (code, body["error"]) == (409, "already_answered")
    assert not Path(vis["selection_file"]).exists()


def test_server_killed_before_writing_the_file_the_waiter_still_finds_the_answer(small_scene_path: Path,
                                                                                 spawn: Spawner) -> None:
    origin = crashing_server(spawn, small_scene_path, "after_outcome")
    process, vis = start_select(spawn, small_scene_path, *CHAIRS, env={"SCENE_AGENT_VIEWER_URL": origin + "/"})
    submit_to_dying_server(origin, vis["session_id"], "0-1-3")
    # No file appeared, so no event woke the waiter: it finds the recorded answer when it next looks by itself.
    status, result = finish(process)
    assert (status, result["status"], result["selections"]) == (0, "confirmed", [chair("0-1-3")])
    assert not Path(vis["selection_file"]).exists()


def test_a_restart_removes_a_selection_file_nobody_will_read(small_scene_path: Path, spawn: Spawner) -> None:
    origin = crashing_server(spawn, small_scene_path, "after_selection_file")
    settings = settings_of(spawn.env)
    out, _ = open_view(load_scene(small_scene_path), VisualizeInput(codes=list(CHAIRS), selection_mode=True), settings,
                       SelectionChannel(FileBackend(settings)))
    sid = out.session_id or ""
    store = SessionStore(settings)
    claim = store.claim_waiting(sid)  # this test is the waiting program …
    submit_to_dying_server(origin, sid, "0-1-2")
    claim.release()  # … and it stops before it could look
    assert Path(out.selection_file or "").exists()
    _, info = start_serve(spawn, small_scene_path)
    assert not Path(out.selection_file or "").exists()
    assert store.outcome(sid).selections[0].itemCode == "0-1-2"  # answered: the server had recorded it
    state = http("GET", f"{info['url']}api/sessions/{sid}")[1]
    assert (state["status"], state["waiting"]) == ("confirmed", False)
