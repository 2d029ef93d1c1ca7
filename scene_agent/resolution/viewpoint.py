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


@dataclass(frozen=True)
class Viewpoint:
    """A position and a horizontal looking direction (unit length) in scene coordinates."""

    position: tuple[float, float, float]
    forward: tuple[float, float]
    source: ViewpointSource = "camera"

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
