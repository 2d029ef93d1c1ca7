"""Rooms as candidates: any of a room's points (its structure and its objects) picks it; look inside, and back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from viewer_helpers import Viewer


def test_pick_rooms_by_their_points_look_inside_and_confirm(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    vis = open_vis(["0-1", "0-2"], selection_mode=True, multiple=True)
    v = viewer(vis)
    assert v.hook("selectionMode") == "multi-room"
    assert v.rows() == [("0-1", "false"), ("0-2", "false")]
    assert v.page.locator("#viewer [data-code='0-2']").inner_text().startswith("0-2 · Lounge")
    assert v.hook("pointsLoaded") == 10 * 400  # both rooms and their eight objects

    v.click_item("0-2")
    v.page.wait_for_function("window.sceneViewer.selected.join() === '0-2'")
    v.click_item("0-1-4")  # the kitchen's table is part of the kitchen
    v.page.wait_for_function("window.sceneViewer.selected.join() === '0-2,0-1'")
    assert v.hook("lastPick")["code"] == "0-1"

    v.page.click("[data-testid=drill][data-room='0-1']")
    v.page.wait_for_function("window.sceneViewer.drillRoom === '0-1'")
    assert v.page.locator("#viewer [data-object-code]").all_inner_texts() == [
        "0-1-1 · chair", "0-1-2 · chair", "0-1-3 · chair", "0-1-4 · dining table"]
    assert v.page.locator(".sv-label[data-label='0-1-2']").is_visible()  # its objects are named on the canvas
    assert v.page.locator(".sv-label[data-label='0-2']").count() == 0  # the other room is out of sight
    v.page.click("[data-testid=drill-back]")
    v.page.wait_for_function("window.sceneViewer.drillRoom === null")
    assert v.rows() == [("0-1", "true"), ("0-2", "true")]

    v.page.click("[data-testid=confirm]")
    v.wait_state("submitted")
    assert [s["itemCode"] for s in v.session(vis.session_id)["selections"]] == ["0-2", "0-1"]


def test_double_click_a_room_picks_it_once_and_looks_inside(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    v = viewer(open_vis(["0-1", "0-2"], selection_mode=True))
    at = v.screen_position("0-1")
    v.page.mouse.dblclick(at["x"], at["y"])
    v.page.wait_for_function("window.sceneViewer.drillRoom === '0-1'")
    assert v.hook("selected") == ["0-1"]
    v.page.keyboard.press("Escape")  # Escape leaves the room first; the session stays open
    v.page.wait_for_function("window.sceneViewer.drillRoom === null")
    assert v.state() == "ready"
