"""Honest states: a broken, unknown, expired or cancelled link says so in one sentence of ours (never the server's raw
text), with a link to the whole scene and no empty panel behind it; a stopped server is said to be stopped, and the
page loads by itself once it answers again."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser_fixtures import VIEWER_DIST, BrowserPage, WebServer, local_url
from viewer_helpers import Viewer, post

from api_server.app import create_app
from api_server.serve import BackgroundServer
from scene_agent.config import Settings
from scene_agent.scene.loader import load_scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.session import now_utc
from scene_agent.tools.visualize import VisualizeInput, open_view

CHAIRS = ["0-1-1", "0-1-2", "0-1-3"]


def card_text(v: Viewer) -> str:
    return v.page.inner_text("[data-testid=state-card] [data-testid=error]")


def assert_nothing_behind(v: Viewer) -> None:
    """The card alone: no candidate list, no Undo/Cancel/Confirm, and the way to the whole scene."""
    assert v.page.locator("[data-testid=state-card]").is_visible()
    for hidden in (".sv-panel", "[data-testid=confirm]", "[data-testid=cancel]", "[data-testid=undo]", "#viewer [data-code]"):
        assert v.page.locator(hidden).filter(visible=True).count() == 0, hidden
    assert v.page.locator("[data-testid=state-whole-scene]").is_visible()
    assert v.page.locator("[data-testid=whole-scene]").is_visible()


@pytest.mark.parametrize(("url", "starts"), [
    ("/?selectionMode=true&sessionId=zzz", "This selection link is broken"),
    ("/?manifest=../../etc/passwd", "This link does not point to a view of this server"),
    ("/?manifest=/manifests/view-0000000000000000.json", "This view does not exist on this server"),
    (f"/?selectionMode=true&sessionId={'0' * 32}", "This server does not know this selection"),
])
def test_a_bad_link_says_what_is_wrong_and_leads_to_the_whole_scene(viewer: Callable[..., Viewer], url: str, starts: str) -> None:
    asked: list[str] = []
    v = viewer(None, wait=())
    v.page.on("request", lambda r: asked.append(r.url))
    v.page.goto(f"{v.server.url}{url}")
    v.page.wait_for_function("document.body.dataset.viewerState === 'error'")
    text = card_text(v)
    assert text.startswith(starts), text
    assert "404" not in text and "not found" not in text.lower() and "no view manifest" not in text
    assert not any(urlsplit(a).path.endswith("/etc/passwd") for a in asked)  # a hostile path is never requested
    assert_nothing_behind(v)
    v.page.click("[data-testid=state-whole-scene]")
    v.wait_state("ready")
    assert v.hook("mode") == "view" and v.page.locator("[data-testid=state-card]").is_hidden()
    assert "sessionId" not in v.page.url and "manifest" not in v.page.url


def test_a_session_that_expired_before_the_page_opened(viewer: Callable[..., Viewer], open_vis: Callable[..., Any],
                                                       server: WebServer) -> None:
    vis = open_vis(CHAIRS, selection_mode=True)
    path = server.settings.sessions_dir / f"{vis.session_id}.json"
    record = json.loads(path.read_text())
    record |= {"created_at": (now_utc() - timedelta(minutes=2)).isoformat(),
               "expires_at": (now_utc() - timedelta(minutes=1)).isoformat()}
    path.write_text(json.dumps(record))
    v = viewer(vis, wait=("expired",))
    assert card_text(v).startswith("This selection has expired")
    assert_nothing_behind(v)


def test_a_session_cancelled_before_the_page_opened(viewer: Callable[..., Viewer], open_vis: Callable[..., Any],
                                                    server: WebServer) -> None:
    vis = open_vis(CHAIRS, selection_mode=True)
    assert post(server, "/api/cancel-selection", {"session_id": vis.session_id})[0] == 200
    v = viewer(vis, wait=("cancelled",))
    assert card_text(v).startswith("This selection was cancelled")
    assert_nothing_behind(v)


def test_a_stopped_server_is_said_in_words_and_the_view_loads_once_it_answers(page: BrowserPage, small_scene_path: Path,
                                                                             tmp_path: Path) -> None:
    settings = Settings(state_dir=tmp_path / "state", selection_dir=tmp_path / "selection", viewer_url="http://localhost:8090/")

    def serve(port: int = 0) -> BackgroundServer:
        app = create_app({"SCENE_PATH": str(small_scene_path), "SETTINGS": settings, "VIEWER_DIST": str(VIEWER_DIST)})
        return BackgroundServer(app, port=port).__enter__()

    first = serve()
    running = [first]
    try:
        view, _ = open_view(load_scene(small_scene_path), VisualizeInput(codes=["0-2"]), settings, SelectionChannel(FileBackend(settings)))
        v = Viewer(page.page, WebServer(first.url, settings, first.app), page.errors)
        v.page.goto(local_url(v.server, view.viewer_url or ""))
        v.wait_state("ready")
        running.pop().close()
        v.page.evaluate("window.sceneViewer.handle.open({manifest: null, selectionMode: false, sessionId: null, prompt: null})")
        v.page.wait_for_function("document.body.dataset.viewerState === 'error'")
        text = card_text(v)
        assert text.startswith(f"The scene-agent server is not answering at {first.url}; retrying"), text
        assert "Failed to fetch" not in text and "TypeError" not in text
        assert_nothing_behind(v)
        assert v.page.locator("[data-testid=state-card] button").filter(visible=True).count() == 0  # no Reload: it retries
        running.append(serve(first.port))  # back on the same address: the page tries again by itself
        v.page.wait_for_function("document.body.dataset.viewerState === 'ready'")
        assert v.page.locator("[data-testid=state-card]").is_hidden() and v.hook("pointsLoaded") > 0
    finally:
        for server in running:
            server.close()
