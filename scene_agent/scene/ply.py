"""Binary PLY files of colored points (xyz float32 + rgb uchar), written atomically."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
from plyfile import PlyData, PlyElement, PlyParseError

from scene_agent.errors import PointFileError
from scene_agent.geometry.points import Points

VERTEX_DTYPE = np.dtype([("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("red", "u1"), ("green", "u1"), ("blue", "u1")])


def write_points(path: str | os.PathLike[str], points: Points) -> None:
    """Write points as binary little-endian PLY through a temp file and rename."""
    path = Path(path)
    vertex = np.empty(len(points), dtype=VERTEX_DTYPE)
    xyz = points.xyz.astype("<f4")
    vertex["x"], vertex["y"], vertex["z"] = xyz[:, 0], xyz[:, 1], xyz[:, 2]
    vertex["red"], vertex["green"], vertex["blue"] = points.rgb[:, 0], points.rgb[:, 1], points.rgb[:, 2]
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".ply", dir=path.parent)
    try:
        os.fchmod(fd, 0o644)  # mkstemp makes 0600; scene files are ordinary, shareable data
        with os.fdopen(fd, "wb") as fh:
            PlyData([PlyElement.describe(vertex, "vertex")], text=False, byte_order="<").write(fh)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# Scanned meshes are triangles. Saying so lets plyfile map a face list in one go instead of parsing
# it row by row in Python (a 1M-vertex, 2M-face mesh: ~20 s → well under 1 s).
TRIANGLES = {"face": {"vertex_indices": 3, "vertex_index": 3}}


def _read_triangle_mesh_vertices(path: Path) -> np.ndarray | None:
    """The vertex element through plyfile's fast path, or None to leave the file to the strict reader."""
    try:
        with path.open("rb") as fh:
            vertex: np.ndarray = PlyData.read(fh, known_list_len=TRIANGLES)["vertex"].data
    except Exception:  # noqa: BLE001 - any trouble (quads, corruption): the strict reader decides and names it
        return None
    return vertex if {"x", "y", "z"} <= set(vertex.dtype.names or ()) else None


def read_ply_vertices(path: str | os.PathLike[str], required: tuple[str, ...] = ("x", "y", "z")) -> np.ndarray:
    """Parse any PLY file's vertex element (faces are ignored); PointFileError names the file."""
    path = Path(path)
    fast = _read_triangle_mesh_vertices(path) if path.is_file() else None
    # A structured array's names are a tuple (and the fast path has checked x, y, z are among them).
    if fast is not None and all(name in (fast.dtype.names or ()) for name in required):
        return fast
    try:
        with path.open("rb") as fh:
            data = PlyData.read(fh)
        vertex: np.ndarray = data["vertex"].data
    except FileNotFoundError:
        raise PointFileError(f"{path}: no such point file") from None
    except KeyError:
        raise PointFileError(f"{path}: PLY file has no vertex element") from None
    except (PlyParseError, ValueError, EOFError, OSError) as exc:
        raise PointFileError(f"{path}: corrupt or unreadable PLY ({exc})") from None
    missing = [name for name in required if name not in (vertex.dtype.names or ())]  # a PLY element's data is structured
    if missing:
        raise PointFileError(f"{path}: PLY vertices lack propert{'y' if len(missing) == 1 else 'ies'} {', '.join(missing)}")
    return vertex


def points_from_vertices(vertex: np.ndarray) -> Points:
    """Build Points from a PLY vertex array; gray when it has no colour."""
    xyz = np.column_stack([vertex["x"], vertex["y"], vertex["z"]]).astype(np.float64)
    names = vertex.dtype.names or ()
    if {"red", "green", "blue"} <= set(names):
        rgb = np.column_stack([vertex["red"], vertex["green"], vertex["blue"]])
        if rgb.dtype.kind == "f":
            rgb = np.clip(np.rint(rgb * (255.0 if rgb.max(initial=0) <= 1.0 else 1.0)), 0, 255)
        rgb = rgb.astype(np.uint8)
    else:
        rgb = np.full((len(xyz), 3), 128, dtype=np.uint8)
    return Points(xyz=xyz, rgb=rgb)


_PLY_SIZES = {"char": 1, "uchar": 1, "int8": 1, "uint8": 1, "short": 2, "ushort": 2, "int16": 2, "uint16": 2,
              "int": 4, "uint": 4, "int32": 4, "uint32": 4, "float": 4, "float32": 4, "double": 8, "float64": 8}


def check_ply_complete(path: str | os.PathLike[str]) -> None:
    """Raise PointFileError when a binary PLY is not a PLY or is shorter than its header promises.

    Open3D reads a truncated file as garbage with only a console warning, so we check first.
    """
    path = Path(path)
    with path.open("rb") as fh:
        head = fh.read(65536)
    end = head.find(b"end_header\n")
    if not head.startswith(b"ply\n") or end < 0:
        raise PointFileError(f"{path}: not a PLY file (no 'ply' magic or no end_header)")
    lines = head[:end].decode("ascii", errors="replace").splitlines()
    if not any(line.startswith("format binary") for line in lines):
        return  # ASCII PLY: nothing fixed-size to check
    expected = end + len(b"end_header\n")
    count, row = 0, 0
    for line in [*lines, "element end 0"]:
        words = line.split()
        if words[:1] == ["element"]:
            expected += count * row
            count, row = int(words[2]), 0
        elif words[:1] == ["property"]:
            if words[1] == "list":
                return  # variable-size rows (faces): only the reader can tell
            row += _PLY_SIZES.get(words[1], 0)
    size = path.stat().st_size
    if size < expected:
        raise PointFileError(f"{path}: truncated PLY ({size} bytes; its header promises {expected})")
