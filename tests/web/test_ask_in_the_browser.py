"""As a new user does it: `scene-agent serve`, `scene-agent ask` in a terminal, the printed link opened in a browser,
the pick made by clicking the chair on the canvas; and the same question typed into the web chat on the demo home."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_fixtures import BrowserPage
from cli_proc import Spawner, agent_env, start_serve
from playwright.sync_api import expect


@pytest.fixture
def served(tmp_path: Path, demo_path: Path) -> Iterator[tuple[Spawner, str]]:
    """A real `serve` on a free port, and a spawner for CLI commands that share its directories and link to it."""
    spawner = Spawner(agent_env(tmp_path))
    try:
        _, info = start_serve(spawner, demo_path)
        spawner.env["SCENE_AGENT_VIEWER_URL"] = info["url"]
        yield spawner, info["url"].rstrip("/")
    finally:
        spawner.close()


def click_on_canvas(page: Any, code: str) -> None:
    """Click where the viewer draws `code` (its test hook maps an item to its screen position)."""
    at = page.evaluate("code => window.sceneViewer.screenPosition(code)", code)
    assert at is not None, f"{code} is not on screen"
    page.mouse.click(at["x"], at["y"])


def wait_viewer(page: Any, state: str) -> None:
    page.wait_for_function("s => document.body.dataset.viewerState === s || document.body.dataset.viewerState === 'error'",
                           arg=state)
    assert page.evaluate("document.body.dataset.viewerState") == state, page.inner_text("#viewer")[:300]


def events_until(process: Any, event_type: str) -> dict[str, Any]:
    while True:
        event = process.json_line()
        if event["type"] == event_type:
            return event


def test_the_link_ask_prints_opens_the_selection_and_a_click_on_the_chair_answers(served: tuple[Spawner, str],
                                                                                 page: BrowserPage) -> None:
    spawn, origin = served
    ask = spawn("ask", "what's the color of the chair?", "--json")
    required = events_until(ask, "selection_required")
    assert required["viewer_url"].startswith(origin + "/?manifest=/manifests/select-")
    page.page.goto(required["viewer_url"])  # the URL alone says what to show and which session to answer
    wait_viewer(page.page, "ready")
    rows = page.page.eval_on_selector_all("#viewer [data-code]", "els => els.map(e => e.dataset.code)")
    assert rows == required["candidates"]
    expect(page.page.get_by_test_id("prompt")).to_have_text(required["prompt"])
    click_on_canvas(page.page, "0-3-2")
    expect(page.page.locator('#viewer [data-code="0-3-2"]')).to_have_attribute("aria-selected", "true")
    page.page.get_by_test_id("confirm").click()
    wait_viewer(page.page, "submitted")
    received = events_until(ask, "selection_received")
    assert received["codes"] == ["0-3-2"]
    final = events_until(ask, "final")
    assert ask.finish() == 0
    assert final["status"] == "answered" and final["codes"] == ["0-3-2"] and "Chair 0-3-2 is red" in final["answer"]
    assert not [e for e in page.errors if "pageerror" in e]


def test_the_web_chat_on_the_demo_home_asks_for_the_chair_in_place_and_shows_its_colour(served: tuple[Spawner, str],
                                                                                      page: BrowserPage) -> None:
    _, origin = served
    web = page.page
    web.goto(origin + "/")
    wait_viewer(web, "ready")
    web.get_by_test_id("chat-input").fill("what's the color of the chair?")
    web.get_by_test_id("chat-input").press("Enter")
    expect(web.get_by_test_id("selection-notice")).to_be_visible()
    web.wait_for_function("document.body.dataset.viewerState === 'ready' && window.sceneViewer.candidates.length === 5")
    assert "selectionMode=true" in web.url, "the viewer switched in place to the agent's selection"
    click_on_canvas(web, "0-3-5")
    web.get_by_test_id("confirm").click()
    final = web.get_by_test_id("final-answer").last
    expect(final).to_have_attribute("data-status", "answered")
    expect(final).to_contain_text("0-3-5")
    swatch = web.locator('[data-testid="swatch-group"][data-code="0-3-5"] [data-testid="swatch"]').first
    expect(swatch).to_be_visible()
    assert swatch.get_attribute("data-name") in ("gold", "goldenrod", "yellow")
    cards = web.get_by_test_id("tool-card")
    assert {cards.nth(i).get_attribute("data-status") for i in range(cards.count())} == {"done"}
