"""The color tool [CLR]: shaded, noisy shapes of known colour, stray points, rooms, real scene files, odd input."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from scene_agent.color.clusters import MAX_POINTS, dominant_colors
from scene_agent.color.science import name_rgb
from scene_agent.demo import furniture, palette
from scene_agent.demo.structure import Rect, Shell, render_shell
from scene_agent.demo.surfaces import render_parts
from scene_agent.errors import NotFoundError, UsageError
from scene_agent.geometry.points import Points
from scene_agent.scene.loader import Scene, load_scene
from scene_agent.scene.manifest import Floor, Room, SceneManifest, SceneObject
from scene_agent.scene.writer import SceneWriter
from scene_agent.tools.color import ColorInput, ColorResult, color
from scene_bench.shapes import SHAPE_NAMES, known_shape

# A base colour for each of the eleven basic colour terms, as the paint is in full light.
BASE_COLORS = {
    "red": (200, 35, 35), "orange": (235, 130, 30), "yellow": (235, 200, 40), "green": (40, 150, 60),
    "blue": (35, 75, 190), "purple": (120, 50, 150), "pink": (240, 140, 180), "brown": (120, 75, 40),
    "black": (30, 30, 32), "white": (236, 234, 228), "gray": (128, 128, 128),
}


def chair(seat: tuple[int, int, int], legs: tuple[int, int, int], n: int, seed: int = 1) -> Points:
    """A demo dining chair, seat and back in one colour, its four legs in another, shaded and jittered."""
    parts = furniture.chair(seat)
    parts = tuple(replace(p, color=legs) if i < 4 else p for i, p in enumerate(parts))
    return render_parts(parts, n, (1.0, 2.0, 0.0), 30.0, np.random.default_rng(seed))


@pytest.mark.parametrize("noise_m", [0.001, 0.002])
@pytest.mark.parametrize("basic", list(BASE_COLORS))
@pytest.mark.parametrize("shape", SHAPE_NAMES)
def test_shaded_shape_gets_its_basic_colour(shape: str, basic: str, noise_m: float) -> None:
    points = known_shape(shape, 20_000, BASE_COLORS[basic], noise_m=noise_m, seed=3).points
    analysis = dominant_colors(points)
    # Shading spreads one paint over many brightnesses; it is still one colour, not "red and dark brown".
    [only] = analysis.clusters
    assert (only.name.basic, only.share) == (basic, 1.0), f"{shape} {basic}: {only.name.name} {only.rgb}"
    assert analysis.points_used == 20_000 and analysis.reason is None


@pytest.mark.parametrize("basic", ["red", "blue", "white", "brown", "black"])
@pytest.mark.parametrize("shape", ["box", "sphere", "l-shape"])
def test_same_answer_at_20k_and_400k_points(shape: str, basic: str) -> None:
    small = dominant_colors(known_shape(shape, 20_000, BASE_COLORS[basic], seed=1).points)
    large = dominant_colors(known_shape(shape, 400_000, BASE_COLORS[basic], seed=2).points)
    assert [c.name for c in small.clusters] == [c.name for c in large.clusters]
    assert large.points_used == small.points_used == MAX_POINTS  # a bounded sample, whatever the size
    assert "20,000 of 400,000" in large.method


def test_two_colour_chair_reports_both_with_plausible_shares() -> None:
    found = {n: dominant_colors(chair(palette.CHAIR_RED, palette.BLACK, n)) for n in (20_000, 1_000_000)}
    for analysis in found.values():
        red, black = analysis.clusters
        assert (red.name.basic, black.name.basic) == ("red", "black")
        assert 0.65 < red.share < 0.85 and red.share + black.share == pytest.approx(1.0)
    small, large = found.values()
    assert [c.name for c in small.clusters] == [c.name for c in large.clusters]
    assert [c.share for c in small.clusters] == pytest.approx([c.share for c in large.clusters], abs=0.02)


def test_stray_points_are_dropped() -> None:
    points = chair(palette.CHAIR_BLUE, palette.CHAIR_BLUE, 50_000)
    rng = np.random.default_rng(5)
    rgb = points.rgb.copy()
    strays = rng.choice(len(rgb), size=len(rgb) // 50, replace=False)  # 2 % of random colours
    rgb[strays] = rng.integers(0, 256, size=(len(strays), 3))
    analysis, clean = dominant_colors(Points(points.xyz, rgb)), dominant_colors(points)
    assert [c.name.basic for c in analysis.clusters] == ["blue"]
    dropped = float(re.search(r"([\d.]+)% stray points dropped", analysis.method).group(1))
    assert 1.5 <= dropped <= 3.0
    assert analysis.clusters[0].name == clean.clusters[0].name
    assert np.abs(np.subtract(analysis.clusters[0].rgb, clean.clusters[0].rgb)).max() <= 6


def test_mean_colour_would_miss_what_the_clusters_see() -> None:
    # The baseline to beat: a red chair with black legs averages to one dark red; we see red and black.
    points = chair(palette.CHAIR_RED, palette.BLACK, 30_000)
    assert name_rgb(np.rint(points.rgb.mean(axis=0))).name == "maroon"
    assert [(c.name.name, c.name.basic) for c in dominant_colors(points).clusters] == [("red", "red"), ("black", "black")]


# Degenerate input: a clear answer, never a crash.

def test_empty_cloud() -> None:
    analysis = dominant_colors(Points(np.zeros((0, 3)), np.zeros((0, 3), dtype=np.uint8)))
    assert (analysis.clusters, analysis.points_used, analysis.method) == ((), 0, "none")
    assert "empty" in (analysis.reason or "")


def test_single_point_and_two_points() -> None:
    one = dominant_colors(Points(np.array([[0.0, 0.0, 0.0]]), np.array([[200, 35, 35]], dtype=np.uint8)))
    assert [c.name.basic for c in one.clusters] == ["red"] and one.points_used == 1
    assert "only 1 point" in (one.reason or "")
    two = dominant_colors(Points(np.zeros((2, 3)), np.array([[200, 35, 35], [30, 30, 32]], dtype=np.uint8)))
    assert sorted(c.name.basic for c in two.clusters) == ["black", "red"] and two.reason


def test_all_one_colour() -> None:
    n = 5_000
    analysis = dominant_colors(Points(np.random.default_rng(0).random((n, 3)), np.tile(np.uint8([35, 75, 190]), (n, 1))))
    [only] = analysis.clusters
    assert (only.name.basic, only.share, analysis.reason) == ("blue", 1.0, None)


def test_non_finite_coordinates_are_skipped() -> None:
    points = known_shape("box", 2_000, BASE_COLORS["green"]).points
    xyz = points.xyz.copy()
    xyz[::10, 0] = np.nan
    xyz[5::10, 2] = np.inf
    analysis = dominant_colors(Points(xyz, points.rgb))
    assert [c.name.basic for c in analysis.clusters] == ["green"] and analysis.points_used == 1_600
    assert "400 sampled points with non-finite coordinates skipped" in analysis.method
    nothing = dominant_colors(Points(np.full((10, 3), np.nan), points.rgb[:10]))
    assert nothing.clusters == () and "finite" in (nothing.reason or "")


# Rooms and the tool on real scene files.

def _shell(rect: Rect, height: float, floor: str, wall: tuple[int, int, int], seed: int) -> Points:
    return render_shell(Shell(rect, 0.0, height, floor, wall), np.random.default_rng(seed))


@pytest.fixture(scope="module")
def odd_scene(tmp_path_factory: pytest.TempPathFactory) -> Scene:
    """Rooms with blue walls (small room) and a large oak floor (big low room); objects: a chair, empty, one point, one colour."""
    out = tmp_path_factory.mktemp("color") / "odd"
    rng = np.random.default_rng(3)
    with SceneWriter(out) as writer:
        objects = []
        for code, label, points in [
            ("0-1-1", "chair", chair(palette.CHAIR_RED, palette.BLACK, 8_000)),
            ("0-1-2", "box", Points(np.zeros((0, 3)), np.zeros((0, 3), dtype=np.uint8))),
            ("0-1-3", "lamp", Points(np.array([[1.0, 1.0, 1.0]]), np.array([[240, 200, 40]], dtype=np.uint8))),
            ("0-1-4", "vase", Points(rng.random((500, 3)) + 1.0, np.tile(np.uint8([40, 150, 60]), (500, 1)))),
        ]:
            rel, count, bounds = writer.add_points(code, points)
            objects.append(SceneObject(code=code, label=label, points_file=rel, point_count=count, bounds=bounds))
        rooms = []
        for code, kind, shell, items in [
            ("0-1", "kitchen", _shell(Rect(0.0, 0.0, 4.0, 3.0), 2.6, "oak", palette.WALL_BLUE, 1), objects),
            ("0-2", "garage", _shell(Rect(5.0, 0.0, 17.0, 12.0), 2.4, "oak", palette.WALL_SAGE, 2), []),
        ]:
            rel, count, bounds = writer.add_points(code, shell)
            rooms.append(Room(code=code, type=kind, points_file=rel, point_count=count, bounds=bounds, objects=items))
        path = writer.finish(SceneManifest(scene_id="odd", name="Odd cases", floors=[Floor(code="0", rooms=rooms)]))
    return load_scene(path)


def test_room_colour_is_its_walls_and_floor_without_the_ceiling(odd_scene: Scene) -> None:
    result = color(odd_scene, "0-1")
    assert (result.kind, result.label) == ("room", "kitchen")
    assert [(c.basic, c.part) for c in result.clusters] == [("blue", "walls"), ("brown", "floor")]
    assert result.dominant is not None and result.dominant.basic == "blue"  # the walls cover more than the floor
    assert "ceiling dropped" in result.method and "white" not in {c.basic for c in result.clusters}
    assert result.summary.startswith("Kitchen 0-1 is mostly blue (") and "walls" in result.summary


def test_room_dominant_colour_is_the_floor_when_it_covers_more(odd_scene: Scene) -> None:
    result = color(odd_scene, "0-2")
    assert [(c.basic, c.part) for c in result.clusters] == [("brown", "floor"), ("green", "walls")]
    assert result.dominant is not None and result.dominant.share == result.clusters[0].share > 0.5


def test_object_from_a_real_file(odd_scene: Scene) -> None:
    result = color(odd_scene, "0-1-1")
    assert (result.code, result.kind, result.label, result.points_used, result.reason) == ("0-1-1", "object", "chair", 8_000, None)
    assert [c.basic for c in result.clusters] == ["red", "black"]
    assert result.dominant is not None and result.dominant.model_dump() == {
        k: v for k, v in result.clusters[0].model_dump().items() if k in ("name", "basic", "hex", "share")}
    assert result.clusters[0].hex == "#{:02x}{:02x}{:02x}".format(*tuple(result.clusters[0].rgb))
    assert result.summary.startswith("Chair 0-1-1 is mostly red (") and ", with black (" in result.summary


def test_degenerate_files(odd_scene: Scene) -> None:
    empty = color(odd_scene, "0-1-2")
    assert (empty.dominant, empty.clusters, empty.points_used) == (None, [], 0) and "empty" in (empty.reason or "")
    assert empty.summary == f"Box 0-1-2: no colour can be given ({empty.reason})."
    one = color(odd_scene, "0-1-3")
    assert one.dominant is not None and one.dominant.basic == "yellow" and "only 1 point" in (one.reason or "")
    flat = color(odd_scene, "0-1-4")
    assert flat.dominant is not None and (flat.dominant.basic, flat.dominant.share, flat.reason) == ("green", 1.0, None)


def test_bad_codes_raise(odd_scene: Scene) -> None:
    with pytest.raises(NotFoundError):
        color(odd_scene, "0-1-99")
    with pytest.raises(UsageError, match="floor code"):
        color(odd_scene, "0")
    with pytest.raises(UsageError, match="not a scene code"):
        color(odd_scene, "kitchen")


def test_input_schema_is_for_the_llm() -> None:
    schema = ColorInput.model_json_schema()
    assert schema["required"] == ["code"] and "walls and floor" in schema["properties"]["code"]["description"]
    keys = set(ColorResult.model_json_schema()["properties"])
    assert {"code", "kind", "dominant", "clusters", "points_used", "method"} <= keys


SMALL_SCENE_COLOURS = {"0-1-1": "red", "0-1-2": "blue", "0-1-3": "green", "0-1-4": "brown", "0-2-1": "gray",
                       "0-2-2": "red", "0-2-3": "blue", "0-3-1": "white", "1-3-2": "black", "1-4-1": "yellow"}


def test_small_scene_objects(small_scene_path: Path) -> None:
    scene = load_scene(small_scene_path)
    assert {code: color(scene, code).dominant.basic for code in SMALL_SCENE_COLOURS} == SMALL_SCENE_COLOURS


def test_demo_kitchen_chairs(demo: Scene) -> None:
    # scene_agent/demo/layout.py paints the four kitchen chairs red, blue, green and yellow.
    chairs = {code: color(demo, code) for code in ("0-3-2", "0-3-3", "0-3-4", "0-3-5")}
    assert {code: r.dominant.basic for code, r in chairs.items()} == {
        "0-3-2": "red", "0-3-3": "blue", "0-3-4": "green", "0-3-5": "yellow"}
    assert all(r.label == "chair" and len(r.clusters) == 1 for r in chairs.values())


def test_demo_rooms(demo: Scene) -> None:
    # Lounge: grey walls, oak floor. Kids bedroom: blue walls, oak floor. Study: sage walls.
    lounge = color(demo, "0-2")
    assert [(c.basic, c.part) for c in lounge.clusters] == [("gray", "walls"), ("brown", "floor")]
    assert lounge.label == "living room" and lounge.summary.startswith("Lounge 0-2 is mostly gray")
    assert color(demo, "1-4").dominant.basic == "blue"
    assert color(demo, "0-4").dominant.basic == "green"
