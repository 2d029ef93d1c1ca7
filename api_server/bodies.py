"""HTTP request and response bodies (pydantic): validated on the way in, and the source of the OpenAPI schemas."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from scene_agent.scene.codes import CODE_RE
from scene_agent.selection.session import MAX_EXTENSION_S, SESSION_ID_RE, PickedItem, SessionMode, SessionStatus

MAX_PICKS = 500


class ErrorBody(BaseModel):
    """Every error response: a stable code and a message for people."""

    error: str = Field(description="Stable machine-readable code, e.g. 'session_expired'.")
    message: str


class ChannelState(BaseModel):
    """Where picks travel between agents and this server, and whether it can be used now."""

    kind: Literal["file", "redis"] = Field(description="file: the state and selection directories of this machine; "
                                                       "redis: the broker SCENE_AGENT_BROKER names.")
    where: str = Field(description="The directories, or the broker's URL without its password.")
    reachable: bool
    message: str


class Health(BaseModel):
    """The server is up; which scene it serves; whether picks can travel (503 with status 'unavailable' when not)."""

    status: Literal["ok", "unavailable"]
    version: str
    scene_id: str
    floors: int
    rooms: int
    objects: int
    viewer_built: bool
    channel: ChannelState


class Pick(BaseModel):
    """One picked item as the viewer sends it; fields other than itemCode are ignored."""

    model_config = ConfigDict(extra="ignore", strict=True)

    itemCode: str = Field(pattern=CODE_RE.pattern, max_length=64, description="Code of the picked room or object.")  # noqa: N815 - wire name


class SubmitSelection(BaseModel):
    """The user's picks for a selection session."""

    model_config = ConfigDict(extra="forbid", strict=True)

    session_id: str = Field(pattern=SESSION_ID_RE.pattern, description="32 lowercase hex characters.")
    selections: list[Pick] = Field(max_length=MAX_PICKS)


class CancelSelection(BaseModel):
    """The user declines to pick."""

    model_config = ConfigDict(extra="forbid", strict=True)

    session_id: str = Field(pattern=SESSION_ID_RE.pattern, description="32 lowercase hex characters.")


class ExtendSelection(BaseModel):
    """The user wants more time to pick."""

    model_config = ConfigDict(extra="forbid", strict=True)

    session_id: str = Field(pattern=SESSION_ID_RE.pattern, description="32 lowercase hex characters.")
    seconds: float = Field(default=60.0, gt=0, le=MAX_EXTENSION_S,
                           description="Seconds added to the deadline (at most 600 at a time, 3600 in all).")


class SelectionAnswer(BaseModel):
    """What was recorded and written to the selection file."""

    session_id: str
    status: Literal["confirmed", "cancelled"]
    selections: list[PickedItem]
    submitted_at: datetime


class SessionState(BaseModel):
    """A selection session as the viewer sees it."""

    session_id: str
    status: SessionStatus
    mode: SessionMode
    candidates: list[str]
    labels: dict[str, str]
    prompt: str
    multiple: bool
    seconds_left: float
    expires_at: datetime
    scene_id: str
    view: str | None = None
    selections: list[PickedItem] = Field(default=[], description="The picks, once confirmed.")
    answered_by: Literal["viewer", "words", "host"] | None = Field(
        default=None, description="Once confirmed: where the pick was made (a viewer, words in a chat, an MCP host).")
    waiting: bool = Field(default=False, description="Whether a live program waits for the answer (while pending): "
                                                      "false once the program that asked has stopped, and then a pick "
                                                      "is refused with 410 nobody_waiting.")


class SceneEntry(BaseModel):
    """A scene this server serves."""

    scene_id: str
    name: str
    url: str
    floors: int
    rooms: int
    objects: int
    points: int


class SceneList(BaseModel):
    """The scenes this server serves."""

    scenes: list[SceneEntry]


class ItemNames(BaseModel):
    """One room's or object's name for a Chinese reader, and the Chinese words a search finds it by."""

    code: str
    zh: str = Field(description="Its name for a Chinese reader: a room's name ('厨房，公寓 2B'), an object's label ('椅子').")
    words: list[str] = Field(description="Chinese words for its room type, the parts of its name or its label, "
                                         "synonyms included ('卧室', '睡房', '公寓 2B').")


class SceneNames(BaseModel):
    """Every room and object of a scene named for a Chinese reader (the viewer's search box reads it)."""

    scene_id: str
    items: list[ItemNames]


class TileBounds(BaseModel):
    """Axis-aligned bounds in metres."""

    min: tuple[float, float, float]
    max: tuple[float, float, float]


class TileCube(BaseModel):
    """The root node's cube: its lowest corner and its side in metres; a child's cube is an octant of its parent's."""

    min: tuple[float, float, float]
    side: float


class TileNode(BaseModel):
    """One octree node: its name (r, r0, r07 …), the points its tile holds, which children exist (bit d: child d)."""

    name: str
    points: int = Field(ge=0)
    children: int = Field(ge=0, le=255)


class TilesIndex(BaseModel):
    """The index of a scene's level-of-detail tiles (scene_agent/tiles/store.py writes it; docs/scene-format.md)."""

    format: Literal["scene-agent-tiles"]
    version: Literal[1]
    scene_id: str
    source_digest: str = Field(description="sha256 of the manifest, the point files' sizes and content digests and the parameters.")
    media_type: str
    grid: int = Field(description="Voxels along a node's side: a node keeps at most one point per voxel.")
    leaf_cap: int = Field(description="A node that receives at most this many points keeps them all.")
    points: int
    skipped_points: int = Field(description="Points of the scene's files left out because they are not finite.")
    bounds: TileBounds
    cube: TileCube
    depth: int
    spacing: list[float] = Field(description="Voxel side in metres, per level from the root.")
    tile_bytes: int
    items: list[str] = Field(description="Item id → room or object code: every room followed by its objects.")
    nodes: list[TileNode]
