"""`bench viewer`: the web viewer in headless Chromium against a real server — load times and pick latency.

Loads: the whole scene, the room with the most points (view-only), and a selection of same-label objects
in one room (what the agent asks when a query is ambiguous). Each is opened `runs` times in a fresh
browser context (no HTTP cache; the server is warmed once first, so that reading PLY files is not
measured) and the viewer's own timings are read from `window.sceneViewer.timings`: manifest read,
first frame with points drawn, every point drawn (milliseconds from navigation start). Medians.

Picks: a selection with every room as a candidate, so that every point of the scene is pickable
(about 1.39 M for the demo). The same real mouse clicks — at the screen position of each room — are made
once with the viewer's GPU id picking and once with three.js' Raycaster over the same Points (the
baseline, switched by `sceneViewer.bench.picker`), alternating which goes first. The viewer records
the pick itself and the time from the click event to the frame with the new highlight drawn.

Chromium is Debian's (SCENE_AGENT_CHROMIUM to use another); without a GPU it renders through
SwiftShader, on the CPU: the renderer is reported with the figures, which depend on it heavily.
"""

from __future__ import annotations

import statistics
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from scene_agent.config import Settings, load_chromium_path
from scene_agent.errors import SceneAgentError
from scene_agent.scene.index import IndexedObject
from scene_agent.scene.loader import Scene, load_scene
from scene_agent.selection.claims import WaitingClaim
from scene_agent.selection.file_channel import FileChannel
from scene_agent.selection.session import MAX_TIMEOUT_S
from scene_agent.selection.store import SessionStore
from scene_agent.tools.visualize import VisualizeInput, open_view

# How Chromium runs headless here (the browser tests launch it the same way): WebGL 2 through SwiftShader,
# and none of the background connections a closed network refuses.
CHROMIUM_ARGS = ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
VIEWPORT = {"width": 1280, "height": 800}
LOAD_TIMEOUT_MS = 300_000
PICK_TIMEOUT_MS = 60_000


class ViewerBenchError(SceneAgentError):
    """The viewer benchmark could not run (no browser, viewer not built, a page that failed)."""

    code = "bench_failed"


@dataclass(frozen=True)
class LoadRow:
    """Median load timings of one view."""

    view: str
    items: int
    points: int
    runs: int
    manifest_ms: float
    first_frame_ms: float
    ready_ms: float


@dataclass(frozen=True)
class PickRow:
    """Pick latency of one method over the same clicks."""

    method: str
    points: int
    clicks: int
    hits: int
    pick_p50_ms: float
    pick_p95_ms: float
    click_to_frame_p50_ms: float


@dataclass(frozen=True)
class ViewerReport:
    """Everything one run measured."""

    renderer: str
    frame_ms: float
    agreed: int
    loads: tuple[LoadRow, ...]
    picks: tuple[PickRow, ...]

    def as_json(self) -> dict[str, Any]:
        """The `--json` document."""
        return {"renderer": self.renderer, "frame_ms": self.frame_ms, "agreed": self.agreed,
                "loads": [asdict(r) for r in self.loads], "picks": [asdict(r) for r in self.picks]}


def _p(values: list[float], q: float) -> float:
    return round(float(np.percentile(values, q * 100)), 2) if values else 0.0


def _selection_codes(scene: Scene) -> list[str]:
    """The largest group of same-label objects in one room (the demo: the kitchen's chairs)."""
    groups: dict[tuple[str, str], list[IndexedObject]] = {}
    for obj in scene.index.objects.values():
        groups.setdefault((obj.room.room.code, obj.label), []).append(obj)
    best = max(groups.values(), key=len, default=[])
    if len(best) < 2:
        best = list(scene.index.objects.values())[:3]
    return [o.obj.code for o in best]


@contextmanager
def _server(scene_path: Path, root: Path) -> Iterator[tuple[str, Settings]]:
    from api_server.app import create_app  # Flask is only needed when benchmarking the web page
    from api_server.serve import BackgroundServer
    from api_server.viewer_files import NOT_BUILT, viewer_built

    settings = Settings(state_dir=root / "state", selection_dir=root / "selection", viewer_url="http://localhost:8090/")
    app = create_app({"SCENE_PATH": str(scene_path), "SETTINGS": settings})
    if not viewer_built(Path(app.config["VIEWER_DIST"])):
        raise ViewerBenchError(NOT_BUILT)
    with BackgroundServer(app) as server:
        yield server.url, settings


def _local(base: str, viewer_url: str) -> str:
    parts = urlsplit(viewer_url)
    return f"{base}{parts.path or '/'}?{parts.query}"


def _open(browser: Any, url: str) -> tuple[Any, Any]:
    """A fresh context and page showing url, ready; raises ViewerBenchError if the viewer failed."""
    context = browser.new_context(viewport=VIEWPORT, locale="en-US")
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("!['loading', 'submitting'].includes(document.body.dataset.viewerState)", timeout=LOAD_TIMEOUT_MS)
    if page.evaluate("document.body.dataset.viewerState") != "ready":
        message = page.inner_text("#viewer")[:300]
        context.close()
        raise ViewerBenchError(f"the viewer failed to open {url}: {message}")
    return context, page


def _loads(browser: Any, name: str, url: str, runs: int) -> LoadRow:
    timings, items, points = [], 0, 0
    for _ in range(runs):
        context, page = _open(browser, url)
        try:
            timings.append(page.evaluate("window.sceneViewer.timings"))
            points = page.evaluate("window.sceneViewer.pointsLoaded")
            items = page.evaluate("window.sceneViewer.itemCount")
        finally:
            context.close()
    med = {k: round(statistics.median(t[k] for t in timings), 1) for k in ("manifestMs", "firstFrameMs", "readyMs")}
    return LoadRow(view=name, items=items, points=points, runs=runs, manifest_ms=med["manifestMs"],
                   first_frame_ms=med["firstFrameMs"], ready_ms=med["readyMs"])


