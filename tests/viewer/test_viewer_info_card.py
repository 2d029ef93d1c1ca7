"""The info card: a click on an object in view mode shows its label, room, size (width × depth × height of its points'
box, within 2 cm of what the point file says), volume and colours; "Ask about this" puts a question about it into the
chat's input, which the agent answers. Never in a pick. And GET /api/scenes/<scene>/objects/<code>/info, its 404s."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from browser_fixtures import BrowserPage, WebServer, local_url, save_screenshot
from http_client import call
from playwright.sync_api import expect
from scene_points import WIDE, settle
from viewer_helpers import Viewer

from scene_agent.scene.loader import Scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.files.store import SessionStore
from scene_agent.tools.color import color
from scene_agent.tools.measure import measure
from scene_agent.tools.volume import volume


def click_code(v: Viewer, code: str) -> None:
    at = v.screen_position(code)
    v.page.mouse.click(round(at["x"]), round(at["y"]))


def card_ready(page: Any, code: str) -> Any:
    card = page.get_by_test_id("info-card")
    expect(card).to_have_attribute("data-code", code)
    expect(card).to_have_attribute("data-state", "ready")
    return card


def test_a_click_on_an_object_shows_what_it_is_and_how_big(open_demo: Callable[[str], Viewer], demo: Scene) -> None:
    v = open_demo("/?room=0-3")
    expect(v.page.get_by_test_id("info-card")).to_be_hidden()
    click_code(v, "0-3-4")
    card = card_ready(v.page, "0-3-4")
    assert v.hook("infoCode") == "0-3-4"
    expect(v.page.get_by_test_id("info-title")).to_have_text("Chair")
    expect(v.page.get_by_test_id("info-code")).to_have_text("0-3-4")
    expect(v.page.get_by_test_id("info-room")).to_have_text("Kitchen (0-3) · Ground floor")
    # width × depth × height as shown: the sides the chat answers "how big is it?" with (the measure tool's)
    shown = v.page.get_by_test_id("info-dimensions").inner_text()
    found = re.fullmatch(r"([\d.]+) × ([\d.]+) × ([\d.]+) m", shown)
    assert found, shown
    sides = measure(demo, "dimensions", "0-3-4").dimensions
    assert sides is not None
    assert [float(g) for g in found.groups()] == pytest.approx([sides.width_m, sides.depth_m, sides.height_m], abs=0.006)
    expect(card).to_contain_text("Width × depth × height")
    expect(v.page.get_by_test_id("info-volume")).to_have_text(f"{volume(demo, '0-3-4').volume_m3:#.3g} m³ (convex hull)")
    # the colours the colour tool finds, named, with their swatches
    clusters = color(demo, "0-3-4").clusters
    assert clusters
    swatches = v.page.locator("[data-testid=info-colours] .svi-colour")
    expect(swatches).to_have_count(len(clusters))
    for row, cluster in zip(swatches.all(), clusters, strict=True):
        assert row.get_attribute("data-hex") == cluster.hex
        assert cluster.name in row.inner_text() and cluster.basic in row.inner_text()
        background = row.locator(".svi-swatch").evaluate("e => getComputedStyle(e).backgroundColor")
        assert background == "rgb({}, {}, {})".format(*(int(cluster.hex[k:k + 2], 16) for k in (1, 3, 5)))
    save_screenshot(v.page, "info-card-desktop.png")
    # another object: its card instead; a click on a room's walls or floor, or on nothing, closes it
    click_code(v, "0-3-6")
    card_ready(v.page, "0-3-6")
    expect(v.page.get_by_test_id("info-title")).to_have_text("Refrigerator")
    panel = v.page.locator("#viewer .sv-panel").bounding_box()
    empty = (round(panel["x"] + panel["width"] + 30), round(panel["y"] + panel["height"] - 10))
    assert v.page.evaluate("([x, y]) => window.sceneViewer.bench.pickAt(x, y, 'gpu').code", list(empty)) is None
    v.page.mouse.click(*empty)  # nothing there
    expect(card).to_be_hidden()
    assert v.hook("infoCode") is None
    click_code(v, "0-3-4")
    card_ready(v.page, "0-3-4")
    v.page.get_by_test_id("info-close").click()
    expect(card).to_be_hidden()
    assert not v.errors


def test_ask_about_this_puts_the_question_in_the_chat_which_answers_it(open_demo: Callable[[str], Viewer]) -> None:
    v = open_demo("/?room=0-3")
    click_code(v, "0-3-4")
    card_ready(v.page, "0-3-4")
    chat_input = v.page.get_by_test_id("chat-input")
    expect(chat_input).to_have_value("")
    v.page.get_by_test_id("info-ask").click()
    expect(chat_input).to_have_value("Tell me about the chair 0-3-4")
    expect(chat_input).to_be_focused()  # ready to send, or to change first
    v.page.get_by_test_id("chat-send").click()
    final = v.page.get_by_test_id("final-answer").last
    expect(final).to_have_attribute("data-status", "answered", timeout=30_000)
    expect(final).to_contain_text("0-3-4")
    expect(final).to_contain_text("green")
    assert not v.errors


def test_no_card_while_picking(open_demo: Callable[[str], Viewer], demo_server: WebServer, demo: Scene) -> None:
    from scene_agent.tools.visualize import VisualizeInput, open_view

    vis, _ = open_view(demo, VisualizeInput(codes=["0-3-2", "0-3-3"], selection_mode=True, prompt="Which chair?"),
                       demo_server.settings, SelectionChannel(FileBackend(demo_server.settings)))
    claim = SessionStore(demo_server.settings).claim_waiting(vis.session_id or "")
    try:
        v = open_demo(local_url(demo_server, vis.viewer_url or "").removeprefix(demo_server.url))
        click_code(v, "0-3-2")
        v.page.wait_for_function("window.sceneViewer.selected.join() === '0-3-2'")  # the click picked
        expect(v.page.get_by_test_id("info-card")).to_be_hidden()
        assert v.hook("infoCode") is None
    finally:
        claim.release()



def test_a_tap_shows_the_card_on_a_phone(phone: Any, demo_server: WebServer) -> None:
    phone.goto(f"{demo_server.url}/?room=0-3")
    phone.wait_for_function("['ready', 'error'].includes(document.body.dataset.viewerState)")
    assert phone.evaluate("document.body.dataset.viewerState") == "ready"
    settle(phone)
    at = phone.evaluate("window.sceneViewer.screenPosition('0-3-6')")  # the refrigerator
    phone.touchscreen.tap(round(at["x"]), round(at["y"]))
    card = card_ready(phone, "0-3-6")
    box = card.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390.5 and box["y"] + box["height"] <= 844.5, box  # on the screen
    expect(phone.get_by_test_id("info-dimensions")).to_be_visible()
    save_screenshot(phone, "info-card-phone.png")
    phone.get_by_test_id("info-ask").tap()  # the chat comes forward (a tab on a phone), the question in its input
    expect(phone.get_by_test_id("chat-input")).to_have_value("Tell me about the refrigerator 0-3-6")
    expect(phone.get_by_test_id("tab-chat")).to_have_attribute("aria-selected", "true")


def test_the_info_endpoint(web_server: Callable[..., WebServer], small_scene_path: Any, scene: Scene) -> None:
    server = web_server(small_scene_path)
    code = next(iter(scene.index.objects))
    reply = call("GET", f"{server.url}/api/scenes/{scene.scene_id}/objects/{code}/info")
    assert reply.status == 200
    body = reply.json()
    entry = scene.index.objects[code]
    assert (body["code"], body["label"], body["room"]["code"], body["floor"]["code"]) == \
        (code, entry.obj.label, entry.room.room.code, entry.room.floor.code)
    sides = measure(scene, "dimensions", code).dimensions
    assert sides is not None and body["dimensions"] == sides.model_dump(mode="json")
    xyz = scene.points(code).xyz  # the box of its points (what the viewer frames) beside it
    assert body["bounds_min"] == pytest.approx(xyz.min(axis=0).tolist(), abs=1e-3)
    assert [c["hex"] for c in body["colors"]] == [c.hex for c in color(scene, code).clusters]

    unknown = call("GET", f"{server.url}/api/scenes/{scene.scene_id}/objects/9-9-9/info")
    assert unknown.status == 404 and unknown.json()["error"] == "not_found"
    assert "9-9-9" in unknown.json()["message"]
    elsewhere = call("GET", f"{server.url}/api/scenes/elsewhere/objects/{code}/info")
    assert elsewhere.status == 404 and elsewhere.json()["error"] == "not_found"
    assert "elsewhere" in elsewhere.json()["message"]
    room = call("GET", f"{server.url}/api/scenes/{scene.scene_id}/objects/{entry.room.room.code}/info")
    assert room.status == 400 and "room code" in room.json()["message"]
    for bad in ("chair", "0-01-1"):
        assert call("GET", f"{server.url}/api/scenes/{scene.scene_id}/objects/{bad}/info").status == 400
