"""A loaded scene: manifest, index and lazily loaded points; and where the demo scene lives."""

from __future__ import annotations

import fcntl
import json
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from scene_agent.attributes import ItemAttributes, SceneAttributes, load_attributes
from scene_agent.codes import kind_of
from scene_agent.errors import NotFoundError, UsageError
from scene_agent.index import IndexedObject, IndexedRoom, SceneIndex
from scene_agent.manifest import MANIFEST_NAME, SceneManifest, load_manifest, resolve_manifest_path
from scene_agent.ply import Points
from scene_agent.pointcloud import load_points


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
        """Colours, sizes and places of every room and object (scene_agent.attributes), from the cache beside the
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


def load_scene(path: str | os.PathLike) -> Scene:
    """Load and index the scene at a manifest path or scene directory."""
    manifest_path = resolve_manifest_path(path)
    return Scene(load_manifest(manifest_path), manifest_path)


def _source_checkout() -> Path | None:
    root = Path(__file__).resolve().parent.parent
    return root if (root / "pyproject.toml").is_file() and (root / "manifests").is_dir() else None


def default_demo_dir() -> Path:
    """Where the embedded demo scene lives: $SCENE_AGENT_DEMO_DIR, the checkout's manifests/demo, or the user data dir."""
    if env := os.environ.get("SCENE_AGENT_DEMO_DIR"):
        return Path(env)
    if root := _source_checkout():
        return root / "manifests" / "demo"
    data_home = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return data_home / "scene-agent" / "demo"


def _demo_is_current(directory: Path, version: int, stamp_name: str) -> bool:
    """True when `directory` holds a demo scene built by this version of the generator."""
    try:
        stamp = (directory / stamp_name).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return False
    return stamp == str(version) and (directory / MANIFEST_NAME).is_file()


def _holds_another_scene(manifest: Path, scene_id: str) -> bool:
    """True when the manifest there is readable and not the demo's (never rebuild over someone's scene)."""
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return manifest.exists()
    return not (isinstance(data, dict) and data.get("scene_id") == scene_id)


def ensure_demo_scene(directory: Path | None = None) -> Path:
    """The demo manifest path, building the scene first if it is missing or was built by another
    version of the generator (one builder at a time). A directory holding some other scene is left alone."""
    # The generator's package is imported here, not at the top: only the demo needs it.
    from scene_agent.demo.build import DEMO_VERSION, SCENE_ID, VERSION_FILE, build_demo_scene  # noqa: PLC0415

    directory = directory or default_demo_dir()
    manifest = directory / MANIFEST_NAME
    if _demo_is_current(directory, DEMO_VERSION, VERSION_FILE):
        return manifest
    directory.parent.mkdir(parents=True, exist_ok=True)
    with open(directory.parent / f".{directory.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # Another process may have built it while this one waited for the lock.
        if not _demo_is_current(directory, DEMO_VERSION, VERSION_FILE) and not _holds_another_scene(manifest, SCENE_ID):
            build_demo_scene(directory, overwrite=True)
    return manifest


def open_scene(path: str | os.PathLike | None = None) -> Scene:
    """The scene at `path`, or the demo scene (built on first use) when no path is given."""
    return load_scene(path if path is not None else ensure_demo_scene())
