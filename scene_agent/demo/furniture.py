"""Furniture of the demo home as surface parts: seats, tables, beds and storage.

Every function returns parts in the furniture's own frame: origin at the centre of the footprint
on the floor, +z up, the front (where you sit, where the doors open) facing -y, so the back
stands against a wall when the piece is placed with its +y side to it. Sizes are in meters.
"""

from __future__ import annotations

import math
from dataclasses import replace

from scene_agent.demo import palette
from scene_agent.demo.palette import RGB
from scene_agent.demo.surfaces import Box, Cylinder, Ellipsoid, Part

Parts = tuple[Part, ...]


def _shade_of(color: RGB, factor: float) -> RGB:
    """The same hue, lighter or darker (door fronts, legs)."""
    red, green, blue = (int(min(255, round(c * factor))) for c in color)
    return red, green, blue


def moved(parts: Parts, dx: float, dy: float, dz: float) -> Parts:
    """The same parts shifted (to stack or offset sub-assemblies)."""
    out: list[Part] = []
    for p in parts:
        if isinstance(p, Cylinder):
            out.append(replace(p, base=(p.base[0] + dx, p.base[1] + dy, p.base[2] + dz)))
        else:
            out.append(replace(p, center=(p.center[0] + dx, p.center[1] + dy, p.center[2] + dz)))
    return tuple(out)


def _legs(w: float, d: float, h: float, color: RGB, t: float = 0.04, inset: float = 0.02) -> Parts:
    """Four square legs standing on the floor under a w×d top."""
    x, y = w / 2 - inset - t / 2, d / 2 - inset - t / 2
    return tuple(Box((sx * x, sy * y, h / 2), (t, t, h), color, bottom=False) for sx in (-1, 1) for sy in (-1, 1))


def chair(color: RGB, w: float = 0.44, d: float = 0.48, seat_h: float = 0.46, back_h: float = 0.9) -> Parts:
    """A painted wooden dining chair: legs, seat, back posts and two back rails, all one colour."""
    t, post_y = 0.035, d / 2 - 0.02 - 0.0175
    parts: list[Part] = list(_legs(w, d, seat_h - 0.03, color, t=t))
    parts.append(Box((0, 0, seat_h - 0.015), (w, d, 0.03), color))
    for sx in (-1, 1):
        parts.append(Box((sx * (w / 2 - 0.02 - t / 2), post_y, (seat_h + back_h) / 2), (t, t, back_h - seat_h), color))
    parts.append(Box((0, post_y, back_h - 0.07), (w - 0.08, 0.022, 0.12), color))
    parts.append(Box((0, post_y, (seat_h + back_h) / 2 - 0.05), (w - 0.08, 0.02, 0.06), color))
    return tuple(parts)


def table(w: float, d: float, h: float, top: RGB, legs: RGB | None = None, shelf: bool = False) -> Parts:
    """A table: 4 cm top, apron, square legs, optionally a low shelf (coffee tables)."""
    legs = legs or top
    parts: list[Part] = [Box((0, 0, h - 0.02), (w, d, 0.04), top)]
    parts += _legs(w, d, h - 0.04, legs, t=0.05 if h > 0.6 else 0.04, inset=0.04)
    apron_h = 0.08 if h > 0.6 else 0.05
    parts.append(Box((0, -(d / 2 - 0.06), h - 0.04 - apron_h / 2), (w - 0.12, 0.02, apron_h), legs))
    parts.append(Box((0, d / 2 - 0.06, h - 0.04 - apron_h / 2), (w - 0.12, 0.02, apron_h), legs))
    if shelf:
        parts.append(Box((0, 0, 0.1), (w - 0.12, d - 0.12, 0.02), top))
    return tuple(parts)


def sofa(w: float, d: float, color: RGB, seats: int, feet: RGB = palette.DARK_WOOD) -> Parts:
    """An upholstered sofa (or armchair with seats=1): feet, base, arms, back, seat and back cushions."""
    foot_h, arm_w, back_d = 0.08, 0.18, 0.2
    parts: list[Part] = [
        Cylinder((sx * (w / 2 - 0.06), sy * (d / 2 - 0.06), 0), 0.025, foot_h, feet, bottom=False)
        for sx in (-1, 1) for sy in (-1, 1)
    ]
    parts.append(Box((0, 0, foot_h + 0.09), (w, d, 0.18), color))
    for sx in (-1, 1):
        parts.append(Box((sx * (w / 2 - arm_w / 2), 0, foot_h + 0.29), (arm_w, d, 0.58), color))
    parts.append(Box((0, d / 2 - back_d / 2, foot_h + 0.39), (w - 2 * arm_w, back_d, 0.78), color))
    inner = w - 2 * arm_w
    cushion_w = inner / seats
    cushion = _shade_of(color, 1.06)
    for i in range(seats):
        x = -inner / 2 + cushion_w * (i + 0.5)
        parts.append(Box((x, -back_d / 2, foot_h + 0.18 + 0.07), (cushion_w - 0.015, d - back_d, 0.14), cushion))
        parts.append(Box((x, d / 2 - back_d - 0.07, foot_h + 0.55), (cushion_w - 0.03, 0.14, 0.42), cushion))
    return tuple(parts)


