"""View manifests: what the viewer should open — which items, in which mode — served at /manifests/<view>.json."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime
from pathlib import Path
from typing import Literal
from urllib.parse import quote, urlencode

from pydantic import ConfigDict, Field

from scene_agent.fileio import ensure_private_dir, read_regular_file, write_atomic
from scene_agent.language.display_names import zh_object_label, zh_room_name
from scene_agent.model import Model
from scene_agent.scene.codes import code_sort_key
from scene_agent.scene.index import IndexedObject, IndexedRoom
from scene_agent.scene.loader import Scene
from scene_agent.scene.manifest import Bounds
from scene_agent.selection.session import SelectionSession, SessionMode, now_utc, selection_view

VIEW_NAME_RE = re.compile(r"^[a-z]+-[0-9a-f]{16,32}$")
MAX_VIEW_BYTES = 8 * 1024 * 1024


class ItemColor(Model):
    """An item's dominant colour: what the viewer's list shows beside it and says in words."""

    model_config = ConfigDict(frozen=True)

    hex: str = Field(description="'#rrggbb' in full light.")
    basic: str = Field(description="One of the eleven basic colour terms ('red').")
    name: str = Field(description="Nearest CSS3 colour name ('firebrick').")


class ViewItem(Model):
    """A room or object the viewer draws: a focus (what was asked for, or a candidate) or context around it."""

    model_config = ConfigDict(frozen=True)

    code: str
    kind: Literal["room", "object"]
    role: Literal["focus", "context"]
    label: str = Field(description="Object label or room type.")
    name: str | None = Field(default=None, description="Room display name.")
    room_name: str | None = Field(default=None, description="Objects: their room's display name ('Kitchen, flat 2B').")
    label_zh: str | None = Field(default=None, description="The label (or room type) for a Chinese reader.")
    name_zh: str | None = Field(default=None, description="Rooms: their name for a Chinese reader; objects: their room's.")
    color: ItemColor | None = Field(default=None, description="Focus items: the dominant colour measured from the points.")
    room: str
    floor: str
    bounds: Bounds
    points: int
    points_url: str = Field(description="Binary point data (see GET /api/scenes/{scene_id}/points/{code}).")


class ViewManifest(Model):
    """Everything the viewer needs to open a view from its URL alone."""

    model_config = ConfigDict(frozen=True)

    view: str
    scene_id: str
    scene_name: str
    scene_url: str
    mode: SessionMode
    selection: bool
    session_id: str | None = None
    prompt: str | None = None
    multiple: bool = False
    expires_at: datetime | None = None
    focus: list[str]
    items: list[ViewItem]
    created_at: datetime


def view_name(scene_id: str, codes: list[str], session: SelectionSession | None) -> str:
    """`select-<session id>` for a selection; for a plain view, a digest of what it shows (same view, same name)."""
    if session is not None:
        return selection_view(session.session_id)
    return "view-" + hashlib.sha256(f"{scene_id}|{','.join(codes)}".encode()).hexdigest()[:16]


def _color(scene: Scene, code: str, role: str) -> ItemColor | None:
    """A focus item's dominant colour from the scene's measured attributes (what tells candidates apart)."""
    if role != "focus":
        return None
    colors = scene.item_attributes(code).colors
    return ItemColor(hex=colors[0].hex, basic=colors[0].basic, name=colors[0].name) if colors else None


def _room_item(scene: Scene, entry: IndexedRoom, role: str) -> ViewItem:
    room = entry.room
    return ViewItem(code=room.code, kind="room", role=role, label=entry.type, name=room.name, room=room.code,
                    label_zh=zh_room_name(None, entry.type), name_zh=zh_room_name(room.name, entry.type),
                    color=_color(scene, room.code, role), floor=entry.floor.code, bounds=room.bounds,
                    points=room.point_count, points_url=points_url(scene.scene_id, room.code))


def _object_item(scene: Scene, entry: IndexedObject, role: str) -> ViewItem:
    obj, room = entry.obj, entry.room
    return ViewItem(code=obj.code, kind="object", role=role, label=entry.label, room=room.room.code,
                    room_name=room.room.display_name, label_zh=zh_object_label(entry.label),
                    name_zh=zh_room_name(room.room.name, room.type), color=_color(scene, obj.code, role),
                    floor=room.floor.code, bounds=obj.bounds, points=obj.point_count,
                    points_url=points_url(scene.scene_id, obj.code))


def points_url(scene_id: str, code: str) -> str:
    """Where the API server serves a room's or object's points."""
    return f"/api/scenes/{quote(scene_id, safe='')}/points/{code}"


def build_view(scene: Scene, codes: list[str], mode: SessionMode, session: SelectionSession | None) -> ViewManifest:
    """The focus items, then context: the rooms around focus objects and the objects inside focus rooms."""
    items: dict[str, ViewItem] = {}
    for code in codes:
        entry = scene.item(code)
        items[code] = _room_item(scene, entry, "focus") if isinstance(entry, IndexedRoom) else _object_item(scene, entry, "focus")
    context: dict[str, ViewItem] = {}
    for code in codes:
        entry = scene.item(code)
        if isinstance(entry, IndexedObject):
            context.setdefault(entry.room.room.code, _room_item(scene, entry.room, "context"))
        else:
            for obj in entry.room.objects:
                context.setdefault(obj.code, _object_item(scene, scene.index.objects[obj.code], "context"))
    extra = sorted((item for code, item in context.items() if code not in items), key=lambda i: code_sort_key(i.code))
    return ViewManifest(
        view=view_name(scene.scene_id, codes, session), scene_id=scene.scene_id, scene_name=scene.manifest.name,
        scene_url=f"/api/scenes/{quote(scene.scene_id, safe='')}", mode=mode, selection=session is not None,
        session_id=session.session_id if session else None, prompt=session.prompt if session else None,
        multiple=session.multiple if session else False, expires_at=session.expires_at if session else None,
        focus=list(codes), items=[*items.values(), *extra], created_at=now_utc())


def write_view(views_dir: Path, view: ViewManifest) -> Path:
    """Store a view manifest (atomically) where the API server serves it."""
    ensure_private_dir(views_dir)
    path = views_dir / f"{view.view}.json"
    write_atomic(path, view.model_dump_json().encode())
    return path


def read_view(views_dir: Path, name: str) -> bytes | None:
    """The stored JSON of a view, or None when there is no such (or no well-formed) view name."""
    if not VIEW_NAME_RE.fullmatch(name):
        return None
    data = read_regular_file(views_dir / f"{name}.json", MAX_VIEW_BYTES)
    return data if data is not None and len(data) <= MAX_VIEW_BYTES else None


def viewer_url(base: str, view: str, session: SelectionSession | None) -> str:
    """The viewer URL (README: Selection hand-off): view-only, or selection mode with the session id and the prompt."""
    params = {"manifest": f"/manifests/{view}.json"}
    if session is not None:
        params |= {"selectionMode": "true", "sessionId": session.session_id, "prompt": session.prompt}
    return base + ("&" if "?" in base else "?") + urlencode(params, quote_via=quote, safe="/")
