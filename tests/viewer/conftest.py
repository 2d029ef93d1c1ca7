"""Fixtures for the viewer tests: the small scene on a real server, views and sessions made as the agent makes them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_fixtures import BrowserPage, WebServer, local_url, start_web_server
from scene_points import WIDE, settle
from viewer_helpers import Viewer

from scene_agent.scene.loader import Scene, load_scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.files.claims import WaitingClaim
from scene_agent.selection.files.store import SessionStore
from scene_agent.tools.visualize import VisOutput, VisualizeInput, open_view

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A phone-sized page with touch (390 × 844)."""
    context = browser.new_context(viewport=PHONE, locale="en-US", is_mobile=True, has_touch=True)
    context.set_default_timeout(30_000)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def scene(small_scene_path: Path) -> Scene:
    return load_scene(small_scene_path)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, small_scene_path: Path) -> Iterator[WebServer]:
    """One server for the small scene per module: each test opens views and sessions of its own on it, and none changes
    the server (a test that needs another configuration starts its own with `web_server`)."""
    running, served = start_web_server(tmp_path_factory.mktemp("server"), small_scene_path)
    yield served
    running.close()


@pytest.fixture
def demo_server(web_server: Callable[..., WebServer], demo_path: Path, offline: None) -> WebServer:
    """A server for the demo home (its chat on the offline planner)."""
    return web_server(demo_path)


@pytest.fixture
def open_demo(page: BrowserPage, demo_server: WebServer) -> Callable[[str], Viewer]:
    """`open_demo("/?room=0-3")`: the demo home on a wide desktop page, shown and ready."""

    def go(path: str) -> Viewer:
        page.page.set_viewport_size(WIDE)
        page.page.goto(f"{demo_server.url}{path}")
        v = Viewer(page.page, demo_server, page.errors)
        v.wait_state("ready")
        settle(page.page)
        return v

    return go


@pytest.fixture
def open_vis(scene: Scene, server: WebServer) -> Iterator[Callable[..., VisOutput]]:
    """What the agent does (the visualize tool): a view or a selection session on the test's server.

    For a selection session the test then holds a waiting claim, as the waiting agent would, unless `waiting=False`.
    """
    claims: list[WaitingClaim] = []

    def make(codes: list[str], *, waiting: bool = True, **kwargs: Any) -> VisOutput:
        out, _ = open_view(scene, VisualizeInput(codes=codes, **kwargs), server.settings, SelectionChannel(FileBackend(server.settings)))
        if waiting and out.session_id and out.requires_selection:
            claims.append(SessionStore(server.settings).claim_waiting(out.session_id))
        return out

    yield make
    for claim in claims:
        claim.release()


@pytest.fixture
def viewer(page: BrowserPage, server: WebServer) -> Callable[..., Viewer]:
    """`viewer(url_or_vis, wait=("ready",))` opens the page and waits for its state."""

    def go(target: str | VisOutput | None = None, *, wait: tuple[str, ...] = ("ready",), query: str = "") -> Viewer:
        if isinstance(target, VisOutput):
            url = local_url(server, target.viewer_url or "")
        else:
            url = f"{server.url}{target or '/'}"
        if query:
            url += ("&" if "?" in url else "?") + query
        page.page.goto(url)
        v = Viewer(page.page, server, page.errors)
        if wait:
            v.wait_state(*wait)
        return v

    return go
