"""Finding one's way in a block of flats (tests/building_scene.py: nine floors, 180 rooms named "Kitchen, flat 3B"):
the floor bar on one line and never covered, the room list of the floor shown by unit with whole names, the search
box (names, units, codes, labels, Chinese; the keyboard), the floor plan, the camera in the link, the copy-link and
screenshot buttons, the clip box, the keys that move the camera, and room labels on every floor — on a desktop and on
a phone."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_fixtures import WebServer, start_web_server
from building_scene import FLATS, FLOORS, ROOMS, room_code, room_name, write_building
from playwright.sync_api import expect
from viewer_helpers import Viewer, png_pixels

PHONE = {"width": 390, "height": 844}
BOX = "el => { const r = el.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }"
HIT = "([x, y]) => { const el = document.elementFromPoint(x, y); return el && (el.closest('[data-floor]')?.dataset.floor ?? el.tagName); }"
# The room code on top of the plan's rooms at a point, and whether an element is what the point hits.
TOP_AT = "([x, y, sel]) => { const el = document.elementFromPoint(x, y); return !!el && !!el.closest(sel); }"


def floor_rooms(floor: str) -> list[str]:
    return [room_code(floor, flat, room) for flat in range(len(FLATS)) for room in range(len(ROOMS))]


@pytest.fixture(scope="module")
def building_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_building(tmp_path_factory.mktemp("building"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, building_path: Path) -> Iterator[WebServer]:
    running, served = start_web_server(tmp_path_factory.mktemp("server"), building_path)
    yield served
    running.close()



def choose_floor(v: Viewer, floor: str) -> None:
    v.page.click(f"[data-floor='{floor}']")
    v.page.wait_for_function("f => document.querySelector(`[data-floor='${f}']`).getAttribute('aria-pressed') === 'true'", arg=floor)


def camera(v: Viewer) -> dict[str, list[float]]:
    cam = v.hook("camera")
    assert cam is not None
    return cam


def moved(a: list[float], b: list[float]) -> float:
    return math.dist(a, b)


def search(v: Viewer, text: str, found: bool = True) -> list[str]:
    """Type `text` in the search box; the codes listed once there are some (none, when `found` is false)."""
    v.page.get_by_test_id("search").fill(text)
    v.page.wait_for_function("([q, found]) => { const s = window.sceneViewer.search; return s.query === q && s.open && (s.results.length > 0) === found; }",
                             arg=[text, found])
    return v.hook("search.results")


def wait_framed(v: Viewer, codes: list[str]) -> None:
    v.page.wait_for_function("c => window.sceneViewer.framed.join() === c.join() && window.sceneViewer.state === 'ready'", arg=codes)


def test_the_floor_bar_fits_on_one_line_and_nothing_covers_it(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/")
    buttons = v.page.locator("[data-floor]")
    expect(buttons).to_have_count(len(FLOORS) + 1)
    boxes = [b.evaluate(BOX) for b in buttons.all()]
    assert max(b["top"] for b in boxes) - min(b["top"] for b in boxes) < 1  # one line
    assert all(b["left"] >= 0 and b["right"] <= 1280 for b in boxes)
    assert v.page.locator(".sv-floors-strip").evaluate("s => s.scrollWidth <= s.clientWidth")  # all in sight, none scrolled away
    for button, box in zip(buttons.all(), boxes, strict=True):
        centre = [(box["left"] + box["right"]) / 2, (box["top"] + box["bottom"]) / 2]
        assert v.page.evaluate(HIT, centre) == button.get_attribute("data-floor")  # nothing over it: a click lands on it
    # the title bar's first line holds everything else, and the room panel starts below the floors
    first = [v.page.get_by_test_id(t).evaluate(BOX) for t in ("view-title", "whole-scene", "search", "reset-view", "frame-all",
                                                               "view-options", "copy-link", "screenshot")]
    assert max(b["top"] for b in first) - min(b["top"] for b in first) < 6 and max(b["bottom"] for b in first) < boxes[0]["top"]
    assert v.page.get_by_test_id("panel").evaluate(BOX)["top"] >= max(b["bottom"] for b in boxes)
    choose_floor(v, "8")
    assert "Floor 8" in v.page.inner_text("[data-testid=view-title]")
    assert v.errors == []


def test_every_floor_is_within_reach_on_a_phone(phone: Any, server: WebServer) -> None:
    phone.goto(f"{server.url}/")
    phone.wait_for_function("['ready', 'error'].includes(document.body.dataset.viewerState)")
    assert phone.evaluate("document.body.dataset.viewerState") == "ready"
    bar = phone.get_by_test_id("floor-bar").evaluate(BOX)
    for code in ["all", *FLOORS]:
        button = phone.locator(f"[data-floor='{code}']")
        button.scroll_into_view_if_needed()
        box = button.evaluate(BOX)
        assert box["left"] >= 0 and box["right"] <= PHONE["width"] and bar["top"] <= box["top"] and box["bottom"] <= bar["bottom"] + 0.5
        centre = [(box["left"] + box["right"]) / 2, (box["top"] + box["bottom"]) / 2]
        assert phone.evaluate(HIT, centre) == code
        button.tap()
        phone.wait_for_function("c => document.querySelector(`[data-floor='${c}']`).getAttribute('aria-pressed') === 'true'", arg=code)
    assert phone.evaluate("document.scrollingElement.scrollHeight <= window.innerHeight")  # the page itself never scrolls
    # the search box and the plan's toggle are there, the plan folded at first and small when opened
    search_box = phone.get_by_test_id("search").evaluate(BOX)
    assert search_box["right"] <= PHONE["width"] and phone.evaluate(TOP_AT, [search_box["left"] + 20, (search_box["top"] + search_box["bottom"]) / 2,
                                                                              "[data-testid=search]"])
    expect(phone.locator(".sv-minimap-plan")).to_be_hidden()
    phone.get_by_test_id("minimap-toggle").tap()
    expect(phone.locator(".sv-minimap-plan")).to_be_visible()
    plan = phone.get_by_test_id("minimap").evaluate(BOX)
    canvas = phone.locator("#viewer canvas.sv-canvas").evaluate(BOX)
    assert canvas["top"] <= plan["top"] and plan["bottom"] <= canvas["bottom"] + 0.5 and plan["right"] <= PHONE["width"]
    assert (plan["right"] - plan["left"]) * (plan["bottom"] - plan["top"]) < 0.2 * (canvas["right"] - canvas["left"]) * (canvas["bottom"] - canvas["top"])


def test_the_room_list_shows_the_floor_by_unit_with_whole_names(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/")
    assert v.page.locator("#viewer [data-group^='floor:']").count() == len(FLOORS)  # all floors: one section each
    choose_floor(v, "2")
    rows = v.page.locator("#viewer [data-item]")
    assert [r.get_attribute("data-item") for r in rows.all()] == floor_rooms("2")
    # the list, in order: each unit's heading, then its rooms (whose names end with it)
    entries = v.page.eval_on_selector_all("#viewer .sv-list > li", "els => els.map(e => [e.dataset.group ?? null, e.dataset.item ?? null])")
    unit = None
    seen = []
    for group, item in entries:
        if group:
            unit = v.page.inner_text(f"[data-group='{group}']")
            seen.append(unit)
        else:
            flat, room = divmod(int(item.split("-")[1]) - 1, len(ROOMS))
            assert unit == f"flat 2{FLATS[flat]}" and room_name("2", flat, room).endswith(unit), (item, unit)
    assert seen == [f"flat 2{f}" for f in FLATS]
    for row in rows.all():  # whole names, never cut
        text = row.locator(".sv-row-text")
        code = row.get_attribute("data-item")
        flat, room = divmod(int(code.split("-")[1]) - 1, len(ROOMS))
        assert text.inner_text() == f"{code} · {room_name('2', flat, room)}"
        assert text.evaluate("t => t.scrollWidth <= t.clientWidth && t.scrollHeight <= t.clientHeight + 1"), code
    # the list scrolls inside the panel, which stays where it is
    panel = v.page.get_by_test_id("panel")
    before = panel.evaluate(BOX)
    last = rows.last
    last.scroll_into_view_if_needed()
    box = last.evaluate(BOX)
    assert panel.evaluate(BOX) == before and before["top"] <= box["top"] and box["bottom"] <= before["bottom"] + 0.5
    assert v.page.evaluate("window.scrollY") == 0


def test_search_finds_rooms_and_objects_by_name_unit_code_label_and_chinese(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/")
    v.page.keyboard.press("/")  # "/" goes to the search box
    v.page.wait_for_function("document.activeElement === document.querySelector('[data-testid=search]')")
    assert search(v, "kitchen 3B")[0] == room_code("3", 1, 1)  # a name and a unit
    assert sorted(search(v, "flat 5C")[:5]) == sorted(floor_rooms("5")[10:15])  # a unit: its rooms first
    assert search(v, "6-13")[0] == "6-13"  # a code
    assert search(v, "sofa 7A")[0] == f"{room_code('7', 0, 2)}-1"  # an object by its label, in its flat
    assert search(v, "厨房 公寓 4D")[0] == room_code("4", 3, 1)  # Chinese: the room type and the unit
    assert search(v, "马桶")[0] == f"{room_code('0', 0, 4)}-1"  # an object's Chinese label (the toilets, in code order)
    assert search(v, "卧室 8B")[0] == room_code("8", 1, 3)
    assert search(v, "nothing like this", found=False) == []
    expect(v.page.locator(".sv-result-none")).to_be_visible()

    # the keyboard: ↓ moves through the results, Enter opens one (framed on its floor), Escape closes
    results = search(v, "bathroom 2")
    v.page.keyboard.press("ArrowDown")
    v.page.keyboard.press("ArrowDown")
    v.page.wait_for_function("r => window.sceneViewer.search.active === r", arg=results[2])
    v.page.keyboard.press("Enter")
    wait_framed(v, [results[2]])
    assert v.hook("search.open") is False and "Floor 2" in v.page.inner_text("[data-testid=view-title]")
    assert v.page.get_attribute("[data-floor='2']", "aria-pressed") == "true" and v.hook("drillRoom") is None
    assert v.screen_position(results[2]) is not None
    search(v, "kitchen")
    v.page.keyboard.press("Escape")
    v.page.wait_for_function("!window.sceneViewer.search.open")
    v.page.keyboard.press("Escape")  # again: the text goes and so does the focus
    v.page.wait_for_function("document.activeElement === document.body && window.sceneViewer.search.query === ''")

    # an object opened with the mouse: framed inside its room
    chair = f"{room_code('5', 2, 1)}-1"
    search(v, "chair 5C")
    v.page.click(f"[data-result='{chair}']")
    wait_framed(v, [chair])
    assert v.hook("drillRoom") == room_code("5", 2, 1)
    assert v.page.locator(f".sv-label[data-label='{chair}']").is_visible()
    assert v.errors == []


def test_the_floor_plan_draws_the_floor_follows_the_camera_and_frames_a_room(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/")
    choose_floor(v, "4")
    v.page.wait_for_function("window.sceneViewer.minimap.floor === '4' && window.sceneViewer.minimap.camera !== null")
    plan = v.hook("minimap")
    assert plan["open"] and [r["code"] for r in plan["rooms"]] == floor_rooms("4")
    assert "floor 4" in v.page.inner_text("[data-testid=minimap-toggle]")
    marker = plan["camera"]
    for key in ("w", "w", "a", "a"):
        v.page.keyboard.press(key)
    v.page.wait_for_function("m => { const c = window.sceneViewer.minimap.camera; return c && Math.hypot(c.x - m.x, c.y - m.y) > 2; }",
                             arg=marker)
    # a click on a room of the plan frames that room
    room = room_code("4", 2, 3)
    box = next(r for r in v.hook("minimap.rooms") if r["code"] == room)
    centre = [(box["left"] + box["right"]) / 2, (box["top"] + box["bottom"]) / 2]
    assert v.page.evaluate(TOP_AT, [*centre, "[data-testid=minimap]"])  # nothing over the plan
    v.page.mouse.click(*centre)
    wait_framed(v, [room])
    framed, shown = v.hook("view.framedRect()"), v.hook(f"view.screenBox('{room}')")
    assert framed["left"] <= shown["left"] and shown["right"] <= framed["right"] and framed["top"] <= shown["top"] <= shown["bottom"] <= framed["bottom"]
    v.page.get_by_test_id("minimap-toggle").click()  # folds to its title
    expect(v.page.locator(".sv-minimap-plan")).to_be_hidden()
    assert v.hook("minimap.open") is False
    assert v.errors == []


def test_the_camera_is_in_the_link_a_reload_keeps_it_and_copy_link_copies_it(viewer: Callable[..., Viewer], server: WebServer) -> None:
    v = viewer("/?floor=3")
    v.page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    for key in ("d", "d", "w", "+", "q"):
        v.page.keyboard.press(key)
    cam = camera(v)
    v.page.wait_for_function("() => { const c = window.sceneViewer.camera; const p = new URL(location.href).searchParams.get('camera');"
                             " return p && p.split(',').map(Number).every((v, k) => Math.abs(v - [...c.position, ...c.target][k]) < 0.011); }")
    assert "floor=3" in v.page.url
    v.page.get_by_test_id("copy-link").click()
    expect(v.page.get_by_test_id("share-status")).to_have_text("Link copied")
    copied = v.page.evaluate("navigator.clipboard.readText()")
    assert copied == v.page.url and "camera=" in copied
    v.page.reload()
    v.wait_state("ready")
    again = camera(v)
    assert moved(again["position"], cam["position"]) < 0.03 and moved(again["target"], cam["target"]) < 0.03
    assert v.page.get_attribute("[data-floor='3']", "aria-pressed") == "true"
    v.page.goto(copied.replace("floor=3", "floor=5"))  # a link opens its own floor with the camera it names
    v.wait_state("ready")
    assert moved(camera(v)["position"], cam["position"]) < 0.03
    linked = v.page.evaluate("new URL(location.href).searchParams.get('camera')")
    v.page.click("[data-floor='6']")  # another place: a history entry of its own, with its own camera
    v.page.wait_for_function("p => { const q = new URL(location.href).searchParams; return q.get('floor') === '6' && q.get('camera') && q.get('camera') !== p; }",
                             arg=linked)
    v.page.go_back()  # the entry before keeps the camera it had, and shows it again
    v.page.wait_for_function("p => new URL(location.href).searchParams.get('camera') === p", arg=linked)
    assert "floor=5" in v.page.url
    v.page.wait_for_function("document.querySelector(\"[data-floor='5']\").getAttribute('aria-pressed') === 'true'")
    back = camera(v)
    assert moved(back["position"], cam["position"]) < 0.03 and moved(back["target"], cam["target"]) < 0.03, (back, cam)
    assert v.errors == []


def test_screenshot_downloads_a_png_of_the_view(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/")
    # coloured by room: the rooms (solid boxes of points here, drawn closed) each in its own colour
    v.page.locator("[data-testid=colour-mode] [data-colour-mode=room]").click()
    v.page.wait_for_function("window.sceneViewer.view.options.colour === 'room'")
    with v.page.expect_download() as info:
        v.page.get_by_test_id("screenshot").click()
    download = info.value
    assert download.suggested_filename.endswith(".png") and download.suggested_filename.startswith("Test-block-of-flats")
    png = Path(download.path()).read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    drawn = png_pixels(v.page, png, """
        let other = 0; const colours = new Set();
        for (let i = 0; i < d.length; i += 4) {
          if (Math.abs(d[i] - 0x14) + Math.abs(d[i + 1] - 0x16) + Math.abs(d[i + 2] - 0x1a) > 12) other++;
          colours.add((d[i] >> 3) << 10 | (d[i + 1] >> 3) << 5 | (d[i + 2] >> 3));
        }
        return { w, h, covered: other / (d.length / 4), colours: colours.size };""")
    canvas = v.page.locator("#viewer canvas.sv-canvas").bounding_box()
    assert abs(drawn["w"] - canvas["width"]) <= 1 and abs(drawn["h"] - canvas["height"]) <= 1  # the 3D view, as large as drawn
    assert drawn["covered"] > 0.02 and drawn["colours"] >= 4, drawn  # points in their colours: not a blank canvas


def picked_rooms(v: Viewer) -> set[str]:
    """The rooms whose points GPU picking finds over a grid across the canvas (an object counts as its room)."""
    codes = v.page.evaluate("""() => {
        const r = document.querySelector('#viewer canvas.sv-canvas').getBoundingClientRect();
        const found = new Set();
        for (let i = 1; i < 40; i++) for (let j = 1; j < 30; j++) {
            const code = window.sceneViewer.bench.pickAt(r.left + r.width * i / 40, r.top + r.height * j / 30, 'gpu').code;
            if (code) found.add(code.split('-').slice(0, 2).join('-'));
        }
        return [...found];
    }""")
    return set(codes)


def test_the_clip_box_hides_what_lies_outside_and_resets(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/?floor=1")
    pick = "c => { const b = window.sceneViewer.view.screenBox(c); return b && window.sceneViewer.bench.pickAt((b.left + b.right) / 2, (b.top + b.bottom) / 2, 'gpu').code; }"
    kitchen, lounge = room_code("1", 1, 1), room_code("1", 2, 2)
    v.page.get_by_test_id("search").fill("kitchen 1B")
    v.page.wait_for_function("window.sceneViewer.search.results.length > 0")
    v.page.keyboard.press("Enter")
    wait_framed(v, [kitchen])
    v.page.get_by_test_id("frame-all").click()  # the floor again, the kitchen among the rest
    v.page.wait_for_function("window.sceneViewer.framed.length > 1")
    v.page.evaluate("window.sceneViewer.bench.frameMs()")
    assert (v.page.evaluate(pick, lounge) or "").startswith(lounge)
    assert len(picked_rooms(v)) > 10  # most of the floor's rooms are drawn where the camera looks
    v.page.get_by_test_id("search").fill("kitchen 1B")
    v.page.wait_for_function("window.sceneViewer.search.results.length > 0")
    v.page.keyboard.press("Enter")
    wait_framed(v, [kitchen])
    panel = v.page.get_by_test_id("clip-box")
    expect(panel).to_be_visible()  # in the View panel, open on a desktop
    v.page.get_by_test_id("clip-around").click()
    v.page.wait_for_function("window.sceneViewer.clipBox !== null")
    box = v.hook("clipBox")
    room = next(i for f in v.page.evaluate("fetch('/api/scenes/block').then(r => r.json())")["floors"] for i in f["rooms"] if i["code"] == kitchen)
    assert all(abs(box["min"][k] - (room["bounds"]["min"][k] - 0.1)) < 1e-6 and abs(box["max"][k] - (room["bounds"]["max"][k] + 0.1)) < 1e-6
               for k in range(3))
    assert v.page.inner_text("[data-testid=clip-value]") == "on"
    v.page.get_by_test_id("frame-all").click()
    v.page.wait_for_function("window.sceneViewer.framed.length > 1")
    v.page.evaluate("window.sceneViewer.bench.frameMs()")
    assert v.page.evaluate(pick, lounge) is None  # outside the box: neither drawn nor picked
    assert (v.page.evaluate(pick, kitchen) or "").startswith(kitchen)
    assert picked_rooms(v) == {kitchen}  # nothing else is drawn anywhere
    assert v.page.locator(f".sv-label[data-label='{lounge}']").count() == 0  # nor named
    # a limit typed by hand (the limits fold out); then Reset
    v.page.locator("[data-testid=clip-limits] summary").click()
    v.page.get_by_test_id("clip-z-max").fill("4.0")
    v.page.get_by_test_id("clip-z-max").dispatch_event("change")
    v.page.wait_for_function("window.sceneViewer.clipBox.max[2] === 4")
    v.page.get_by_test_id("clip-reset").click()
    v.page.wait_for_function("window.sceneViewer.clipBox === null")
    v.page.get_by_test_id("frame-all").click()  # the whole floor is there to frame again
    v.page.wait_for_function("window.sceneViewer.framed.length > 2")
    v.page.evaluate("window.sceneViewer.bench.frameMs()")
    assert (v.page.evaluate(pick, lounge) or "").startswith(lounge) and len(picked_rooms(v)) > 10
    assert v.page.inner_text("[data-testid=clip-value]") == "off"
    # the section ("cut above") still works beside it
    v.page.get_by_role("slider", name="Cut above").fill("4")
    v.page.wait_for_function("window.sceneViewer.view.section === 4")
    assert v.errors == []


def test_keys_move_the_camera_but_not_while_typing(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/?floor=0")
    v.page.keyboard.press("r")  # the view as it frames itself
    v.page.evaluate("window.sceneViewer.bench.frameMs()")
    start = camera(v)
    v.page.keyboard.press("d")  # a step to the right: camera and target together
    v.page.wait_for_function("p => window.sceneViewer.camera.position[0] > p[0] + 0.1", arg=start["position"])
    after = camera(v)
    step = [a - b for a, b in zip(after["position"], start["position"], strict=True)]
    assert all(abs((after["target"][k] - start["target"][k]) - step[k]) < 1e-3 for k in range(3)) and abs(step[2]) < 1e-6
    distance = moved(after["position"], after["target"])
    v.page.keyboard.press("+")
    v.page.wait_for_function("d => { const c = window.sceneViewer.camera; return Math.hypot(...c.position.map((v, k) => v - c.target[k])) < d - 0.01; }",
                             arg=distance)
    v.page.keyboard.press("ArrowUp")
    v.page.keyboard.press("r")  # back to the view as framed
    v.page.wait_for_function("p => Math.hypot(...window.sceneViewer.camera.position.map((v, k) => v - p[k])) < 0.01", arg=start["position"])
    # typing in the search box moves nothing
    v.page.get_by_test_id("search").click()
    v.page.keyboard.type("wasd+")
    assert v.page.get_by_test_id("search").input_value() == "wasd+"
    v.page.evaluate("window.sceneViewer.bench.frameMs()")
    assert moved(camera(v)["position"], start["position"]) < 0.01
    # F frames what was opened
    v.page.keyboard.press("Escape")
    v.page.keyboard.press("Escape")
    room = room_code("0", 3, 0)
    v.page.get_by_test_id("search").fill(room)
    v.page.keyboard.press("Enter")
    wait_framed(v, [room])
    framed_at = camera(v)
    v.page.keyboard.press("s")
    v.page.keyboard.press("s")
    v.page.keyboard.press("f")
    v.page.wait_for_function("p => Math.hypot(...window.sceneViewer.camera.position.map((v, k) => v - p[k])) < 0.01", arg=framed_at["position"])
    assert v.errors == []


def test_every_floor_has_room_labels_and_none_is_over_the_status_line(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/")
    status = v.page.locator("#viewer .sv-status").evaluate(BOX)
    for floor in FLOORS:
        choose_floor(v, floor)
        v.page.evaluate("window.sceneViewer.bench.frameMs()")
        shown = v.page.eval_on_selector_all(".sv-label", """els => els.filter(e => getComputedStyle(e).display !== 'none').map(e => {
            const r = e.getBoundingClientRect(); return [e.dataset.label, r.bottom]; })""")
        assert shown and all(code.split("-")[0] == floor for code, _ in shown), (floor, shown)
        assert all(bottom <= status["top"] + 0.5 for _, bottom in shown), (floor, shown, status)
    assert v.errors == []


def test_the_controls_speak_chinese_and_follow_a_language_switch(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/?floor=1&lang=zh")
    assert v.page.inner_text("[data-floor='1']") == "1 层" and v.page.inner_text("[data-floor='all']") == "全部楼层"
    assert v.page.get_attribute("[data-testid=search]", "placeholder").startswith("搜索房间")
    assert v.page.inner_text("[data-testid=minimap-toggle]").startswith("平面图 · 1 层")
    assert v.page.get_attribute("[data-testid=copy-link]", "aria-label") == "复制此视图的链接"
    assert v.page.inner_text("[data-testid=clip-around]") == "框住房间"
    unit = v.page.locator("[data-group='unit:1:flat 1A']")
    expect(unit).to_have_text("公寓 1A")  # the room list's unit heading
    plan_title = v.page.locator(f"[data-plan-room='{room_code('1', 0, 1)}'] title")  # the floor plan's room
    expect(plan_title).to_have_text(f"{room_code('1', 0, 1)} · 厨房，公寓 1A")
    expect(v.page.locator(f"[data-item='{room_code('1', 0, 1)}'] .sv-row-text")).to_have_text(f"{room_code('1', 0, 1)} · 厨房，公寓 1A")
    assert search(v, "bathroom 1A")[0] == room_code("1", 0, 4)
    # its Chinese name beside the scene's own, once the names (fetched on the search's first use) have come
    expect(v.page.locator(f"[data-result='{room_code('1', 0, 4)}']")).to_contain_text(re.compile("卫生间|浴室"))
    v.page.keyboard.press("Escape")
    v.page.get_by_test_id("lang-en").click()  # the switcher belongs to the chat panel
    v.page.wait_for_function("document.querySelector('[data-testid=minimap-toggle]').textContent.startsWith('Plan · floor 1')")
    # the button's name follows the language: its words, or (in a bar too narrow for them) its code named by aria-label
    floor_one = v.page.locator("[data-floor='1']")
    v.page.wait_for_function("() => { const b = document.querySelector(\"[data-floor='1']\");"
                             " return (b.getAttribute('aria-label') || b.textContent) === 'Floor 1'; }")  # its own render
    assert (floor_one.get_attribute("aria-label") or floor_one.inner_text()) == "Floor 1"
    assert v.page.inner_text("[data-testid=clip-around]") == "Around the room"
    expect(unit).to_have_text("flat 1A")
    expect(plan_title).to_have_text(f"{room_code('1', 0, 1)} · Kitchen, flat 1A")
    assert v.errors == []
