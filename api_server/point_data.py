"""Point data for browsers: positions quantised to uint16 within the bounds, colours as uint8.

Layout (little-endian), 40 + 9·N bytes:
  0  magic  b"SAPC"          4  version u32 (1)      8  count N u32      12 reserved u32 (0)
  16 min x, y, z  float32×3   28 max x, y, z  float32×3
  40 positions  uint16×3×N   (x = min + q / 65535 · (max − min); a normalised attribute on the GPU)
  40 + 6N  colours  uint8×3×N
The viewer hands both arrays to WebGL as they are; 9 bytes a point instead of 15 for float32 xyz,
at 1/65535 of the extent (0.15 mm across a 10 m room).
"""

from __future__ import annotations

import struct

import numpy as np
import numpy.typing as npt

from scene_agent.geometry.points import Points

MAGIC = b"SAPC"
VERSION = 1
HEADER = struct.Struct("<4sIII3f3f")
MEDIA_TYPE = "application/vnd.scene-agent.points"


def pack_points(points: Points) -> bytes:
    """The binary form above."""
    n = len(points)
    if n:
        lo = points.xyz.min(axis=0)
        hi = points.xyz.max(axis=0)
    else:
        lo = hi = np.zeros(3)
    extent = np.where(hi > lo, hi - lo, 1.0)
    q: npt.NDArray[np.uint16] = np.rint((points.xyz - lo) / extent * 65535.0).clip(0, 65535).astype("<u2")
    header = HEADER.pack(MAGIC, VERSION, n, 0, *lo.astype(np.float32), *hi.astype(np.float32))
    return header + q.tobytes() + np.ascontiguousarray(points.rgb, dtype=np.uint8).tobytes()


def unpack_points(data: bytes) -> Points:
    """Decode the binary form (for tests and tools); ValueError when it is not one."""
    if len(data) < HEADER.size:
        raise ValueError("too short for a point data header")
    magic, version, n, _, *bounds = HEADER.unpack_from(data)
    if magic != MAGIC or version != VERSION:
        raise ValueError("not scene-agent point data (version 1)")
    if len(data) != HEADER.size + 9 * n:
        raise ValueError(f"expected {HEADER.size + 9 * n} bytes for {n} points, got {len(data)}")
    lo, hi = np.array(bounds[:3], dtype=np.float64), np.array(bounds[3:], dtype=np.float64)
    q = np.frombuffer(data, dtype="<u2", count=3 * n, offset=HEADER.size).reshape(n, 3)
    rgb = np.frombuffer(data, dtype=np.uint8, count=3 * n, offset=HEADER.size + 6 * n).reshape(n, 3)
    return Points(xyz=lo + q / 65535.0 * (hi - lo), rgb=rgb.copy())
