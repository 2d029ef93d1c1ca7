"""The demo home: two floors of rooms, each with its rectangle, finishes, doors, windows and furniture.

Codes follow list order: the n-th room of floor F is F-n and the m-th item of a room is F-n-m,
so the comments beside each room give its code. A room's windows are objects too, numbered after
all its items (a room with 10 items and one window has the window as F-n-11). Coordinates are
meters, x east, y north, z up from the floor of the storey.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scene_agent.demo import fixtures as fx
from scene_agent.demo import furniture as fn
from scene_agent.demo import palette as pal
from scene_agent.demo.furniture import Parts
from scene_agent.demo.structure import Door, Finish, Rect, Wall, Window
from scene_agent.demo.surfaces import footprint

WALL_GAP = 0.03  # furniture never touches the wall, as in a real room
WINDOW_GAP = 0.005  # a window's frame sits in its opening, just inside the wall's plane


@dataclass(frozen=True)
class Item:
    """One object: its label, its parts in its own frame, where it stands and which way it faces."""

    label: str
    parts: Parts
    x: float
    y: float
    z: float = 0.0
    yaw: float = 0.0

    def top(self) -> float:
        """Height of the item's highest point above the storey's floor."""
        return self.z + float(footprint(self.parts)[1][2])


@dataclass(frozen=True)
class RoomPlan:
    """One room: canonical type, display name, rectangle, finishes, doors, items and windows."""

    type: str
    name: str
    rect: Rect
    floor_finish: Finish
    wall_color: pal.RGB
    doors: tuple[Door, ...]
    items: tuple[Item, ...]
    windows: tuple[Window, ...] = ()

    def all_items(self) -> tuple[Item, ...]:
        """The room's objects in code order: its items, then one "window" item per window."""
        return self.items + tuple(window_item(self.rect, w) for w in self.windows)


@dataclass(frozen=True)
class FloorPlan:
    """One storey: code, name, elevation of its floor, ceiling height, rooms."""

    code: str
    name: str
    elevation: float
    height: float
    rooms: tuple[RoomPlan, ...]


def against(
    label: str, parts: Parts, rect: Rect, wall: Wall, along: float, z: float = 0.0, gap: float = WALL_GAP
) -> Item:
    """Stand an item with its back to a wall, `gap` from it, centred at `along` (x for N/S walls, y for E/W)."""
    back = float(footprint(parts)[1][1])  # the local +y extent is the item's back
    if wall == "N":
        return Item(label, parts, along, rect.y1 - gap - back, z, 0.0)
    if wall == "S":
        return Item(label, parts, along, rect.y0 + gap + back, z, 180.0)
    if wall == "W":
        return Item(label, parts, rect.x0 + gap + back, along, z, 90.0)
    return Item(label, parts, rect.x1 - gap - back, along, z, -90.0)


def window_item(rect: Rect, window: Window) -> Item:
    """The "window" object standing in a window's opening: frame and pane at the wall, sill at window.sill."""
    parts = fx.window(window.width, window.top - window.sill)
    return against("window", parts, rect, window.wall, window.at, z=window.sill, gap=WINDOW_GAP)


def facing(label: str, parts: Parts, x: float, y: float, target: tuple[float, float]) -> Item:
    """Stand an item at (x, y) with its front towards a point (chairs round a table)."""
    yaw = math.degrees(math.atan2(target[0] - x, -(target[1] - y)))
    return Item(label, parts, x, y, 0.0, round(yaw, 6))


def on_top(label: str, parts: Parts, under: Item, dx: float = 0.0, dy: float = 0.0, yaw: float | None = None) -> Item:
    """Set an item on another one (a lamp on a nightstand, a tv on its stand)."""
    return Item(label, parts, under.x + dx, under.y + dy, under.top(), under.yaw if yaw is None else yaw)