# After the pointer arrives, let its hover pick and the frame it asks for finish, and that frame reach the
# screen (animation frames, one frame drawn and waited for, animation frames again), so that a click's
# pick does not also wait for earlier frames: as when a user clicks, long after the last frame.
SETTLE = """async (m) => {
    const frames = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    await frames();
    window.sceneViewer.bench.frameMs();
    await frames();
    window.sceneViewer.bench.picker = m;
    window.sceneViewer.lastPick = null;
}"""


def _click(page: Any, at: dict[str, float], method: str) -> dict[str, Any]:
    page.mouse.move(at["x"], at["y"])
    page.evaluate(SETTLE, method)
    page.mouse.click(at["x"], at["y"])
    page.wait_for_function("window.sceneViewer.lastPick !== null", timeout=PICK_TIMEOUT_MS)
    pick: dict[str, Any] = page.evaluate("window.sceneViewer.lastPick")  # the viewer's pick record, a JSON object
    return pick


def _picks(browser: Any, url: str, rooms: list[str], clicks: int) -> tuple[list[PickRow], float, str, int]:
    context, page = _open(browser, url)
    try:
        points = page.evaluate("window.sceneViewer.pointsLoaded")
        renderer = page.evaluate("""() => {
            const gl = document.createElement('canvas').getContext('webgl2');
            const info = gl && gl.getExtension('WEBGL_debug_renderer_info');
            return info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : (gl ? gl.getParameter(gl.RENDERER) : 'no WebGL 2');
        }""")
        frame_ms = statistics.median(page.evaluate("window.sceneViewer.bench.frameMs()") for _ in range(3))
        spots = [at for code in rooms if (at := page.evaluate("c => window.sceneViewer.screenPosition(c)", code))]
        if not spots:
            raise ViewerBenchError("no room of the scene is on screen in the pick view")
        results: dict[str, list[dict[str, Any]]] = {"gpu": [], "raycast": []}
        agreed = 0
        for i in range(clicks):
            at = spots[i % len(spots)]
            order = ("gpu", "raycast") if i % 2 == 0 else ("raycast", "gpu")
            got = {method: _click(page, at, method) for method in order}
            for method, record in got.items():
                results[method].append(record)
            agreed += got["gpu"]["code"] == got["raycast"]["code"]
        rows = [PickRow(method=method, points=points, clicks=len(records), hits=sum(r["code"] is not None for r in records),
                        pick_p50_ms=_p([r["pickMs"] for r in records], 0.5),
                        pick_p95_ms=_p([r["pickMs"] for r in records], 0.95),
                        click_to_frame_p50_ms=_p([r["clickToFrameMs"] for r in records], 0.5))
                for method, records in results.items()]
        return rows, round(frame_ms, 1), renderer, agreed
    finally:
        context.close()


def bench_viewer(scene_path: Path, runs: int = 3, clicks: int = 12) -> ViewerReport:
    """Load timings of three views and pick latency (GPU picking and Raycaster) in one browser."""
    try:
        from playwright.sync_api import Error as PlaywrightError  # the optional [bench] extra
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise ViewerBenchError("Playwright is not installed: pip install 'scene-agent[bench]' (make setup installs it)") from None
    chromium = load_chromium_path()
    if not Path(chromium).exists():
        raise ViewerBenchError(f"{chromium} is missing: install Debian's chromium (make setup does) or set SCENE_AGENT_CHROMIUM")
    scene = load_scene(scene_path)
    rooms = list(scene.index.rooms)
    biggest_room = max(scene.index.rooms.values(), key=lambda r: r.room.point_count).room.code
    chosen = _selection_codes(scene)
    claims: list[WaitingClaim] = []
    with tempfile.TemporaryDirectory(prefix="scene-agent-bench-viewer-") as tmp, _server(scene_path, Path(tmp)) as (base, settings):
        def url(codes: list[str], select: bool) -> str:
            vis, _ = open_view(scene, VisualizeInput(codes=codes, selection_mode=select, multiple=select and len(codes) > 1,
                                                     timeout=MAX_TIMEOUT_S), settings, FileChannel(settings))
            if vis.session_id:  # this process waits for the pick, as the agent would (else the page says nobody does)
                claims.append(SessionStore(settings).claim_waiting(vis.session_id))
            return _local(base, vis.viewer_url or "")

        views = [(f"whole scene ({scene.scene_id})", f"{base}/"),
                 (f"room {biggest_room} (view)", url([biggest_room], False)),
                 (f"{len(chosen)} {scene.index.objects[chosen[0]].label}s (selection)", url(chosen, True))]
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
                try:
                    _open(browser, f"{base}/")[0].close()  # warm the server's point cache; not measured
                    loads = tuple(_loads(browser, name, target, runs) for name, target in views)
                    picks, frame_ms, renderer, agreed = _picks(browser, url(rooms, True), rooms, clicks)
                finally:
                    browser.close()
        except PlaywrightError as exc:
            raise ViewerBenchError(f"the browser failed: {str(exc).splitlines()[0]}") from None
        finally:
            for claim in claims:
                claim.release()
    return ViewerReport(renderer=renderer, frame_ms=frame_ms, agreed=agreed, loads=loads, picks=tuple(picks))
