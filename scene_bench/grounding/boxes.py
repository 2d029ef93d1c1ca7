"""Scenes built from ground-truth boxes: one room per scan, every object a box of points in its mean colour.

The boxes file maps a scan id to its objects (`id`, `label`, `center`, `size`, `rgb`; axis-aligned,
metres, z up). Walls, floor and ceiling become the room's own points; every other box is an object
whose code keeps the dataset's id (object `id` k is `0-1-{k+1}`), so a row's target maps to one code.
The scenes are ordinary scene-agent scenes (manifest, point files, attributes), written once into a
cache directory and reused while the scan's boxes stay the same (a digest of them is kept beside the manifest).
"""

from __future__ import annotations

import hashlib
import json
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from scene_agent.demo.surfaces import Box
from scene_agent.errors import SceneAgentError
from scene_agent.geometry.points import Points
from scene_agent.language.vocabulary import is_structure_label
from scene_agent.scene.manifest import MANIFEST_NAME, Floor, Room, SceneManifest, SceneObject
from scene_agent.scene.writer import SceneWriter

POINT_SPACING_M = 0.04   # about one point per 4 × 4 cm of surface
MAX_OBJECT_POINTS = 6000
MIN_OBJECT_POINTS = 60
ROOM_CODE = "0-1"
DIGEST_NAME = "boxes.sha256"  # beside scene.json: the digest of the boxes it was built from
BUILD_VERSION = 2  # raise when build_scene writes scenes differently, so cached scenes are built again


@dataclass(frozen=True)
class GroundBox:
    """One ground-truth object: the dataset's id and label, its box and mean colour."""

    id: int
    label: str
    center: tuple[float, float, float]
    size: tuple[float, float, float]
    rgb: tuple[int, int, int]


def object_code(box_id: int) -> str:
    """The scene code of a dataset object id: id k is object k+1 of room 0-1."""
    return f"{ROOM_CODE}-{box_id + 1}"