def _ground_floor() -> FloorPlan:
    hall, lounge, kitchen = Rect(6.1, 0.0, 8.0, 4.6), Rect(0.0, 0.0, 6.0, 4.6), Rect(0.0, 4.7, 6.9, 9.0)
    study, laundry = Rect(7.0, 4.7, 10.0, 9.0), Rect(8.1, 0.0, 10.0, 2.6)
    wc, garage = Rect(8.1, 2.7, 10.0, 4.6), Rect(10.1, 0.0, 14.0, 4.6)

    entrance = RoomPlan("hallway", "Entrance hall", hall, "tile", pal.WALL_WARM_WHITE, (  # 0-1
        Door("S", 7.05, 1.0), Door("W", 2.0, 1.0), Door("N", 6.5, 0.7), Door("N", 7.55, 0.8), Door("E", 1.3, 0.9),
        Door("E", 4.25, 0.6),
    ), (
        against("bench", fn.bench(1.0, 0.35, pal.OAK), hall, "E", 3.4),
        against("cabinet", fn.cabinet(0.8, 0.35, 0.9, pal.WHITE_PAINT, doors=2, top=pal.OAK), hall, "W", 3.6),
        Item("plant", fx.plant(0.9, 0.14), 7.65, 0.35),
        Item("rug", fx.rug(1.0, 2.0, pal.WOOL_RED, pal.CHARCOAL), 7.05, 2.0),
    ))

    tv_stand = against("tv stand", fn.cabinet(1.6, 0.42, 0.5, pal.WALNUT, doors=3, legs=True), lounge, "W", 2.3)
    living = RoomPlan("living_room", "Lounge", lounge, "oak", pal.WALL_GREY, (  # 0-2
        Door("E", 2.0, 1.0), Door("N", 5.0, 1.2),
    ), (
        Item("sofa", fn.sofa(2.2, 0.95, pal.SOFA_GREY, seats=3), 3.9, 2.3, 0.0, -90.0),
        Item("armchair", fn.sofa(0.85, 0.85, pal.MUSTARD, seats=1), 2.4, 0.75, 0.0, 180.0),
        Item("armchair", fn.sofa(0.85, 0.85, pal.TEAL, seats=1), 2.4, 3.85, 0.0, 0.0),
        Item("coffee table", fn.table(1.1, 0.6, 0.42, pal.WALNUT, shelf=True), 2.4, 2.3, 0.0, 90.0),
        tv_stand,
        on_top("tv", fx.tv(), tv_stand),
        against("bookshelf", fn.bookshelf(0.9, 0.32, 1.9, pal.WHITE_PAINT), lounge, "N", 1.0),
        Item("floor lamp", fx.floor_lamp(), 3.9, 3.85),
        Item("plant", fx.plant(1.3, 0.18), 5.6, 0.4),
        Item("rug", fx.rug(2.4, 2.0, pal.BEIGE_LINEN, pal.NAVY), 2.5, 2.3),
    ), (Window("S", 2.4, 1.6, 0.8, 2.2),))  # 0-2-11, behind the mustard armchair

    table_at = (2.5, 6.3)
    kitchen_room = RoomPlan("kitchen", "Kitchen", kitchen, "tile", pal.WALL_WARM_WHITE, (  # 0-3
        Door("S", 5.0, 1.2), Door("S", 6.5, 0.7),
    ), (
        Item("dining table", fn.table(1.6, 0.9, 0.75, pal.OAK), *table_at),
        facing("chair", fn.chair(pal.CHAIR_RED), 2.5, 5.55, table_at),
        facing("chair", fn.chair(pal.CHAIR_BLUE), 3.6, 6.3, table_at),
        facing("chair", fn.chair(pal.CHAIR_GREEN), 2.5, 7.05, table_at),
        facing("chair", fn.chair(pal.CHAIR_YELLOW), 1.4, 6.3, table_at),
        against("refrigerator", fx.refrigerator(), kitchen, "N", 0.42),
        against("cabinet", fn.cabinet(1.2, 0.6, 0.86, pal.OFF_WHITE, top=pal.GRAPHITE), kitchen, "N", 1.42),
        against("sink", fx.sink("kitchen", 0.8, 0.58), kitchen, "N", 2.47),
        against("stove", fx.stove(), kitchen, "N", 3.2),
        against("cabinet", fn.cabinet(1.6, 0.35, 0.7, pal.OFF_WHITE), kitchen, "N", 1.9, z=1.45),
    ), (Window("W", 6.3, 1.2, 0.9, 2.1),))  # 0-3-11

    desk = against("desk", fn.desk(1.4, 0.7, pal.PINE), study, "E", 7.2)
    study_room = RoomPlan("study", "Study", study, "oak", pal.WALL_SAGE, (Door("S", 7.55, 0.8),), (  # 0-4
        desk,
        Item("office chair", fn.office_chair(pal.CHARCOAL), 8.85, 7.2, 0.0, 90.0),
        on_top("monitor", fx.monitor(), desk, dx=0.15),
        on_top("lamp", fx.lamp(h=0.45), desk, dx=0.08, dy=-0.5),
        against("bookshelf", fn.bookshelf(1.2, 0.32, 2.0, pal.WALNUT, shelves=6), study, "N", 8.5),
        against("cabinet", fn.cabinet(0.5, 0.6, 0.7, pal.GRAPHITE, drawers=3), study, "W", 6.0),
        Item("plant", fx.plant(1.0, 0.15), 9.6, 5.1),
    ), (Window("E", 7.2, 1.2, 0.9, 2.1),))  # 0-4-8, above the desk

    laundry_room = RoomPlan("laundry_room", "Laundry", laundry, "tile", pal.WALL_BLUE, (  # 0-5
        Door("W", 1.3, 0.9), Door("E", 1.3, 0.9),
    ), (
        against("washing machine", fx.washing_machine(), laundry, "S", 9.6),
        against("sink", fx.sink("kitchen", 0.6, 0.55), laundry, "S", 8.85),
        against("cabinet", fn.cabinet(0.6, 0.5, 1.9, pal.WHITE_PAINT, doors=1), laundry, "N", 9.5),
    ))

    # Its narrow door opens at the north end of the hall's east wall, clear of the hall's bench.
    vanity = against("sink", fx.sink("vanity", 0.5, 0.4), wc, "S", 9.3)
    wc_room = RoomPlan("bathroom", "WC", wc, "tile", pal.WALL_TILE, (Door("W", 4.25, 0.6),), (  # 0-6
        against("toilet", fx.toilet(), wc, "N", 9.5),
        vanity,
        against("cabinet", fn.cabinet(0.5, 0.15, 0.6, pal.WHITE_PAINT, doors=1), wc, "S", vanity.x, z=1.3),
    ))

    # East of the house's old footprint, reached through the laundry; the workbench is labelled "table".
    workbench = against("table", fn.table(1.8, 0.7, 0.9, pal.PINE, legs=pal.GRAPHITE), garage, "N", 12.3)
    garage_room = RoomPlan("garage", "Garage", garage, "tile", pal.WALL_GREY, (Door("W", 1.3, 0.9),), (  # 0-7
        workbench,
        against("bookshelf", fn.bookshelf(1.4, 0.45, 2.0, pal.STEEL, shelves=4, fill=0.6), garage, "E", 1.6),
        against("cabinet", fn.cabinet(0.9, 0.5, 1.8, pal.GRAPHITE, doors=2), garage, "S", 11.0),
        Item("stool", fn.stool(pal.DARK_WOOD), workbench.x, 3.35),
    ))
    return FloorPlan(
        "0", "Ground floor", 0.0, 2.7, (entrance, living, kitchen_room, study_room, laundry_room, wc_room, garage_room)
    )


