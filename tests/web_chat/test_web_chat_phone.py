"""The page on a phone (390 × 844): the viewer and the chat are tabs, so the page is one screen that never scrolls; a
pick the agent asks for brings the viewer forward, an answer marks the chat's tab, and the answer is on the screen."""

from __future__ import annotations

from collections.abc import Callable

from browser_fixtures import BrowserPage
from chat_ui import ChatUI
from playwright.sync_api import expect

PHONE = {"width": 390, "height": 844}


def test_the_chat_is_a_tab_and_an_answer_scrolls_nothing_away(chat: Callable[..., ChatUI], page: BrowserPage) -> None:
    page.page.set_viewport_size(PHONE)
    ui = chat()
    viewer_tab, chat_tab = ui.by_testid("tab-viewer"), ui.by_testid("tab-chat")
    expect(viewer_tab).to_have_attribute("aria-selected", "true")
    expect(ui.page.locator("#viewer canvas")).to_be_visible()
    expect(ui.input).to_be_hidden()  # the chat waits in its tab, not under the viewer
    chat_tab.click()
    for question in ("how many chairs are there?", "how many beds are there?", "how many sofas are there?"):
        ui.ask(question)
        final = ui.wait_final()
        box = final.bounding_box()
        assert box and 0 <= box["y"] < PHONE["height"] - 40, (question, box)  # the answer is on the screen
    assert ui.page.evaluate("window.scrollY") == 0 and ui.page.evaluate("document.scrollingElement.scrollHeight <= innerHeight")
    ui.ask("what's the color of the chair?")  # a pick brings the viewer forward
    session = ui.pending_selection()
    expect(viewer_tab).to_have_attribute("aria-selected", "true")
    ui.wait_viewer_selection(session["session_id"])
    at = ui.page.evaluate("code => window.sceneViewer.screenPosition(code)", session["candidates"][0])
    ui.page.mouse.click(at["x"], at["y"])
    ui.page.get_by_test_id("confirm").click()
    expect(chat_tab.locator(".page-tab-dot")).to_be_visible()  # the answer is waiting in the chat
    canvas = ui.page.locator("#viewer canvas").bounding_box()
    assert canvas and canvas["y"] >= 0 and ui.page.evaluate("window.scrollY") == 0  # the viewer stays where it is
    chat_tab.click()
    final = ui.wait_final()
    box = final.bounding_box()
    assert box and 0 <= box["y"] < PHONE["height"] - 40
