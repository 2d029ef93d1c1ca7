"""Picking keeps true colours: candidates and picks are marked by boxes and labels, never by a tint over their points;
colour modes (true colour, by room, by object) with a legend of what is shown."""

from __future__ import annotations

import colorsys
from collections.abc import Callable
from typing import Any

from viewer_helpers import Viewer, screen_pixels

# tests/small_scene.py: the kitchen's chairs and the rooms' own points
RED_CHAIR, BLUE_CHAIR, GREEN_CHAIR = "0-1-1", "0-1-2", "0-1-3"
TRUE = {RED_CHAIR: (200, 30, 30), BLUE_CHAIR: (30, 30, 200), GREEN_CHAIR: (30, 160, 40)}
ROOM_RGB = (200, 200, 190)
ALL_PIXELS = "const out = []; for (let i = 0; i < d.length; i += 4) out.push([d[i], d[i + 1], d[i + 2]]); return out;"
HALF = 14  # the square looked at around an item's screen position: 29 × 29 pixels


def pixels_at(v: Viewer, code: str) -> list[tuple[int, int, int]]:
    """The pixels around the place where a click on `code` lands (one of its own points, the GPU pick confirms)."""
    at = v.screen_position(code)
    clip = {"x": at["x"] - HALF, "y": at["y"] - HALF, "width": 2 * HALF + 1, "height": 2 * HALF + 1}
    return [tuple(p) for p in screen_pixels(v, clip, ALL_PIXELS)]


