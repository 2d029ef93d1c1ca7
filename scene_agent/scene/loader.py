"""A loaded scene: manifest, index, lazily loaded points and the attributes cache."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from scene_agent.errors import NotFoundError, UsageError
from scene_agent.geometry.points import Points
from scene_agent.scene.attributes import ItemAttributes, SceneAttributes, load_attributes
from scene_agent.scene.codes import kind_of
from scene_agent.scene.index import IndexedObject, IndexedRoom, SceneIndex
from scene_agent.scene.manifest import SceneManifest, load_manifest, resolve_manifest_path
from scene_agent.scene.pointcloud import load_points


def _to_stderr(line: str) -> None:
    """Show a progress line to the person waiting (stderr: never mixed into --json output)."""
    sys.stderr.write(line + "\n")


class Scene:
    """A manifest with its index; point files are read only when asked for, then cached.

    `progress` receives the lines `attributes()` reports while it measures a scene whose cache is
    missing or stale (stderr by default; tests set `scene.progress = lines.append`).
    """

    def __init__(self, manifest: SceneManifest, path: Path):
        self.manifest = manifest
        self.path = path
        self.root = path.parent
        self.index = SceneIndex(manifest)
        self.progress: Callable[[str], None] = _to_stderr
        self._attributes: SceneAttributes | None = None
        self._attributes_lock = threading.Lock()

    @property
    def scene_id(self) -> str:
        """The manifest's scene id."""
        return self.manifest.scene_id

    def item(self, code: str) -> IndexedRoom | IndexedObject:
        """The room or object with this code; NotFoundError otherwise."""
        kind = kind_of(code)
        if kind == "floor":
            raise UsageError(f"{code} is a floor code; give a room (F-R) or object (F-R-O) code")
        found = self.index.rooms.get(code) if kind == "room" else self.index.objects.get(code)
        if found is None:
            raise NotFoundError(f"no {kind} {code} in scene {self.scene_id}")
        return found

    def points(self, code: str) -> Points:
        """The points of a room (its structure) or object, loaded through Open3D and cached."""
        found = self.item(code)
        owner = found.room if isinstance(found, IndexedRoom) else found.obj
        return load_points(self.root / owner.points_file)

    def attributes(self) -> SceneAttributes:
        """Colours, sizes and places of every room and object (scene_agent.scene.attributes), from the cache beside the
        manifest; measured on the first call when missing or stale (once, however many threads ask), then kept."""
        if self._attributes is None:
            with self._attributes_lock:
                if self._attributes is None:
                    self._attributes = load_attributes(self.root, self.manifest, progress=self.progress)
        return self._attributes

    def item_attributes(self, code: str) -> ItemAttributes:
        """The attributes of one room or object; NotFoundError for an unknown code, UsageError for a floor code."""
        found = self.item(code)
        return self.attributes().items[found.room.code if isinstance(found, IndexedRoom) else found.obj.code]


def load_scene(path: str | os.PathLike[str]) -> Scene:
    """Load and index the scene at a manifest path or scene directory."""
    manifest_path = resolve_manifest_path(path)
    return Scene(load_manifest(manifest_path), manifest_path)
