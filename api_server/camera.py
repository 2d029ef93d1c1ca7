"""The web viewer's camera as a chat message carries it, and the viewpoint it gives the agent's turn.

"The chair on the left" typed beside the 3D view means left on the screen. The page sends its camera with each
message in scene coordinates (the manifest's: metres, z up): where it is, the point it looks at and orbits, and
the direction that points up on the screen. The screen's right is then the line of sight crossed with that up
(right-handed, z up), and the viewpoint's forward is the horizontal direction a quarter turn left of the screen's
right: left and right in the viewpoint are exactly left and right on the screen, looking down from straight
above included (docs/http-api.md, "Web chat"; docs/language.md, "What the person sees").

What the schema cannot say is not refused: a camera on its own target gives no viewpoint, and an `up` that is zero
or along the line of sight is read as no `up` (the OpenAPI document is the contract: what fits it is accepted).
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from scene_agent.resolution.viewpoint import Viewpoint

MAX_COORDINATE = 1e5  # metres: far beyond any building, and no float's edge cases
MIN_DISTANCE = 1e-3  # metres between the camera and what it looks at: closer than this it looks nowhere
PARALLEL = 1e-6  # |a × b| below this share of |a|·|b|: the two point the same way (or opposite)

Coordinate = Annotated[float, Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE, allow_inf_nan=False)]
Vector = tuple[Coordinate, Coordinate, Coordinate]
Vec = tuple[float, float, float]


def _sub(a: Vec, b: Vec) -> Vec:
    return a[0] - b[0], a[1] - b[1], a[2] - b[2]


def _cross(a: Vec, b: Vec) -> Vec:
    return a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]


def _norm(a: Vec) -> float:
    return math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])


class Camera(BaseModel):
    """The viewer's camera when the message was sent, in scene coordinates (metres, z up): left and right in the
    message then mean left and right on the screen."""

    model_config = ConfigDict(extra="forbid", strict=True)

    position: Vector = Field(description="Where the camera is: [x, y, z].")
    target: Vector = Field(description="The point it looks at (and orbits): [x, y, z]. On the camera's position "
                                       "(within 1 mm) it gives no viewpoint.")
    up: Vector | None = Field(default=None, description="The direction that points up on the screen: the camera's "
                                                        "own y axis, [x, y, z], any length. With it, left and right "
                                                        "are the screen's, looking straight down too; without it (or "
                                                        "zero, or along the line of sight) they come from the "
                                                        "horizontal direction from position to target, and a camera "
                                                        "looking straight down gives none.")

    @field_validator("position", "target", "up", mode="before")
    @classmethod
    def _three(cls, value: Any) -> Any:
        if isinstance(value, list) and len(value) != 3:
            raise ValueError(f"must be 3 numbers, [x, y, z] (got {len(value)})")
        return tuple(value) if isinstance(value, list) else value  # read from JSON as a list; strict takes a tuple

    def viewpoint(self) -> Viewpoint | None:
        """Where the person looks from, with left and right as on their screen; None when nothing says which way
        is left: a camera on its own target, or one looking straight down without a usable `up`."""
        sight = _sub(self.target, self.position)
        if _norm(sight) < MIN_DISTANCE:
            return None
        looking = Viewpoint.looking(self.position, self.target, source="camera")
        if self.up is None:
            return looking
        right = _cross(sight, self.up)
        across = math.hypot(right[0], right[1])
        if _norm(right) <= PARALLEL * _norm(sight) * _norm(self.up) or across <= PARALLEL * _norm(right):
            # No screen right (`up` zero or along the line of sight), or one pointing straight up or down (a camera
            # rolled a quarter turn, whose line of sight is then level): looking along the line of sight is the best
            # there is.
            return looking
        # Viewpoint.right is forward turned a quarter turn clockwise (seen from above): forward is right turned back.
        # The line of sight and the screen's right in 3-D go along: left and right are where things are drawn.
        length, right_length = _norm(sight), _norm(right)
        return Viewpoint(position=self.position, forward=(-right[1] / across, right[0] / across), source="camera",
                         sight=(sight[0] / length, sight[1] / length, sight[2] / length),
                         screen_right=(right[0] / right_length, right[1] / right_length, right[2] / right_length))
