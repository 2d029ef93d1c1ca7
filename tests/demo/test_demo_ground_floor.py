"""The demo's ground floor: the WC (0-6) and the garage (0-7), their doors, and finding them."""

from __future__ import annotations

import math

import numpy as np
import pytest

from scene_agent.demo.layout import FloorPlan, Item, RoomPlan, demo_home
from scene_agent.demo.structure import Door, Rect
from scene_agent.scene.loader import Scene
from scene_agent.tools.find import find

WALL_THICKNESS = 0.15  # rooms whose walls are this close face each other across one wall
DOOR_CLEARANCE = 0.5  # meters in front of a door (either side) kept free of furniture


def _room(scene: Scene, code: str):
    return scene.item(code).room


def test_ground_floor_rooms_in_order(demo: Scene) -> None:
    ground = demo.manifest.floors[0]
    assert [(r.code, r.type, r.name) for r in ground.rooms] == [
        ("0-1", "hallway", "Entrance hall"),
        ("0-2", "living_room", "Lounge"),
        ("0-3", "kitchen", "Kitchen"),
        ("0-4", "study", "Study"),
        ("0-5", "laundry_room", "Laundry"),
        ("0-6", "bathroom", "WC"),
        ("0-7", "garage", "Garage"),
    ]


def test_wc_and_garage_contents(demo: Scene) -> None:
    wc, garage = _room(demo, "0-6"), _room(demo, "0-7")
    assert [(o.code, o.label) for o in wc.objects] == [("0-6-1", "toilet"), ("0-6-2", "sink"), ("0-6-3", "cabinet")]
    assert [(o.code, o.label) for o in garage.objects] == [
        ("0-7-1", "table"), ("0-7-2", "bookshelf"), ("0-7-3", "cabinet"), ("0-7-4", "stool")]
    # Both stand where the layout says: the WC in the corner the hall, laundry and study leave, the
    # garage east of the old footprint (x 10.1-14.0). Bounds include a few mm of scanner noise.
    assert np.allclose(wc.bounds.min[:2], (8.1, 2.7), atol=0.01) and np.allclose(wc.bounds.max[:2], (10.0, 4.6), atol=0.01)
    assert np.allclose(garage.bounds.min[:2], (10.1, 0.0), atol=0.01) and np.allclose(garage.bounds.max[:2], (14.0, 4.6), atol=0.01)


def test_the_new_rooms_add_no_seats_or_beds(demo: Scene) -> None:
    labels = [o.label for o in demo.manifest.objects()]
    assert (labels.count("chair"), labels.count("sofa"), labels.count("bed")) == (4, 1, 3)


def _facing(plan: FloorPlan, room: RoomPlan, door: Door) -> list[RoomPlan]:
    """Rooms on the same floor across the door's wall whose wall covers the door's opening."""
    r, lo, hi = room.rect, door.at - door.width / 2, door.at + door.width / 2
    out = []
    for other in plan.rooms:
        o = other.rect
        if door.wall in ("E", "W"):
            gap = o.x0 - r.x1 if door.wall == "E" else r.x0 - o.x1
            covers = o.y0 <= lo and hi <= o.y1
        else:
            gap = o.y0 - r.y1 if door.wall == "N" else r.y0 - o.y1
            covers = o.x0 <= lo and hi <= o.x1
        if other is not room and 0 <= gap <= WALL_THICKNESS and covers:
            out.append(other)
    return out


OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


@pytest.mark.parametrize("plan", demo_home(), ids=lambda p: f"floor {p.code}")
def test_every_inner_door_opens_on_both_sides(plan: FloorPlan) -> None:
    for room in plan.rooms:
        for door in room.doors:
            neighbours = _facing(plan, room, door)
            assert len(neighbours) <= 1, (room.name, door)
            for other in neighbours:
                assert Door(OPPOSITE[door.wall], door.at, door.width) in other.doors, (room.name, door, other.name)


def test_the_new_doors() -> None:
    ground = demo_home()[0]
    by_name = {room.name: room for room in ground.rooms}
    assert [other.name for other in _facing(ground, by_name["WC"], Door("W", 4.25, 0.6))] == ["Entrance hall"]
    assert [other.name for other in _facing(ground, by_name["Garage"], Door("W", 1.3, 0.9))] == ["Laundry"]
    assert by_name["WC"].doors == (Door("W", 4.25, 0.6),) and by_name["Garage"].doors == (Door("W", 1.3, 0.9),)


def _footprint(item: Item) -> Rect:
    corners = np.concatenate([p.corners() for p in item.parts])
    c, s = math.cos(math.radians(item.yaw)), math.sin(math.radians(item.yaw))
    x = item.x + c * corners[:, 0] - s * corners[:, 1]
    y = item.y + s * corners[:, 0] + c * corners[:, 1]
    return Rect(float(x.min()), float(y.min()), float(x.max()), float(y.max()))


def _in_front_of(room: RoomPlan, door: Door) -> Rect:
    r, lo, hi = room.rect, door.at - door.width / 2, door.at + door.width / 2
    return {
        "N": Rect(lo, r.y1 - DOOR_CLEARANCE, hi, r.y1),
        "S": Rect(lo, r.y0, hi, r.y0 + DOOR_CLEARANCE),
        "E": Rect(r.x1 - DOOR_CLEARANCE, lo, r.x1, hi),
        "W": Rect(r.x0, lo, r.x0 + DOOR_CLEARANCE, hi),
    }[door.wall]


# The doors added with the WC and the garage, each seen from both of its rooms.
NEW_DOORS = [("WC", Door("W", 4.25, 0.6)), ("Entrance hall", Door("E", 4.25, 0.6)),
             ("Garage", Door("W", 1.3, 0.9)), ("Laundry", Door("E", 1.3, 0.9))]


@pytest.mark.parametrize(("room_name", "door"), NEW_DOORS, ids=[f"{n} {d.wall}" for n, d in NEW_DOORS])
def test_no_furniture_blocks_the_new_doors(room_name: str, door: Door) -> None:
    (room,) = [room for room in demo_home()[0].rooms if room.name == room_name]
    assert door in room.doors
    zone = _in_front_of(room, door)
    for item in room.items:
        if item.label == "rug" or item.z > 1.9:  # walked over, or hung above the opening
            continue
        box = _footprint(item)
        clear = box.x1 <= zone.x0 or box.x0 >= zone.x1 or box.y1 <= zone.y0 or box.y0 >= zone.y1
        assert clear, (room.name, door, item.label, box)


def _found(scene: Scene, query: str) -> list[str]:
    return [c.code for c in find(scene, query).candidates]


@pytest.mark.parametrize(
    ("query", "codes"),
    [
        ("show me room 0-7", ["0-7"]),
        ("garage", ["0-7"]),
        ("wc", ["0-6"]),
        ("washroom", ["0-6", "1-5"]),
        ("restroom", ["0-6", "1-5"]),
        ("toilet", ["0-6-1", "1-5-2"]),
        ("toilet on the ground floor", ["0-6-1"]),
        ("shelf in the garage", ["0-7-2"]),
        ("the stool in the garage", ["0-7-4"]),
        ("cabinet in the wc", ["0-6-3"]),
    ],
)
def test_find_the_new_rooms(demo: Scene, query: str, codes: list[str]) -> None:
    assert _found(demo, query) == codes


@pytest.mark.parametrize("query", ["bathroom", "bathrooms", "bathroom on the ground floor"])
def test_find_bathroom_returns_both_bathrooms(demo: Scene, query: str) -> None:
    expected = ["0-6"] if "ground" in query else ["0-6", "1-5"]
    assert _found(demo, query) == expected

