"""A view drawn from level-of-detail tiles: the point budget holds, every drawn point still picks its own item.

The small scene is forced onto tiles (`?lod=tiles`, a budget below its 9,200 points) and cut into a deep octree
(TILE_PARAMS: 4³ voxels per node, leaves of at most 150 points), so that the page walks several levels, as it
does on a scene of tens of millions of points (the large demo block: `scene-agent bench viewer`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_fixtures import WebServer, start_web_server
from test_viewer_framing import ANCHOR_PICKS, FLOOR_0, drawn
from viewer_helpers import Viewer

from scene_agent.scene.loader import Scene
from scene_agent.tiles.build import TileParams

BUDGET = 3_000
TILED = f"lod=tiles&budget={BUDGET}"
ROOMS = ["0-1", "0-2", "0-3", "1-1", "1-2", "1-3", "1-4"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, small_scene_path: Path) -> Iterator[WebServer]:
    """The small scene cut into a deep octree's tiles, served once for the module (tiles built on first use)."""
    running, served = start_web_server(tmp_path_factory.mktemp("server"), small_scene_path,
                                       TILE_PARAMS=TileParams(grid=4, leaf_cap=150))
    yield served
    running.close()


def settled(v: Viewer) -> None:
    """Wait until the tiles the camera needs have arrived, then draw a frame with them."""
    v.page.wait_for_function("!window.sceneViewer.tilesPending", timeout=30_000)
    drawn(v)


def pick(v: Viewer, code: str, method: str = "gpu") -> str | None:
    at = v.screen_position(code)
    return v.page.evaluate("([x, y, m]) => window.sceneViewer.bench.pickAt(x, y, m).code", [at["x"], at["y"], method])


def test_the_whole_scene_from_tiles_keeps_to_the_budget(viewer: Callable[..., Viewer], scene: Scene) -> None:
    v = viewer("/", query=TILED)
    assert v.hook("lod") == "tiles"
    assert v.hook("pointsTotal") == 9_200 and v.hook("itemCount") == 23
    assert 0 < v.hook("pointsDrawn") <= v.hook("pointsDrawnMax") <= BUDGET
    assert v.hook("pointsLoaded") <= 2 * BUDGET  # only what the camera needed was fetched
    timings = v.hook("timings")
    assert 0 < timings["manifestMs"] <= timings["firstFrameMs"] <= timings["readyMs"]
    assert "of 9,200 points drawn" in v.page.inner_text("[data-testid=status]")
    for _ in range(6):  # orbiting asks for other tiles; the budget still holds
        v.page.evaluate("window.sceneViewer.bench.orbitFrameMs(60)")
    assert v.hook("pointsDrawnMax") <= BUDGET
    assert v.errors == []


