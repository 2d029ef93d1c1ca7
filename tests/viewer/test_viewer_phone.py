"""The viewer on a phone (390 × 844): the panel is a bottom sheet beside the canvas, never over it, so every candidate
of the demo kitchen's four chairs is framed where a tap picks it, and Undo, Cancel and Confirm fit. (The chat as a tab:
tests/web_chat/test_web_chat_phone.py.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from browser_fixtures import WebServer, local_url
from playwright.sync_api import expect

from scene_agent.demo.place import ensure_demo_scene
from scene_agent.scene.loader import load_scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.files.store import SessionStore
from scene_agent.tools.visualize import VisualizeInput, open_view

PHONE = {"width": 390, "height": 844}
CHAIRS = ["0-3-2", "0-3-3", "0-3-4", "0-3-5"]
BOX = "sel => { const r = document.querySelector(sel).getBoundingClientRect(); " \
      "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }"



def inside(point: dict[str, float], box: dict[str, float]) -> bool:
    return box["left"] <= point["x"] <= box["right"] and box["top"] <= point["y"] <= box["bottom"]


def test_every_chair_is_tappable_above_the_sheet_and_the_buttons_fit(phone: Any, web_server: Callable[..., WebServer]) -> None:
    demo = ensure_demo_scene()
    server = web_server(demo)
    vis, _ = open_view(load_scene(demo), VisualizeInput(codes=CHAIRS, selection_mode=True, prompt="Which chair do you mean?"),
                       server.settings, SelectionChannel(FileBackend(server.settings)))
    claim = SessionStore(server.settings).claim_waiting(vis.session_id or "")
    try:
        phone.goto(local_url(server, vis.viewer_url or ""))
        phone.wait_for_function("['ready', 'error'].includes(document.body.dataset.viewerState)")
        assert phone.evaluate("document.body.dataset.viewerState") == "ready", phone.inner_text("#viewer")[:300]
        canvas, sheet, bar = (phone.evaluate(BOX, sel) for sel in ("#viewer canvas", "#viewer .sv-panel", "#viewer .sv-top"))
        assert sheet["bottom"] <= PHONE["height"] + 0.5 and sheet["bottom"] - sheet["top"] <= 0.4 * PHONE["height"]
        assert canvas["bottom"] <= sheet["top"] + 0.5 and canvas["top"] >= bar["bottom"] - 0.5  # nothing lies over the canvas
        assert phone.evaluate(BOX, "#viewer .sv-labels")["bottom"] <= sheet["top"] + 0.5  # labels never over the sheet
        for code in CHAIRS:
            at = phone.evaluate("code => window.sceneViewer.screenPosition(code)", code)
            assert at is not None and inside(at, canvas), (code, at, canvas)
            assert not inside(at, sheet) and not inside(at, bar), (code, at)
            phone.touchscreen.tap(at["x"], at["y"])
            phone.wait_for_function("code => window.sceneViewer.selected.join() === code", arg=code)
        for testid in ("undo", "cancel", "confirm"):
            button = phone.get_by_test_id(testid)
            box = button.bounding_box()
            assert box and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5 \
                and box["y"] + box["height"] <= PHONE["height"] + 0.5, (testid, box)
            assert button.evaluate("b => b.scrollWidth <= b.clientWidth"), testid  # its word is not cut off
            hit = phone.evaluate("([x, y]) => document.elementFromPoint(x, y)?.closest('[data-testid]')?.dataset.testid",
                                 [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
            assert hit == testid  # nothing drawn over it
        assert phone.evaluate("document.scrollingElement.scrollHeight <= window.innerHeight")  # one screen, no long page
        expect(phone.locator("#viewer [data-code]").first).to_be_hidden()  # the list waits in the sheet
        phone.get_by_test_id("sheet-toggle").click()
        expect(phone.locator("#viewer [data-code]")).to_have_count(4)
        for row in phone.locator("#viewer [data-code]").all():
            expect(row).to_be_visible()
        phone.get_by_test_id("confirm").click()
        phone.wait_for_function("document.body.dataset.viewerState === 'submitted'")
    finally:
        claim.release()
