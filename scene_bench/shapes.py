"""Shapes of known volume and colour, scanned the way the demo scene is: surface samples, shading, noise.

Tests of the colour and volume tools and `bench tools` use these: boxes, cylinders, spheres and an
L-shaped (non-convex) piece, lit by the demo's light (so one surface spans several brightnesses) and
jittered by scanner noise of a chosen size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from scene_agent.demo.palette import RGB
from scene_agent.demo.surfaces import Box, Cylinder, Ellipsoid, Part, shade, split_count
from scene_agent.geometry.points import Points


@dataclass(frozen=True)
class KnownShape:
    """A sampled shape with the truth about it."""

    name: str
    points: Points
    volume_m3: float
    convex: bool
    color: RGB


def _parts(name: str, color: RGB) -> tuple[tuple[Part, ...], float, bool]:
    """(parts, true volume, convex?) of a named shape, roughly furniture-sized."""
    if name == "box":
        return (Box((0.0, 0.0, 0.45), (0.6, 0.4, 0.9), color),), 0.6 * 0.4 * 0.9, True
    if name == "flat-box":  # a table top: thin, where noise matters most
        return (Box((0.0, 0.0, 0.02), (1.6, 0.9, 0.04), color),), 1.6 * 0.9 * 0.04, True
    if name == "cylinder":
        return (Cylinder((0.0, 0.0, 0.0), 0.25, 0.8, color),), math.pi * 0.25**2 * 0.8, True
    if name == "sphere":
        return (Ellipsoid((0.0, 0.0, 0.3), (0.3, 0.3, 0.3), color),), 4 / 3 * math.pi * 0.3**3, True
    if name == "l-shape":  # a corner sofa's footprint, extruded: two boxes touching along one face
        parts = (Box((0.0, 0.0, 0.4), (2.0, 0.8, 0.8), color), Box((0.6, 0.9, 0.4), (0.8, 1.0, 0.8), color))
        return parts, 2.0 * 0.8 * 0.8 + 0.8 * 1.0 * 0.8, False
    raise ValueError(f"unknown shape {name!r}; known: {', '.join(SHAPE_NAMES)}")


SHAPE_NAMES = ("box", "flat-box", "cylinder", "sphere", "l-shape")


def known_shape(name: str, n: int, color: RGB = (200, 40, 40), noise_m: float = 0.0015, seed: int = 0,
                yaw_deg: float = 0.0) -> KnownShape:
    """n points on the named shape's surface, shaded and with Gaussian noise of `noise_m` on each axis."""
    rng = np.random.default_rng(seed)
    parts, volume, convex = _parts(name, color)
    counts = split_count(n, np.array([p.area() for p in parts]))
    xyz, normals = zip(*(p.sample(int(c), rng) for p, c in zip(parts, counts, strict=True) if c), strict=True)
    xyz, normals = np.concatenate(xyz), np.concatenate(normals)
    if yaw_deg:
        c, s = math.cos(math.radians(yaw_deg)), math.sin(math.radians(yaw_deg))
        turn = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
        xyz, normals = xyz @ turn.T, normals @ turn.T
    rgb = shade(normals, np.broadcast_to(np.array(color, dtype=float), xyz.shape), rng)
    xyz = xyz + rng.normal(0.0, noise_m, size=xyz.shape) if noise_m else xyz
    return KnownShape(name=name, points=Points(xyz=xyz, rgb=rgb), volume_m3=volume, convex=convex, color=color)
