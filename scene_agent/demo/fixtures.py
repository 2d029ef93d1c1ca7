"""Appliances, sanitaryware, lamps, plants, screens, rugs and windows of the demo home as surface parts.

Same frame as furniture.py: origin at the footprint centre on the floor, front facing -y.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from scene_agent.demo import palette
from scene_agent.demo.furniture import Parts, cabinet
from scene_agent.demo.palette import RGB
from scene_agent.demo.surfaces import Box, Cylinder, Ellipsoid, Part


def refrigerator(w: float = 0.7, d: float = 0.68, h: float = 1.85, color: RGB = palette.STEEL) -> Parts:
    """A fridge-freezer: body, freezer drawer below, fridge door above, long handles."""
    fy = -d / 2 - 0.02
    return (
        Box((0, 0, h / 2), (w, d, h), color, bottom=False),
        Box((0, fy, 0.35), (w - 0.01, 0.04, 0.68), color),
        Box((0, fy, 0.7 + (h - 0.7) / 2), (w - 0.01, 0.04, h - 0.72), color),
        Box((w / 2 - 0.06, fy - 0.035, 0.55), (0.025, 0.03, 0.25), palette.GRAPHITE),
        Box((w / 2 - 0.06, fy - 0.035, 1.0), (0.025, 0.03, 0.45), palette.GRAPHITE),
    )


def stove(w: float = 0.6, d: float = 0.6, h: float = 0.9) -> Parts:
    """A freestanding cooker: steel body, black glass hob with four rings, oven door, knobs."""
    parts: list[Part] = [
        Box((0, 0, h / 2), (w, d, h), palette.STEEL, bottom=False),
        Box((0, 0, h + 0.004), (w - 0.02, d - 0.02, 0.008), palette.BLACK, bottom=False),
        Box((0, -d / 2 - 0.01, 0.42), (w - 0.06, 0.02, 0.5), palette.GLASS_DARK),
        Box((0, -d / 2 - 0.04, 0.72), (w - 0.12, 0.02, 0.02), palette.STEEL),
    ]
    for sx in (-1, 1):
        for sy in (-1, 1):
            parts.append(Cylinder((sx * 0.14, sy * 0.13, h + 0.008), 0.09 if sx == sy else 0.07, 0.003, palette.GRAPHITE, bottom=False))
    for i in range(4):
        parts.append(Box((-0.21 + 0.14 * i, -d / 2 - 0.02, h - 0.07), (0.04, 0.03, 0.04), palette.BLACK))
    return tuple(parts)


def washing_machine(w: float = 0.6, d: float = 0.6, h: float = 0.85) -> Parts:
    """A front-loading washer: white body, round dark porthole, control strip."""
    return (
        Box((0, 0, h / 2), (w, d, h), palette.CERAMIC, bottom=False),
        Ellipsoid((0, -d / 2, 0.42), (0.21, 0.035, 0.21), palette.STEEL),
        Ellipsoid((0, -d / 2 - 0.01, 0.42), (0.16, 0.03, 0.16), palette.GLASS_DARK),
        Box((0, -d / 2 - 0.005, h - 0.07), (w - 0.04, 0.01, 0.1), palette.OFF_WHITE),
        Cylinder((0.18, -d / 2 - 0.02, h - 0.09), 0.03, 0.04, palette.STEEL),
    )


def sink(style: Literal["vanity", "kitchen"], w: float = 0.7, d: float = 0.48) -> Parts:
    """A sink on its base cabinet: a ceramic vessel basin ('vanity') or a steel bowl in a counter ('kitchen')."""
    h = 0.8 if style == "vanity" else 0.86
    body = palette.WHITE_PAINT if style == "vanity" else palette.OFF_WHITE
    parts: list[Part] = list(cabinet(w, d, h, body, doors=2))
    if style == "vanity":
        parts.append(Box((0, 0, h + 0.02), (w + 0.02, d + 0.02, 0.04), palette.CERAMIC))
        parts.append(Cylinder((0, -0.03, h + 0.04), 0.14, 0.13, palette.CERAMIC, top_radius=0.21, top=False, bottom=False))
    else:
        parts.append(Box((0, -0.01, h + 0.02), (w + 0.02, d + 0.04, 0.04), palette.GRAPHITE))
        parts.append(Box((0, -0.03, h + 0.041), (w - 0.2, d - 0.16, 0.002), palette.STEEL, bottom=False))
    # Tap: a post at the back and a spout reaching over the basin.
    parts.append(Cylinder((0, d / 2 - 0.06, h + 0.04), 0.016, 0.24, palette.STEEL))
    parts.append(Box((0, d / 2 - 0.13, h + 0.27), (0.025, 0.16, 0.025), palette.STEEL))
    return tuple(parts)


def toilet(color: RGB = palette.CERAMIC) -> Parts:
    """A close-coupled toilet: pedestal, bowl, seat, cistern against the wall."""
    return (
        Cylinder((0, -0.1, 0), 0.12, 0.2, color, top_radius=0.15, top=False, bottom=False),
        Cylinder((0, -0.1, 0.2), 0.15, 0.18, color, top_radius=0.19, top=False, bottom=False),
        Cylinder((0, -0.1, 0.38), 0.2, 0.025, color, bottom=False),
        Box((0, 0.1, 0.2), (0.24, 0.22, 0.4), color, bottom=False),
        Box((0, 0.17, 0.6), (0.42, 0.18, 0.4), color),
        Box((0, 0.17, 0.815), (0.44, 0.2, 0.03), color),
    )


def bathtub(length: float = 1.7, width: float = 0.75, h: float = 0.56, color: RGB = palette.CERAMIC) -> Parts:
    """A built-in bath along x: four rim walls and the tub floor, open on top, with a tap."""
    t = 0.08
    return (
        Box((0, width / 2 - t / 2, h / 2), (length, t, h), color, bottom=False),
        Box((0, -(width / 2 - t / 2), h / 2), (length, t, h), color, bottom=False),
        Box((length / 2 - t / 2, 0, h / 2), (t, width - 2 * t, h), color, bottom=False),
        Box((-(length / 2 - t / 2), 0, h / 2), (t, width - 2 * t, h), color, bottom=False),
        Box((0, 0, 0.1), (length - 2 * t, width - 2 * t, 0.2), color, bottom=False),
        Cylinder((length / 2 - 0.05, 0.0, h), 0.018, 0.12, palette.STEEL),
    )


def lamp(shade: RGB = palette.CREAM, base: RGB = palette.BRASS, h: float = 0.5) -> Parts:
    """A table lamp: round base, stem, open drum shade."""
    return (
        Cylinder((0, 0, 0), 0.08, 0.03, base, bottom=False),
        Cylinder((0, 0, 0.03), 0.011, h - 0.25, base),
        Cylinder((0, 0, h - 0.24), 0.16, 0.24, shade, top_radius=0.11, top=False, bottom=False),
    )


def floor_lamp(shade: RGB = palette.CREAM, pole: RGB = palette.BLACK, h: float = 1.65) -> Parts:
    """A standing lamp: heavy disc base, thin pole, open conical shade."""
    return (
        Cylinder((0, 0, 0), 0.15, 0.03, pole, bottom=False),
        Cylinder((0, 0, 0.03), 0.013, h - 0.3, pole),
        Cylinder((0, 0, h - 0.3), 0.23, 0.3, shade, top_radius=0.16, top=False, bottom=False),
    )


def plant(height: float = 1.1, pot_r: float = 0.16, pot: RGB = palette.TERRACOTTA) -> Parts:
    """A potted plant: tapered pot, soil, stem and a crown of leaf clusters."""
    pot_h = 0.3 * pot_r / 0.16
    parts: list[Part] = [
        Cylinder((0, 0, 0), pot_r * 0.75, pot_h, pot, top_radius=pot_r, top=False, bottom=False),
        Cylinder((0, 0, pot_h - 0.03), pot_r - 0.01, 0.005, palette.SOIL, bottom=False),
        Cylinder((0, 0, pot_h - 0.03), 0.015, (height - pot_h) * 0.6, palette.DARK_WOOD),
    ]
    crown_r = max(pot_r * 1.6, (height - pot_h) * 0.32)
    # Leaf clusters on a golden-angle spiral: looks organic, needs no random numbers.
    for k in range(9):
        a = math.radians(137.5 * k)
        rr = crown_r * 0.55 * math.sqrt((k + 0.5) / 9)
        z = pot_h + (height - pot_h) * (0.45 + 0.4 * ((k * 5) % 9) / 9)
        size = crown_r * (0.5 - 0.02 * k)
        color = palette.LEAF_GREEN if k % 2 == 0 else palette.LEAF_DARK
        parts.append(Ellipsoid((rr * math.cos(a), rr * math.sin(a), z), (size, size, size * 0.7), color))
    return tuple(parts)


def tv(w: float = 1.23, h: float = 0.71) -> Parts:
    """A flat screen on a pedestal foot."""
    return (
        Box((0, 0, 0.09 + h / 2), (w, 0.05, h), palette.SCREEN),
        Box((0, 0.01, 0.06), (0.08, 0.04, 0.12), palette.GRAPHITE),
        Box((0, 0.0, 0.008), (0.36, 0.22, 0.016), palette.GRAPHITE, bottom=False),
    )


def monitor(w: float = 0.6, h: float = 0.36) -> Parts:
    """A desktop monitor: thin screen, neck and base plate."""
    return (
        Box((0, 0, 0.12 + h / 2), (w, 0.03, h), palette.SCREEN),
        Box((0, 0.04, 0.11), (0.05, 0.03, 0.2), palette.GRAPHITE),
        Box((0, 0.02, 0.008), (0.24, 0.18, 0.016), palette.GRAPHITE, bottom=False),
    )


@dataclass(frozen=True)
class Pane(Box):
    """A box that gets only `weight` of its area's share of points: glass, which a scanner barely sees."""

    weight: float = 1.0

    def area(self) -> float:
        """The visible area scaled by weight (what point counts are split by)."""
        return super().area() * self.weight


