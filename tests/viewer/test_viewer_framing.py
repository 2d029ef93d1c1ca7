"""Floors exploded apart, labels that never cover each other, and "Frame all" keeping every candidate in the
visible part of the canvas (clear of the side panel and the view controls) with a margin."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from viewer_helpers import Viewer

FLOOR_0 = ["0-1", "0-2", "0-3"]  # tests/small_scene.py: floor 1's rooms stand right above these
# Where each label's anchor is (the middle of its bottom edge, 4 px below: viewer.css), and what GPU picking finds there.
ANCHOR_PICKS = """codes => codes.map(code => {
    const el = document.querySelector(`.sv-label[data-label='${code}']`);
    const r = el.getBoundingClientRect();
    return window.sceneViewer.bench.pickAt((r.left + r.right) / 2, r.bottom + 4, 'gpu').code;
})"""
LABELS = """() => [...document.querySelectorAll('.sv-label')].filter(e => getComputedStyle(e).display !== 'none').map(e => {
    const r = e.getBoundingClientRect();
    return [e.dataset.label, r.left, r.top, r.right, r.bottom];
})"""
# Spread over both floors and the whole width of the scene: the two on the right were framed at the canvas' edge.
SPREAD = ["0-1-1", "0-1-2", "0-1-3", "1-3-2", "1-4-1"]


def drawn(v: Viewer) -> None:
    """Draw a frame now (labels are placed after each frame), as the next animation frame would."""
    v.page.evaluate("window.sceneViewer.bench.frameMs()")


def labels(v: Viewer) -> dict[str, tuple[float, float, float, float]]:
    return {key: (x0, y0, x1, y1) for key, x0, y0, x1, y1 in v.page.evaluate(LABELS)}


def overlapping(shown: dict[str, tuple[float, float, float, float]]) -> list[tuple[str, str]]:
    keys = sorted(shown)
    return [(a, b) for i, a in enumerate(keys) for b in keys[i + 1:]
            if shown[a][0] < shown[b][2] and shown[b][0] < shown[a][2] and shown[a][1] < shown[b][3] and shown[b][1] < shown[a][3]]


def within(inner: dict[str, float] | tuple[float, ...], outer: dict[str, float], margin: float) -> bool:
    x0, y0, x1, y1 = inner if isinstance(inner, tuple) else (inner["left"], inner["top"], inner["right"], inner["bottom"])
    return (x0 >= outer["left"] + margin and y0 >= outer["top"] + margin
            and x1 <= outer["right"] - margin and y1 <= outer["bottom"] - margin)


def test_explode_floors_so_the_upper_one_hides_nothing(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/")
    assert v.page.evaluate(ANCHOR_PICKS, FLOOR_0) != FLOOR_0  # upper rooms are drawn over the ground floor's
    v.page.get_by_test_id("explode-floors").check()
    v.page.wait_for_function("window.sceneViewer.view.exploded === true")
    drawn(v)
    # every room is seen where its label points, picking and labels follow the lift, and all of it is framed
    rooms = FLOOR_0 + ["1-1", "1-2", "1-3", "1-4"]
    assert v.page.evaluate(ANCHOR_PICKS, rooms) == rooms
    framed = v.hook("view.framedRect()")
    for code in rooms:
        assert within(v.hook(f"view.screenBox('{code}')"), framed, 0), code
        at = v.screen_position(code)
        assert v.page.evaluate("([x, y]) => window.sceneViewer.bench.pickAt(x, y, 'gpu').code", [at["x"], at["y"]]) == code
    assert labels(v)["1-1"][3] < labels(v)["0-1"][1]  # the upper floor's label is above the ground floor's now
    v.page.get_by_test_id("explode-floors").uncheck()
    v.page.wait_for_function("window.sceneViewer.view.exploded === false")
    drawn(v)
    assert v.page.evaluate(ANCHOR_PICKS, FLOOR_0) != FLOOR_0
    assert v.errors == []


def test_labels_never_cover_each_other(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    v = viewer(open_vis(SPREAD, selection_mode=True))  # three chairs side by side, far from the others
    shown = labels(v)
    assert sorted(shown) == SPREAD  # the candidates' labels are all there
    assert overlapping(shown) == []
    at = v.screen_position("0-1-2")
    v.page.mouse.move(at["x"], at["y"])  # the hovered one keeps its place; the others move, none is hidden
    v.page.wait_for_function("window.sceneViewer.hovered === '0-1-2'")
    drawn(v)
    shown = labels(v)
    assert sorted(shown) == SPREAD and overlapping(shown) == []
    v.page.goto(f"{v.server.url}/")
    v.wait_state("ready")
    assert overlapping(labels(v)) == []


def test_frame_all_keeps_every_candidate_clear_of_the_edges(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    v = viewer(open_vis(SPREAD, selection_mode=True, multiple=True))
    c = v.page.locator("#viewer canvas").bounding_box()
    canvas = {"left": c["x"], "top": c["y"], "right": c["x"] + c["width"], "bottom": c["y"] + c["height"]}
    p = v.page.locator("#viewer .sv-panel").bounding_box()
    panel = (p["x"], p["y"], p["x"] + p["width"], p["y"] + p["height"])

    def clear_of_the_edges() -> None:
        shown = labels(v)
        for code in SPREAD:  # each candidate and its label in the canvas away from its edges, and not under the panel
            assert within(shown[code], canvas, 8) and not overlapping({"label": shown[code], "panel": panel}), (code, shown[code])
            at = v.screen_position(code)
            assert within((at["x"], at["y"], at["x"], at["y"]), canvas, 24), code
            assert not overlapping({"at": (at["x"], at["y"], at["x"] + 1, at["y"] + 1), "panel": panel}), code

    clear_of_the_edges()
    framed = v.hook("view.framedRect()")
    controls = v.page.get_by_test_id("view-panel").bounding_box()
    for code in SPREAD:  # every candidate's whole box inside the part nothing covers, with a margin
        box = v.hook(f"view.screenBox('{code}')")
        assert within(box, framed, 12), (code, box, framed)
        assert box["left"] > controls["x"] + controls["width"] or box["bottom"] < controls["y"] or box["top"] > controls["y"] + controls["height"] \
            or box["right"] < controls["x"], code  # not under the open view controls
    # orbit away (drag), then "Frame all" brings every candidate back
    at = v.screen_position("0-1-2")
    v.page.mouse.move(at["x"] + 5, at["y"] + 40)
    v.page.mouse.down()
    v.page.mouse.move(at["x"] + 300, at["y"] + 120, steps=8)
    v.page.mouse.up()
    v.page.get_by_test_id("frame-all").click()
    drawn(v)
    clear_of_the_edges()
    assert v.errors == []
