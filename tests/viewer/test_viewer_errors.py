"""What the viewer says when things go wrong: a missing view, a dead server, a session answered or expired elsewhere."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from browser_fixtures import VIEWER_DIST, BrowserPage, WebServer, local_url
from viewer_helpers import Viewer, post

from api_server.app import create_app
from api_server.serve import BackgroundServer
from scene_agent.config import Settings
from scene_agent.scene.loader import load_scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.files.store import SessionStore
from scene_agent.selection.session import now_utc
from scene_agent.tools.visualize import VisualizeInput, open_view

CHAIRS = ["0-1-1", "0-1-2", "0-1-3"]
SESSION_READS = "**/api/sessions/*"


def test_missing_view(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/?manifest=/manifests/view-0000000000000000.json", wait=("error",))
    text = v.page.inner_text("[data-testid=error]")
    assert text.startswith("This view does not exist")
    assert "no view manifest" not in text  # our sentence, not the server's raw message
    assert v.page.locator(".sv-error").is_visible()


def test_dead_server(page: BrowserPage, small_scene_path: Path, tmp_path: Path) -> None:
    settings = Settings(state_dir=tmp_path / "state", selection_dir=tmp_path / "selection", viewer_url="http://localhost:8090/")
    app = create_app({"SCENE_PATH": str(small_scene_path), "SETTINGS": settings, "VIEWER_DIST": str(VIEWER_DIST)})
    vis, _ = open_view(load_scene(small_scene_path), VisualizeInput(codes=CHAIRS, selection_mode=True), settings,
                       SelectionChannel(FileBackend(settings)))
    claim = SessionStore(settings).claim_waiting(vis.session_id or "")  # this test is the waiting agent
    server = BackgroundServer(app).__enter__()
    try:
        v = Viewer(page.page, WebServer(server.url, settings, app), page.errors)
        v.page.goto(local_url(v.server, vis.viewer_url or ""))
        v.wait_state("ready")
        v.page.click("#viewer [data-code='0-1-1']")
    finally:
        server.close()
    # the session's polls fail: the viewer says so and keeps the picks
    v.page.wait_for_function("document.querySelector('[data-testid=message]').textContent.startsWith('Lost contact')")
    v.page.click("[data-testid=confirm]")
    v.page.wait_for_function("document.querySelector('[data-testid=message]').textContent.startsWith('Not sent')")
    assert v.state() == "ready" and v.hook("selected") == ["0-1-1"]
    # opening another view now fails with a message saying what to do
    v.page.evaluate("window.sceneViewer.handle.open({manifest: null, selectionMode: false, sessionId: null, prompt: null})")
    v.wait_state("error")
    assert "scene-agent serve" in v.page.inner_text("[data-testid=error]")
    claim.release()


def test_confirm_after_the_session_was_cancelled_elsewhere(viewer: Callable[..., Viewer], open_vis: Callable[..., Any],
                                                          server: WebServer) -> None:
    vis = open_vis(CHAIRS, selection_mode=True)
    v = viewer(vis)
    v.page.route(SESSION_READS, lambda route: route.abort())  # the viewer does not learn of it before the click
    v.page.click("#viewer [data-code='0-1-2']")
    assert post(server, "/api/cancel-selection", {"session_id": vis.session_id})[0] == 200
    v.page.click("[data-testid=confirm]")
    v.wait_state("error")
    message = v.page.inner_text("[data-testid=message]")
    assert message.startswith("Already answered:") and "already cancelled" in message, message
    assert v.session(vis.session_id)["status"] == "cancelled"


def test_confirm_after_the_session_expired(viewer: Callable[..., Viewer], open_vis: Callable[..., Any], server: WebServer) -> None:
    vis = open_vis(CHAIRS, selection_mode=True)
    v = viewer(vis)
    v.page.route(SESSION_READS, lambda route: route.abort())
    v.page.click("#viewer [data-code='0-1-2']")
    path = server.settings.sessions_dir / f"{vis.session_id}.json"  # the session's time runs out on the server
    record = json.loads(path.read_text())
    record |= {"created_at": (now_utc() - timedelta(minutes=2)).isoformat(),
               "expires_at": (now_utc() - timedelta(minutes=1)).isoformat()}
    path.write_text(json.dumps(record))
    v.page.click("[data-testid=confirm]")
    v.wait_state("expired")
    message = v.page.inner_text("[data-testid=message]")
    assert message.startswith("Too late, the selection expired:") and "expired at" in message, message
    assert v.page.locator("[data-testid=confirm]").is_disabled()


def test_a_session_running_out_shows_expired(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    v = viewer(open_vis(CHAIRS, selection_mode=True, timeout=2), wait=("ready", "expired"))
    v.wait_state("expired")
    assert v.page.inner_text("[data-testid=message]").startswith("Time is up")
    assert v.page.locator("[data-testid=confirm]").is_disabled() and v.page.locator("[data-testid=cancel]").is_disabled()
    assert v.page.locator("[data-testid=countdown]").is_hidden()


def test_a_session_cancelled_elsewhere_shows_at_once(viewer: Callable[..., Viewer], open_vis: Callable[..., Any],
                                                    server: WebServer) -> None:
    vis = open_vis(CHAIRS, selection_mode=True)
    v = viewer(vis)
    assert post(server, "/api/cancel-selection", {"session_id": vis.session_id})[0] == 200
    v.wait_state("cancelled")  # the next poll tells
    assert "cancelled" in v.page.inner_text("[data-testid=message]")
    assert v.page.locator("[data-testid=confirm]").is_disabled()


def test_a_pick_made_elsewhere_shows_what_was_picked(viewer: Callable[..., Viewer], open_vis: Callable[..., Any],
                                                    server: WebServer) -> None:
    vis = open_vis(CHAIRS, selection_mode=True)
    v = viewer(vis)
    status, _ = post(server, "/api/submit-selection", {"session_id": vis.session_id, "selections": [{"itemCode": CHAIRS[1]}]})
    assert status == 200
    v.wait_state("submitted")  # the next poll tells, with the picks
    assert v.page.inner_text("[data-testid=message]") == f"Answered elsewhere: {CHAIRS[1]} was picked."
    assert dict(v.rows())[CHAIRS[1]] == "true" and v.hook("selected") == [CHAIRS[1]]
    assert v.page.locator("[data-testid=confirm]").is_disabled()


def test_the_chat_says_the_session_ended(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    vis = open_vis(CHAIRS, selection_mode=True)
    v = viewer(vis)
    v.page.evaluate("id => window.sceneViewer.handle.sessionEnded(id, 'expired')", vis.session_id)
    assert v.state() == "expired"
    v.page.click("#viewer [data-code='0-1-1']")  # no more picks
    assert v.hook("selected") == []
