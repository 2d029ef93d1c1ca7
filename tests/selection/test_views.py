"""View manifests say what tells candidates apart: each focus item's colour, its room's name, and both in Chinese."""

from __future__ import annotations

from scene_agent.language.display_names import zh_room_name
from scene_agent.scene.loader import Scene
from scene_agent.selection.views import build_view
from scene_agent.tools.color import color

KITCHEN_CHAIRS = ["0-3-2", "0-3-3", "0-3-4", "0-3-5"]


def test_each_candidate_carries_its_colour_and_room(demo: Scene) -> None:
    view = build_view(demo, KITCHEN_CHAIRS, "objects", None)
    focus = {item.code: item for item in view.items if item.role == "focus"}
    assert list(focus) == KITCHEN_CHAIRS
    for code, item in focus.items():
        measured = color(demo, code).dominant
        assert measured is not None and item.color is not None
        assert (item.color.basic, item.color.hex) == (measured.basic, measured.hex)
        assert (item.room_name, item.label_zh, item.name_zh) == ("Kitchen", "椅子", "厨房")
    assert len({item.color.basic for item in focus.values() if item.color}) == 4  # red, green, blue, yellow: told apart
    context = [item for item in view.items if item.role == "context"]
    assert [item.code for item in context] == ["0-3"] and context[0].color is None  # context is drawn, not described


def test_rooms_say_their_names_in_chinese(demo: Scene) -> None:
    view = build_view(demo, ["1-2", "0-2"], "room", None)
    names = {item.code: (item.name, item.name_zh, item.label_zh) for item in view.items if item.role == "focus"}
    assert names == {"1-2": ("Master bedroom", "主卧", "卧室"), "0-2": ("Lounge", "休息室", "客厅")}


def test_chinese_room_names() -> None:
    assert zh_room_name("Kitchen, flat 2B", "kitchen") == "厨房，公寓 2B"
    assert zh_room_name("客厅", "living_room") == "客厅"  # a scene's own Chinese name wins
    assert zh_room_name(None, "bathroom") == "浴室"
    assert zh_room_name("Kids bedroom", "bedroom") == "卧室（Kids bedroom）"  # unknown words kept beside the type
    assert zh_room_name("Room 12", "other") == "Room 12"
