"""Place words decided from footprints and heights: gaps, on, under, above, between, corners."""

from __future__ import annotations

import math

from scene_agent.resolution.places import Spot, corner_distance, gap, is_above, is_between, is_on, is_under
from scene_agent.scene.attributes import ItemAttributes, PointSource


def spot(code: str, x0: float, y0: float, x1: float, y1: float, z0: float, z1: float, room: str = "0-1") -> Spot:
    """An item whose footprint is the rectangle x0..x1 × y0..y1 and whose height range is z0..z1."""
    footprint = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    attributes = ItemAttributes(code=code, kind="room" if code.count("-") == 1 else "object", points=100, colors=[],
                                volume_m3=None, extent_m=None, upright=True, z_min=z0, z_max=z1,
                                center=((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2), footprint=footprint,
                                source=PointSource(file=f"points/{code}.ply", size=1, digest="0" * 32))
    return Spot(code=code, room=room, attributes=attributes)


TABLE = spot("0-1-1", 0, 0, 1, 1, 0, 0.75)
LAMP = spot("0-1-2", 0.4, 0.4, 0.6, 0.6, 0.76, 1.2)
RUG = spot("0-1-3", -0.5, -0.5, 1.5, 1.5, 0, 0.01)
SHELF = spot("0-1-4", 0.2, 0.8, 0.8, 1.0, 1.5, 2.0)
CHAIR = spot("0-1-5", 1.3, 0.3, 1.7, 0.7, 0, 0.9)


def test_gap_is_zero_when_touching_and_combines_the_vertical_gap() -> None:
    assert gap(TABLE, LAMP) < 0.02 and gap(TABLE, RUG) == 0
    assert math.isclose(gap(TABLE, CHAIR), 0.3, abs_tol=1e-9)
    assert math.isclose(gap(LAMP, SHELF), math.hypot(0.2, 0.3), abs_tol=1e-9)


def test_on_under_above() -> None:
    assert is_on(LAMP, TABLE) and not is_on(TABLE, LAMP) and not is_on(SHELF, TABLE)  # the shelf floats 75 cm above
    assert is_under(RUG, TABLE) and is_under(TABLE, SHELF) and not is_under(CHAIR, TABLE)
    assert is_above(SHELF, TABLE) and is_above(LAMP, TABLE) and not is_above(CHAIR, TABLE)


def test_between_needs_the_middle_of_the_line() -> None:
    left, right = spot("0-1-6", 0, 0, 0.2, 0.2, 0, 1), spot("0-1-7", 3, 0, 3.2, 0.2, 0, 1)
    middle, beyond = spot("0-1-8", 1.5, 0, 1.7, 0.2, 0, 1), spot("0-1-9", 4, 0, 4.2, 0.2, 0, 1)
    far_off = spot("0-1-10", 1.5, 2.5, 1.7, 2.7, 0, 1)
    assert is_between(middle, left, right) and not is_between(beyond, left, right) and not is_between(far_off, left, right)


def test_corners_of_a_room() -> None:
    room = spot("0-1", 0, 0, 4, 3, 0, 2.7)
    assert corner_distance(spot("0-1-11", 3.6, 0.1, 3.9, 0.4, 0, 1), room) < 0.2
    assert corner_distance(spot("0-1-12", 1.8, 1.3, 2.2, 1.7, 0, 1), room) > 1.0
