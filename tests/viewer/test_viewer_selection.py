"""Selection mode with objects: pick on the canvas or in the list, by mouse or keyboard; Confirm, Cancel, Undo."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from viewer_helpers import Viewer

from scene_agent.selection.selection_file import selection_path

CHAIRS = ["0-1-1", "0-1-2", "0-1-3"]


def selection_file(v: Viewer, session_id: str) -> dict[str, Any]:
    return json.loads(selection_path(v.server.settings.selection_dir, session_id).read_text())


def test_click_a_candidate_on_the_canvas_and_confirm(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    vis = open_vis(CHAIRS, selection_mode=True, prompt="Which chair do you mean?")
    v = viewer(vis)
    assert v.hook("mode") == "selection" and v.hook("selectionMode") == "objects"
    assert v.hook("candidates") == CHAIRS
    assert v.rows() == [(code, "false") for code in CHAIRS]  # the list mirrors the candidates
    assert v.page.inner_text("[data-testid=prompt]") == "Which chair do you mean?"
    assert "s left" in v.page.inner_text("[data-testid=countdown]")
    assert v.page.locator("[data-testid=confirm]").is_disabled()  # nothing picked yet
    for code in CHAIRS:  # each candidate is labelled with its code on the canvas
        assert v.page.locator(f".sv-label[data-label='{code}']").inner_text() == f"{code} · chair"

    v.click_item("0-1-2")
    v.page.wait_for_function("window.sceneViewer.selected.join() === '0-1-2'")
    assert v.rows() == [("0-1-1", "false"), ("0-1-2", "true"), ("0-1-3", "false")]
    assert v.hook("lastPick")["method"] == "gpu"
    v.click_item("0-1-3")  # one pick allowed: a new pick replaces the old
    v.page.wait_for_function("window.sceneViewer.selected.join() === '0-1-3'")
    assert v.rows() == [("0-1-1", "false"), ("0-1-2", "false"), ("0-1-3", "true")]

    v.page.click("[data-testid=confirm]")
    v.wait_state("submitted")
    assert "0-1-3" in v.page.inner_text("[data-testid=message]")
    assert v.page.locator("[data-testid=confirm]").is_disabled() and v.page.locator("[data-testid=cancel]").is_disabled()
    session = v.session(vis.session_id)
    assert session["status"] == "confirmed"
    assert [s["itemCode"] for s in session["selections"]] == ["0-1-3"]
    answer = selection_file(v, vis.session_id)
    assert answer["status"] == "confirmed" and [s["itemCode"] for s in answer["selections"]] == ["0-1-3"]
    assert v.errors == []


def test_a_click_beside_the_candidates_picks_nothing(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    v = viewer(open_vis(CHAIRS, selection_mode=True))
    # the kitchen's own points are context: dimmed and not pickable
    v.click_item("0-1")
    v.page.wait_for_function("window.sceneViewer.lastPick !== null")
    assert v.hook("lastPick")["code"] is None
    assert v.hook("selected") == []
    assert v.rows() == [(code, "false") for code in CHAIRS]


def test_several_picks_and_undo(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    vis = open_vis(CHAIRS, selection_mode=True, multiple=True)
    v = viewer(vis)
    assert v.page.inner_text(".sv-hint") == "You can pick several."
    assert v.page.get_attribute("#viewer [role=listbox]", "aria-multiselectable") == "true"
    v.click_item("0-1-1")
    v.page.click("#viewer [data-code='0-1-3']")  # the list picks too
    v.page.wait_for_function("window.sceneViewer.selected.join() === '0-1-1,0-1-3'")
    assert v.rows() == [("0-1-1", "true"), ("0-1-2", "false"), ("0-1-3", "true")]
    v.page.click("[data-testid=undo]")
    v.page.wait_for_function("window.sceneViewer.selected.join() === '0-1-1'")
    assert v.rows() == [("0-1-1", "true"), ("0-1-2", "false"), ("0-1-3", "false")]
    v.click_item("0-1-1")  # clicking a pick again takes it back
    v.page.wait_for_function("window.sceneViewer.selected.length === 0")
    v.click_item("0-1-2")
    v.click_item("0-1-3")
    v.page.wait_for_function("window.sceneViewer.selected.join() === '0-1-2,0-1-3'")
    v.page.click("[data-testid=confirm]")
    v.wait_state("submitted")
    assert [s["itemCode"] for s in v.session(vis.session_id)["selections"]] == ["0-1-2", "0-1-3"]


def test_keyboard_only(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    vis = open_vis(CHAIRS, selection_mode=True, multiple=True)
    v = viewer(vis)
    focused = "() => document.activeElement.dataset.code"
    assert v.page.evaluate(focused) == "0-1-1"  # the list has the focus once the view is ready
    v.page.keyboard.press("ArrowDown")
    assert v.page.evaluate(focused) == "0-1-2"
    v.page.keyboard.press("Space")
    v.page.keyboard.press("Tab")
    assert v.page.evaluate(focused) == "0-1-3"
    v.page.keyboard.press("Space")
    v.page.keyboard.press("ArrowUp")
    v.page.keyboard.press("ArrowUp")
    assert v.page.evaluate(focused) == "0-1-1"
    v.page.keyboard.press("ArrowUp")  # wraps around
    assert v.page.evaluate(focused) == "0-1-3"
    v.page.keyboard.press("Space")  # toggles off
    assert v.rows() == [("0-1-1", "false"), ("0-1-2", "true"), ("0-1-3", "false")]
    v.page.keyboard.press("Enter")
    v.wait_state("submitted")
    assert [s["itemCode"] for s in v.session(vis.session_id)["selections"]] == ["0-1-2"]


def test_escape_cancels(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    vis = open_vis(CHAIRS, selection_mode=True)
    v = viewer(vis)
    v.page.keyboard.press("Escape")  # asks first (tests/viewer/test_viewer_small.py); a second Escape cancels
    v.page.get_by_test_id("escape-question").wait_for()
    v.page.keyboard.press("Escape")
    v.wait_state("cancelled")
    assert v.session(vis.session_id)["status"] == "cancelled"
    assert selection_file(v, vis.session_id)["status"] == "cancelled"


def test_cancel_button(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    vis = open_vis(CHAIRS, selection_mode=True)
    v = viewer(vis)
    v.click_item("0-1-1")
    v.page.click("[data-testid=cancel]")
    v.wait_state("cancelled")
    assert "did not pick" in v.page.inner_text("[data-testid=message]")
    answer = selection_file(v, vis.session_id)
    assert answer["status"] == "cancelled" and answer["selections"] == []


def test_enter_without_a_pick_asks_for_one(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    v = viewer(open_vis(CHAIRS, selection_mode=True))
    v.page.keyboard.press("Enter")
    assert v.page.inner_text("[data-testid=message]") == "Pick at least one candidate first."
    assert v.state() == "ready"


def test_double_click_on_confirm_sends_once(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    vis = open_vis(CHAIRS, selection_mode=True)
    v = viewer(vis)
    sent: list[str] = []
    v.page.on("request", lambda r: sent.append(r.url) if r.url.endswith("/api/submit-selection") else None)
    v.page.click("#viewer [data-code='0-1-1']")
    v.page.dblclick("[data-testid=confirm]")
    v.wait_state("submitted")
    v.page.keyboard.press("Enter")  # and nothing more once it is sent
    assert len(sent) == 1
    assert v.page.inner_text("[data-testid=message]").startswith("Sent")
