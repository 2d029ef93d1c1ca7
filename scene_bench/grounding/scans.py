"""Where a row's scene comes from: ground-truth boxes (`--boxes`) or ScanNet scans (`--scans`), each scene made once.

Both kinds keep the dataset's ids in the codes (object id k is `0-1-{k+1}`: `boxes.object_code`, and the ScanNet
importer's numbering), and both are cached in one directory as `<dir>/<scan>/scene.json`, ordinary scenes that
`scene-agent serve --scene` opens. A cached scene of the other kind is never overwritten.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from scene_agent.errors import SceneAgentError, UsageError
from scene_agent.scene.manifest import MANIFEST_NAME, load_manifest
from scene_bench.grounding.boxes import object_code, read_boxes, scene_dir, scene_for
from scene_bench.grounding.relations import Thing
from scene_bench.grounding.sr3d import Layout, layout_of_boxes, room_walls, words


class SceneSource(Protocol):
    """The scenes rows are scored on, and the layouts Sr3D rows are written from."""

    missing: str  # why a row whose scan is not there is skipped

    def has(self, scan: str) -> bool:
        """Whether the scan is there."""
        ...

    def scans(self) -> list[str]:
        """Every scan there, sorted."""
        ...

    def manifest(self, scan: str) -> Path:
        """The scan's scene, made on first use."""
        ...

    def layout(self, scan: str) -> Layout:
        """The scan's objects, walls and extent."""
        ...


class BoxScenes:
    """Scenes built from a boxes file ({scan_id: [{id, label, center, size, rgb}]})."""

    missing = "scan not in boxes"

    def __init__(self, path: Path, cache: Path):
        self.boxes = read_boxes(path)
        self.cache = cache

    def has(self, scan: str) -> bool:
        """Whether the boxes file has the scan."""
        return scan in self.boxes

    def scans(self) -> list[str]:
        """The boxes file's scans."""
        return sorted(self.boxes)

    def manifest(self, scan: str) -> Path:
        """The scan's box scene, built on first use."""
        return scene_for(scan, self.boxes[scan], self.cache)

    def layout(self, scan: str) -> Layout:
        """The boxes themselves."""
        return layout_of_boxes(scan, self.boxes[scan])


class ScanScenes:
    """Scenes imported from ScanNet scan folders (`<dir>/<scan>/<scan>_vh_clean_2.ply`, …), one room each."""

    missing = "scan not in the scans directory"

    def __init__(self, root: Path, cache: Path):
        if not root.is_dir():
            raise UsageError(f"--scans {root}: not a directory (give the folder holding the sceneXXXX_XX scan folders)")
        self.root = root
        self.cache = cache

    def has(self, scan: str) -> bool:
        """Whether the scan's folder is there."""
        return (self.root / scan / f"{scan}.aggregation.json").is_file()

    def scans(self) -> list[str]:
        """Every scan folder (one with an aggregation file)."""
        return sorted(d.name for d in self.root.iterdir() if d.is_dir() and self.has(d.name))

    def manifest(self, scan: str) -> Path:
        """The scan imported with its object ids, on first use."""
        from scene_agent.importers.scannet import import_scannet

        out = scene_dir(scan, self.cache)
        manifest = out / MANIFEST_NAME
        if manifest.is_file():
            if json.loads(manifest.read_text(encoding="utf-8")).get("name") != _import_name(scan):
                raise SceneAgentError(f"{out}: holds a scene not imported from scan {scan}; keep the imported scans in "
                                      "another directory")
            return manifest
        return import_scannet([self.root / scan], out)

    def layout(self, scan: str) -> Layout:
        """The imported objects' bounds and labels; the room's extent stands for its walls."""
        [room] = load_manifest(self.manifest(scan)).rooms()
        things = [Thing(_object_id(o.code), words(o.label), _triple(o.bounds.min), _triple(o.bounds.max)) for o in room.objects]
        extent = (room.bounds.min[0], room.bounds.min[1], room.bounds.max[0], room.bounds.max[1])
        return Layout(scan, things, room_walls(extent), extent)


def _triple(values: Sequence[float]) -> tuple[float, float, float]:
    x, y, z = values
    return float(x), float(y), float(z)


def _import_name(scan: str) -> str:
    return f"ScanNet import ({scan})"  # the name import_scannet gives a scene of one scan


def _object_id(code: str) -> int:
    """The dataset id an object code keeps (the inverse of `object_code`)."""
    number = int(code.rsplit("-", 1)[1]) - 1
    assert object_code(number) == code, code
    return number
