"""The demo scene on disk: built on first use (and rebuilt when the generator changed), one builder at a time.

Opening "the scene, or the demo when none is named" lives here so that the scene loader knows nothing of
the demo generator.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from scene_agent.config import load_demo_dir
from scene_agent.demo.version import DEMO_VERSION, SCENE_ID, VERSION_FILE
from scene_agent.scene.manifest import MANIFEST_NAME

if TYPE_CHECKING:
    from scene_agent.scene.loader import Scene


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
    directory = directory or load_demo_dir()
    manifest = directory / MANIFEST_NAME
    if _demo_is_current(directory, DEMO_VERSION, VERSION_FILE):
        return manifest
    directory.parent.mkdir(parents=True, exist_ok=True)
    with open(directory.parent / f".{directory.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # Another process may have built it while this one waited for the lock.
        if not _demo_is_current(directory, DEMO_VERSION, VERSION_FILE) and not _holds_another_scene(manifest, SCENE_ID):
            from scene_agent.demo.build import build_demo_scene  # the generator: only when a build is due

            build_demo_scene(directory, overwrite=True)
    return manifest


def demo_is_built(directory: Path | None = None) -> bool:
    """Whether the demo scene is there, built by this version of the generator (opening it builds nothing)."""
    return _demo_is_current(directory or load_demo_dir(), DEMO_VERSION, VERSION_FILE)


def open_scene_or_demo(path: str | os.PathLike[str] | None = None) -> Scene:
    """The scene at `path`, or the demo scene (built on first use) when no path is given."""
    from scene_agent.scene.loader import load_scene  # numpy and the scene's models: only once a scene is opened

    return load_scene(path if path is not None else ensure_demo_scene())
