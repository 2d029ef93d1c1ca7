"""The measure tool: dimensions, distances, floor areas and fits checked against the points they come from."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hall_scene import write_hall

from scene_agent.errors import NotFoundError, UsageError
from scene_agent.scene.loader import Scene, load_scene
from scene_agent.tools.measure import MeasureResult, describe, measure
from scene_agent.tools.registry import TOOLS
from scene_agent.tools.volume import volume


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Scene:
    return load_scene(write_hall(tmp_path_factory.mktemp("hall")))


def test_the_dimensions_are_the_sides_of_the_points(demo: Scene) -> None:
    result = measure(demo, "dimensions", "0-3-4")
    xyz = demo.points("0-3-4").xyz
    d = result.dimensions
    assert d is not None and d.upright and result.kind == "object" and result.label == "chair"
    assert abs(d.height_m - float(np.ptp(xyz[:, 2]))) <= 0.02
    horizontal = sorted(float(np.ptp(xyz[:, i])) for i in (0, 1))  # the chair stands square to the axes
    assert abs(d.width_m - horizontal[1]) <= 0.02 and abs(d.depth_m - horizontal[0]) <= 0.02
    assert describe(result) == f"{d.width_m:.2f} m wide × {d.depth_m:.2f} m deep × {d.height_m:.2f} m tall"


def test_the_distance_is_the_gap_between_the_closest_points(demo: Scene) -> None:
    from pykdtree.kdtree import KDTree

    result = measure(demo, "distance", "0-2-1", to="0-2-6")
    sofa, tv = demo.points("0-2-1").xyz, demo.points("0-2-6").xyz
    closest = float(KDTree(tv).query(sofa, k=1)[0].min())
    centres = float(np.linalg.norm(sofa.mean(axis=0) - tv.mean(axis=0)))
    assert result.distance is not None and result.to == "0-2-6" and result.to_label == "tv"
    assert abs(result.distance.gap_m - closest) <= 0.03
    assert abs(result.distance.centre_m - centres) <= 0.15  # box centres, not the points' mean
    assert result.distance.gap_m <= result.distance.centre_m


def test_a_thing_inside_a_room_is_no_distance_from_it(demo: Scene) -> None:
    result = measure(demo, "distance", "0-2-1", to="0-2")
    assert result.distance is not None and result.distance.gap_m == 0 and describe(result).startswith("touching")


def test_the_floor_area_of_a_room_is_the_volume_tools(demo: Scene) -> None:
    result = measure(demo, "floor_area", "0-3")
    assert result.floor_area_m2 == pytest.approx(volume(demo, "0-3").floor_area_m2, abs=0.01)
    assert describe(result) == f"floor area {result.floor_area_m2:.2f} m²"
    assert describe(result, "zh") == f"地面面积 {result.floor_area_m2:.2f} 平方米"


def test_an_objects_floor_area_is_its_footprint(hall: Scene) -> None:
    result = measure(hall, "floor_area", "0-1-4")
    assert result.floor_area_m2 == pytest.approx(1.2 * 0.8, abs=0.04)


def test_what_fits_through_the_door_and_what_does_not(hall: Scene) -> None:
    sofa = measure(hall, "fit", "0-1-2", to="0-1-1")
    assert sofa.fit is not None and sofa.fit.fits and sofa.fit.spare_m == pytest.approx(0.10, abs=0.02)
    assert sofa.fit.opening_m == pytest.approx([0.90, 2.00], abs=0.02)
    assert sofa.fit.object_section_m == pytest.approx([0.80, 0.90], abs=0.02)
    bookcase = measure(hall, "fit", "0-1-3", to="0-1-1")
    assert bookcase.fit is not None and not bookcase.fit.fits and bookcase.fit.spare_m == pytest.approx(-0.10, abs=0.02)
    assert describe(bookcase).startswith("does not fit through door 0-1-1") and "too big" in describe(bookcase)
    assert describe(sofa, "zh").startswith("能通过门 0-1-1")


@pytest.mark.parametrize(("args", "words"), [
    (("distance", "0-2-1", None), "give `to`"),
    (("dimensions", "0-2-1", "0-2-6"), "leave out `to`"),
    (("distance", "0-2-1", "0-2-1"), "both 0-2-1"),
    (("weight", "0-2-1", None), "measure"),
    (("dimensions", "0-2-1x", None), "0-2-1x"),
])
def test_bad_input_says_what_is_wrong(demo: Scene, args: tuple[str, str, str | None], words: str) -> None:
    with pytest.raises(UsageError, match=words.replace("`", ".").replace("(", r"\(")):
        measure(demo, *args)


def test_unknown_codes_are_named(demo: Scene) -> None:
    with pytest.raises(NotFoundError, match="0-9-9"):
        measure(demo, "distance", "0-2-1", to="0-9-9")


def test_fit_needs_an_object_and_an_opening(hall: Scene) -> None:
    with pytest.raises(UsageError, match="0-1-4 is a table, not an opening"):
        measure(hall, "fit", "0-1-2", to="0-1-4")
    with pytest.raises(UsageError, match="0-1 is a room"):
        measure(hall, "fit", "0-1", to="0-1-1")


def test_the_tool_is_offered_with_its_schema_and_summary(demo: Scene) -> None:
    tool = TOOLS["measure"]
    schema = tool.openai_schema()["function"]
    assert schema["parameters"]["properties"]["measure"]["enum"] == ["distance", "dimensions", "floor_area", "fit"]
    assert "distance" in schema["description"] and "fit" in schema["description"]
    result = measure(demo, "dimensions", "0-3-4")
    assert isinstance(result, MeasureResult)
    assert result.human_summary().en == f"0-3-4: {describe(result)}"


def test_writes_nothing_into_the_scene(demo_path: Path, demo: Scene) -> None:
    before = sorted((p.name, p.stat().st_mtime_ns) for p in demo_path.parent.rglob("*") if p.is_file())
    measure(demo, "distance", "0-3-4", to="1-2-1")
    after = sorted((p.name, p.stat().st_mtime_ns) for p in demo_path.parent.rglob("*") if p.is_file())
    assert before == after


def test_the_measure_command(tmp_path: Path) -> None:
    import json

    from cli_run import run_cli

    hall_manifest = write_hall(tmp_path / "hall")
    out = run_cli("measure", "fit", "0-1-2", "0-1-1", "--json", "--scene", str(hall_manifest))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert (result["measure"], result["code"], result["to"], result["fit"]["fits"]) == ("fit", "0-1-2", "0-1-1", True)
    text = run_cli("measure", "distance", "0-1-2", "0-1-4", "--scene", str(hall_manifest))
    assert text.returncode == 0 and text.stdout.startswith("Sofa 0-1-2 → table 0-1-4: ") and " m apart" in text.stdout
    missing = run_cli("measure", "distance", "0-1-2", "--scene", str(hall_manifest))
    assert missing.returncode == 2 and "give `to`" in missing.stderr
    unknown = run_cli("measure", "dimensions", "0-1-9", "--json", "--scene", str(hall_manifest))
    assert unknown.returncode == 1 and json.loads(unknown.stdout)["error"] == "not_found"
