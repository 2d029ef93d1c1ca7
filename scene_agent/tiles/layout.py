"""Node names, node cubes and the binary form of one tile (see docs/scene-format.md, "Tiles").

A node is named by its path from the root: `r` is the root, `r0` … `r7` its children, `r07` the eighth child of
`r0`. The child digit is 4·x + 2·y + z, each bit set when the child is the upper half of its parent's cube on that
axis.

Tile layout (little-endian), 16 + 13·N bytes:
  0  magic  b"SATL"      4  version u32 (1)      8  count N u32      12 reserved u32 (0)
  16       item ids      uint32×N   (index into the index's `items` table of codes)
  16 + 4N  positions     uint16×3×N (x = cube_min_x + q / 65535 · side, the node's own cube)
  16 + 10N colours       uint8×3×N
Every array starts at a multiple of its element size, so a browser can view each without copying.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

MAGIC = b"SATL"
TILE_VERSION = 1
HEADER = struct.Struct("<4sIII")
MEDIA_TYPE = "application/vnd.scene-agent.tile"
MAX_DEPTH = 20  # below this depth a node keeps all its points (only piles of identical points get this deep)
NODE_NAME_RE = re.compile(rf"^r[0-7]{{0,{MAX_DEPTH}}}$")
Q_MAX = 65535.0

# One point while the builder moves it between passes: position (as the point file holds it), colour, item id.
RECORD = np.dtype([("xyz", "<f4", (3,)), ("rgb", "u1", (3,)), ("item", "<u4")])


@dataclass(frozen=True)
class Cube:
    """An axis-aligned cube: its lowest corner and its side, in metres."""

    min: tuple[float, float, float]
    side: float

    def child(self, digit: int) -> Cube:
        """The octant `digit` (4·x + 2·y + z)."""
        half = self.side / 2
        x, y, z = self.min
        return Cube(min=(x + half * (digit >> 2 & 1), y + half * (digit >> 1 & 1), z + half * (digit & 1)), side=half)

    def relative(self, xyz: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """Positions as fractions of the cube (0 … 1 inside it)."""
        return (xyz.astype(np.float64) - np.asarray(self.min, dtype=np.float64)) / self.side


def node_cube(root: Cube, name: str) -> Cube:
    """The cube of the node `name` under a root cube."""
    cube = root
    for digit in name[1:]:
        cube = cube.child(int(digit))
    return cube


def tile_size(points: int) -> int:
    """Bytes of a tile of `points` points."""
    return HEADER.size + 13 * points


def pack_tile(cube: Cube, records: npt.NDArray[np.void]) -> bytes:
    """The binary tile of these points (records of RECORD) in the node's cube."""
    n = len(records)
    q = np.rint(cube.relative(records["xyz"]) * Q_MAX).clip(0, Q_MAX).astype("<u2")
    return (HEADER.pack(MAGIC, TILE_VERSION, n, 0) + np.ascontiguousarray(records["item"], dtype="<u4").tobytes()
            + q.tobytes() + np.ascontiguousarray(records["rgb"], dtype=np.uint8).tobytes())


@dataclass(frozen=True)
class Tile:
    """A decoded tile: positions in metres, colours, item ids."""

    xyz: npt.NDArray[np.float64]
    rgb: npt.NDArray[np.uint8]
    items: npt.NDArray[np.uint32]


def unpack_tile(cube: Cube, data: bytes) -> Tile:
    """Decode a tile of the node whose cube is `cube` (for tests and tools); ValueError when it is not one."""
    if len(data) < HEADER.size:
        raise ValueError("too short for a tile header")
    magic, version, n, _ = HEADER.unpack_from(data)
    if magic != MAGIC or version != TILE_VERSION:
        raise ValueError(f"not a scene-agent tile (version {TILE_VERSION})")
    if len(data) != tile_size(n):
        raise ValueError(f"expected {tile_size(n)} bytes for {n} points, got {len(data)}")
    items = np.frombuffer(data, dtype="<u4", count=n, offset=HEADER.size).copy()
    q = np.frombuffer(data, dtype="<u2", count=3 * n, offset=HEADER.size + 4 * n).reshape(n, 3)
    rgb = np.frombuffer(data, dtype=np.uint8, count=3 * n, offset=HEADER.size + 10 * n).reshape(n, 3).copy()
    xyz = np.asarray(cube.min, dtype=np.float64) + q / Q_MAX * cube.side
    return Tile(xyz=xyz, rgb=rgb, items=items)
