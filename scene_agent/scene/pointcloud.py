"""Cached loading of point files, and Open3D's bare convex hull (the VOL baseline of `bench tools`).

Our point files have one fixed binary layout (see ply.py), so plyfile reads them as a numpy array straight from the
file: a million points in about 10 ms, where importing Open3D alone takes most of a second. Open3D is imported only
by the code that uses its algorithms.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from pathlib import Path
from types import ModuleType

import numpy as np

from scene_agent.errors import PointFileError
from scene_agent.fileio import version_of
from scene_agent.geometry.points import Points
from scene_agent.scene.ply import check_ply_complete, points_from_vertices, read_ply_vertices

_CACHE_POINTS = 8_000_000  # keep at most this many points in memory across files
# By path and the file's version (device, inode, size, modification and change time): a file rewritten in place with
# its size and modification time kept still changes its change time, so its old points are never served.
_cache: OrderedDict[tuple[str, int, int, int, int, int], Points] = OrderedDict()
_lock = threading.Lock()


def _open3d() -> ModuleType:
    try:
        import open3d  # most of a second: only where its algorithms are used
    except OSError as exc:  # e.g. libusb-1.0 missing
        raise PointFileError(f"open3d cannot load its native libraries ({exc}); run `make run` or install libusb-1.0-0") from None
    # Our own checks report problems; Open3D's console warnings would only pollute --json output.
    open3d.utility.set_verbosity_level(open3d.utility.VerbosityLevel.Error)
    return open3d


def _read(path: Path) -> Points:
    check_ply_complete(path)  # a truncated file would otherwise be read as far as it goes
    return points_from_vertices(read_ply_vertices(path))


def load_points(path: str | os.PathLike[str]) -> Points:
    """Points of one PLY file, from cache when the file is unchanged."""
    path = Path(path).resolve()
    try:
        st = path.stat()
    except FileNotFoundError:
        raise PointFileError(f"{path}: point file is missing") from None
    key = (str(path), *version_of(st))
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    points = _read(path)
    with _lock:
        _cache[key] = points
        while len(_cache) > 1 and sum(len(p) for p in _cache.values()) > _CACHE_POINTS:
            _cache.popitem(last=False)
    return points


def open3d_convex_hull_volume(xyz: np.ndarray) -> tuple[float, int]:
    """Open3D's own convex hull of the points as they are: (volume m³, hull vertices). The baseline of `bench tools`."""
    o3d = _open3d()
    cloud = o3d.geometry.PointCloud(o3d.utility.Vector3dVector(np.asarray(xyz, dtype=np.float64)))
    mesh, vertices = cloud.compute_convex_hull()
    return float(mesh.get_volume()), len(vertices)
