"""find over the demo home: the queries a user of the product starts with."""

from __future__ import annotations

import pytest

from scene_agent.scene.loader import Scene
from scene_agent.tools.find import find


def _labels(scene: Scene, query: str) -> list[tuple[str, str]]:
    return [(c.kind, c.label or c.type or "") for c in find(scene, query).candidates]


@pytest.mark.parametrize(
    ("query", "kind", "what", "count"),
    [
        ("bedroom", "room", "bedroom", 3),
        ("bedrooms upstairs", "room", "bedroom", 3),
        ("chairs in the kitchen", "object", "chair", 4),
        ("the chair in the kitchen on floor 0", "object", "chair", 4),
        ("what's the color of the chair?", "object", None, 5),
        ("couch", "object", "sofa", 1),
        ("living room", "room", "living_room", 1),
        ("the armchairs", "object", "armchair", 2),
        ("the bed in the kids room", "object", "bed", 1),
        ("the guest room", "room", "bedroom", 1),
        ("fridge", "object", "refrigerator", 1),
        ("the sink", "object", "sink", 4),
        ("hallway", "room", "hallway", 2),
        ("nightstands in the master bedroom", "object", "nightstand", 2),
    ],
)
def test_demo_queries(demo: Scene, query: str, kind: str, what: str | None, count: int) -> None:
    found = _labels(demo, query)
    assert len(found) == count, found
    assert all(k == kind and (what is None or w == what) for k, w in found), found


def test_code_and_floor(demo: Scene) -> None:
    [armchair] = find(demo, "0-2-3").candidates
    assert (armchair.label, armchair.room, armchair.floor) == ("armchair", "0-2", "0")
    result = find(demo, "bedrooms on the first floor")
    assert result.candidates == [] and result.floor == "0"
    assert "No bedroom on floor 0. There are: 1-2 Master bedroom (floor 1)" in (result.message or "")


def test_piano_is_not_there(demo: Scene) -> None:
    result = find(demo, "what's the color of the piano?")
    assert result.candidates == []
    assert "Nothing called 'piano' in this scene. It has: " in (result.message or "")
