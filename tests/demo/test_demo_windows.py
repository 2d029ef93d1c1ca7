"""The demo's windows: openings cut in outside walls, each with a "window" object standing in it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from scene_agent.demo import fixtures as fx
from scene_agent.demo import palette
from scene_agent.demo.layout import Item, RoomPlan, demo_home
from scene_agent.demo.structure import Rect, Window
from scene_agent.scene.loader import Scene
from scene_agent.tools.find import find

# Room code → codes of its window objects, numbered after all of the room's other items.
WINDOWS = {"0-2": ["0-2-11"], "0-3": ["0-3-11"], "0-4": ["0-4-8"], "1-2": ["1-2-9"], "1-3": ["1-3-8"],
           "1-4": ["1-4-10"], "1-5": ["1-5-6"]}
NOISE = 0.01  # meters; scanner noise moves a point a few mm
WALL_THICKNESS = 0.15  # rooms whose walls are this close face each other across one wall


def _windows() -> list[tuple[str, str, float, RoomPlan, Window]]:
    """(room code, window object code, floor elevation, room, window) for every window of the home."""
    out = []
    for plan in demo_home():
        for n, room in enumerate(plan.rooms, start=1):
            for k, window in enumerate(room.windows, start=len(room.items) + 1):
                out.append((f"{plan.code}-{n}", f"{plan.code}-{n}-{k}", plan.elevation, room, window))
    return out


WINDOW_CASES = _windows()
WINDOW_IDS = [code for _, code, _, _, _ in WINDOW_CASES]


def _along_and_off(xyz: np.ndarray, rect: Rect, window: Window) -> tuple[np.ndarray, np.ndarray]:
    """Each point's position along the window's wall and its distance from the wall's plane."""
    if window.wall in ("N", "S"):
        return xyz[:, 0], np.abs(xyz[:, 1] - (rect.y1 if window.wall == "N" else rect.y0))
    return xyz[:, 1], np.abs(xyz[:, 0] - (rect.x1 if window.wall == "E" else rect.x0))


def test_the_rooms_have_their_windows_after_all_their_items(demo: Scene) -> None:
    windows = {room.code: [o.code for o in room.objects if o.label == "window"] for room in demo.manifest.rooms()}
    assert {code: found for code, found in windows.items() if found} == WINDOWS
    for code, found in WINDOWS.items():
        assert [o.code for o in demo.item(code).room.objects][-len(found):] == found
    assert [code for _, code, _, _, _ in WINDOW_CASES] == [c for codes in WINDOWS.values() for c in codes]
    assert len(demo.manifest.objects()) == 80


def test_existing_codes_keep_their_objects(demo: Scene) -> None:
    # A few objects from before the windows, one in each room that got a window.
    expected = {"0-2-10": "rug", "0-3-10": "cabinet", "0-4-7": "plant", "1-2-8": "rug", "1-3-7": "plant",
                "1-4-9": "rug", "1-5-5": "rug"}
    assert {code: demo.index.objects[code].obj.label for code in expected} == expected


@pytest.mark.parametrize(("room_code", "code", "elevation", "room", "window"), WINDOW_CASES, ids=WINDOW_IDS)
def test_window_points_lie_in_the_opening(demo: Scene, room_code: str, code: str, elevation: float, room: RoomPlan,
                                          window: Window) -> None:
    xyz = demo.points(code).xyz.astype(float)
    along, off = _along_and_off(xyz, room.rect, window)
    z = xyz[:, 2] - elevation
    assert np.all(np.abs(along - window.at) <= window.width / 2 + NOISE)
    assert np.all((z >= window.sill - NOISE) & (z <= window.top + NOISE))
    assert off.max() <= 0.08
    # The frame fills the opening edge to edge.
    assert np.abs(along - window.at).max() >= window.width / 2 - NOISE
    assert z.min() <= window.sill + NOISE and z.max() >= window.top - NOISE


@pytest.mark.parametrize(("room_code", "code", "elevation", "room", "window"), WINDOW_CASES, ids=WINDOW_IDS)
def test_the_frame_outnumbers_the_glass(demo: Scene, room_code: str, code: str, elevation: float, room: RoomPlan,
                                        window: Window) -> None:
    xyz = demo.points(code).xyz.astype(float)
    along, _ = _along_and_off(xyz, room.rect, window)
    z = xyz[:, 2] - elevation
    bar = 0.05 + NOISE  # the frame's bars are 5 cm wide: inside them there is only glass
    glass = (np.abs(along - window.at) < window.width / 2 - bar) & (z > window.sill + bar) & (z < window.top - bar)
    assert 0.05 * len(xyz) < glass.sum() < 0.25 * len(xyz)