# A window's glass gets this fraction of the points its area would give it, so the frame dominates
# (as in a real scan, where most of the laser passes through the glass).
GLASS_WEIGHT = 0.08


def window(w: float, h: float, frame: RGB = palette.WHITE_PAINT, glass: RGB = palette.GLASS) -> Parts:
    """A window filling a w×h wall opening: a frame of four 5 cm bars, 6 cm deep, and a sparse pane.

    The origin is at the middle of the sill (the bottom of the opening) and the back (+y) goes to
    the wall: layout.window_item stands it in its opening with `against(..., z=sill)`.
    """
    t, d = 0.05, 0.06
    return (
        Box((-(w / 2 - t / 2), 0, h / 2), (t, d, h), frame),
        Box((w / 2 - t / 2, 0, h / 2), (t, d, h), frame),
        Box((0, 0, t / 2), (w - 2 * t, d, t), frame),
        Box((0, 0, h - t / 2), (w - 2 * t, d, t), frame),
        Pane((0, 0, h / 2), (w - 2 * t, 0.006, h - 2 * t), glass, weight=GLASS_WEIGHT),
    )


def rug(w: float, d: float, color: RGB, border: RGB, band: float = 0.08) -> Parts:
    """A flat rug: its field, and a contrasting border band around it (four strips, so no hidden border is sampled)."""
    return (
        Box((0, 0, 0.005), (w - 2 * band, d - 2 * band, 0.01), color, bottom=False),
        Box((0, d / 2 - band / 2, 0.005), (w, band, 0.01), border, bottom=False),
        Box((0, -(d / 2 - band / 2), 0.005), (w, band, 0.01), border, bottom=False),
        Box((w / 2 - band / 2, 0, 0.005), (band, d - 2 * band, 0.01), border, bottom=False),
        Box((-(w / 2 - band / 2), 0, 0.005), (band, d - 2 * band, 0.01), border, bottom=False),
    )
