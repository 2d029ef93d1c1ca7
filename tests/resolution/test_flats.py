"""A building of flats: a flat's name says which rooms ('the kitchen of flat 1A', '1A厨房'), strictly."""

from __future__ import annotations

import pytest
from small_scene import write_scene

from scene_agent.scene.loader import Scene, load_scene
from scene_agent.tools.find import find

RED = (200, 30, 30)
# Two flats on one storey: 1A has a kitchen and a bedroom, 1B a kitchen only; each kitchen a red chair.
FLATS = [("0", "Ground floor", [
    ("0-1", "kitchen", "Kitchen, flat 1A", [("0-1-1", "chair", RED), ("0-1-2", "dining table", (120, 80, 40))]),
    ("0-2", "bedroom", "Bedroom, flat 1A", [("0-2-1", "bed", (220, 220, 210))]),
    ("0-3", "kitchen", "Kitchen, flat 1B", [("0-3-1", "chair", RED), ("0-3-2", "dining table", (120, 80, 40))]),
])]


@pytest.fixture(scope="module")
def flats(tmp_path_factory: pytest.TempPathFactory) -> Scene:
    return load_scene(write_scene(tmp_path_factory.mktemp("flats") / "flats", FLATS, "flats", "Two flats"))


@pytest.mark.parametrize("text", ["the red chair in the kitchen of flat 1A", "the red chair in 1A's kitchen",
                                  "the red chair in the kitchen in apartment 1A", "1A厨房里的红色椅子",
                                  "1A的厨房里的红色椅子"])
def test_a_flats_name_says_which_kitchen(flats: Scene, text: str) -> None:
    assert [c.code for c in find(flats, text).candidates] == ["0-1-1"]


@pytest.mark.parametrize(("text", "lang", "message"), [
    ("the bed in the bedroom of flat 1B", "en", "No bed in the bedroom of 1B."),
    ("1B卧室的床", "zh", "1B的卧室里没有床。"),
])
def test_a_flat_without_the_room_has_nothing_there(flats: Scene, text: str, lang: str, message: str) -> None:
    result = find(flats, text, lang=lang)
    assert result.candidates == [] and (result.message or "").startswith(message)
