"""`bench viewer`: the web viewer in headless Chromium against a real server — load times, frame times, picks.

Loads: the whole scene, the room with the most points (view-only), and a selection of same-label objects
in one room (what the agent asks when a query is ambiguous). Each is opened `runs` times in a fresh
browser context (no HTTP cache; the server is warmed once first, so that reading point files, or building a
large scene's level-of-detail tiles, is not measured) and the viewer's own timings are read from
`window.sceneViewer.timings`: manifest read, first frame with points drawn, ready (every point drawn, or
with level-of-detail tiles every tile the camera needs under the point budget). Medians. Each row says how
the view was drawn (`lod`: "items" or "tiles") and the most points one of its frames drew.

Frames: `frame_ms` is the median of three still frames of the pick view; `frame_ms_p50` the median of the
orbiting frames of the whole-scene view: on each of its loads, twelve frames each turned 30° further round
the up axis, so a full turn (`sceneViewer.bench.orbitFrameMs`): what orbiting the whole scene costs a frame.

Many candidates: on a scene where "the chair" names more than a handful (MANY_FROM: the demo block of flats, 95
chairs on eight floors), a pick among all of them, as the agent opens it for "what's the color of the chair?", is
opened `runs` times too: its load, and what its first view shows — how many candidates it frames and how large the
smallest of them is on screen, how many candidates are on screen, how many labels are drawn (the viewer frames a
first group big enough to pick and draws at most a readable number of labels: docs/architecture.md).

Picks: a selection of rooms as candidates, so that every point of those rooms is pickable. On a scene of at
most MAX_PICK_ROOMS rooms (the demo home: 12, about 1.39 M points) that is every room; on a larger one
(the demo block of flats: 194 rooms) the rooms of the floor with the most points, at most MAX_PICK_ROOMS
of them, so that the view frames one floor and every room clicked is on screen. The same real mouse
clicks — at the screen position of each room — are made once with the viewer's GPU id picking and once
with three.js' Raycaster over the same points (the baseline, switched by `sceneViewer.bench.picker`),
alternating which goes first. The viewer records the pick itself and the time from the click event to the
frame with the new highlight drawn. A click whose pick throws in the page is counted as `unanswered`, not a
failure of the run: a level-of-detail viewer may not raycast the way it draws.

Baseline: with `baseline`, that scene is measured first, in the same browser, and the report compares the
two (scene_bench/viewer_report.py: ratios and the goals they are held to). `lod` forces how every view is
drawn (the page's `?lod=`); otherwise the viewer decides by size (docs/architecture.md, "Large scenes in the
viewer"): the block's whole scene and its pick view (2.7 M points) are drawn from tiles, the home's item by
item.

Chromium is Debian's (SCENE_AGENT_CHROMIUM to use another); without a GPU it renders through
SwiftShader, on the CPU: the renderer is reported with the figures, which depend on it heavily.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from scene_agent.config import Settings, load_chromium_path
from scene_agent.errors import SceneAgentError
from scene_agent.scene.index import IndexedObject, IndexedRoom
from scene_agent.scene.loader import Scene, load_scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.pending import PendingSelection
from scene_agent.selection.session import MAX_TIMEOUT_S
from scene_agent.tools.find import find
from scene_agent.tools.visualize import VisualizeInput, open_view
from scene_bench import viewer_page
from scene_bench.viewer_page import CHROMIUM_ARGS, WARM_TIMEOUT_MS, ViewerBenchError
from scene_bench.viewer_report import SceneRun, ViewerReport

__all__ = ["CHROMIUM_ARGS", "MANY_FROM", "MAX_PICK_ROOMS", "Lod", "ViewerBenchError", "bench_viewer", "many_chairs",
           "pick_rooms"]

Lod = Literal["items", "tiles"]

# Rooms offered in the pick view: enough to click a dozen different ones, few enough to share the screen.
MAX_PICK_ROOMS = 24
# "Many" candidates: more than the viewer labels at once (panel/labelLayout.ts).
MANY_FROM = 13


def many_chairs(scene: Scene) -> list[str]:
    """What "the chair" names in the scene when that is at least MANY_FROM objects (else none: no such pick measured)."""
    try:
        codes = [c.code for c in find(scene, "the chair").candidates]
    except SceneAgentError:
        return []
    return codes if len(codes) >= MANY_FROM else []


def _selection_codes(scene: Scene) -> list[str]:
    """The largest group of same-label objects in one room (the demo: the kitchen's chairs)."""
    groups: dict[tuple[str, str], list[IndexedObject]] = {}
    for obj in scene.index.objects.values():
        groups.setdefault((obj.room.room.code, obj.label), []).append(obj)
    best = max(groups.values(), key=len, default=[])
    if len(best) < 2:
        best = list(scene.index.objects.values())[:3]
    return [o.obj.code for o in best]


def pick_rooms(scene: Scene) -> tuple[list[str], str]:
    """The candidate rooms of the pick view and how they were chosen, in words.

    Every room when there are at most MAX_PICK_ROOMS; else those of the floor with the most points (structure
    and objects), the MAX_PICK_ROOMS with the most points if it has more, in manifest order.
    """
    rooms = list(scene.index.rooms.values())
    if len(rooms) <= MAX_PICK_ROOMS:
        return [r.room.code for r in rooms], f"all {len(rooms)} rooms"
    points = {r.room.code: r.room.point_count for r in rooms}
    for obj in scene.index.objects.values():
        points[obj.room.room.code] += obj.obj.point_count
    floors: dict[str, list[IndexedRoom]] = {}
    for room in rooms:
        floors.setdefault(room.floor.code, []).append(room)
    floor, members = max(floors.items(), key=lambda kv: sum(points[r.room.code] for r in kv[1]))
    kept = set(sorted((r.room.code for r in members), key=lambda c: -points[c])[:MAX_PICK_ROOMS])
    chosen = [r.room.code for r in members if r.room.code in kept]
    return chosen, f"{len(chosen)} of {len(rooms)} rooms: floor {floor}'s, the floor with the most points"


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


def _local(base: str, viewer_url: str, lod: Lod | None) -> str:
    """viewer_url on this server, with `lod=` added when the run forces how views are drawn."""
    parts = urlsplit(viewer_url)
    query = "&".join(q for q in (parts.query, f"lod={lod}" if lod else "") if q)
    return f"{base}{parts.path or '/'}?{query}" if query else f"{base}{parts.path or '/'}"


def _bench_scene(browser: Any, scene_path: Path, scene: Scene, runs: int, clicks: int, lod: Lod | None) -> SceneRun:
    """Every measurement on one scene, with a server of its own."""
    biggest_room = max(scene.index.rooms.values(), key=lambda r: r.room.point_count).room.code
    chosen = _selection_codes(scene)
    rooms, rooms_chosen = pick_rooms(scene)
    chairs = many_chairs(scene)
    claims: list[PendingSelection] = []
    with tempfile.TemporaryDirectory(prefix="scene-agent-bench-viewer-") as tmp, _server(scene_path, Path(tmp)) as (base, settings):
        channel = SelectionChannel(FileBackend(replace(settings, selection_watch="polling")))  # never waits: no observer

        def url(codes: list[str], select: bool, one: bool = False) -> str:
            vis, session = open_view(scene, VisualizeInput(codes=codes, selection_mode=select,
                                                           multiple=select and len(codes) > 1 and not one,
                                                           timeout=MAX_TIMEOUT_S), settings, channel)
            if session is not None:  # this process waits for the pick, as the agent would (else the page says nobody does)
                claims.append(channel.watch(session))
            return _local(base, vis.viewer_url or "", lod)

        try:
            views = [(f"whole scene ({scene.scene_id})", _local(base, "/", lod)),
                     (f"room {biggest_room} (view)", url([biggest_room], False)),
                     (f"{len(chosen)} {scene.index.objects[chosen[0]].label}s (selection)", url(chosen, True))]
            # warm the server's point cache (and have it build the tiles, if the viewer asks for them); not measured
            viewer_page.open_view(browser, views[0][1], WARM_TIMEOUT_MS)[0].close()
            whole, orbit_ms, orbit_drawn = viewer_page.loads(browser, *views[0], runs, orbit=True)
            loads = (whole, *(viewer_page.loads(browser, name, target, runs)[0] for name, target in views[1:]))
            picked = viewer_page.picks(browser, f"{rooms_chosen} (selection)", url(rooms, True), rooms, clicks)
            many = viewer_page.many(browser, f"{len(chairs)} chairs ('the chair', selection)", url(chairs, True, one=True),
                                    runs) if chairs else None
        finally:
            for claim in claims:
                claim.release()
    drawn = max([orbit_drawn, picked.points_drawn_max, *(row.points_drawn_max for row in loads)])
    return SceneRun(scene=scene.scene_id, renderer=picked.renderer, frame_ms=picked.frame_ms,
                    frame_ms_p50=viewer_page.median_ms(orbit_ms), points_drawn_max=drawn, agreed=picked.agreed,
                    loads=loads, picks=picked.rows, many=many)


def bench_viewer(scene_path: Path, runs: int = 3, clicks: int = 12, baseline: Path | None = None,
                 lod: Lod | None = None) -> ViewerReport:
    """Loads of three views, orbiting frames and picks (GPU picking and Raycaster) in one browser; the baseline
    scene's first when given. `lod` forces how every view is drawn (the page's `?lod=`); None lets the viewer
    choose by the view's size, as it does for a user."""
    try:
        from playwright.sync_api import Error as PlaywrightError  # the optional [bench] extra
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise ViewerBenchError("Playwright is not installed: pip install 'scene-agent[bench]' (make setup installs it)") from None
    chromium = load_chromium_path()
    if not Path(chromium).exists():
        raise ViewerBenchError(f"{chromium} is missing: install Debian's chromium (make setup does) or set SCENE_AGENT_CHROMIUM")
    # both manifests are read before the browser starts: a bad baseline fails at once, not after the scene's run
    scenes = [(path, load_scene(path)) for path in ([baseline] if baseline else []) + [scene_path]]
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
            try:
                measured = [_bench_scene(browser, path, scene, runs, clicks, lod) for path, scene in scenes]
            finally:
                browser.close()
    except PlaywrightError as exc:
        raise ViewerBenchError(f"the browser failed: {str(exc).splitlines()[0]}") from None
    return ViewerReport(run=measured[-1], baseline=measured[0] if baseline else None)
