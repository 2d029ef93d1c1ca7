"""A way back: "Whole scene" is always there, the title says what is shown, and the browser's Back and Forward move
between views (the whole scene, a floor, a room looked inside, a view or a pick the chat opened) without leaving the
page; a URL alone opens the same view again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from browser_fixtures import WebServer
from viewer_helpers import Viewer, open_in_place, post

CHAIRS = ["0-1-1", "0-1-2", "0-1-3"]


def title(v: Viewer) -> str:
    return v.page.inner_text("[data-testid=view-title]")


def query(v: Viewer) -> dict[str, list[str]]:
    return parse_qs(urlsplit(v.page.url).query)


def wait_drill(v: Viewer, room: str | None) -> None:
    v.page.wait_for_function("r => window.sceneViewer.drillRoom === r", arg=room)


def test_back_and_forward_between_the_whole_scene_a_floor_and_a_room(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/")
    v.page.evaluate("window.pageMark = 'same page'")
    assert title(v) == "Small test home · Whole scene"
    assert v.page.get_attribute("[data-testid=whole-scene]", "aria-current") == "page"

    v.page.click("[data-floor='1']")
    v.page.wait_for_function("document.querySelector('[data-testid=view-title]').textContent.endsWith('Floor 1')")
    assert query(v)["floor"] == ["1"]
    v.page.click("[data-testid=drill][data-room='1-1']")
    wait_drill(v, "1-1")
    assert title(v) == "Small test home · Inside 1-1 · Master bedroom"  # not "Whole scene" inside a room
    assert query(v)["room"] == ["1-1"] and v.page.locator("[data-testid=whole-scene]").is_visible()
    assert v.page.get_attribute("[data-testid=whole-scene]", "aria-current") is None

    v.page.go_back()
    wait_drill(v, None)
    assert title(v) == "Small test home · Floor 1"
    assert v.page.get_attribute("[data-floor='1']", "aria-pressed") == "true"
    v.page.go_back()
    v.page.wait_for_function("document.querySelector('[data-floor=all]').getAttribute('aria-pressed') === 'true'")
    assert title(v) == "Small test home · Whole scene"
    v.page.go_forward()
    v.page.wait_for_function("document.querySelector('[data-floor=\"1\"]').getAttribute('aria-pressed') === 'true'")
    v.page.go_forward()
    wait_drill(v, "1-1")
    assert v.page.evaluate("window.pageMark") == "same page"  # all of it in place, no page load
    assert v.state() == "ready" and v.errors == []


def test_whole_scene_is_the_way_back_from_a_view_and_back_returns_to_it(viewer: Callable[..., Viewer],
                                                                       open_vis: Callable[..., Any]) -> None:
    v = viewer("/")
    view = open_vis(["0-2"])
    open_in_place(v, view.viewer_url)  # as the chat does after "show me room 0-2"
    v.page.wait_for_function("location.search.includes('manifest=')")
    v.wait_state("ready")
    assert title(v) == "Small test home · Showing 0-2 · Lounge"
    v.page.click("[data-testid=drill][data-room='0-2']")
    wait_drill(v, "0-2")
    assert title(v) == "Small test home · Inside 0-2 · Lounge"
    v.page.click("[data-testid=whole-scene]")
    v.page.wait_for_function("window.sceneViewer.handle.current().manifest === null && window.sceneViewer.state === 'ready'")
    assert title(v) == "Small test home · Whole scene" and "manifest" not in query(v)
    v.page.go_back()  # the room looked inside, in the view
    wait_drill(v, "0-2")
    assert query(v)["manifest"] == parse_qs(urlsplit(view.viewer_url).query)["manifest"]
    v.page.go_back()
    wait_drill(v, None)
    v.page.go_back()  # the whole scene the page opened with: still this page
    v.page.wait_for_function("window.sceneViewer.handle.current().manifest === null && window.sceneViewer.state === 'ready'")
    assert v.page.url.startswith(v.server.url)


def test_back_out_of_a_pick_and_forward_into_it_shows_the_sessions_state(viewer: Callable[..., Viewer],
                                                                         open_vis: Callable[..., Any],
                                                                         server: WebServer) -> None:
    v = viewer("/")
    vis = open_vis(CHAIRS, selection_mode=True, prompt="Which chair?")
    open_in_place(v, vis.viewer_url)
    v.page.wait_for_function("window.sceneViewer.mode === 'selection'")
    v.wait_state("ready")
    assert title(v) == "Small test home · Pick among 3" and v.page.locator("[data-testid=whole-scene]").is_visible()
    v.page.go_back()
    v.page.wait_for_function("window.sceneViewer.mode === 'view' && window.sceneViewer.state === 'ready'")
    assert v.page.locator("[data-testid=confirm]").is_hidden()
    assert v.session(vis.session_id)["status"] == "pending"  # leaving the pick does not answer it
    v.page.go_forward()
    v.page.wait_for_function("window.sceneViewer.mode === 'selection'")
    v.wait_state("ready")
    assert v.rows() == [(code, "false") for code in CHAIRS] and query(v)["sessionId"] == [vis.session_id]

    v.page.go_back()
    v.page.wait_for_function("window.sceneViewer.mode === 'view' && window.sceneViewer.state === 'ready'")
    assert post(server, "/api/submit-selection", {"session_id": vis.session_id, "selections": [{"itemCode": CHAIRS[2]}]})[0] == 200
    v.page.go_forward()  # answered meanwhile: shown as it is now
    v.wait_state("submitted")
    assert v.hook("selected") == [CHAIRS[2]]


def test_a_url_alone_opens_a_floor_or_a_room(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/?floor=1")
    assert title(v) == "Small test home · Floor 1"
    assert v.page.get_attribute("[data-floor='1']", "aria-pressed") == "true"
    v = viewer("/?room=0-1")
    wait_drill(v, "0-1")
    assert title(v) == "Small test home · Inside 0-1 · kitchen"
    v.page.keyboard.press("Escape")  # leaves the room: a view of its own, so Back returns into it
    wait_drill(v, None)
    v.page.go_back()
    wait_drill(v, "0-1")
