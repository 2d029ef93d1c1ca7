"""`bench viewer` in the browser: open a view and read the viewer's hook (`window.sceneViewer`, README "Test
hooks"), orbit the camera frame by frame, click rooms with each picker.

Every wait is on something the page does (its state, a pick record), with a timeout that allows a large
scene drawn by SwiftShader on a busy machine; nothing here sleeps.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

import numpy as np

from scene_agent.errors import SceneAgentError
from scene_bench.viewer_report import LoadRow, ManyRow, ManyView, PickRow

# How Chromium runs headless here (the browser tests launch it the same way): WebGL 2 through SwiftShader,
# and none of the background connections a closed network refuses.
CHROMIUM_ARGS = ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
VIEWPORT = {"width": 1280, "height": 800}
# A view of a large scene (the 21.6 M-point demo block) drawn on the CPU by SwiftShader, on two shared cores.
LOAD_TIMEOUT_MS = 600_000
# The first open of a scene may also wait for the server to build its level-of-detail tiles (about 50 s for the
# demo block on an idle machine, docs/http-api.md "Tiles"), and for every point file to be read once.
WARM_TIMEOUT_MS = 1_800_000
# One click's pick record; Raycaster over millions of points on the CPU takes seconds, not minutes.
PICK_TIMEOUT_MS = 120_000
# Orbiting: this many frames, each this many degrees further round the up axis (a full turn).
ORBIT_FRAMES = 12
ORBIT_STEP_DEGREES = 30.0


class ViewerBenchError(SceneAgentError):
    """The viewer benchmark could not run (no browser, viewer not built, a page that failed)."""

    code = "bench_failed"


def _p(values: list[float], q: float) -> float:
    return round(float(np.percentile(values, q * 100)), 2) if values else 0.0


def open_view(browser: Any, url: str, timeout_ms: int = LOAD_TIMEOUT_MS) -> tuple[Any, Any]:
    """A fresh context and page showing url, ready; raises ViewerBenchError if the viewer failed."""
    context = browser.new_context(viewport=VIEWPORT, locale="en-US")
    page = context.new_page()
    page.goto(url, timeout=timeout_ms)
    page.wait_for_function("!['loading', 'submitting'].includes(document.body.dataset.viewerState)", timeout=timeout_ms)
    if page.evaluate("document.body.dataset.viewerState") != "ready":
        message = page.inner_text("#viewer")[:300]
        context.close()
        raise ViewerBenchError(f"the viewer failed to open {url}: {message}")
    return context, page


# What the hook says about the view drawn; a viewer built before level-of-detail had no lod or points drawn.
VIEW_STATE = """() => {
    const v = window.sceneViewer;
    return {timings: v.timings, lod: v.lod ?? 'items', items: v.itemCount, points: v.pointsLoaded,
            drawnMax: v.pointsDrawnMax ?? 0};
}"""

# One orbiting frame as a user dragging sees it: the frames the viewer asked for meanwhile (tiles arriving)
# are drawn first, then the camera turns and that frame is drawn and waited for.
ORBIT_FRAME = """async (degrees) => {
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    return window.sceneViewer.bench.orbitFrameMs(degrees);
}"""


def orbit_frames(page: Any) -> list[float]:
    """Durations of ORBIT_FRAMES frames, each turned ORBIT_STEP_DEGREES further about the up axis."""
    return [float(page.evaluate(ORBIT_FRAME, ORBIT_STEP_DEGREES)) for _ in range(ORBIT_FRAMES)]


def loads(browser: Any, name: str, url: str, runs: int, orbit: bool = False) -> tuple[LoadRow, list[float], int]:
    """Median timings of `runs` fresh opens of one view; with orbit, the orbiting frames of every open (after its
    timings are read: several turns' frames weigh less on a machine whose load changes) and the most points
    drawn by any frame of them."""
    states: list[dict[str, Any]] = []
    orbit_ms: list[float] = []
    drawn_after_orbit = 0
    for _ in range(runs):
        context, page = open_view(browser, url)
        try:
            states.append(page.evaluate(VIEW_STATE))
            if orbit:
                orbit_ms += orbit_frames(page)
                drawn_after_orbit = max(drawn_after_orbit, int(page.evaluate(VIEW_STATE)["drawnMax"]))
        finally:
            context.close()
    med = {k: round(statistics.median(s["timings"][k] for s in states), 1) for k in ("manifestMs", "firstFrameMs", "readyMs")}
    last = states[-1]
    row = LoadRow(view=name, lod=last["lod"], items=last["items"], points=last["points"],
                  points_drawn_max=max(int(s["drawnMax"]) for s in states), runs=runs, manifest_ms=med["manifestMs"],
                  first_frame_ms=med["firstFrameMs"], ready_ms=med["readyMs"])
    return row, orbit_ms, drawn_after_orbit


# After the pointer arrives, let its hover pick and the frame it asks for finish, and that frame reach the
# screen (animation frames, one frame drawn and waited for, animation frames again), so that a click's
# pick does not also wait for earlier frames: as when a user clicks, long after the last frame. An error the
# page throws while picking is kept, so that the wait below ends with it instead of running out.
SETTLE = """async (m) => {
    const frames = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    if (!window.__benchErrors) {
        window.__benchErrors = [];
        window.addEventListener('error', (e) => window.__benchErrors.push(String(e.message)));
        window.addEventListener('unhandledrejection', (e) => window.__benchErrors.push(String(e.reason)));
    }
    await frames();
    window.sceneViewer.bench.frameMs();
    await frames();
    window.sceneViewer.bench.picker = m;
    window.sceneViewer.lastPick = null;
    window.__benchErrors.length = 0;
}"""


def _click(page: Any, at: dict[str, float], method: str) -> dict[str, Any] | None:
    """The viewer's pick record of one real click, or None when the page threw instead of picking."""
    page.mouse.move(at["x"], at["y"])
    page.evaluate(SETTLE, method)
    page.mouse.click(at["x"], at["y"])
    page.wait_for_function("window.sceneViewer.lastPick !== null || window.__benchErrors.length > 0", timeout=PICK_TIMEOUT_MS)
    pick: dict[str, Any] | None = page.evaluate("window.sceneViewer.lastPick")  # the viewer's pick record, a JSON object
    return pick


RENDERER = """() => {
    const gl = document.createElement('canvas').getContext('webgl2');
    const info = gl && gl.getExtension('WEBGL_debug_renderer_info');
    return info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : (gl ? gl.getParameter(gl.RENDERER) : 'no WebGL 2');
}"""


def _pick_row(method: str, view: str, lod: str, points: int, records: list[dict[str, Any] | None]) -> PickRow:
    answered = [r for r in records if r is not None]
    return PickRow(method=method, view=view, lod=lod, points=points, clicks=len(records),
                   hits=sum(r["code"] is not None for r in answered), unanswered=len(records) - len(answered),
                   pick_p50_ms=_p([r["pickMs"] for r in answered], 0.5), pick_p95_ms=_p([r["pickMs"] for r in answered], 0.95),
                   click_to_frame_p50_ms=_p([r["clickToFrameMs"] for r in answered], 0.5))


@dataclass(frozen=True)
class PickRun:
    """What the pick view measured: both methods' rows, a still frame, the renderer, agreement, points drawn."""

    rows: tuple[PickRow, ...]
    frame_ms: float
    renderer: str
    agreed: int
    points_drawn_max: int


def picks(browser: Any, view: str, url: str, rooms: list[str], clicks: int) -> PickRun:
    """The same real clicks, at the screen position of each room in turn, with GPU picking and with Raycaster."""
    context, page = open_view(browser, url)
    try:
        state = page.evaluate(VIEW_STATE)
        renderer = page.evaluate(RENDERER)
        frame_ms = statistics.median(page.evaluate("window.sceneViewer.bench.frameMs()") for _ in range(3))
        spots = [at for code in rooms if (at := page.evaluate("c => window.sceneViewer.screenPosition(c)", code))]
        if not spots:
            raise ViewerBenchError(f"none of the {len(rooms)} rooms of the pick view ({view}) is on screen")
        results: dict[str, list[dict[str, Any] | None]] = {"gpu": [], "raycast": []}
        agreed = 0
        for i in range(clicks):
            at = spots[i % len(spots)]
            order = ("gpu", "raycast") if i % 2 == 0 else ("raycast", "gpu")
            got = {method: _click(page, at, method) for method in order}
            for method, record in got.items():
                results[method].append(record)
            gpu, ray = got["gpu"], got["raycast"]
            agreed += gpu is not None and ray is not None and gpu["code"] == ray["code"]
        rows = tuple(_pick_row(method, view, state["lod"], state["points"], records) for method, records in results.items())
        drawn = int(page.evaluate(VIEW_STATE)["drawnMax"])
        return PickRun(rows=rows, frame_ms=round(frame_ms, 1), renderer=renderer, agreed=agreed, points_drawn_max=drawn)
    finally:
        context.close()


# What the first view of a pick among many shows, once a frame is drawn: the candidates framed and the smallest of
# them on screen, the candidates drawn on screen (on the floor shown alone, if any), the labels drawn.
MANY_STATE = """() => {
    const v = window.sceneViewer;
    v.bench.frameMs();
    const c = document.querySelector('#viewer canvas').getBoundingClientRect();
    const box = (code) => v.view.screenBox(code);
    const floorOf = (code) => code.split('-')[0];
    const visible = v.candidates.filter((code) => {
        const b = box(code);
        if (!b || (v.floor !== null && floorOf(code) !== v.floor)) return false;
        const x = (b.left + b.right) / 2, y = (b.top + b.bottom) / 2;
        return x >= c.left && x <= c.right && y >= c.top && y <= c.bottom;
    });
    const sides = v.framed.map((code) => { const b = box(code); return b ? Math.min(b.right - b.left, b.bottom - b.top) : 0; });
    return {timings: v.timings, lod: v.lod, candidates: v.candidates.length, framed: v.framed.length,
            framedMinPx: sides.length ? Math.min(...sides) : 0, visible: visible.length, labels: v.labelsDrawn};
}"""


def many(browser: Any, name: str, url: str, runs: int) -> ManyRow:
    """A pick among many like candidates opened `runs` times: median timings, and what its first view shows."""
    states: list[dict[str, Any]] = []
    for _ in range(runs):
        context, page = open_view(browser, url)
        try:
            states.append(page.evaluate(MANY_STATE))
            # the baseline: every candidate framed at once, all floors shown (a first view may show one floor alone)
            page.click("[data-floor='all']")
            page.wait_for_function("window.sceneViewer.floor === null")
            page.click("[data-testid=frame-all]")
            every = page.evaluate(MANY_STATE)
        finally:
            context.close()
    med = {k: round(statistics.median(s["timings"][k] for s in states), 1) for k in ("manifestMs", "firstFrameMs", "readyMs")}
    last = states[-1]
    return ManyRow(view=name, lod=last["lod"], candidates=last["candidates"], runs=runs, manifest_ms=med["manifestMs"],
                   first_frame_ms=med["firstFrameMs"], ready_ms=med["readyMs"], framed=last["framed"],
                   framed_min_px=round(float(last["framedMinPx"]), 1), candidates_visible=last["visible"],
                   labels_drawn=last["labels"],
                   baseline=ManyView(view="every candidate framed (Frame all)", framed=every["framed"],
                                     framed_min_px=round(float(every["framedMinPx"]), 1), candidates_visible=every["visible"],
                                     labels_drawn=every["labels"]))


def median_ms(values: list[float]) -> float:
    """The median, rounded as the report shows it; 0 for no values."""
    return round(statistics.median(values), 1) if values else 0.0