def test_the_items_own_view_draws_every_point_without_tiles(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/")  # 9,200 points: far below the size at which tiles are used
    assert v.hook("lod") == "items"
    assert v.hook("pointsDrawn") == v.hook("pointsTotal") == 9_200


def test_every_room_picks_itself_at_any_level_of_detail(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/", query=TILED)
    assert {code: pick(v, code) for code in ROOMS} == {code: code for code in ROOMS}
    v.page.goto(f"{v.server.url}/?lod=tiles&budget=1000")  # coarser: fewer points per room, the same answers
    v.wait_state("ready")
    assert v.hook("pointsDrawnMax") <= 1_000
    assert {code: pick(v, code) for code in ROOMS} == {code: code for code in ROOMS}


def test_the_raycaster_baseline_answers_as_over_the_items_own_points(viewer: Callable[..., Viewer]) -> None:
    """With every tile drawn (a budget above the scene's points), the tiles hold the items' very points.

    Not always the same answers: three's Raycaster scales its threshold by the mean scale of each Points, which
    is exact for a tile's cube and not for an item's box, so one may find a point the other does not; but what
    both find is the same item.
    """
    v = viewer("/", query="lod=tiles&budget=100000")
    assert v.hook("pointsDrawn") == 9_200
    spots = {code: v.screen_position(code) for code in ROOMS}
    ray = "([x, y]) => window.sceneViewer.bench.pickAt(x, y, 'raycast').code"
    on_tiles = {code: v.page.evaluate(ray, [at["x"], at["y"]]) for code, at in spots.items()}
    v.page.goto(f"{v.server.url}/?lod=items")
    v.wait_state("ready")
    on_items = {code: v.page.evaluate(ray, [at["x"], at["y"]]) for code, at in spots.items()}
    both = [code for code in ROOMS if on_tiles[code] and on_items[code]]
    assert len(both) >= 4, (on_tiles, on_items)
    assert {code: on_tiles[code] for code in both} == {code: on_items[code] for code in both}


def test_a_selection_of_rooms_picked_on_tiles(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    vis = open_vis(ROOMS, selection_mode=True, multiple=True, prompt="Which rooms?")
    v = viewer(vis, query=TILED)  # the rooms hold more points than the budget: they come from the tiles too
    assert v.hook("lod") == "tiles" and v.hook("selectionMode") == "multi-room"
    assert v.hook("pointsDrawnMax") <= BUDGET
    v.click_item("0-2")
    v.page.wait_for_function("window.sceneViewer.selected.join() === '0-2'")
    v.click_item("1-3")
    v.page.wait_for_function("window.sceneViewer.selected.join() === '0-2,1-3'")
    assert v.hook("lastPick")["code"] == "1-3"
    v.page.click("[data-testid=confirm]")
    v.wait_state("submitted")
    assert [s["itemCode"] for s in v.session(vis.session_id)["selections"]] == ["0-2", "1-3"]
    assert v.errors == []


def test_candidates_small_enough_are_loaded_whole_beside_the_tiles(viewer: Callable[..., Viewer],
                                                                   open_vis: Callable[..., Any]) -> None:
    chairs = ["0-1-1", "0-1-2", "0-1-3"]
    v = viewer(open_vis(chairs, selection_mode=True), query="lod=tiles&budget=5000")
    assert v.hook("lod") == "tiles"
    # the three chairs (1,200 points) are their own clouds, drawn whole and over the tiled context
    assert v.page.evaluate("window.sceneViewer.pointsLoaded") >= 1_200
    for code in chairs:
        assert pick(v, code) == code
    assert pick(v, "0-1") is None  # the kitchen around them is context: not pickable
    v.click_item("0-1-2")
    v.page.wait_for_function("window.sceneViewer.selected.join() === '0-1-2'")


def test_a_floor_shown_alone_draws_and_picks_nothing_of_the_other(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/", query=TILED)
    upper = v.screen_position("1-3")
    v.page.click("[data-floor='0']")
    v.page.wait_for_function("window.sceneViewer.pointsDrawn > 0")
    hit = v.page.evaluate("([x, y]) => window.sceneViewer.bench.pickAt(x, y, 'gpu').code", [upper["x"], upper["y"]])
    assert hit is None or hit.startswith("0-")
    assert pick(v, "0-1") == "0-1"


def test_floors_exploded_apart_lift_their_tiles_and_picks(viewer: Callable[..., Viewer]) -> None:
    v = viewer("/", query=TILED)
    v.page.get_by_test_id("explode-floors").check()
    v.page.wait_for_function("window.sceneViewer.view.exploded === true")
    settled(v)
    rooms = [*FLOOR_0, "1-1", "1-2", "1-3", "1-4"]
    assert v.page.evaluate(ANCHOR_PICKS, rooms) == rooms  # each room's points are where its label points
    assert {code: pick(v, code) for code in rooms} == {code: code for code in rooms}
    v.page.get_by_test_id("explode-floors").uncheck()
    v.page.wait_for_function("window.sceneViewer.view.exploded === false")
    settled(v)
    assert v.page.evaluate(ANCHOR_PICKS, FLOOR_0) != FLOOR_0  # back in place: the upper rooms cover the lower
    assert v.errors == []


def test_a_tiled_view_of_one_room_fetches_only_the_tiles_around_it(viewer: Callable[..., Viewer],
                                                                   open_vis: Callable[..., Any]) -> None:
    # the kitchen and its four objects hold 2,000 points, more than the budget: not loaded whole, but from tiles
    v = viewer(open_vis(["0-1"]), query="lod=tiles&budget=1500")
    assert v.hook("lod") == "tiles" and v.hook("pointsTotal") == 2_000
    assert 0 < v.hook("pointsDrawn") <= 1_500
    fetched = v.hook("pointsLoaded")
    assert fetched < 9_200 / 3, fetched  # not the tiles of the other six rooms
    assert pick(v, "0-1-4") == "0-1-4"
    # with room in the budget the room is loaded whole, and no tile at all: its points and nothing else
    v = viewer(open_vis(["0-1"]), query="lod=tiles&budget=100000")
    assert v.hook("lod") == "tiles" and v.hook("pointsLoaded") == 2_000
    assert pick(v, "0-1-4") == "0-1-4"
    assert v.errors == []