def hsv(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    return colorsys.rgb_to_hsv(*(c / 255 for c in rgb))


def shows_hue(pixel: tuple[int, int, int], true: tuple[int, int, int], brightness: bool = True) -> bool:
    """The pixel has the colour's hue (within 12°) and most of its saturation (and brightness): not tinted."""
    h, s, value = hsv(pixel)
    th, ts, tv = hsv(true)
    turn = abs(h - th) * 360
    return min(turn, 360 - turn) <= 12 and s >= 0.8 * ts and (not brightness or abs(value - tv) <= 0.25 * tv)


def true_share(v: Viewer, code: str, true: tuple[int, int, int], brightness: bool = True) -> int:
    """How many pixels around the item show `true` (of 29 × 29)."""
    return sum(shows_hue(p, true, brightness) for p in pixels_at(v, code))


def away(v: Viewer) -> None:
    """The pointer off the canvas (nothing hovered)."""
    v.page.mouse.move(2, 2)
    v.page.wait_for_function("window.sceneViewer.hovered === null")
    drawn(v)


def drawn(v: Viewer) -> None:
    """Draw a frame now, as the next animation frame would."""
    v.page.evaluate("window.sceneViewer.bench.frameMs()")


def test_picked_chairs_keep_their_colours(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    v = viewer(open_vis([RED_CHAIR, BLUE_CHAIR, GREEN_CHAIR], selection_mode=True, multiple=True, prompt="Which chair?"))
    v.click_item(RED_CHAIR)
    v.click_item(BLUE_CHAIR)
    v.page.wait_for_function(f"window.sceneViewer.selected.join() === '{RED_CHAIR},{BLUE_CHAIR}'")
    away(v)
    # Many pixels of each chair, picked or not, are of its own hue, saturation and brightness (a tint moves all of them).
    for code in (RED_CHAIR, BLUE_CHAIR, GREEN_CHAIR):
        assert true_share(v, code, TRUE[code]) >= 60, code
    # Hovering enlarges a pick's points and does not recolour them.
    at = v.screen_position(RED_CHAIR)
    v.page.mouse.move(at["x"], at["y"])
    v.page.wait_for_function(f"window.sceneViewer.hovered === '{RED_CHAIR}'")
    drawn(v)
    assert true_share(v, RED_CHAIR, TRUE[RED_CHAIR]) >= 60
    assert v.errors == []


def test_picks_and_candidates_are_marked_by_boxes(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    v = viewer(open_vis([RED_CHAIR, BLUE_CHAIR, GREEN_CHAIR], selection_mode=True, multiple=True))
    v.click_item(RED_CHAIR)
    v.page.wait_for_function(f"window.sceneViewer.selected.join() === '{RED_CHAIR}'")
    away(v)

    def box_pixels(code: str, rgb: tuple[int, int, int]) -> int:
        """Pixels of a box colour (looks.ts OUTLINE) around the item's box on screen."""
        b = v.hook(f"view.screenBox('{code}')")
        clip = {"x": b["left"] - 12, "y": b["top"] - 12, "width": b["right"] - b["left"] + 24, "height": b["bottom"] - b["top"] + 24}
        count = f"let n = 0; for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - {rgb[0]}) + Math.abs(d[i + 1] - {rgb[1]}) + Math.abs(d[i + 2] - {rgb[2]}) < 30) n++; return n;"
        return int(screen_pixels(v, clip, count))

    picked, candidate = (0x2E, 0xE6, 0xA6), (0xFF, 0xB2, 0x24)
    assert box_pixels(RED_CHAIR, picked) > 3 * box_pixels(BLUE_CHAIR, picked)  # the pick's thick, doubled green box
    assert box_pixels(BLUE_CHAIR, candidate) > 100 and box_pixels(RED_CHAIR, candidate) < box_pixels(BLUE_CHAIR, candidate) / 3


def test_a_picked_room_keeps_its_colours(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    v = viewer(open_vis(["1-2", "1-3"], selection_mode=True))
    v.click_item("1-2")
    v.page.wait_for_function("window.sceneViewer.selected.join() === '1-2'")
    away(v)
    near = [p for p in pixels_at(v, "1-2") if sum(abs(a - b) for a, b in zip(p, ROOM_RGB)) <= 30]
    assert len(near) >= 40  # its own near-grey, not tinted green


def test_colour_modes_and_their_legend(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    v = viewer(open_vis([RED_CHAIR, BLUE_CHAIR], selection_mode=True))
    away(v)
    modes = v.page.locator("[data-testid=colour-mode]")
    assert modes.locator("[data-colour-mode=true]").get_attribute("aria-pressed") == "true"  # true colour by default
    assert v.page.locator("[data-testid=legend]").is_hidden()

    def legend() -> list[tuple[str, str]]:
        return [tuple(row) for row in v.page.eval_on_selector_all(
            "[data-testid=legend] [data-legend-code]",
            "els => els.map(e => [e.dataset.legendCode, getComputedStyle(e.querySelector('.svc-swatch')).backgroundColor])")]

    def swatch(css: str) -> tuple[int, int, int]:
        r, g, b = (int(x) for x in css[css.index("(") + 1:css.index(")")].split(",")[:3])
        return r, g, b

    modes.locator("[data-colour-mode=room]").click()
    v.page.wait_for_function("window.sceneViewer.view.options.colour === 'room'")
    drawn(v)
    rows = legend()
    assert [code for code, _ in rows] == ["0-1"]  # one room is shown: the kitchen (its structure and its chairs)
    assert v.page.locator("[data-testid=legend] [data-legend-code='0-1']").inner_text() == "0-1 · kitchen"
    kitchen = swatch(rows[0][1])
    # painted in the kitchen's colour (shaded by the scan's brightness): no longer red
    assert true_share(v, RED_CHAIR, TRUE[RED_CHAIR]) < 10
    assert true_share(v, RED_CHAIR, kitchen, brightness=False) >= 40

    modes.locator("[data-colour-mode=object]").click()
    v.page.wait_for_function("window.sceneViewer.view.options.colour === 'object'")
    drawn(v)
    rows = legend()
    codes = [code for code, _ in rows]
    assert RED_CHAIR in codes and BLUE_CHAIR in codes and all(len(code.split("-")) == 3 for code in codes)
    red, blue = swatch(dict(rows)[RED_CHAIR]), swatch(dict(rows)[BLUE_CHAIR])
    assert red != blue
    assert true_share(v, RED_CHAIR, red, brightness=False) >= 40 and true_share(v, BLUE_CHAIR, blue, brightness=False) >= 40

    modes.locator("[data-colour-mode=true]").click()
    v.page.wait_for_function("window.sceneViewer.view.options.colour === 'true'")
    drawn(v)
    assert v.page.locator("[data-testid=legend]").is_hidden()
    assert true_share(v, RED_CHAIR, TRUE[RED_CHAIR]) >= 60 and true_share(v, BLUE_CHAIR, TRUE[BLUE_CHAIR]) >= 60
    assert v.errors == []


def test_a_long_legend_keeps_every_row_readable(viewer: Callable[..., Viewer]) -> None:
    """The whole scene by object (16 rows) and by room: every row as tall as its words, none over another; the panel
    scrolls rather than squeeze them."""
    v = viewer("/")
    modes = v.page.locator("[data-testid=colour-mode]")
    for mode, rows in (("object", 16), ("room", 7)):
        modes.locator(f"[data-colour-mode={mode}]").click()
        v.page.wait_for_function("m => window.sceneViewer.view.options.colour === m", arg=mode)
        boxes = v.page.eval_on_selector_all("[data-testid=legend] [data-legend-code]", """els => els.map(e => {
            const r = e.getBoundingClientRect(); return [r.top, r.bottom]; })""")
        assert len(boxes) == rows, (mode, boxes)
        assert all(bottom - top >= 10 for top, bottom in boxes), (mode, boxes)
        assert all(later[0] >= earlier[1] - 0.5 for earlier, later in zip(boxes, boxes[1:], strict=False)), (mode, boxes)
    assert v.errors == []
