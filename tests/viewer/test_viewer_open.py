"""`open()`: the chat panel switches the viewer to another view or a selection in place, without a page load."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from viewer_helpers import Viewer

CHAIRS = ["0-1-1", "0-1-2", "0-1-3"]


def open_in_place(v: Viewer, viewer_url: str) -> None:
    """What the chat does with a viewer URL the agent reports."""
    query = parse_qs(urlsplit(viewer_url).query)
    target = {"manifest": query["manifest"][0], "selectionMode": query.get("selectionMode") == ["true"],
              "sessionId": query.get("sessionId", [None])[0], "prompt": query.get("prompt", [None])[0]}
    v.page.evaluate("target => { window.sceneViewer.handle.open(target); }", target)


def test_open_switches_in_place(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    v = viewer("/")
    v.page.evaluate("window.pageMark = 'same page'")
    vis = open_vis(CHAIRS, selection_mode=True, prompt="Which chair?")
    open_in_place(v, vis.viewer_url)
    v.page.wait_for_function("window.sceneViewer.mode === 'selection'")
    v.wait_state("ready")
    assert v.page.evaluate("window.pageMark") == "same page"
    query = parse_qs(urlsplit(v.page.url).query)
    assert query["sessionId"] == [vis.session_id] and query["selectionMode"] == ["true"]
    assert v.page.evaluate("window.sceneViewer.handle.current().sessionId") == vis.session_id
    assert v.rows() == [(code, "false") for code in CHAIRS]
    assert v.page.inner_text("[data-testid=prompt]") == "Which chair?"
    assert v.hook("pointsLoaded") == 4 * 400
    v.click_item("0-1-1")
    v.page.click("[data-testid=confirm]")
    v.wait_state("submitted")
    assert v.session(vis.session_id)["status"] == "confirmed"

    view = open_vis(["0-2"])  # then a view-only view: no candidates, no buttons
    open_in_place(v, view.viewer_url)
    v.page.wait_for_function("window.sceneViewer.mode === 'view'")
    v.wait_state("ready")
    assert v.rows() == [] and v.hook("candidates") == []
    assert v.page.locator("[data-testid=confirm]").is_hidden()
    assert "selectionMode" not in v.page.url and "manifest=" in v.page.url
    assert v.page.evaluate("window.pageMark") == "same page"
    assert v.errors == []


def test_a_later_open_wins_over_one_still_loading(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    v = viewer("/")
    first, second = open_vis(["0-1"]), open_vis(CHAIRS, selection_mode=True)
    open_in_place(v, first.viewer_url)
    open_in_place(v, second.viewer_url)
    v.page.wait_for_function("window.sceneViewer.mode === 'selection'")
    v.wait_state("ready")
    assert v.hook("candidates") == CHAIRS and v.hook("pointsLoaded") == 4 * 400
