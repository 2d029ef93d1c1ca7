"""The whole hand-off with real parts, on every selection channel: the visualize tool's session, a real server, a
real waiter (watchdog on files, a blocking pop on Redis), posted picks."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from channels import EVERY_CHANNEL
from http_client import call

from api_server.app import create_app
from api_server.serve import BackgroundServer
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.result import SelectionResult
from scene_agent.selection.views import VIEW_NAME_RE

JOIN_S = 60


CHANNELS = EVERY_CHANNEL


class Waiting:
    """A wait for one session in its own thread; `.result` once it ends."""

    def __init__(self, channel: SelectionChannel, session_id: str):
        self.started = threading.Event()
        self.result: SelectionResult | None = None
        pending = channel.watch(channel.get(session_id))
        self.thread = threading.Thread(target=self._run, args=(pending,))
        self.thread.start()
        assert self.started.wait(JOIN_S)

    def _run(self, pending) -> None:
        # The first progress report comes after the first look at the file, before the first sleep.
        self.result = pending.wait(on_progress=lambda _: self.started.set(), progress_every=3600)

    def join(self) -> SelectionResult:
        self.thread.join(JOIN_S)
        assert not self.thread.is_alive()
        return self.result


def test_view_only_needs_no_wait(server, scene, settings, channel):
    from scene_agent.tools.visualize import VisualizeInput, open_view

    out, session = open_view(scene, VisualizeInput(codes=["0-2"]), settings, channel)
    assert session is None and VIEW_NAME_RE.fullmatch(out.view or "")
    assert (out.status, out.mode, out.requires_selection, out.session_id) == ("ok", "room", False, None)
    assert out.viewer_url == f"http://localhost:5173/?manifest=/manifests/{out.view}.json"
    view = call("GET", f"{server.url}/manifests/{out.view}.json").json()
    assert view["focus"] == ["0-2"] and view["selection"] is False
    assert [i["code"] for i in view["items"]] == ["0-2", "0-2-1", "0-2-2", "0-2-3", "0-2-4"]
    assert {i["role"] for i in view["items"][1:]} == {"context"}


@pytest.mark.parametrize("multiple", [False, True])
def test_pick_reaches_the_waiting_agent(server, open_selection, settings, channel, multiple):
    out = open_selection(multiple=multiple, prompt="Which chair?", waiting=False)
    assert "selectionMode=true" in out.viewer_url and f"sessionId={out.session_id}" in out.viewer_url
    assert "prompt=Which%20chair%3F" in out.viewer_url
    view = call("GET", f"{server.url}/manifests/{out.view}.json").json()
    assert (view["session_id"], view["focus"], view["multiple"]) == (out.session_id, ["0-1-1", "0-1-2", "0-1-3"], multiple)
    waiting = Waiting(channel, out.session_id)
    picks = ["0-1-3", "0-1-1"] if multiple else ["0-1-2"]
    reply = call("POST", f"{server.url}/api/submit-selection",
                 {"session_id": out.session_id, "selections": [{"itemCode": c} for c in picks]})
    assert reply.status == 200
    result = waiting.join()
    assert (result.status, result.codes) == ("confirmed", picks)
    assert not (settings.selection_dir / f"viewer_selection_{out.session_id}.json").exists()


def test_cancel_in_the_viewer_reaches_the_waiting_agent(server, open_selection, channel):
    out = open_selection(waiting=False)
    waiting = Waiting(channel, out.session_id)
    assert call("POST", f"{server.url}/api/cancel-selection", {"session_id": out.session_id}).status == 200
    result = waiting.join()
    assert (result.status, result.cancelled_by) == ("cancelled", "viewer")


def test_the_agent_cancelling_closes_the_session_for_the_viewer(server, open_selection, channel):
    out = open_selection(waiting=False)
    pending = channel.watch(channel.get(out.session_id))
    pending.cancel()
    assert pending.wait().status == "cancelled"
    assert call("GET", f"{server.url}/api/sessions/{out.session_id}").json()["status"] == "cancelled"
    reply = call("POST", f"{server.url}/api/submit-selection", {"session_id": out.session_id, "selections": [{"itemCode": "0-1-1"}]})
    assert (reply.status, reply.json()["error"]) == (409, "already_answered")
    assert "by the agent" in reply.json()["message"]


def test_a_pick_after_a_server_restart_still_arrives(app, small_scene_path, settings, tmp_path, open_selection, channels,
                                                     channel):
    out = open_selection(waiting=False)
    first = BackgroundServer(app).__enter__()
    assert call("GET", f"{first.url}/api/sessions/{out.session_id}").json()["status"] == "pending"
    waiting = Waiting(channel, out.session_id)
    first.close()
    # A new process would build a new app from the same settings: sessions live on disk or in Redis, not in the server.
    restarted_app = create_app({"SCENE_PATH": str(small_scene_path), "SETTINGS": settings, "CHANNEL": channels(settings),
                                "VIEWER_DIST": str(tmp_path / "dist")})
    with BackgroundServer(restarted_app) as second:
        reply = call("POST", f"{second.url}/api/submit-selection", {"session_id": out.session_id, "selections": [{"itemCode": "0-1-3"}]})
        assert reply.status == 200
    result = waiting.join()
    assert (result.status, result.codes) == ("confirmed", ["0-1-3"])


def test_200_concurrent_sessions_each_get_their_own_pick(server, open_selection, channel):
    codes = ["0-1-1", "0-1-2", "0-1-3"]
    sessions = [open_selection(waiting=False) for _ in range(200)]
    picks = {out.session_id: codes[i % 3] for i, out in enumerate(sessions)}
    waits = {out.session_id: Waiting(channel, out.session_id) for out in sessions}

    def submit(session_id: str) -> tuple[int, str]:
        reply = call("POST", f"{server.url}/api/submit-selection",
                     {"session_id": session_id, "selections": [{"itemCode": picks[session_id]}]})
        return reply.status, reply.body if reply.status != 200 else ""

    with ThreadPoolExecutor(16) as pool:
        statuses = list(pool.map(submit, list(reversed(picks))))
    assert statuses == [(200, "")] * 200
    for session_id, waiting in waits.items():
        result = waiting.join()
        assert (result.session_id, result.status, result.codes) == (session_id, "confirmed", [picks[session_id]])
        assert not channel.someone_waits(session_id)
