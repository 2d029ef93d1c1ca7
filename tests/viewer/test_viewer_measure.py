"""The measuring tools on the demo home in Chromium: a distance, a height above the floor and a floor area, each checked
against the points the viewer reports (which must be the scene's own points, where the test aimed) and against what
the scene's point files say of the thing measured (a wall's length, a chair's height, a room's floor), within 2 cm.
Escape cancels; while a tool is in use clicks neither pick nor open an info card; a phone measures with taps."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from browser_fixtures import BrowserPage, WebServer, local_url, save_screenshot
from playwright.sync_api import expect
from scene_points import WIDE, click_point, settle, tap_point
from viewer_helpers import Viewer

from scene_agent.scene.loader import Scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.files.store import SessionStore
from scene_agent.tiles.build import TileParams
from scene_agent.tools.visualize import VisualizeInput, open_view

CM = 0.01
END_M = 0.10  # a point drawn on the edge-on side wall reaches about two spacings in
PHONE = {"width": 390, "height": 844}


def use_tool(page: Any, testid: str) -> None:
    page.get_by_test_id(testid).click()
    expect(page.get_by_test_id(testid)).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("measure-panel")).to_be_visible()
    settle(page)


def measurement(page: Any, kind: str) -> dict[str, Any]:
    page.wait_for_function("k => window.sceneViewer.lastMeasurement?.kind === k", arg=kind, timeout=10_000)
    return page.evaluate("window.sceneViewer.lastMeasurement")


def floor_points(xyz: np.ndarray, below: float = 0.03) -> np.ndarray:
    return xyz[xyz[:, 2] < below]


def nearest(points: np.ndarray, target: tuple[float, ...]) -> np.ndarray:
    return points[np.argmin(((points[:, : len(target)] - np.array(target)) ** 2).sum(axis=1))]


def wall_ends(room: np.ndarray, inset: float = END_M) -> tuple[np.ndarray, np.ndarray]:
    """Points of a room's north wall (the one facing the camera) near its two ends, high up (above the furniture, below
    the ceiling the viewer cuts), `inset` in from the corners: at a corner, the side wall seen edge-on is in front."""
    wall = room[room[:, 1] > room[:, 1].max() - 0.03]
    x0, x1 = room[:, 0].min(), room[:, 0].max()
    return nearest(wall, (x0 + inset, room[:, 1].max(), 2.3)), nearest(wall, (x1 - inset, room[:, 1].max(), 2.3))


def shoelace(points: np.ndarray) -> float:
    x, y = points[:, 0], points[:, 1]
    return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2)


def test_a_wall_measured_end_to_end_is_as_long_as_the_room_is_wide(open_demo: Callable[[str], Viewer], demo: Scene) -> None:
    v = open_demo("/?room=0-7")  # the garage, looked inside
    xyz = demo.points("0-7").xyz
    west, east = wall_ends(xyz)
    use_tool(v.page, "measure")
    assert v.hook("lastMeasurement") is None
    click_point(v.page, west)
    expect(v.page.locator(".svm-dot")).to_have_count(1)  # the first end, waiting for the second
    assert v.hook("lastMeasurement") is None
    click_point(v.page, east)
    m = measurement(v.page, "distance")
    ends = np.array(m["points"])
    assert m["unit"] == "m" and ends.shape == (2, 3)
    # the clicks landed on the scene's own points, those aimed at, and the value is their distance
    assert np.linalg.norm(ends[0] - west) < 1.5 * CM and np.linalg.norm(ends[1] - east) < 1.5 * CM, (ends, west, east)
    assert m["value"] == pytest.approx(float(np.linalg.norm(ends[1] - ends[0])), abs=1e-9)
    # the wall runs across the room: with the bits left out at its ends, as long as the garage is wide
    x0, x1 = xyz[:, 0].min(), xyz[:, 0].max()
    assert abs(m["value"] + (west[0] - x0) + (x1 - east[0]) - (x1 - x0)) < 2 * CM, (m["value"], x1 - x0)
    shown = f"{m['value']:.2f} m"
    expect(v.page.locator(".svm-label")).to_have_text(shown)  # the value at the line, in the 3D view
    expect(v.page.get_by_test_id("measure-list")).to_contain_text(f"Distance {shown}")
    save_screenshot(v.page, "measure-distance-desktop.png")
    assert not v.errors


def test_a_chair_measured_from_its_top_is_as_high_as_its_points_reach(open_demo: Callable[[str], Viewer], demo: Scene) -> None:
    v = open_demo("/?room=0-3")  # the kitchen, looked inside
    v.page.locator("[data-object-code='0-3-4']").click()  # the chair framed close, from its row
    settle(v.page)
    chair = demo.points("0-3-4").xyz
    top = chair[np.argmax(chair[:, 2])]
    use_tool(v.page, "measure-height")
    click_point(v.page, top)
    m = measurement(v.page, "height")
    point, foot = np.array(m["points"])
    elevation = demo.index.floors["0"].elevation
    assert np.linalg.norm(point - top) < 1.5 * CM, (point, top)
    assert foot.tolist() == pytest.approx([point[0], point[1], elevation], abs=1e-9)  # straight below, on the storey's floor
    assert m["unit"] == "m" and m["value"] == pytest.approx(point[2] - elevation, abs=1e-9)
    height = float(chair[:, 2].max() - chair[:, 2].min())  # the chair stands on the floor: its height is its points' extent
    assert abs(m["value"] - height) < 2 * CM, (m["value"], height)
    expect(v.page.get_by_test_id("measure-heading")).to_have_text("Height above the floor")
    expect(v.page.get_by_test_id("measure-list")).to_contain_text(
        f"Height {m['value']:.2f} m above the floor of Ground floor (at {elevation:.2f} m)")
    expect(v.page.locator(".svm-label")).to_have_text(f"{m['value']:.2f} m")
    save_screenshot(v.page, "measure-height-desktop.png")
    assert not v.errors


def test_a_floor_rectangle_measured_by_its_corners(open_demo: Callable[[str], Viewer], demo: Scene) -> None:
    v = open_demo("/?room=0-7")
    floor = floor_points(demo.points("0-7").xyz)
    lo, hi = floor.min(axis=0), floor.max(axis=0)
    inset = 0.25  # clear of the walls' feet
    corners = [(lo[0] + inset, lo[1] + inset), (hi[0] - inset, lo[1] + inset), (hi[0] - inset, hi[1] - inset),
               (lo[0] + inset, hi[1] - inset)]
    aims = np.array([nearest(floor, c) for c in corners])
    v.page.get_by_test_id("section-height").fill("0.1")  # cut above 10 cm: the walls no longer hide the floor
    expect(v.page.get_by_test_id("section-value")).to_have_text("0.10 m")
    use_tool(v.page, "measure-area")
    for k, aim in enumerate(aims):
        click_point(v.page, aim)
        expect(v.page.locator(".svm-dot")).to_have_count(k + 1)
    assert v.hook("lastMeasurement") is None  # not closed yet
    v.page.keyboard.press("Enter")
    m = measurement(v.page, "area")
    got = np.array(m["points"])
    assert m["unit"] == "m²" and got.shape == (4, 3)
    assert np.linalg.norm(got - aims, axis=1).max() < 1.5 * CM, got - aims
    assert m["value"] == pytest.approx(shoelace(got), abs=1e-9)  # the shoelace area of the reported corners
    # the garage is a rectangle: the corners span its floor's extent, less the inset on each side
    width, depth = hi[0] - lo[0] - 2 * inset, hi[1] - lo[1] - 2 * inset
    around = 2 * (width + depth)
    assert abs(m["value"] - width * depth) < around * 2 * CM, (m["value"], width * depth)
    perimeter = float(np.linalg.norm(got[:, :2] - np.roll(got[:, :2], -1, axis=0), axis=1).sum())
    assert abs(perimeter - around) < 4 * 2 * CM
    expect(v.page.get_by_test_id("measure-list")).to_contain_text(f"Area {m['value']:.2f} m² · perimeter {perimeter:.2f} m")
    expect(v.page.locator(".svm-label")).to_have_text(f"{m['value']:.2f} m²")
    save_screenshot(v.page, "measure-area-desktop.png")
    # a click on the first corner closes a shape too
    for aim in aims[:3]:
        click_point(v.page, aim)
    click_point(v.page, aims[0])
    v.page.wait_for_function("window.sceneViewer.lastMeasurement.points.length === 3")
    triangle = np.array(v.hook("lastMeasurement")["points"])
    assert v.hook("lastMeasurement")["value"] == pytest.approx(shoelace(triangle), abs=1e-9)
    assert v.hook("lastMeasurement")["value"] == pytest.approx(m["value"] / 2, rel=0.03)
    assert not v.errors


def test_escape_cancels_and_a_click_while_measuring_opens_no_card(open_demo: Callable[[str], Viewer], demo: Scene) -> None:
    v = open_demo("/?room=0-3")
    page = v.page
    use_tool(page, "measure")
    chair = v.screen_position("0-3-4")
    page.mouse.click(round(chair["x"]), round(chair["y"]))
    expect(page.locator(".svm-dot")).to_have_count(1)  # the click measured: a first end on the chair
    expect(page.get_by_test_id("measure-hint")).to_contain_text("second point")
    expect(page.get_by_test_id("info-card")).to_be_hidden()
    assert v.hook("infoCode") is None
    page.keyboard.press("Escape")
    expect(page.locator(".svm-dot")).to_have_count(0)
    expect(page.get_by_test_id("measure-hint")).to_have_text("Click two points: the straight distance between them.")
    assert v.hook("lastMeasurement") is None and v.hook("measuring") == "distance"
    assert v.hook("drillRoom") == "0-3"  # Escape cancelled the measurement, and did not leave the room
    page.keyboard.press("Escape")  # nothing in progress: the tool is left
    expect(page.get_by_test_id("measure")).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_test_id("measure-panel")).to_be_hidden()
    assert v.hook("measuring") is None and v.hook("drillRoom") == "0-3"
    # its button again also leaves it; and without a tool the same click opens the chair's card
    use_tool(page, "measure-height")
    page.get_by_test_id("measure-height").click()
    expect(page.get_by_test_id("measure-height")).to_have_attribute("aria-pressed", "false")
    page.mouse.click(round(chair["x"]), round(chair["y"]))
    expect(page.get_by_test_id("info-card")).to_have_attribute("data-code", "0-3-4")
    use_tool(page, "measure")  # a tool closes the card: clicks measure now
    expect(page.get_by_test_id("info-card")).to_be_hidden()
    assert not v.errors


def test_measuring_in_a_pick_picks_nothing(page: BrowserPage, demo_server: WebServer, demo: Scene) -> None:
    chairs = ["0-3-2", "0-3-3", "0-3-4", "0-3-5"]
    vis, _ = open_view(demo, VisualizeInput(codes=chairs, selection_mode=True, prompt="Which chair?"), demo_server.settings,
                       SelectionChannel(FileBackend(demo_server.settings)))
    claim = SessionStore(demo_server.settings).claim_waiting(vis.session_id or "")
    try:
        page.page.set_viewport_size(WIDE)
        page.page.goto(local_url(demo_server, vis.viewer_url or ""))
        v = Viewer(page.page, demo_server, page.errors)
        v.wait_state("ready")
        use_tool(v.page, "measure")
        first = v.screen_position("0-3-2")
        second = v.screen_position("0-3-3")
        v.page.mouse.click(round(first["x"]), round(first["y"]))
        v.page.keyboard.press("Escape")  # cancels the measurement, not the pick (no "Cancel this pick?")
        expect(v.page.get_by_test_id("escape-question")).to_be_hidden()
        v.page.mouse.click(round(first["x"]), round(first["y"]))
        v.page.mouse.click(round(second["x"]), round(second["y"]))
        m = measurement(v.page, "distance")
        assert m["value"] > 0.5  # chair to chair
        assert v.hook("selected") == [] and v.state() == "ready"
        assert v.session(vis.session_id or "")["status"] == "pending"
        v.page.get_by_test_id("measure").click()  # the tool left, the same click picks
        v.page.mouse.click(round(first["x"]), round(first["y"]))
        v.page.wait_for_function("window.sceneViewer.selected.join() === '0-3-2'")
        expect(v.page.get_by_test_id("info-card")).to_be_hidden()  # a pick opens no card
        assert not v.errors
    finally:
        claim.release()


def test_clicks_land_on_the_points_of_level_of_detail_tiles(page: BrowserPage, web_server: Callable[..., WebServer],
                                                            small_scene_path: Any, scene: Scene) -> None:
    server = web_server(small_scene_path, TILE_PARAMS=TileParams(grid=4, leaf_cap=150))
    page.page.goto(f"{server.url}/?lod=tiles&budget=100000")  # the small scene drawn from a deep octree's tiles
    v = Viewer(page.page, server, page.errors)
    v.wait_state("ready")
    v.page.wait_for_function("!window.sceneViewer.tilesPending", timeout=30_000)
    settle(v.page)
    assert v.hook("lod") == "tiles" and v.hook("itemCount") > 0
    use_tool(v.page, "measure")
    objects = list(scene.index.objects)
    # two objects far apart whose centres no panel covers (the measuring panel, opened now, moves no camera)
    in_sight = [at for at in map(v.screen_position, objects)
                if v.page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.tagName", [at["x"], at["y"]]) == "CANVAS"]
    assert len(in_sight) >= 2
    for at in (in_sight[0], in_sight[-1]):
        v.page.mouse.click(round(at["x"]), round(at["y"]))
    m = measurement(v.page, "distance")
    ends = np.array(m["points"])
    every = np.concatenate([scene.points(code).xyz for code in [*scene.index.rooms, *objects]])
    for end in ends:  # each a point of the scene (to the tiles' quantisation), not a position in between
        assert np.linalg.norm(every - end, axis=1).min() < 2e-3, end
    assert m["value"] == pytest.approx(float(np.linalg.norm(ends[1] - ends[0])), abs=1e-9) and m["value"] > 0.1
    assert not v.errors



def test_a_phone_measures_with_taps(phone: Any, demo_server: WebServer, demo: Scene) -> None:
    phone.goto(f"{demo_server.url}/?room=0-3")
    phone.wait_for_function("['ready', 'error'].includes(document.body.dataset.viewerState)")
    assert phone.evaluate("document.body.dataset.viewerState") == "ready", phone.inner_text("#viewer")[:300]
    settle(phone)
    xyz = demo.points("0-3").xyz
    west, east = wall_ends(xyz, inset=0.25)  # a phone's pixel is larger: further from the side walls
    phone.get_by_test_id("measure").tap()
    expect(phone.get_by_test_id("measure")).to_have_attribute("aria-pressed", "true")
    settle(phone)
    tap_point(phone, west)
    tap_point(phone, east)
    m = measurement(phone, "distance")
    ends = np.array(m["points"])
    assert np.linalg.norm(ends - np.array([west, east]), axis=1).max() < 3 * CM, (ends, west, east)
    assert m["value"] == pytest.approx(float(np.linalg.norm(ends[1] - ends[0])), abs=1e-9)
    x0, x1 = xyz[:, 0].min(), xyz[:, 0].max()
    assert abs(m["value"] + (west[0] - x0) + (x1 - east[0]) - (x1 - x0)) < 3 * CM  # the kitchen's width
    assert phone.evaluate("document.scrollingElement.scrollHeight <= window.innerHeight")  # still one screen
    save_screenshot(phone, "measure-distance-phone.png")

    phone.get_by_test_id("measure-height").tap()
    settle(phone)
    table = demo.points("0-3-1").xyz
    top = table[table[:, 2] > table[:, 2].max() - 0.01]  # the table top, facing up: the middle of it
    tap_point(phone, nearest(top, tuple(top.mean(axis=0))))
    m = measurement(phone, "height")
    assert abs(m["value"] - float(table[:, 2].max() - table[:, 2].min())) < 2 * CM  # the dining table's height
    save_screenshot(phone, "measure-height-phone.png")

    phone.get_by_test_id("measure-area").tap()
    settle(phone)
    floor = floor_points(xyz)  # an empty part of the kitchen floor, east of the table and chairs
    corners = [nearest(floor, c) for c in ((4.4, 7.0), (6.4, 7.0), (6.4, 8.6), (4.4, 8.6))]
    dots = phone.locator(".svm-dot").count()  # the distance's and the height's stay drawn
    for k, corner in enumerate(corners):
        tap_point(phone, corner)
        expect(phone.locator(".svm-dot")).to_have_count(dots + k + 1)
    phone.get_by_test_id("measure-close-shape").tap()  # a phone has no double-click or Enter: the panel's button closes it
    m = measurement(phone, "area")
    got = np.array(m["points"])
    assert m["value"] == pytest.approx(shoelace(got), abs=1e-9)
    assert abs(m["value"] - shoelace(np.array(corners))) < 2 * 2 * (2.0 + 1.6) * CM  # ≈ 2 m × 1.6 m
    text = phone.get_by_test_id("measure-list").inner_text()
    assert re.search(rf"Area {m['value']:.2f} m²", text), text
    save_screenshot(phone, "measure-area-phone.png")


GPU_PICK = "([x, y]) => window.sceneViewer.bench.pickAt(x, y, 'gpu').code"


def test_looking_inside_cuts_away_the_near_walls(open_demo: Callable[[str], Viewer], demo: Scene) -> None:
    """The kitchen looked inside: the red chair by the near wall is seen and picked where the wall stood in front of it,
    while the far wall stands whole, to its top, for measuring."""
    v = open_demo("/?room=0-3")
    chair = demo.points("0-3-2").xyz
    centre = v.hook(f"screenPoint({[float(c) for c in (chair.min(axis=0) + chair.max(axis=0)) / 2]})")
    assert v.page.evaluate(GPU_PICK, [centre["x"], centre["y"]]) == "0-3-2"
    high_on_the_far_wall = wall_ends(demo.points("0-3").xyz)[0]
    at = v.hook(f"screenPoint({[float(c) for c in high_on_the_far_wall]})")
    assert v.page.evaluate(GPU_PICK, [at["x"], at["y"]]) == "0-3"
    v.page.get_by_test_id("drill-back").click()  # the whole scene again: the kitchen's walls whole
    v.page.wait_for_function("window.sceneViewer.drillRoom === null")
    centre = v.hook(f"screenPoint({[float(c) for c in (chair.min(axis=0) + chair.max(axis=0)) / 2]})")
    assert v.page.evaluate(GPU_PICK, [centre["x"], centre["y"]]) != "0-3-2"
    assert not v.errors
