"""An imported ScanNet studio asked about in people's words: raw category names, compound forms, places."""

from __future__ import annotations

import pytest
from scan_fixtures import write_studio_scan

from scene_agent.agent.offline_planner import plan
from scene_agent.importers.scannet import import_scannet
from scene_agent.scene.loader import Scene, load_scene
from scene_agent.tools.find import find


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Scene:
    root = tmp_path_factory.mktemp("scans")
    return load_scene(import_scannet([write_studio_scan(root)], root / "studio"))


def labels(studio: Scene) -> dict[str, str]:
    return {code: o.label for code, o in studio.index.objects.items()}


def test_raw_category_names_become_the_scene_vocabulary(studio: Scene) -> None:
    own = {o.code: o.label for o in studio.manifest.objects()}
    assert own["0-1-6"] == "couch" and own["0-1-7"] == "trashcan"  # the scan's own words, codes keeping ScanNet's ids
    found = labels(studio)  # … read into the vocabulary's usual forms
    assert found["0-1-6"] == "sofa" and found["0-1-7"] == found["0-1-8"] == "trash can"
    assert "kitchen cabinet" in found.values()
    assert {"window", "door"} <= set(found.values())  # things, not the room's surfaces: "by the window" needs them
    assert "wall" not in found.values() and "floor" not in found.values()


@pytest.mark.parametrize("query", ["trash can", "trashcan", "garbage bin", "the waste basket", "trash-cans"])
def test_compound_and_spaced_forms(studio: Scene, query: str) -> None:
    assert [c.code for c in find(studio, query).candidates] == ["0-1-7", "0-1-8"]


def test_the_thing_by_the_other_thing_is_the_thing(studio: Scene) -> None:
    chosen = plan("how big is the trash can by the couch?", studio)
    assert (chosen.kind, chosen.candidate_codes) == ("answer", ("0-1-7",))  # never the couch itself
    assert plan("what colour is the plant by the window?", studio).candidate_codes == ("0-1-15",)
    assert plan("show me the kitchen cabinets", studio).kind == "view"
    assert plan("how tall is the dark trash can", studio).candidate_codes == ("0-1-7",)