def cabinet(
    w: float,
    d: float,
    h: float,
    body: RGB,
    front: RGB | None = None,
    doors: int = 2,
    drawers: int = 0,
    legs: bool = False,
    handle: RGB = palette.STEEL,
    top: RGB | None = None,
) -> Parts:
    """A storage carcass with door or drawer fronts and handles; also nightstands, dressers, wardrobes."""
    front = front or _shade_of(body, 1.05)
    z0 = 0.12 if legs else 0.0
    parts: list[Part] = list(_legs(w, d, z0, _shade_of(body, 0.8), t=0.035)) if legs else []
    parts.append(Box((0, 0, z0 + (h - z0) / 2), (w, d, h - z0), body, bottom=legs))
    if top is not None:
        parts.append(Box((0, -0.01, h + 0.015), (w + 0.02, d + 0.02, 0.03), top))
    fy = -d / 2 - 0.009
    if drawers:
        fh = (h - z0) / drawers
        for i in range(drawers):
            zc = z0 + fh * (i + 0.5)
            parts.append(Box((0, fy, zc), (w - 0.02, 0.018, fh - 0.008), front))
            parts.append(Box((0, fy - 0.02, zc + fh * 0.2), (min(0.16, w / 3), 0.02, 0.015), handle))
    else:
        dw = w / doors
        for i in range(doors):
            xc = -w / 2 + dw * (i + 0.5)
            parts.append(Box((xc, fy, z0 + (h - z0) / 2), (dw - 0.008, 0.018, h - z0 - 0.01), front))
            # Handles sit on the edge a door opens from: the inner edges of a pair.
            side = 1 if (doors == 1 or i % 2 == 0) else -1
            hz = min(z0 + (h - z0) * 0.6, 1.1)
            parts.append(Box((xc + side * (dw / 2 - 0.05), fy - 0.02, hz), (0.015, 0.02, min(0.16, (h - z0) / 3)), handle))
    return tuple(parts)


def bookshelf(w: float, d: float, h: float, color: RGB, shelves: int = 5, fill: float = 0.8) -> Parts:
    """An open bookcase: sides, top, shelves, back panel and rows of book spines."""
    t = 0.02
    parts: list[Part] = [
        Box((-(w / 2 - t / 2), 0, h / 2), (t, d, h), color, bottom=False),
        Box((w / 2 - t / 2, 0, h / 2), (t, d, h), color, bottom=False),
        Box((0, d / 2 - 0.005, h / 2), (w - 2 * t, 0.01, h), color),
        Box((0, 0, h - t / 2), (w - 2 * t, d, t), color),
    ]
    gap = (h - t) / shelves
    widths, heights = (0.03, 0.045, 0.025, 0.04, 0.035, 0.05), (0.75, 0.86, 0.7, 0.9, 0.8)
    book = 0
    for s in range(shelves):
        z = s * gap
        parts.append(Box((0, 0, z + t / 2), (w - 2 * t, d, t), color, bottom=(s > 0)))
        # Books stand from the left side until `fill` of the shelf is used; patterns cycle so no
        # randomness is needed to make rows look different.
        x = -w / 2 + t + 0.01
        while x < -w / 2 + t + fill * (w - 2 * t):
            bw, bh = widths[book % len(widths)], heights[(book + s) % len(heights)] * (gap - t - 0.02)
            bd = d - 0.06
            parts.append(Box((x + bw / 2, 0.0, z + t + bh / 2), (bw - 0.002, bd, bh), palette.BOOKS[book % len(palette.BOOKS)],
                             bottom=False))
            x += bw
            book += 1
    return tuple(parts)


