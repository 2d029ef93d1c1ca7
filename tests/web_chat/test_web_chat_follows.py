"""The viewer follows the conversation: when a run ends the viewer beside the chat shows what the answer is about (a
finished pick gives way to it; an object is framed in its room), and the scene codes in answers are buttons that
frame them there. Codes the scene does not have stay text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from browser_fixtures import BrowserPage, save_screenshot
from chat_ui import ChatUI
from http_client import call
from playwright.sync_api import expect

SOFA, LOUNGE = "0-2-1", "0-2"


def bounds_of(ui: ChatUI) -> dict[str, dict[str, list[float]]]:
    """Each room's and object's bounds, from the scene manifest the server serves."""
    manifest = call("GET", f"{ui.server.url}/api/scenes/small").json()
    rooms = [room for floor in manifest["floors"] for room in floor["rooms"]]
    return {item["code"]: item["bounds"] for room in rooms for item in [room, *room["objects"]]}


def centre(box: dict[str, list[float]]) -> list[float]:
    return [(box["min"][a] + box["max"][a]) / 2 for a in range(3)]


def wait_framed(ui: ChatUI, code: str, room: str) -> None:
    """Wait until the viewer shows `code` framed, view-only, looking inside `room`, every point loaded."""
    ui.page.wait_for_function("""([code, room]) => { const v = window.sceneViewer;
        return v.mode === 'view' && v.state === 'ready' && v.drillRoom === room && v.framed.join() === code; }""",
                              arg=[code, room])


def assert_framed(ui: ChatUI, code: str, bounds: dict[str, dict[str, list[float]]]) -> None:
    """The camera looks at the middle of `code`, which is drawn inside the canvas."""
    target = ui.page.evaluate("window.sceneViewer.camera.target")
    assert target == pytest.approx(centre(bounds[code]), abs=1e-6)
    at = ui.page.evaluate("code => window.sceneViewer.screenPosition(code)", code)
    canvas = ui.page.locator("#viewer canvas").bounding_box()
    assert at and canvas and canvas["x"] <= at["x"] <= canvas["x"] + canvas["width"], (at, canvas)
    assert canvas["y"] <= at["y"] <= canvas["y"] + canvas["height"], (at, canvas)


def linked(ui: ChatUI, answer: Any) -> Any:
    """The answer's text once its codes were looked up (buttons made, or none to make)."""
    text = answer.locator(".msg-text")
    expect(text).to_have_attribute("data-code-links", "done")
    return text


def test_after_a_pick_the_next_answer_frames_what_it_is_about(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    bounds = bounds_of(ui)
    prompt = ui.page.locator('#viewer [data-testid="prompt"]')
    ui.ask("what's the color of the chair?")
    session = ui.pending_selection()
    ui.wait_viewer_selection(session["session_id"])
    expect(prompt).to_be_visible()
    ui.pick(session["session_id"], "0-1-2")
    ui.wait_final("answered")
    # The run's own pick, answered, shows what its answer is about: it stays, its prompt gone.
    ui.page.wait_for_function("() => document.body.dataset.viewerState === 'submitted'")
    expect(prompt).to_be_hidden()
    assert ui.page.evaluate("window.sceneViewer.selected") == ["0-1-2"]

    ui.ask("how big is the sofa?")
    final = ui.wait_final("answered")
    assert ui.run_state()["final"]["codes"] == [SOFA]
    wait_framed(ui, SOFA, LOUNGE)  # the finished pick gave way: the sofa, framed in its room
    assert_framed(ui, SOFA, bounds)
    expect(prompt).to_be_hidden()
    expect(ui.page.locator("#viewer")).not_to_contain_text("Pick among")
    search = ui.page.evaluate("location.search")
    assert "selectionMode" not in search and f"room={LOUNGE}" in search
    expect(linked(ui, final).locator('[data-testid="code-link"]')).to_have_text([SOFA])
    save_screenshot(ui.page, "follows-desktop.png")

    # Back: the answered pick again, as it was left.
    ui.page.go_back()
    ui.page.wait_for_function("sid => window.sceneViewer.sessionId === sid && window.sceneViewer.mode === 'selection'",
                              arg=session["session_id"])
    assert ui.uncaught_errors() == []


def test_codes_in_answers_are_buttons_that_frame_them(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    bounds = bounds_of(ui)
    ui.page.wait_for_function("() => window.sceneViewer.state === 'ready'")
    ui.ask("how many chairs are there?")
    final = ui.wait_final("answered")
    buttons = linked(ui, final).locator('[data-testid="code-link"]')
    expect(buttons).to_have_text(["0-1", "0-1-1", "0-1-2", "0-1-3", "1-3", "1-3-2", "1-4-1"])
    # Some chairs were on screen already (the whole scene): the viewer stayed where the user had it.
    assert ui.page.evaluate("window.sceneViewer.drillRoom") is None

    office = final.locator('[data-code="1-3-2"]')
    assert office.evaluate("el => el.tagName") == "BUTTON"
    expect(office).to_have_attribute("aria-label", "Show 1-3-2 in the viewer")
    office.click()
    wait_framed(ui, "1-3-2", "1-3")
    assert_framed(ui, "1-3-2", bounds)

    kitchen_chair = final.locator('[data-code="0-1-1"]')
    kitchen_chair.focus()
    ui.page.keyboard.press("Enter")  # the keyboard alone does it too
    wait_framed(ui, "0-1-1", "0-1")
    assert_framed(ui, "0-1-1", bounds)
    final.locator('[data-code="0-1"]').focus()
    ui.page.keyboard.press("Space")
    wait_framed(ui, "0-1", "0-1")  # a room: framed whole

    camera = ui.page.evaluate("window.sceneViewer.camera")
    ui.ask("how big is 0-2-9?")  # no such object: the code stays text, and the viewer stays where it is
    missing = ui.wait_final("not_found")
    text = linked(ui, missing)
    expect(text).to_contain_text("0-2-9")
    expect(text.locator('[data-testid="code-link"]')).to_have_count(0)
    assert ui.page.evaluate("window.sceneViewer.camera") == camera
    assert ui.uncaught_errors() == []


def test_on_a_phone_an_answer_marks_the_viewer_and_a_code_brings_it_forward(chat: Callable[..., ChatUI],
                                                                             page: BrowserPage) -> None:
    page.page.set_viewport_size({"width": 390, "height": 844})
    ui = chat()
    ui.open("?room=0-1")  # looking inside the kitchen: no sofa in sight
    bounds = bounds_of(ui)
    viewer_tab, chat_tab = ui.by_testid("tab-viewer"), ui.by_testid("tab-chat")
    ui.page.wait_for_function("() => window.sceneViewer.state === 'ready' && window.sceneViewer.drillRoom === '0-1'")
    chat_tab.click()
    ui.ask("how big is the sofa?")
    final = ui.wait_final("answered")
    expect(chat_tab).to_have_attribute("aria-selected", "true")  # the answer is not taken away
    expect(viewer_tab.locator(".page-tab-dot")).to_be_visible()  # the viewer went to the sofa meanwhile
    wait_framed(ui, SOFA, LOUNGE)
    linked(ui, final).locator('[data-testid="code-link"]').first.click()
    expect(viewer_tab).to_have_attribute("aria-selected", "true")  # a code clicked brings the viewer forward
    wait_framed(ui, SOFA, LOUNGE)
    assert_framed(ui, SOFA, bounds)
    save_screenshot(ui.page, "follows-phone.png")
    assert ui.uncaught_errors() == []