@pytest.mark.parametrize(("room_code", "code", "elevation", "room", "window"), WINDOW_CASES, ids=WINDOW_IDS)
def test_the_wall_has_a_hole_where_the_window_is(demo: Scene, room_code: str, code: str, elevation: float,
                                                 room: RoomPlan, window: Window) -> None:
    xyz = demo.points(room_code).xyz.astype(float)
    along, off = _along_and_off(xyz, room.rect, window)
    z = xyz[:, 2] - elevation
    on_wall = (off < NOISE) & (z > window.sill + NOISE) & (z < window.top - NOISE)
    inside = on_wall & (np.abs(along - window.at) < window.width / 2 - NOISE)
    # The same height of wall just beside the opening, half as wide, is sampled as densely as ever.
    beside = on_wall & (np.abs(along - window.at) > window.width / 2 + NOISE) & (np.abs(along - window.at) < window.width)
    assert inside.sum() == 0
    assert beside.sum() > 100


def _box(item: Item) -> tuple[np.ndarray, np.ndarray]:
    """The item's axis-aligned box in room coordinates (z above the storey's floor)."""
    corners = np.concatenate([p.corners() for p in item.parts])
    c, s = math.cos(math.radians(item.yaw)), math.sin(math.radians(item.yaw))
    x = item.x + c * corners[:, 0] - s * corners[:, 1]
    y = item.y + s * corners[:, 0] + c * corners[:, 1]
    z = item.z + corners[:, 2]
    return np.array([x.min(), y.min(), z.min()]), np.array([x.max(), y.max(), z.max()])


@pytest.mark.parametrize(("room_code", "code", "elevation", "room", "window"), WINDOW_CASES, ids=WINDOW_IDS)
def test_windows_are_clear_of_furniture_and_doors(room_code: str, code: str, elevation: float, room: RoomPlan,
                                                  window: Window) -> None:
    *_, item = room.all_items()[: int(code.rsplit("-", 1)[1])]
    assert item.label == "window"
    lo, hi = _box(item)
    for other in room.items:
        o_lo, o_hi = _box(other)
        assert np.any(hi <= o_lo) or np.any(o_hi <= lo), (code, other.label)
    for door in room.doors:
        if door.wall == window.wall:
            assert abs(door.at - window.at) >= (door.width + window.width) / 2, (code, door)


@pytest.mark.parametrize(("room_code", "code", "elevation", "room", "window"), WINDOW_CASES, ids=WINDOW_IDS)
def test_windows_are_in_outside_walls(room_code: str, code: str, elevation: float, room: RoomPlan, window: Window) -> None:
    (plan,) = [plan for plan in demo_home() if room in plan.rooms]
    r, lo, hi = room.rect, window.at - window.width / 2, window.at + window.width / 2
    for other in plan.rooms:
        o = other.rect
        if window.wall in ("E", "W"):
            gap = o.x0 - r.x1 if window.wall == "E" else r.x0 - o.x1
            overlaps = o.y0 < hi and lo < o.y1
        else:
            gap = o.y0 - r.y1 if window.wall == "N" else r.y0 - o.y1
            overlaps = o.x0 < hi and lo < o.x1
        assert not (other is not room and 0 <= gap <= WALL_THICKNESS and overlaps), (code, "looks into", other.name)


def test_window_fixture_frame_and_sparse_glass() -> None:
    parts = fx.window(1.2, 1.2)
    frame, glass = parts[:4], parts[4]
    assert all(p.color == palette.WHITE_PAINT for p in frame) and glass.color == palette.GLASS
    # Points are split by area(): the pane gets a small share although it is the biggest surface.
    assert glass.area() < 0.3 * sum(p.area() for p in frame)
    lo = np.concatenate([p.corners() for p in parts]).min(0)
    hi = np.concatenate([p.corners() for p in parts]).max(0)
    assert np.allclose(lo, (-0.6, -0.03, 0.0)) and np.allclose(hi, (0.6, 0.03, 1.2))


@pytest.mark.parametrize(
    ("query", "codes"),
    [
        ("window", ["0-2-11", "0-3-11", "0-4-8", "1-2-9", "1-3-8", "1-4-10", "1-5-6"]),
        ("windows upstairs", ["1-2-9", "1-3-8", "1-4-10", "1-5-6"]),
        ("the window in the kitchen", ["0-3-11"]),
    ],
)
def test_find_the_windows(demo: Scene, query: str, codes: list[str]) -> None:
    assert [c.code for c in find(demo, query).candidates] == codes
