"""Variations of the demo home's rooms (layout.py) for the flats of the demo block (block.py).

A room is moved into its flat's slot, keeps or leaves out its decorations, gets other wall colours and
floor finishes, and its furniture's colours are swapped within groups of like colours (woods for woods,
fabrics for fabrics), all drawn from one generator per flat so that every flat differs and every build
is the same.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from scene_agent.demo import palette as pal
from scene_agent.demo.furniture import Parts
from scene_agent.demo.layout import Item, RoomPlan
from scene_agent.demo.structure import Door, Finish, Rect, Window

# Colours swapped among themselves: a walnut table may become oak, a navy duvet mustard, and the four
# kitchen chairs keep four far-apart colours (palette.py) in another order.
COLOR_GROUPS: tuple[tuple[pal.RGB, ...], ...] = (
    (pal.OAK, pal.WALNUT, pal.PINE, pal.DARK_WOOD),
    (pal.SOFA_GREY, pal.TEAL, pal.MUSTARD, pal.NAVY, pal.BEIGE_LINEN, pal.DUSTY_PINK, pal.SKY_BLUE, pal.SAGE,
     pal.WOOL_RED, pal.CREAM),
    (pal.CHAIR_RED, pal.CHAIR_BLUE, pal.CHAIR_GREEN, pal.CHAIR_YELLOW),
)
WALL_COLORS: tuple[pal.RGB, ...] = (pal.WALL_WARM_WHITE, pal.WALL_SAGE, pal.WALL_GREY, pal.WALL_BLUE, pal.WALL_PEACH)
DRY_FINISHES: tuple[Finish, ...] = ("oak", "carpet")

# Decorations a flat may do without (labels as in layout.py); furniture others stand on is always kept.
OPTIONAL_LABELS = frozenset({"plant", "rug", "floor lamp", "lamp", "stool", "armchair"})
KEEP_DECORATION = 0.65

ColorSwap = dict[pal.RGB, pal.RGB]


def color_swap(rng: np.random.Generator) -> ColorSwap:
    """A permutation of each colour group, as one mapping."""
    swap: ColorSwap = {}
    for group in COLOR_GROUPS:
        order = rng.permutation(len(group))
        swap.update({color: group[int(i)] for color, i in zip(group, order, strict=True)})
    return swap


def recolored(parts: Parts, swap: ColorSwap) -> Parts:
    """The parts with their colours swapped."""
    return tuple(replace(p, color=swap.get(p.color, p.color)) for p in parts)


def _shift_door(door: Door, dx: float) -> Door:
    return replace(door, at=door.at + dx) if door.wall in ("N", "S") else door


def _shift_window(window: Window, dx: float) -> Window:
    return replace(window, at=window.at + dx) if window.wall in ("N", "S") else window


def shifted(room: RoomPlan, dx: float) -> RoomPlan:
    """The room moved dx meters east: rectangle, items, and the doors and windows of its north and south walls."""
    r = room.rect
    return replace(
        room,
        rect=Rect(r.x0 + dx, r.y0, r.x1 + dx, r.y1),
        doors=tuple(_shift_door(d, dx) for d in room.doors),
        windows=tuple(_shift_window(w, dx) for w in room.windows),
        items=tuple(replace(i, x=i.x + dx) for i in room.items),
    )


def _varied_items(items: tuple[Item, ...], swap: ColorSwap, rng: np.random.Generator) -> tuple[Item, ...]:
    kept = []
    for item in items:
        # One draw per item whatever its label, so a room's later choices do not hang on its labels.
        keep = rng.random() < KEEP_DECORATION or item.label not in OPTIONAL_LABELS
        if keep:
            kept.append(replace(item, parts=recolored(item.parts, swap)))
    return tuple(kept)


def varied(room: RoomPlan, name: str, swap: ColorSwap, rng: np.random.Generator) -> RoomPlan:
    """The room renamed, with its own wall colour (tiled rooms keep theirs), floor finish (tiled floors stay
    tiled), some of its decorations and its furniture recoloured."""
    wall = WALL_COLORS[int(rng.integers(len(WALL_COLORS)))]
    finish = DRY_FINISHES[int(rng.integers(len(DRY_FINISHES)))]
    return replace(
        room,
        name=name,
        wall_color=room.wall_color if room.wall_color == pal.WALL_TILE else wall,
        floor_finish=room.floor_finish if room.floor_finish == "tile" else finish,
        items=_varied_items(room.items, swap, rng),
    )