def bed(w: float, length: float, frame: RGB, duvet: RGB, pillows: RGB = palette.CREAM, sheet: RGB = palette.OFF_WHITE) -> Parts:
    """A bed with its head to +y: legs, frame, headboard, mattress, a draped duvet and pillows."""
    parts: list[Part] = list(_legs(w + 0.06, length, 0.1, frame, t=0.06, inset=0.0))
    # The mattress hides the base's top, the wall the headboard's back, the duvet most of the mattress's top.
    parts.append(Box((0, 0, 0.2), (w + 0.06, length, 0.2), frame, hidden=("+z",)))
    parts.append(Box((0, length / 2 - 0.03, 0.5), (w + 0.06, 0.06, 1.0), frame, bottom=False, hidden=("+y",)))
    mattress_l = length - 0.08
    duvet_l = 0.7 * mattress_l
    covered = duvet_l + 0.02
    parts.append(Box((0, -0.03 - mattress_l / 2 + covered / 2, 0.4), (w, covered, 0.2), sheet, bottom=False, hidden=("+z", "+y")))
    parts.append(Box((0, -0.03 + covered / 2, 0.4), (w, mattress_l - covered, 0.2), sheet, bottom=False, hidden=("-y",)))
    parts.append(Box((0, -0.03 - mattress_l / 2 + duvet_l / 2 - 0.02, 0.4), (w + 0.05, duvet_l + 0.04, 0.26), duvet, bottom=False))
    count = 2 if w >= 1.2 else 1
    pw = w / count
    for i in range(count):
        x = -w / 2 + pw * (i + 0.5)
        parts.append(Ellipsoid((x, length / 2 - 0.06 - 0.2, 0.57), (pw / 2 - 0.06, 0.2, 0.07), pillows))
    return tuple(parts)


def desk(w: float, d: float, color: RGB, h: float = 0.75) -> Parts:
    """A desk: top, two side panels, a modesty panel and a drawer pedestal on the right."""
    t = 0.03
    parts: list[Part] = [Box((0, 0, h - t / 2), (w, d, t), color)]
    for sx in (-1, 1):
        parts.append(Box((sx * (w / 2 - t / 2), 0, (h - t) / 2), (t, d, h - t), color, bottom=False))
    parts.append(Box((0, d / 2 - 0.05, h - 0.25), (w - 2 * t, 0.02, 0.4), color))
    pedestal = cabinet(0.4, d - 0.1, h - t - 0.01, color, drawers=3)
    parts += moved(pedestal, w / 2 - t - 0.21, 0.04, 0.0)
    return tuple(parts)


def office_chair(color: RGB, frame: RGB = palette.BLACK) -> Parts:
    """A swivel chair: five-star base with casters, gas column, seat, back and arms."""
    parts: list[Part] = []
    for k in range(5):
        a = 90 + 72 * k
        ca, sa = math.cos(math.radians(a)), math.sin(math.radians(a))
        parts.append(Box((0.15 * ca, 0.15 * sa, 0.07), (0.3, 0.045, 0.03), frame, yaw=a))
        parts.append(Cylinder((0.28 * ca, 0.28 * sa, 0.0), 0.025, 0.055, frame))
    parts.append(Cylinder((0, 0, 0.085), 0.025, 0.33, palette.GRAPHITE))
    parts.append(Box((0, 0, 0.46), (0.5, 0.48, 0.08), color))
    parts.append(Box((0, 0.22, 0.42 + 0.1), (0.06, 0.04, 0.2), frame))
    parts.append(Box((0, 0.23, 0.8), (0.46, 0.06, 0.5), color))
    for sx in (-1, 1):
        parts.append(Box((sx * 0.26, 0.0, 0.56), (0.04, 0.2, 0.16), frame))
        parts.append(Box((sx * 0.26, 0.0, 0.645), (0.06, 0.26, 0.03), frame))
    return tuple(parts)


def stool(color: RGB, r: float = 0.17, h: float = 0.46) -> Parts:
    """A round stool: seat disc on four legs."""
    return (Cylinder((0, 0, h - 0.04), r, 0.04, color), *_legs(0.26, 0.26, h - 0.04, color, t=0.03, inset=0.0))


def bench(w: float, d: float, color: RGB, h: float = 0.45) -> Parts:
    """A plank bench on two slab ends."""
    parts: list[Part] = [Box((0, 0, h - 0.025), (w, d, 0.05), color)]
    for sx in (-1, 1):
        parts.append(Box((sx * (w / 2 - 0.08), 0, (h - 0.05) / 2), (0.04, d - 0.04, h - 0.05), color, bottom=False))
    return tuple(parts)
