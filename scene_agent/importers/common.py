"""What every importer needs: files that must exist, JSON and PLY read with errors naming the file; a room's type
when the scan names none that tells."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from scene_agent.errors import PointFileError, ScanImportError, SceneAgentError
from scene_agent.geometry.points import Points
from scene_agent.language.vocabulary import canonical_label
from scene_agent.scene.ply import points_from_vertices, read_ply_vertices
from scene_agent.scene.room_types import UNTELLING, RoomTypeGuess, infer_room_type
from scene_agent.scene.writer import SceneWriter

# Scenes are z-up; a y-up cloud (HOV-SG's, Habitat's) is turned +90° about x, which keeps the frame right-handed:
# (x, y, z) → (x, -z, y).
Y_UP_TO_Z_UP = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
MAX_EXTENT_M = 100_000.0  # wider than any site a building scan covers: the unit is wrong, or some values are garbage


def room_type_of(given: str, labels: Iterable[str]) -> tuple[str, RoomTypeGuess | None]:
    """A room's type: as the scan gives it (canonical), or, when that says nothing, inferred from what the room
    holds (scene/room_types.py) with the guess; as given when nothing there tells either."""
    if given not in UNTELLING:
        return given, None
    guess = infer_room_type(canonical_label(label) for label in labels)
    return (guess.type, guess) if guess is not None else (given, None)


def require_dir(path: Path, what: str) -> Path:
    """The directory, or ScanImportError saying it is missing or not a directory."""
    if not path.exists():
        raise ScanImportError(f"{path}: {what} not found (expected a directory)")
    if not path.is_dir():
        raise ScanImportError(f"{path}: not a directory (expected the {what})")
    return path


def require_file(path: Path) -> Path:
    """The file, or ScanImportError naming it."""
    if not path.is_file():
        raise ScanImportError(f"{path}: missing file")
    return path


def read_json(path: Path) -> Any:
    """Parsed JSON of a file that must exist; errors name the file and the position."""
    require_file(path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ScanImportError(f"{path}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ScanImportError(f"{path}: cannot read ({exc})") from None


def json_field(data: Any, key: str, kind: type | tuple[type, ...], path: Path) -> Any:
    """data[key] checked for type; ScanImportError names the file and the field."""
    if not isinstance(data, dict) or key not in data:
        raise ScanImportError(f"{path}: missing field '{key}'")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ScanImportError(f"{path}: field '{key}' should be {names}, not {type(value).__name__}")
    return value


def check_coordinates(xyz: np.ndarray, source: Path) -> tuple[np.ndarray, np.ndarray]:
    """The cloud's lowest and highest corners; ScanImportError when a coordinate is NaN or infinite, or the cloud spans
    more than MAX_EXTENT_M."""
    finite = np.isfinite(xyz).all(axis=1)
    if not finite.all():
        bad = int(np.count_nonzero(~finite))
        raise ScanImportError(f"{source}: {bad:,} point(s) have NaN or infinite coordinates (the first is point "
                              f"{int(np.argmin(finite)):,})")
    lo, hi = xyz.min(axis=0), xyz.max(axis=0)
    for axis, name in enumerate("xyz"):
        if hi[axis] - lo[axis] > MAX_EXTENT_M:
            raise ScanImportError(f"{source}: the points span {hi[axis] - lo[axis]:,.0f} m along {name} ({lo[axis]:g} to "
                                  f"{hi[axis]:g}), more than any building scan; are the coordinates in another unit, or some "
                                  "of them garbage?")
    return lo, hi


def read_points(path: Path) -> Points:
    """Every vertex of a PLY file (faces ignored) as colored points; corrupt files name themselves."""
    require_file(path)
    try:
        vertex = read_ply_vertices(path)
    except PointFileError as exc:
        raise ScanImportError(exc.message) from None
    points = points_from_vertices(vertex)
    if len(points):
        corner, top = check_coordinates(points.xyz, path)
        far = max(float(np.abs(corner).max()), float(np.abs(top).max()))
        if far > MAX_EXTENT_M:  # a scan's own frame: a point this far from its origin is garbage or another unit
            raise ScanImportError(f"{path}: a vertex lies {far:,.0f} m from the origin, farther than any building scan "
                                  "reaches in its own frame; are the coordinates in another unit, or some of them garbage?")
    return points


def subset(points: Points, mask: np.ndarray) -> Points:
    """The points where mask is true."""
    return Points(xyz=points.xyz[mask], rgb=points.rgb[mask])


def open_writer(out_dir: str | os.PathLike[str]) -> SceneWriter:
    """A SceneWriter for out_dir; a bad --out (not empty, not writable) is an import error, raised before any input is read
    (a large cloud's reading would otherwise come first)."""
    try:
        return SceneWriter(out_dir)
    except SceneAgentError as exc:
        raise ScanImportError(exc.message) from None


def scene_id_for(out_dir: Path) -> str:
    """A scene id from the output directory's name, limited to [A-Za-z0-9_.-]."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", out_dir.absolute().name).strip("-.") or "imported"
