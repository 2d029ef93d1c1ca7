"""The viewer inside the conversation: a test MCP Apps host (tests/mcp_clients/app_host: the official ext-apps
app-bridge in a page, the official TypeScript client) asks `scene-agent mcp --http`, renders the UI resource `ask`
names in a sandboxed frame under the resource's CSP, hands it the results, and follows the pick with
wait_for_selection as a host's model would. The person picks and confirms inside the frame; the answer follows in
the same turn."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_fixtures import BrowserPage, save_screenshot
from cli_proc import CliProcess

HOST_JS = Path(__file__).resolve().parents[1] / "mcp_clients" / "app_host" / "dist" / "host.js"
VIEW_HTML = Path(__file__).resolve().parents[2] / "viewer" / "dist" / "mcp-app.html"
TURN_TIMEOUT_MS = 90_000
QUESTION = "what's the color of the chair in the kitchen?"


@pytest.fixture
def app_mcp(env: dict[str, str]) -> Iterator[dict[str, Any]]:
    """`scene-agent mcp --http` whose API server answers sandboxed frames (origin `null`): what it says it serves."""
    for needed, how in ((HOST_JS, "npm run build in tests/mcp_clients"), (VIEW_HTML, "npm run build in viewer")):
        if not needed.is_file():
            pytest.fail(f"{needed} is missing: `make test` builds it ({how})")
    process = CliProcess("mcp", "--http", "--port", "0", "--json", env={**env, "SCENE_AGENT_APP_ORIGINS": "null"})
    try:
        yield process.json_line()
    finally:
        process.kill()


def open_host(page: Any, mcp_url: str) -> None:
    """The test host page at the MCP server's origin: the client reaches /mcp there, and the page (and so the frame
    it embeds) is a loopback page, which the browser lets reach the loopback API server. The page is loaded from
    that server for real (any path: its answer does not matter), then written in place."""
    origin = mcp_url.removesuffix("/mcp")
    page.goto(f"{origin}/test-host")
    page.set_content('<!doctype html><html><head><meta charset="utf-8"><title>test MCP Apps host</title></head>'
                     '<body><div id="conversation"></div></body></html>')
    page.add_script_tag(content=HOST_JS.read_text(), type="module")
    page.wait_for_function("() => window.testHost !== undefined")


def start_turn(page: Any, arguments: dict[str, Any], **options: Any) -> None:
    page.evaluate("([args, options]) => { window.testHost.run({arguments: args, ...options}); }", [arguments, options])


def finished_turn(page: Any) -> list[dict[str, Any]]:
    """The host's log, once the turn is over (failing on a host error)."""
    page.wait_for_function("() => document.body.dataset.hostDone !== undefined", timeout=TURN_TIMEOUT_MS)
    log: list[dict[str, Any]] = page.evaluate("window.hostLog")
    assert page.evaluate("document.body.dataset.hostDone") == "1", log
    return log


def results(log: list[dict[str, Any]], tool: str) -> list[dict[str, Any]]:
    return [entry["structured"] for entry in log if entry["event"] == "result" and entry["tool"] == tool]


def test_the_pick_is_made_in_the_viewer_inside_the_conversation(page: BrowserPage, app_mcp: dict[str, Any]) -> None:
    open_host(page.page, app_mcp["url"])
    start_turn(page.page, {"question": QUESTION})
    view = page.page.frame_locator("#conversation iframe")
    view.locator("body[data-viewer-state=ready]").wait_for(timeout=TURN_TIMEOUT_MS)
    view.locator('#viewer [data-code="0-3-3"]').click()
    view.locator("[data-testid=confirm]").click()
    log = finished_turn(page.page)
    resource = next(entry for entry in log if entry["event"] == "resource")
    assert resource["mimeType"] == "text/html;profile=mcp-app"
    assert resource["csp"]["connectDomains"] == [app_mcp["viewer_url"].rstrip("/")]
    asked = results(log, "ask")[0]
    assert asked["status"] == "selection_required" and "shown in this conversation" in asked["answer"]
    done = [r for r in results(log, "wait_for_selection") if r["status"] == "done"]
    assert done and done[-1]["ask"]["codes"] == ["0-3-3"] and "blue" in done[-1]["ask"]["answer"]
    # the answer is shown in the frame too, under the viewer, and the host grows the frame to show it
    view.locator("#outcome", has_text="blue").wait_for()
    frame = next(f for f in page.page.frames if f.parent_frame is not None)
    frame.wait_for_function("() => { const box = document.getElementById('outcome').getBoundingClientRect();"
                            " return box.height > 0 && box.bottom <= window.innerHeight; }")
    save_screenshot(page.page, "mcp-app-pick.png")
    assert not [e for e in page.errors if "Content Security Policy" in e], page.errors


def test_a_view_only_request_shows_the_viewer_inside_the_conversation(page: BrowserPage, app_mcp: dict[str, Any]) -> None:
    open_host(page.page, app_mcp["url"])
    start_turn(page.page, {"question": "show me the kitchen"})
    log = finished_turn(page.page)
    shown = results(log, "ask")[0]
    assert shown["status"] == "answered" and "0-3" in shown["codes"]
    view = page.page.frame_locator("#conversation iframe")
    view.locator("body[data-viewer-state=ready]").wait_for(timeout=TURN_TIMEOUT_MS)
    assert "selectionMode=true" not in view.locator("body").get_attribute("data-mcp-app-shown")


def test_a_chinese_question_shows_the_viewer_in_chinese(page: BrowserPage, app_mcp: dict[str, Any]) -> None:
    open_host(page.page, app_mcp["url"])
    start_turn(page.page, {"question": "厨房里的椅子是什么颜色？"}, locale="zh-CN")
    view = page.page.frame_locator("#conversation iframe")
    view.locator("body[data-viewer-state=ready]").wait_for(timeout=TURN_TIMEOUT_MS)
    assert "确认" in view.locator("[data-testid=confirm]").inner_text()
    save_screenshot(page.page, "mcp-app-pick-zh.png")
    view.locator('#viewer [data-code="0-3-2"]').click()
    view.locator("[data-testid=confirm]").click()
    done = [r for r in results(finished_turn(page.page), "wait_for_selection") if r["status"] == "done"]
    assert done[-1]["ask"]["codes"] == ["0-3-2"] and "红" in done[-1]["ask"]["answer"]
