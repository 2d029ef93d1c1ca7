"""find: codes, labels with plural and synonyms, room types and names, room and floor qualifiers."""

from __future__ import annotations

from pathlib import Path

import pytest

from scene_agent.errors import UsageError
from scene_agent.scene.loader import Scene, load_scene
from scene_agent.tools.find import find


@pytest.fixture(scope="module")
def scene(small_scene_path: Path) -> Scene:
    return load_scene(small_scene_path)


@pytest.mark.parametrize(
    ("query", "codes"),
    [
        ("bedroom", ["1-1", "1-2"]),
        ("bedrooms", ["1-1", "1-2"]),
        ("chair", ["0-1-1", "0-1-2", "0-1-3", "1-3-2", "1-4-1"]),
        ("chairs in the kitchen", ["0-1-1", "0-1-2", "0-1-3", "1-4-1"]),
        ("the chair in the kitchen on floor 0", ["0-1-1", "0-1-2", "0-1-3"]),
        ("the chair in the kitchen on the ground floor", ["0-1-1", "0-1-2", "0-1-3"]),
        ("the chair in the kitchen on the first floor", ["0-1-1", "0-1-2", "0-1-3"]),
        ("chairs on the second floor", ["1-3-2", "1-4-1"]),
        ("chairs upstairs", ["1-3-2", "1-4-1"]),
        ("chairs on the upper floor", ["1-3-2", "1-4-1"]),
        ("couch", ["0-2-1"]),
        ("couches", ["0-2-1"]),
        ("living room", ["0-2"]),
        ("sitting room", ["0-2"]),
        ("lounge", ["0-2"]),
        ("0-2-3", ["0-2-3"]),
        ("show me room 1-2", ["1-2"]),
        ("display object 0-7-12 and 0-1-4", []),
        ("chairs in 1-4", ["1-4-1"]),
        ("objects in the lounge", ["0-2-1", "0-2-2", "0-2-3", "0-2-4"]),
        ("rooms on floor 1", ["1-1", "1-2", "1-3", "1-4"]),
        ("master bedroom", ["1-1"]),
        ("the bed in the guest bedroom", ["1-2-1"]),
        ("tables", ["0-1-4", "0-2-4"]),
        ("bedside table", ["1-1-2"]),
        ("what's the color of the chair?", ["0-1-1", "0-1-2", "0-1-3", "1-3-2", "1-4-1"]),
        ("desk chair", ["1-3-2"]),
        ("restroom", ["0-3"]),
        ("the guest room", ["1-2"]),
        ("the bed in the master bedroom", ["1-1-1"]),
        ("the master bed", ["1-1-1"]),
    ],
)
def test_find(scene: Scene, query: str, codes: list[str]) -> None:
    assert [c.code for c in find(scene, query).candidates] == codes


def test_candidate_fields(scene: Scene) -> None:
    result = find(scene, "the chair in the kitchen on floor 0")
    assert result.floor == "0"
    chair = result.candidates[0]
    assert (chair.kind, chair.label, chair.room, chair.room_type, chair.floor, chair.floor_name) == (
        "object", "chair", "0-1", "kitchen", "0", "Ground floor")
    room = find(scene, "lounge").candidates[0]
    assert (room.kind, room.type, room.name, room.room) == ("room", "living_room", "Lounge", "0-2")


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("piano", "Nothing called 'piano' in this scene. It has: chair"),
        ("chairs in the bathroom", "No chair in the bathroom. There are chairs in: kitchen (0-1), study (1-3), Kitchenette (1-4)."),
        ("chairs on floor 7", "This scene has no floor 7; its floors are 0 (Ground floor), 1 (Upper floor)."),
        ("9-9-9", "Nothing in scene small has the code 9-9-9."),
        ("garage", "No garage. Rooms here: bathroom, bedroom, kitchen, living room, study."),
        ("bathroom upstairs", "No bathroom on floor 1. There are: 0-3 bathroom (floor 0)."),
    ],
)
def test_nothing_found_names_what_is_closest(scene: Scene, query: str, message: str) -> None:
    result = find(scene, query)
    assert result.candidates == []
    assert message in (result.message or "")


def test_empty_query_is_bad_usage(scene: Scene) -> None:
    with pytest.raises(UsageError, match="query is empty"):
        find(scene, "   ")
