"""Where someone looks from: left, right, in front and behind are read in this frame.

A viewpoint comes from one of three places: the web viewer's camera at the moment a message was sent
(what the person sees now), the words themselves ("facing the bed", "standing at the door looking at
the windows"), or an anchor's own facing where the geometry shows it ("in front of the sofa"). Scene
coordinates throughout: metres, z up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

ViewpointSource = Literal["camera", "words", "facing"]


Vector3 = tuple[float, float, float]


@dataclass(frozen=True)
class Viewpoint:
    """A position and a horizontal looking direction (unit length) in scene coordinates; a camera's also carries its
    line of sight and the screen's right in 3-D, so that left and right are where things are drawn."""

    position: tuple[float, float, float]
    forward: tuple[float, float]
    source: ViewpointSource = "camera"
    sight: Vector3 | None = None         # unit line of sight (a camera's)
    screen_right: Vector3 | None = None  # unit direction of the screen's right (a camera's)

    @staticmethod
    def looking(position: tuple[float, float, float], at: tuple[float, float, float],
                source: ViewpointSource = "camera") -> Viewpoint | None:
        """The viewpoint at `position` looking towards `at`; None when `at` is straight above or below."""
        dx, dy = at[0] - position[0], at[1] - position[1]
        norm = math.hypot(dx, dy)
        if norm < 1e-6:
            return None
        return Viewpoint(position=position, forward=(dx / norm, dy / norm), source=source)

    @property
    def right(self) -> tuple[float, float]:
        """The horizontal direction to the right of someone looking along `forward` (z up)."""
        return self.forward[1], -self.forward[0]

    def across(self, x: float, y: float) -> float:
        """How far a point is to the right (positive) or left (negative) of the line of sight, in metres."""
        rx, ry = self.right
        return (x - self.position[0]) * rx + (y - self.position[1]) * ry

    def ahead(self, x: float, y: float) -> float:
        """How far a point is ahead (positive) or behind (negative) the viewer, in metres."""
        fx, fy = self.forward
        return (x - self.position[0]) * fx + (y - self.position[1]) * fy

    def screen_x(self, x: float, y: float, z: float) -> float:
        """How far right a point is drawn (a camera's perspective: across over depth), or, without a camera, how far
        right of the line of sight it is in metres. Only comparisons between points mean anything."""
        if self.sight is None or self.screen_right is None:
            return self.across(x, y)
        d = (x - self.position[0], y - self.position[1], z - self.position[2])
        depth = d[0] * self.sight[0] + d[1] * self.sight[1] + d[2] * self.sight[2]
        right = d[0] * self.screen_right[0] + d[1] * self.screen_right[1] + d[2] * self.screen_right[2]
        return right / max(depth, 1e-3)

    def depth(self, x: float, y: float, z: float) -> float:
        """How far ahead along the line of sight a point is (a camera's), else along the horizontal forward."""
        if self.sight is None:
            return self.ahead(x, y)
        d = (x - self.position[0], y - self.position[1], z - self.position[2])
        return d[0] * self.sight[0] + d[1] * self.sight[1] + d[2] * self.sight[2]
