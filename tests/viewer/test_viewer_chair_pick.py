"""The demo home's "the chair" pick (the kitchen's four chairs and the study's office chair), on a desktop and on a
phone: the kitchen chairs framed big with the office chair listed with "Show", labels beside the chairs and never over
one (the green chair behind the red one was covered), a tap near a chair picking it, a label picking its chair."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from browser_fixtures import WebServer, local_url
from viewer_helpers import Viewer, draw_now, label_rects, overlap, screen_box

from scene_agent.demo.place import ensure_demo_scene
from scene_agent.scene.loader import load_scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.files.store import SessionStore
from scene_agent.tools.visualize import VisualizeInput, open_view

KITCHEN = ["0-3-2", "0-3-3", "0-3-4", "0-3-5"]  # red, blue, green, yellow
GREEN = "0-3-4"  # behind the red one, seen from the south
OFFICE = "0-4-2"  # the study's, next door
CHAIRS = [*KITCHEN, OFFICE]
DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}


@pytest.fixture
def chair_pick(browser: Any, web_server: Callable[..., WebServer]) -> Iterator[Callable[..., tuple[Viewer, str]]]:
    """`chair_pick(viewport, touch)`: the pick as the agent opens it for "the chair", in a page of that size."""
    demo = ensure_demo_scene()
    server = web_server(demo)
    opened: list[tuple[Any, Any]] = []

    def go(viewport: dict[str, int], touch: bool = False) -> tuple[Viewer, str]:
        vis, _ = open_view(load_scene(demo), VisualizeInput(codes=CHAIRS, selection_mode=True, prompt="Which chair do you mean?"),
                           server.settings, SelectionChannel(FileBackend(server.settings)))
        claim = SessionStore(server.settings).claim_waiting(vis.session_id or "")
        context = browser.new_context(viewport=viewport, locale="en-US", is_mobile=touch, has_touch=touch)
        context.set_default_timeout(30_000)
        opened.append((context, claim))
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
        page.goto(local_url(server, vis.viewer_url or ""))
        v = Viewer(page, server, errors)
        v.wait_state("ready")
        draw_now(v)
        return v, vis.session_id or ""

    yield go
    for context, claim in opened:
        context.close()
        claim.release()


def side(v: Viewer, code: str) -> float:
    """The shorter side of a chair's box on the screen (pixels)."""
    box = screen_box(v, code)
    assert box, code
    return min(box[2] - box[0], box[3] - box[1])


def no_label_over_a_chair(v: Viewer) -> dict[str, tuple[float, float, float, float]]:
    labels = label_rects(v)
    assert set(KITCHEN) <= set(labels)
    for key, rect in labels.items():
        for code in KITCHEN:
            assert not overlap(rect, screen_box(v, code) or (0, 0, 0, 0)), (key, code)  # the green chair among them
    return labels


def test_desktop_frames_the_kitchen_chairs_and_lists_the_office_chair(chair_pick: Callable[..., tuple[Viewer, str]]) -> None:
    v, session_id = chair_pick(DESKTOP)
    assert v.hook("framed") == KITCHEN and v.hook("far") == [OFFICE]
    assert all(side(v, code) >= 60 for code in KITCHEN), [side(v, c) for c in KITCHEN]
    shows = v.page.eval_on_selector_all("#viewer [data-testid=show-candidate]", "els => els.map(e => e.dataset.show)")
    assert shows == [OFFICE]
    labels = no_label_over_a_chair(v)
    assert not any(overlap(labels[key], screen_box(v, GREEN) or (0, 0, 0, 0)) for key in labels)

    # a click on a label picks its chair
    x0, y0, x1, y1 = labels["0-3-3"]
    v.page.mouse.click((x0 + x1) / 2, (y0 + y1) / 2)
    v.page.wait_for_function("window.sceneViewer.selected.join() === '0-3-3'")
    # "Show" frames the office chair without picking it; its row picks it
    v.page.click(f"#viewer [data-testid=show-candidate][data-show='{OFFICE}']")
    v.page.wait_for_function(f"window.sceneViewer.framed.join() === '{OFFICE}'")
    draw_now(v)
    assert side(v, OFFICE) >= 60 and v.hook("selected") == ["0-3-3"]
    v.page.click(f"#viewer [data-code='{OFFICE}']")
    v.page.wait_for_function(f"window.sceneViewer.selected.join() === '{OFFICE}'")
    assert v.hook("framed") == [OFFICE]  # already in sight: the camera stays
    v.page.click("[data-testid=confirm]")
    v.wait_state("submitted")
    assert [s["itemCode"] for s in v.session(session_id)["selections"]] == [OFFICE]
    assert v.errors == []


TAP_PX = 12  # at least this far from the middle of a chair's points
DIRECTIONS = 16
GPU_AT = "([x, y]) => window.sceneViewer.bench.pickAt(x, y, 'gpu').code"


def beside(v: Viewer, code: str) -> tuple[float, float]:
    """A spot at least TAP_PX from the middle of a chair's drawn points where GPU picking finds nothing (the first
    such going out from there, so next to its points), in no other chair's box."""
    centre = v.page.evaluate("code => window.sceneViewer.pointsCentre(code)", code)
    assert centre, code
    others = [box for other in CHAIRS if other != code and (box := screen_box(v, other))]
    for k in range(DIRECTIONS):
        dx, dy = math.cos(2 * math.pi * k / DIRECTIONS), math.sin(2 * math.pi * k / DIRECTIONS)
        for r in range(TAP_PX, 40, 2):
            x, y = centre["x"] + r * dx, centre["y"] + r * dy
            if v.page.evaluate(GPU_AT, [x, y]) is None:
                if not any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in others):
                    return x, y
                break
    raise AssertionError(f"no spot beside {code}'s points")


def test_phone_taps_near_a_chair_and_on_labels_pick_it(chair_pick: Callable[..., tuple[Viewer, str]]) -> None:
    v, _ = chair_pick(PHONE, touch=True)
    assert v.hook("framed") == KITCHEN and v.hook("far") == [OFFICE]
    assert all(side(v, code) >= 40 for code in KITCHEN), [side(v, c) for c in KITCHEN]
    no_label_over_a_chair(v)

    for code in KITCHEN:  # a tap off the middle of a chair's points, beside them (GPU picking finds none there)
        x, y = beside(v, code)
        v.page.touchscreen.tap(x, y)
        v.page.wait_for_function("code => window.sceneViewer.selected.join() === code", arg=code)

    # a tap far from every chair picks nothing
    canvas = v.page.locator("#viewer canvas").bounding_box()
    boxes = [screen_box(v, code) for code in CHAIRS]
    empty = next((x, y) for y in range(int(canvas["y"]) + 10, int(canvas["y"] + canvas["height"]) - 10, 20)
                 for x in range(10, PHONE["width"] - 10, 20)
                 if all(b is None or math.hypot(max(b[0] - x, 0, x - b[2]), max(b[1] - y, 0, y - b[3])) > 60 for b in boxes))
    v.page.evaluate("window.sceneViewer.lastPick = null")
    v.page.touchscreen.tap(*empty)
    v.page.wait_for_function("window.sceneViewer.lastPick !== null")
    assert v.hook("lastPick")["code"] is None and v.hook("selected") == [KITCHEN[-1]]

    # tapping a label picks its chair
    draw_now(v)
    labels = label_rects(v)
    x0, y0, x1, y1 = labels[GREEN]
    v.page.touchscreen.tap((x0 + x1) / 2, (y0 + y1) / 2)
    v.page.wait_for_function(f"window.sceneViewer.selected.join() === '{GREEN}'")
    assert v.errors == []