def read_boxes(path: Path) -> dict[str, list[GroundBox]]:
    """The boxes file: scan id → its boxes; a malformed entry is named with its scan and position."""
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SceneAgentError(f"{path}: cannot read the boxes file ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise SceneAgentError(f"{path}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    if not isinstance(data, dict):
        raise SceneAgentError(f"{path}: expected an object mapping scan ids to lists of boxes")
    scans: dict[str, list[GroundBox]] = {}
    for scan, boxes in data.items():
        if not isinstance(boxes, list):
            raise SceneAgentError(f"{path}: {scan}: expected a list of boxes")
        scans[scan] = [_box(entry, f"{path}: {scan}[{i}]") for i, entry in enumerate(boxes)]
    return scans


def _box(entry: Any, where: str) -> GroundBox:
    try:
        box = GroundBox(id=int(entry["id"]), label=str(entry["label"]),
                        center=_triple(entry["center"], float), size=_triple(entry["size"], float),
                        rgb=_triple(entry["rgb"], int))
    except (KeyError, TypeError, ValueError) as exc:
        raise SceneAgentError(f"{where}: a box needs id, label, center [x,y,z], size [dx,dy,dz] and rgb [r,g,b] ({exc})") from None
    if box.id < 0 or min(box.size) < 0 or not all(0 <= c <= 255 for c in box.rgb):
        raise SceneAgentError(f"{where}: id and sizes must not be negative, rgb must be 0–255")
    return box


def _triple(value: Any, kind: type) -> Any:
    if not isinstance(value, list) or len(value) != 3:
        raise ValueError("expected three numbers")
    out = tuple(kind(v) for v in value)
    if kind is float and not all(np.isfinite(out)):
        raise ValueError("expected finite numbers")
    return out


def _box_points(box: GroundBox, key: str) -> Points:
    """Points over the box's faces (area-weighted), all in its mean colour."""
    sx, sy, sz = (max(s, 0.01) for s in box.size)
    area = 2 * (sx * sy + sx * sz + sy * sz)
    n = int(np.clip(area / POINT_SPACING_M ** 2, MIN_OBJECT_POINTS, MAX_OBJECT_POINTS))
    rng = np.random.default_rng(zlib.crc32(key.encode("utf-8")))
    xyz, _ = Box(center=box.center, size=(sx, sy, sz), color=box.rgb).sample(n, rng)
    return Points(xyz=xyz, rgb=np.tile(np.asarray(box.rgb, dtype=np.uint8), (n, 1)))


def _room_points(scan: str, structure: list[GroundBox], objects: list[GroundBox]) -> Points:
    """The room's own points: its wall, floor and ceiling boxes, or a floor under everything when it has none."""
    parts = [_box_points(b, f"{scan}/{b.id}") for b in structure]
    if not any(is_structure_label(b.label) and b.label.lower().strip() == "floor" for b in structure):
        everything = structure + objects
        lo = np.min([np.subtract(b.center, np.divide(b.size, 2)) for b in everything], axis=0)
        hi = np.max([np.add(b.center, np.divide(b.size, 2)) for b in everything], axis=0)
        floor = GroundBox(id=-1, label="floor", center=((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, lo[2] - 0.01),
                          size=(hi[0] - lo[0], hi[1] - lo[1], 0.02), rgb=(128, 128, 128))
        parts.append(_box_points(floor, f"{scan}/floor"))
    return Points(xyz=np.concatenate([p.xyz for p in parts]), rgb=np.concatenate([p.rgb for p in parts]))


def build_scene(scan: str, boxes: list[GroundBox], out_dir: Path) -> Path:
    """Write the scene of one scan's boxes into `out_dir` (replacing an older build); returns its manifest."""
    structure = [b for b in boxes if is_structure_label(b.label)]
    objects = sorted((b for b in boxes if not is_structure_label(b.label)), key=lambda b: b.id)
    if not objects:
        raise SceneAgentError(f"{scan}: the scan has no objects besides walls, floor and ceiling")
    with SceneWriter(out_dir, overwrite=True) as writer:
        rel, count, bounds = writer.add_points(ROOM_CODE, _room_points(scan, structure, objects))
        listed = []
        for box in objects:
            code = object_code(box.id)
            o_rel, o_count, o_bounds = writer.add_points(code, _box_points(box, f"{scan}/{box.id}"))
            listed.append(SceneObject(code=code, label=_label(box.label),
                                      points_file=o_rel, point_count=o_count, bounds=o_bounds))
        room = Room(code=ROOM_CODE, type="room", name=scan, points_file=rel, point_count=count, bounds=bounds, objects=listed)
        manifest = SceneManifest(scene_id=_scene_id(scan), name=_scene_name(scan),
                                 floors=[Floor(code="0", name="Ground floor", rooms=[room])])
        return writer.finish(manifest)


def _scene_name(scan: str) -> str:
    return f"Ground-truth boxes of {scan}"


def _scene_id(scan: str) -> str:
    return "".join(c if c.isalnum() or c in "_.-" else "_" for c in scan) or "scan"


def scene_dir(scan: str, cache: Path) -> Path:
    """Where the scene of a scan lives in a cache directory."""
    return cache / _scene_id(scan)


def _label(raw: str) -> str:
    """The dataset's own label, as a scene keeps it ('kitchen cabinets'; the scene index reads it into its usual form)."""
    return " ".join(raw.replace("_", " ").split()) or "object"


def _digest(boxes: list[GroundBox]) -> str:
    """What a build depends on: the boxes and the way they are built."""
    return hashlib.sha256(repr((BUILD_VERSION, boxes)).encode("utf-8")).hexdigest()


def scene_for(scan: str, boxes: list[GroundBox], cache: Path) -> Path:
    """The scene of a scan in `cache`, built on first use and again when its boxes change; never over another scene."""
    out = scene_dir(scan, cache)
    manifest, stamp, digest = out / MANIFEST_NAME, out / DIGEST_NAME, _digest(boxes)
    if manifest.is_file():
        if stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == digest:
            return manifest
        if not stamp.is_file() and json.loads(manifest.read_text(encoding="utf-8")).get("name") != _scene_name(scan):
            raise SceneAgentError(f"{out}: holds a scene not built from boxes; keep the box scenes in another directory")
    built = build_scene(scan, boxes, out)
    stamp.write_text(digest + "\n", encoding="utf-8")
    return built
