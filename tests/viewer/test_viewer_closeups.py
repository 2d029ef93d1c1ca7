"""Readable close-ups: a point-size control, near points kept small, walls and ceilings hidden or cut away."""

from __future__ import annotations

import statistics
from collections.abc import Callable

from viewer_helpers import Viewer, screen_pixels

ROOM = "0-1"  # tests/small_scene.py: the kitchen, its own points (200, 200, 190), four objects
# Connected blobs of the rooms' grey on the canvas: [width, height, pixels] each (4-neighbours).
GREY_BLOBS = """
const grey = (i) => Math.abs(d[4 * i] - 200) + Math.abs(d[4 * i + 1] - 200) + Math.abs(d[4 * i + 2] - 190) <= 36;
const seen = new Uint8Array(w * h);
const out = [];
for (let s = 0; s < w * h; s++) {
  if (seen[s] || !grey(s)) continue;
  let x0 = w, x1 = -1, y0 = h, y1 = -1, n = 0;
  const stack = [s];
  seen[s] = 1;
  while (stack.length) {
    const p = stack.pop(), x = p % w, y = (p - x) / w;
    n++; x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    for (const q of [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, p - w, p + w]) {
      if (q >= 0 && q < w * h && !seen[q] && grey(q)) { seen[q] = 1; stack.push(q); }
    }
  }
  out.push([x1 - x0 + 1, y1 - y0 + 1, n]);
}
return out;"""


# The part of the canvas below the title bar and the view controls, right of the side panel, above the status line
# and the measuring tools' buttons.
OPEN_CANVAS = """() => {
    const c = document.querySelector('#viewer canvas').getBoundingClientRect();
    const below = [...document.querySelectorAll('#viewer .sv-top > *, #viewer [data-testid=view-panel]')]
        .filter(e => e.getClientRects().length).map(e => e.getBoundingClientRect().bottom);
    const left = document.querySelector('#viewer .sv-panel').getBoundingClientRect().right;
    const top = Math.max(c.top, ...below);
    const tools = document.querySelector('#viewer [data-testid=measure-tools]');
    const bottom = Math.min(c.bottom - 28, tools ? tools.getBoundingClientRect().top : Infinity);
    return { x: left, y: top, width: c.right - left, height: bottom - top };
}"""


def grey_blobs(v: Viewer) -> list[list[int]]:
    return screen_pixels(v, v.page.evaluate(OPEN_CANVAS), GREY_BLOBS)


def blobs(v: Viewer) -> list[int]:
    """The sizes (larger side, pixels) of the rooms' grey blobs on the canvas: one point's disc, or discs run together."""
    return sorted(max(b[0], b[1]) for b in grey_blobs(v) if b[2] > 3)


def grey_cover(v: Viewer) -> int:
    """Pixels of the rooms' grey on the canvas."""
    return sum(b[2] for b in grey_blobs(v))


def inside_the_kitchen(v: Viewer) -> None:
    """Look inside the kitchen, then fly in towards its middle with the wheel, as a user would; pointer off the canvas."""
    v.page.click(f"[data-testid=drill][data-room='{ROOM}']")
    v.page.wait_for_function(f"window.sceneViewer.drillRoom === '{ROOM}'")
    box = v.page.locator("#viewer canvas").bounding_box()
    v.page.mouse.move(box["x"] + box["width"] * 0.6, box["y"] + box["height"] / 2)
    for _ in range(2):
        v.page.mouse.wheel(0, -300)
    v.page.mouse.move(2, 2)
    v.page.wait_for_function("window.sceneViewer.hovered === null")
    v.page.evaluate("window.sceneViewer.bench.frameMs()")  # the wheel's last frame drawn


def test_near_points_stay_small(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/")
    inside_the_kitchen(v)
    sizes = blobs(v)
    assert len(sizes) > 50, sizes
    # Points near the camera are capped lower than the ones it looks at: no disc grows to a wall-covering size
    # (the kitchen's sparse points were 18-pixel discs, merging into blobs of hundreds of pixels).
    assert statistics.median(sizes) <= 13, sizes
    assert sizes[-1] <= 80, sizes
    assert v.errors == []


def test_point_size_control(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/")
    size = v.page.get_by_role("slider", name="Point size")
    assert size.get_attribute("data-testid") == "point-size" and size.input_value() == "1"
    inside_the_kitchen(v)
    normal = grey_cover(v)
    size.fill("0.5")
    v.page.wait_for_function("window.sceneViewer.view.pointScale === 0.5")
    v.page.evaluate("window.sceneViewer.bench.frameMs()")
    smaller = grey_cover(v)
    size.fill("2")
    v.page.wait_for_function("window.sceneViewer.view.pointScale === 2")
    v.page.evaluate("window.sceneViewer.bench.frameMs()")
    larger = grey_cover(v)
    assert smaller < 0.5 * normal and larger > 2 * normal, (smaller, normal, larger)


def test_hide_the_rooms_structure_keeps_the_objects(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/")
    inside_the_kitchen(v)
    assert len(blobs(v)) > 50
    v.page.get_by_test_id("hide-structure").check()
    v.page.wait_for_function("window.sceneViewer.view.options.hideStructure === true")
    v.page.evaluate("window.sceneViewer.bench.frameMs()")
    assert grey_cover(v) == 0  # the walls, floor and ceiling are gone
    at = v.screen_position("0-1-1")  # the objects stay, and can be hovered
    v.page.mouse.move(at["x"], at["y"])
    v.page.wait_for_function("window.sceneViewer.hovered === '0-1-1'")
    v.page.get_by_test_id("hide-structure").uncheck()
    v.page.wait_for_function("window.sceneViewer.view.options.hideStructure === false")
    assert v.screen_position(ROOM) is not None


def test_cut_away_what_is_above_a_height(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/")
    pick = "c => { const p = window.sceneViewer.screenPosition(c); return p && window.sceneViewer.bench.pickAt(p.x, p.y, 'gpu').code }"
    assert v.page.evaluate(pick, "1-1") == "1-1"
    cut = v.page.get_by_role("slider", name="Cut above")
    assert v.page.inner_text("[data-testid=section-value]") == "off"
    cut.fill("2")  # the upper floor (from 3 m) is cut away, and the ground floor's ceilings
    v.page.wait_for_function("window.sceneViewer.view.section === 2")
    assert v.page.inner_text("[data-testid=section-value]") == "2.00 m"
    assert not (v.page.evaluate(pick, "1-1") or "").startswith("1-")  # nothing of the upper floor is drawn or picked
    assert v.page.evaluate(pick, "0-1") == "0-1"
    cut.fill(cut.get_attribute("max"))
    v.page.wait_for_function("window.sceneViewer.view.section === null")
    assert v.page.evaluate(pick, "1-1") == "1-1"
    assert v.errors == []
