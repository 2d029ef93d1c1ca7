"""One object of the scene in a few facts, for the viewer's info card: its label and where it is (room, floor), its
size (the `measure` tool's dimensions, the sides of its oriented box: what the chat answers to "how big is it?"), its
volume (the `volume` tool) and its dominant colours (the `color` tool).

`GET /api/scenes/<scene_id>/objects/<object_code>/info`. An unknown scene or object is 404, a code that is not an
object's (a floor, a room, a malformed one) 400, each in the server's `{"error", "message"}` shape.
"""

from __future__ import annotations

import numpy as np
from flask import Blueprint, Response, jsonify
from pydantic import BaseModel, Field

from api_server.bodies import ErrorBody
from api_server.openapi import documented
from api_server.scenes_api import served_scene
from scene_agent.errors import UsageError
from scene_agent.scene.codes import kind_of
from scene_agent.scene.index import IndexedObject
from scene_agent.scene.loader import Scene
from scene_agent.tools.color import color
from scene_agent.tools.measure import Dimensions, dimensions_of
from scene_agent.tools.volume import volume

bp = Blueprint("objects", __name__)


class InfoRoom(BaseModel):
    """The room an object is in."""

    code: str
    name: str = Field(description="The room's display name (its given name, else its type in words).")
    type: str = Field(description="The room's type, e.g. 'kitchen'.")


class InfoFloor(BaseModel):
    """The storey an object is on."""

    code: str
    name: str | None = None
    elevation_m: float = Field(description="Height of the storey's floor along the scene's up axis, metres.")


class InfoColor(BaseModel):
    """One dominant colour, as the `color` tool names it (largest share first)."""

    name: str = Field(description="Nearest CSS3 colour name, e.g. 'firebrick'.")
    basic: str = Field(description="One of the eleven basic colour terms, e.g. 'red'.")
    hex: str = Field(description="'#rrggbb' of the colour in full light.")
    share: float = Field(description="Fraction of the object's kept points with this colour.")


class ObjectInfo(BaseModel):
    """What the viewer's info card shows of one object."""

    scene_id: str
    code: str
    label: str = Field(description="What the object is, e.g. 'chair'.")
    room: InfoRoom
    floor: InfoFloor
    points: int = Field(description="Points in the object's file.")
    bounds_min: tuple[float, float, float] | None = Field(description="Lowest corner of its points' box (None: no points).")
    bounds_max: tuple[float, float, float] | None = Field(description="Highest corner of its points' box.")
    dimensions: Dimensions | None = Field(description="Width × depth × height of its oriented box, as the `measure` tool "
                                                      "gives them (None: no points).")
    volume_m3: float | None = Field(description="The `volume` tool's volume: the convex hull with the scan noise taken off.")
    volume_method: str = Field(description="How the volume was measured, in words.")
    colors: list[InfoColor]


def object_info(scene: Scene, code: str) -> ObjectInfo:
    """The facts of one object; UsageError when `code` is not an object code, NotFoundError when the scene has no such
    object."""
    kind = kind_of(code)  # UsageError for a malformed code
    if kind != "object":
        raise UsageError(f"'{code}' is a {kind} code; this asks for an object (F-R-O, e.g. 0-3-4)")
    entry = scene.item(code)  # NotFoundError names the code and the scene
    assert isinstance(entry, IndexedObject)
    xyz = scene.points(code).xyz
    finite = xyz[np.isfinite(xyz).all(axis=1)]
    lo = hi = None
    if len(finite):
        lo_a, hi_a = finite.min(axis=0), finite.max(axis=0)
        lo = (round(float(lo_a[0]), 4), round(float(lo_a[1]), 4), round(float(lo_a[2]), 4))
        hi = (round(float(hi_a[0]), 4), round(float(hi_a[1]), 4), round(float(hi_a[2]), 4))
    dimensions = dimensions_of(scene.item_attributes(code))
    colours = color(scene, code)
    measured = volume(scene, code)
    room, floor = entry.room.room, entry.room.floor
    return ObjectInfo(
        scene_id=scene.scene_id, code=code, label=entry.obj.label,
        room=InfoRoom(code=room.code, name=room.display_name, type=room.type.replace("_", " ")),
        floor=InfoFloor(code=floor.code, name=floor.name, elevation_m=floor.elevation),
        points=entry.obj.point_count, bounds_min=lo, bounds_max=hi, dimensions=dimensions,
        volume_m3=measured.volume_m3, volume_method=measured.method,
        colors=[InfoColor(name=c.name, basic=c.basic, hex=c.hex, share=c.share) for c in colours.clusters])


@bp.get("/api/scenes/<scene_id>/objects/<object_code>/info")
@documented("One object for the viewer's info card: label, room, floor, size (its points' box), volume and colours",
            tag="scenes", responses={200: ObjectInfo, 400: ErrorBody, 404: ErrorBody})
def info(scene_id: str, object_code: str) -> Response:
    """Measured from the object's points on each request (tens of milliseconds for the demo's objects)."""
    return jsonify(object_info(served_scene(scene_id), object_code).model_dump(mode="json"))