def _bedside(rect: Rect, wall: Wall, bed_at: float, bed_w: float, stand_w: float) -> tuple[Item, Item]:
    """Two nightstands flanking a bed whose head is against `wall`."""
    offset = (bed_w + 0.06) / 2 + 0.03 + stand_w / 2
    parts = fn.cabinet(stand_w, 0.4, 0.55, pal.OAK, drawers=2, legs=True)
    return against("nightstand", parts, rect, wall, bed_at - offset), against("nightstand", parts, rect, wall, bed_at + offset)


def _upper_floor() -> FloorPlan:
    landing, master = Rect(0.0, 4.0, 10.0, 5.1), Rect(0.0, 0.0, 6.0, 3.9)
    guest, kids, bath = Rect(0.0, 5.2, 3.6, 9.0), Rect(3.7, 5.2, 6.9, 9.0), Rect(7.0, 5.2, 10.0, 9.0)

    landing_room = RoomPlan("hallway", "Landing", landing, "oak", pal.WALL_WARM_WHITE, (  # 1-1
        Door("S", 3.0), Door("N", 1.8), Door("N", 5.3), Door("N", 8.5, 0.8),
    ), (
        Item("plant", fx.plant(1.0, 0.15), 9.6, 4.55),
        against("cabinet", fn.cabinet(1.0, 0.3, 0.8, pal.WALNUT, drawers=2), landing, "S", 6.5),
        Item("rug", fx.rug(3.0, 0.7, pal.SAGE, pal.CHARCOAL), 4.5, 4.55),
    ))

    m_left, m_right = _bedside(master, "W", 1.95, 1.6, 0.45)
    master_room = RoomPlan("bedroom", "Master bedroom", master, "carpet", pal.WALL_PEACH, (Door("N", 3.0),), (  # 1-2
        against("bed", fn.bed(1.6, 2.1, pal.WALNUT, pal.NAVY), master, "W", 1.95),
        m_left,
        m_right,
        on_top("lamp", fx.lamp(), m_left),
        on_top("lamp", fx.lamp(), m_right),
        against("wardrobe", fn.cabinet(1.2, 0.6, 2.0, pal.WALNUT, doors=2), master, "E", 1.0),
        against("dresser", fn.cabinet(1.0, 0.45, 0.8, pal.WALNUT, drawers=3, legs=True), master, "S", 3.8),
        Item("rug", fx.rug(1.4, 2.4, pal.CREAM, pal.WOOL_RED), 2.6, 1.95),
    ), (Window("S", 1.0, 1.2, 0.8, 2.1),))  # 1-2-9

    g_left, g_right = _bedside(guest, "N", 1.8, 1.4, 0.45)
    guest_room = RoomPlan("bedroom", "Guest bedroom", guest, "carpet", pal.WALL_SAGE, (Door("S", 1.8),), (  # 1-3
        against("bed", fn.bed(1.4, 2.0, pal.OAK, pal.SAGE), guest, "N", 1.8),
        g_left,
        g_right,
        on_top("lamp", fx.lamp(pal.BEIGE_LINEN), g_left),
        against("wardrobe", fn.cabinet(1.0, 0.6, 2.0, pal.WHITE_PAINT, doors=2), guest, "E", 5.9),
        against("dresser", fn.cabinet(0.9, 0.45, 0.8, pal.OAK, drawers=3), guest, "W", 6.1),
        Item("plant", fx.plant(0.9, 0.14), 3.25, 7.0),
    ), (Window("W", 7.5, 1.0, 0.8, 2.1),))  # 1-3-8

    k_left, k_right = _bedside(kids, "N", 4.65, 0.9, 0.4)
    kids_room = RoomPlan("bedroom", "Kids bedroom", kids, "oak", pal.WALL_BLUE, (Door("S", 5.3),), (  # 1-4
        against("bed", fn.bed(0.9, 2.0, pal.WHITE_PAINT, pal.SKY_BLUE), kids, "N", 4.65),
        k_left,
        k_right,
        on_top("lamp", fx.lamp(pal.SKY_BLUE, pal.WHITE_PAINT, h=0.4), k_right),
        against("wardrobe", fn.cabinet(1.0, 0.55, 1.9, pal.WHITE_PAINT, front=pal.SKY_BLUE, doors=2), kids, "E", 8.3),
        against("dresser", fn.cabinet(0.8, 0.42, 0.75, pal.WHITE_PAINT, front=pal.DUSTY_PINK, drawers=3), kids, "S", 4.2),
        against("desk", fn.desk(1.1, 0.6, pal.PINE), kids, "E", 6.5),
        Item("stool", fn.stool(pal.DUSTY_PINK), 5.9, 6.5),
        Item("rug", fx.rug(0.9, 1.4, pal.SKY_BLUE, pal.CREAM), 5.65, 6.9),
    ), (Window("N", 4.65, 1.0, 1.1, 2.1),))  # 1-4-10, above the bed: the north wall is the only outside wall

    bath_room = RoomPlan("bathroom", "Bathroom", bath, "tile", pal.WALL_TILE, (Door("S", 8.5, 0.8),), (  # 1-5
        against("bathtub", fx.bathtub(), bath, "N", 7.9),
        against("toilet", fx.toilet(), bath, "E", 6.6),
        against("sink", fx.sink("vanity"), bath, "W", 6.4),
        against("cabinet", fn.cabinet(0.4, 0.35, 1.8, pal.WHITE_PAINT, doors=1), bath, "E", 8.0),
        Item("rug", fx.rug(0.8, 0.5, pal.SKY_BLUE, pal.OFF_WHITE), 7.9, 7.7),
    ), (Window("N", 7.9, 0.8, 1.3, 2.1),))  # 1-5-6, above the bathtub
    return FloorPlan("1", "Upper floor", 3.0, 2.6, (landing_room, master_room, guest_room, kids_room, bath_room))


def demo_home() -> tuple[FloorPlan, ...]:
    """The two storeys of the demo home, ground floor first."""
    return (_ground_floor(), _upper_floor())
