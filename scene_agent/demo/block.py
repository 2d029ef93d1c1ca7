"""The demo block of flats: storeys of flats made from the demo home's rooms (layout.py), every flat varied.

A flat is one storey of the demo home (its ground or its upper floor) moved into the flat's slot along
the storey, with some of its rooms and decorations left out and its colours and finishes changed
(vary.py), all drawn from a generator seeded by the flat's place in the block (surfaces.rng_for).

Codes: storey S is floor "S" (the ground storey is 0), its rooms are "S-R" numbered from 1 across its
flats in order (flat A's rooms first), and a room's objects "S-R-O" as in the home.
"""

from __future__ import annotations

import string
from collections.abc import Iterator
from dataclasses import dataclass

from scene_agent.demo.layout import FloorPlan, RoomPlan, demo_home
from scene_agent.demo.surfaces import rng_for
from scene_agent.demo.vary import color_swap, shifted, varied

SLOT_WIDTH = 14.4  # the widest flat (the home's ground floor) is 14 m; a party wall between flats
STOREY_PITCH = 3.0  # floor to floor
STOREY_HEIGHT = 2.7  # floor to ceiling, as the home's ground floor
MAX_FLATS = len(string.ascii_uppercase)  # flats are lettered along a storey

# Rooms a flat may do without (names as in layout.py); the others make it a home.
OPTIONAL_ROOMS = frozenset({"Study", "Laundry", "Garage", "Guest bedroom", "Kids bedroom"})
KEEP_ROOM = 0.7


@dataclass(frozen=True)
class BlockSize:
    """How big the block is: storeys, and flats on each storey."""

    storeys: int
    flats: int

    def __post_init__(self) -> None:
        if self.storeys < 1 or not 1 <= self.flats <= MAX_FLATS:
            raise ValueError(f"demo block: {self.storeys} storeys of {self.flats} flats (need >= 1 storey, 1..{MAX_FLATS} flats)")


# `scene-agent demo-scene --size large`: 21.6 million points (tests/demo/test_demo_block.py checks at least 20 million).
LARGE = BlockSize(storeys=9, flats=4)
# `scene-agent demo-scene --size huge`: 103.5 million points, 180 flats on 18 storeys (a city block, 144 m wide).
HUGE = BlockSize(storeys=18, flats=10)


def flat_name(storey: int, index: int) -> str:
    """A flat's name: its storey and its letter along the storey ("3B")."""
    return f"{storey}{string.ascii_uppercase[index]}"


def flat_rooms(storey: int, index: int) -> tuple[RoomPlan, ...]:
    """One flat's rooms, in its slot along the storey, varied from the home's by the flat's own generator."""
    rng = rng_for(f"flat {flat_name(storey, index)}")
    home = demo_home()
    plan = home[int(rng.integers(len(home)))]
    swap = color_swap(rng)
    name = flat_name(storey, index)
    rooms = []
    for room in plan.rooms:
        # One draw per room whatever its name, as for the items in vary.py.
        if rng.random() >= KEEP_ROOM and room.name in OPTIONAL_ROOMS:
            continue
        rooms.append(varied(shifted(room, index * SLOT_WIDTH), f"{room.name}, flat {name}", swap, rng))
    return tuple(rooms)


def storey_plan(storey: int, flats: int) -> FloorPlan:
    """One storey of the block with its flats' rooms in order."""
    rooms = tuple(room for index in range(flats) for room in flat_rooms(storey, index))
    name = "Ground floor" if storey == 0 else f"Floor {storey}"
    return FloorPlan(str(storey), name, storey * STOREY_PITCH, STOREY_HEIGHT, rooms)


def block_storeys(size: BlockSize) -> Iterator[FloorPlan]:
    """The block's storeys, ground first, one at a time."""
    for storey in range(size.storeys):
        yield storey_plan(storey, size.flats)
