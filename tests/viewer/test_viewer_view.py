"""View-only mode: the whole scene and views the agent opens, drawn in a real browser from the URL alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect
from viewer_helpers import Viewer, canvas_stats

from scene_agent.scene.loader import Scene

SMALL_SCENE_POINTS = 23 * 400  # 7 rooms and 16 objects of 400 points each (tests/conftest.py)


def test_whole_scene_renders_every_point(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/")
    assert v.hook("mode") == "view"
    assert v.hook("pointsLoaded") == v.hook("pointsTotal") == SMALL_SCENE_POINTS
    assert v.hook("candidates") == [] and v.hook("selected") == []
    timings = v.hook("timings")
    assert all(timings[k] is not None for k in ("manifestMs", "firstFrameMs", "readyMs"))
    stats = canvas_stats(v)
    assert stats["covered"] > 0.05 and stats["colours"] > 20, stats  # points drawn, in their colours
    # one row per room, with a way to look inside each; no candidates, so no confirm
    assert v.page.locator("#viewer [data-item]").count() == 7
    assert v.page.locator("[data-testid=confirm]").is_hidden()
    assert v.errors == []


def test_a_view_frames_its_focus_and_shows_the_room_around(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    vis = open_vis(["0-2-1"])
    v = viewer(vis)
    assert v.page.locator("#viewer [data-item]").all_inner_texts() == ["0-2-1 · sofa"]
    assert "0-2-1 · sofa" in v.page.inner_text(".sv-title")
    assert v.hook("pointsLoaded") == 800  # the sofa and its room, the lounge
    assert v.page.locator(".sv-label[data-label='0-2-1']").is_visible()
    at = v.screen_position("0-2-1")  # the focus is in view, right of the side panel
    panel = v.page.locator(".sv-panel").bounding_box()
    assert at["x"] > panel["x"] + panel["width"]
    assert v.page.locator("[data-testid=confirm]").is_hidden() and v.page.locator("[data-testid=cancel]").is_hidden()
    assert v.errors == []


def test_look_inside_a_room_and_back(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/")
    v.page.click("[data-testid=drill][data-room='0-2']")
    v.page.wait_for_function("window.sceneViewer.drillRoom === '0-2'")
    objects = v.page.locator("#viewer [data-object-code]")
    assert objects.all_inner_texts() == ["0-2-1 · sofa", "0-2-2 · armchair", "0-2-3 · armchair", "0-2-4 · coffee table"]
    assert "Lounge" in v.page.text_content(".sv-drill h3")
    v.page.click("[data-testid=drill-back]")
    v.page.wait_for_function("window.sceneViewer.drillRoom === null")
    assert v.page.locator("#viewer [data-object-code]").count() == 0


def test_hovering_an_item_names_it(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    v = viewer(open_vis(["0-1"]))
    at = v.screen_position("0-1-4")
    v.page.mouse.move(at["x"], at["y"])
    v.page.wait_for_function("window.sceneViewer.hovered === '0-1-4'")
    assert v.page.locator(".sv-label-hovered").inner_text() == "0-1-4 · dining table"


def test_floor_buttons_show_one_floor(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/")
    assert v.screen_position("1-1") is not None
    v.page.click("[data-floor='0']")
    v.page.wait_for_function("window.sceneViewer.screenPosition('0-1') !== null")
    assert v.page.locator(".sv-label[data-label='1-1']").count() == 0
    assert v.page.locator(".sv-label[data-label='0-1']").is_visible()
    assert v.page.get_attribute("[data-floor='0']", "aria-pressed") == "true"


def test_chinese_strings(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    v = viewer(open_vis(["0-1-1", "0-1-2"], selection_mode=True), query="lang=zh")
    assert v.page.inner_text("[data-testid=confirm]") == "确认"
    assert v.page.inner_text("[data-testid=cancel]") == "取消"
    assert v.page.inner_text("[data-testid=undo]") == "撤销"
    assert "剩余" in v.page.inner_text("[data-testid=countdown]")
    assert v.page.inner_text(".sv-hint") == "请选择一个。"
    assert v.page.inner_text("[data-testid=picked]") == "尚未选择。"
    assert v.page.get_attribute("#viewer canvas", "aria-label").startswith("场景的三维视图")
    v.page.goto(f"{v.server.url}/?manifest=/manifests/view-0000000000000000.json&lang=zh")
    v.wait_state("error")
    assert v.page.inner_text("[data-testid=error]").startswith("此视图不存在")


def test_switching_language_rerenders_the_viewer(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    v = viewer(open_vis(["0-1-1", "0-1-2"], selection_mode=True), query="lang=en")
    assert v.page.inner_text("[data-testid=confirm]") == "Confirm"
    v.page.get_by_test_id("lang-zh").click()  # the switcher belongs to the chat panel
    v.page.wait_for_function("document.querySelector('[data-testid=confirm]').textContent === '确认'")
    assert v.page.inner_text("[data-testid=picked]") == "尚未选择。"
    assert v.page.inner_text(".sv-hint") == "请选择一个。"


def test_the_whole_scene_names_its_rooms_and_objects_in_chinese(viewer: Callable[..., Viewer]) -> None:
    """The list, the labels and a room looked inside say the rooms' and objects' Chinese names (from the scene's
    names: the scene's manifest has none), and follow a switch back to English."""
    v = viewer("/", query="lang=zh")
    row = v.page.locator("[data-item='0-1'] .sv-row-text")
    expect(row).to_have_text("0-1 · 厨房")
    expect(v.page.locator("[data-item='1-1'] .sv-row-text")).to_have_text("1-1 · 主卧")
    expect(v.page.locator(".sv-label[data-label='0-2']")).to_have_text("0-2 · 休息室")
    v.page.click("[data-testid=drill][data-room='0-1']")
    expect(v.page.locator("[data-object-code='0-1-4']")).to_have_text("0-1-4 · 餐桌")
    v.page.get_by_test_id("lang-en").click()  # the switcher belongs to the chat panel
    expect(v.page.locator("[data-object-code='0-1-4']")).to_have_text("0-1-4 · dining table")
    v.page.get_by_test_id("drill-back").click()
    expect(row).to_have_text("0-1 · kitchen")
    expect(v.page.locator(".sv-label[data-label='0-2']")).to_have_text("0-2 · Lounge")
    assert v.errors == []


def test_a_cut_takes_the_labels_of_what_it_hides(viewer: Callable[..., Viewer], scene: Scene) -> None:
    """Cut above 30 cm: the upper floor's rooms lose their labels, and a ground-floor room's label comes down to the
    cut (it was at the middle of the room's height, now drawn away)."""
    v = viewer("/")
    upper = v.page.locator(".sv-label[data-label^='1-']")
    lounge = v.page.locator(".sv-label[data-label='0-2']")
    expect(upper).not_to_have_count(0)
    bounds = scene.index.rooms["0-2"].room.bounds
    middle = [(bounds.min[k] + bounds.max[k]) / 2 for k in range(2)]
    uncut, at_cut = (v.hook(f"screenPoint({[*middle, z]})")["y"]
                     for z in (bounds.min[2] + 0.55 * (bounds.max[2] - bounds.min[2]), 0.3))
    before = lounge.bounding_box()
    v.page.get_by_test_id("section-height").fill("0.3")
    expect(v.page.get_by_test_id("section-value")).to_have_text("0.30 m")
    expect(upper).to_have_count(0)
    v.page.wait_for_function("y => document.querySelector(\".sv-label[data-label='0-2']\").getBoundingClientRect().top > y",
                             arg=before["y"] + 1)  # the label is placed after the next frame
    after = lounge.bounding_box()
    assert before and after and at_cut - uncut > 10
    assert after["y"] - before["y"] == pytest.approx(at_cut - uncut, abs=3)
    assert v.errors == []
