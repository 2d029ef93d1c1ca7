"""find with colour, size and place words (in the query or as filters), among listed codes, in Chinese, and its refusals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from small_scene import box_points

from scene_agent.errors import UsageError
from scene_agent.scene.loader import Scene, load_scene
from scene_agent.scene.manifest import Floor, Room, SceneManifest, SceneObject
from scene_agent.scene.writer import SceneWriter
from scene_agent.tools.find import find

KITCHEN_CHAIRS = ["0-1-1", "0-1-2", "0-1-3"]  # red, blue, green, in a row ending at the dining table 0-1-4


@pytest.fixture(scope="module")
def scene(small_scene_path: Path) -> Scene:
    return load_scene(small_scene_path)


def codes(scene: Scene, query: str, **filters) -> list[str]:
    return [c.code for c in find(scene, query, **filters).candidates]


@pytest.mark.parametrize("query, expected", [
    ("the red chair", ["0-1-1"]),
    ("the chair next to the dining table", ["0-1-3"]),
    ("the armchair farthest from the sofa", ["0-2-3"]),
    ("the red armchair", ["0-2-2"]),
    ("the chairs between the red chair and the dining table", ["0-1-2", "0-1-3"]),
    ("the table next to the blue armchair", ["0-2-4"]),
    ("the dark chair", ["1-3-2"]),
    ("红色的扶手椅", ["0-2-2"]),
])
def test_qualifiers_in_the_query(scene: Scene, query: str, expected: list[str]) -> None:
    assert codes(scene, query) == expected


def test_filters_do_what_the_words_do_and_win_over_them(scene: Scene) -> None:
    assert codes(scene, "chair", color="blue") == ["0-1-2"]
    assert codes(scene, "the red chair", color="green") == ["0-1-3"]
    assert codes(scene, "armchair", relation={"relation": "near", "reference": "sofa"}) == ["0-2-2"]
    assert codes(scene, "armchair", size={"measure": "size", "extreme": "max"}) == ["0-2-2", "0-2-3"]  # same boxes: a tie
    tied = find(scene, "armchair", size={"measure": "size", "extreme": "max"})
    assert tied.tied is not None and tied.steps[0].words == "biggest" and tied.considered == ["0-2-2", "0-2-3"]


def test_the_result_says_how_the_words_narrowed_it(scene: Scene) -> None:
    result = find(scene, "the chair next to the dining table")
    assert result.considered == ["0-1-1", "0-1-2", "0-1-3", "1-3-2", "1-4-1"] and result.decided
    [step] = result.steps
    assert (step.qualifier, step.before, step.kept, step.reference) == ("place", 5, ["0-1-3"], ["0-1-4"])
    assert result.candidates[0].observed.distance_m == pytest.approx(0.3, abs=0.05)
    assert result.candidates[0].observed.color == "green"


def test_among_listed_codes(scene: Scene) -> None:
    assert codes(scene, "the second one", within=KITCHEN_CHAIRS) == ["0-1-2"]
    assert codes(scene, "number 3", within=KITCHEN_CHAIRS) == ["0-1-3"]
    assert codes(scene, "the green one", within=KITCHEN_CHAIRS) == ["0-1-3"]
    assert codes(scene, "0-1-1", within=KITCHEN_CHAIRS) == ["0-1-1"]
    assert codes(scene, "the one upstairs", within=["0-1-1", "1-3-2"]) == ["1-3-2"]
    outside = find(scene, "the sofa", within=KITCHEN_CHAIRS)
    assert outside.candidates == [] and "0-2-1" in outside.message and "not among" in outside.message
    with pytest.raises(UsageError, match="within: not rooms or objects of scene small: 9-9-9"):
        find(scene, "one", within=["0-1-1", "9-9-9"])


ALL_CHAIRS = ["0-1-1", "0-1-2", "0-1-3", "1-3-2", "1-4-1"]


@pytest.mark.parametrize("query, lang, kept, note", [
    ("the purple chair", "en", ALL_CHAIRS, "There is no purple chair; the chairs are red, blue, green, black and yellow."),
    ("紫色的椅子", "zh", ALL_CHAIRS, "没有紫色的椅子；这些椅子是红色、蓝色、绿色、黑色和黄色。"),
    ("the chair next to the piano", "en", ALL_CHAIRS, "There is no piano here, so I did not use 'next to the piano'."),
    ("the lamp on the sofa", "en", ["1-1-3"], "No lamp is on the sofa."),
    ("sofaa", "en", ["0-2-1"], "I read 'sofaa' as sofa."),
])
def test_words_that_fit_nothing_are_set_aside_and_said(scene: Scene, query: str, lang: str, kept: list[str],
                                                      note: str) -> None:
    # A colour or place no candidate has narrows nothing: the candidates stay (to ask among) and the note says why.
    result = find(scene, query, lang=lang)
    assert [c.code for c in result.candidates] == kept and result.note == note


def test_an_ordinal_past_the_end_is_a_clear_message(scene: Scene) -> None:
    result = find(scene, "the fifth one", within=KITCHEN_CHAIRS)
    assert result.candidates == [] and "There are only 3 chairs: 0-1-1, 0-1-2, 0-1-3." in (result.message or "")


def test_an_unknown_colour_filter_is_named(scene: Scene) -> None:
    result = find(scene, "chair", color="glorbish")
    assert result.candidates == [] and "I do not know the colour 'glorbish'" in (result.message or "")


def test_a_room_word_the_scene_lacks_falls_back_to_the_objects_with_a_note(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    with SceneWriter(tmp_path / "studio") as writer:
        rel, count, bounds = writer.add_points("0-1", box_points(rng, np.zeros(3), np.array([6.0, 5.0, 2.6]), (220, 220, 210)))
        objects = []
        for o, (lo, rgb) in enumerate((((0.2, 0.2, 0.0), (250, 250, 245)), ((2.0, 0.2, 0.0), (40, 40, 45))), start=1):
            lo_ = np.array(lo)
            o_rel, o_count, o_bounds = writer.add_points(f"0-1-{o}", box_points(rng, lo_, lo_ + np.array([0.8, 0.6, 0.9]), rgb))
            objects.append(SceneObject(code=f"0-1-{o}", label="cabinet", points_file=o_rel, point_count=o_count, bounds=o_bounds))
        room = Room(code="0-1", type="apartment", name="Studio", points_file=rel, point_count=count, bounds=bounds, objects=objects)
        path = writer.finish(SceneManifest(scene_id="studio", name="Studio", floors=[Floor(code="0", rooms=[room])]))
    studio = load_scene(path)
    result = find(studio, "the kitchen cabinets")
    assert [c.code for c in result.candidates] == ["0-1-1", "0-1-2"]
    assert result.note == "This scene has no kitchen as a room, so these are the cabinets anywhere in it."
    assert [c.code for c in find(studio, "the white kitchen cabinet").candidates] == ["0-1-1"]
