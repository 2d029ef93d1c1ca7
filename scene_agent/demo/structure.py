"""Room shells of the demo home: floor, walls with door and window openings and skirting, a sparser ceiling."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from scene_agent.demo import palette
from scene_agent.demo.palette import RGB
from scene_agent.demo.surfaces import scan_noise, shade, split_count
from scene_agent.geometry.points import Points

Wall = Literal["N", "E", "S", "W"]
Finish = Literal["oak", "tile", "carpet"]

# Points per m² of floor and wall; the ceiling is seen at a grazing angle by a scanner on a
# tripod, so it gets fewer. Room files are kept between 30 k and 80 k points.
SHELL_DENSITY = 700.0
CEILING_WEIGHT = 0.35
MIN_SHELL_POINTS, MAX_SHELL_POINTS = 30_000, 80_000
DOOR_HEIGHT = 2.05
SKIRTING_HEIGHT = 0.08


@dataclass(frozen=True)
class Rect:
    """A room's inside floor rectangle in meters (x east, y north)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        """Extent along x."""
        return self.x1 - self.x0

    @property
    def depth(self) -> float:
        """Extent along y."""
        return self.y1 - self.y0


@dataclass(frozen=True)
class Door:
    """An opening in one wall, centred at `at` (an x for N/S walls, a y for E/W walls)."""

    wall: Wall
    at: float
    width: float = 0.9


@dataclass(frozen=True)
class Window:
    """An opening in one wall, centred at `at` (as for Door), from `sill` to `top` above the storey's floor."""

    wall: Wall
    at: float
    width: float
    sill: float
    top: float


@dataclass(frozen=True)
class Shell:
    """Everything needed to sample a room's structure."""

    rect: Rect
    elevation: float
    height: float
    floor_finish: Finish
    wall_color: RGB
    doors: tuple[Door, ...] = ()
    windows: tuple[Window, ...] = ()


def _floor_colors(xy: np.ndarray, finish: Finish, rng: np.random.Generator) -> np.ndarray:
    """Base colours with the pattern a scan shows: planks, tile grout, or plain carpet."""
    n = len(xy)
    if finish == "oak":
        # 18 cm planks, 1.2 m long, staggered; each plank a little lighter or darker.
        row = np.floor(xy[:, 1] / 0.18)
        col = np.floor(xy[:, 0] / 1.2 + 0.37 * row)
        tone = 0.88 + 0.24 * ((np.sin(row * 12.9898 + col * 78.233) * 43758.5453) % 1.0)
        return np.array(palette.FLOOR_OAK, dtype=float) * tone[:, None]
    if finish == "tile":
        # 30 cm tiles with 4 mm dark grout.
        grout = ((xy[:, 0] % 0.3) < 0.004) | ((xy[:, 1] % 0.3) < 0.004)
        base = np.broadcast_to(np.array(palette.FLOOR_TILE, dtype=float), (n, 3)).copy()
        base[grout] = palette.FLOOR_SLATE
        return base
    return np.broadcast_to(np.array(palette.CARPET_GREY, dtype=float), (n, 3)).copy()


def _wall_planes(r: Rect) -> list[tuple[Wall, float]]:
    """Each wall and its length, in a fixed order."""
    return [("N", r.width), ("E", r.depth), ("S", r.width), ("W", r.depth)]


def _sample_wall(wall: Wall, r: Rect, n: int, height: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n points on one wall: xyz (z from the floor), inward normals, and position along the wall."""
    z = rng.random(n) * height
    if wall in ("N", "S"):
        along = r.x0 + rng.random(n) * r.width
        y = np.full(n, r.y1 if wall == "N" else r.y0)
        xyz = np.column_stack([along, y, z])
        normal = (0.0, -1.0, 0.0) if wall == "N" else (0.0, 1.0, 0.0)
    else:
        along = r.y0 + rng.random(n) * r.depth
        x = np.full(n, r.x1 if wall == "E" else r.x0)
        xyz = np.column_stack([x, along, z])
        normal = (-1.0, 0.0, 0.0) if wall == "E" else (1.0, 0.0, 0.0)
    return xyz, np.broadcast_to(np.array(normal), (n, 3)), along


def _sample_wall_with_openings(
    wall: Wall, r: Rect, n: int, height: float, doors: tuple[Door, ...], windows: tuple[Window, ...],
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """n points on the wall outside its door and window openings (which are simply missing from a scan)."""
    xyz_kept, normal_kept, have = [np.empty((0, 3))], [np.empty((0, 3))], 0
    while have < n:
        xyz, normals, along = _sample_wall(wall, r, 2 * n, height, rng)
        keep = np.ones(len(xyz), dtype=bool)
        for door in doors:
            if door.wall == wall:
                keep &= ~((np.abs(along - door.at) < door.width / 2) & (xyz[:, 2] < DOOR_HEIGHT))
        for window in windows:
            if window.wall == wall:
                inside = (np.abs(along - window.at) < window.width / 2) & (xyz[:, 2] >= window.sill) & (xyz[:, 2] < window.top)
                keep &= ~inside
        xyz_kept.append(xyz[keep])
        normal_kept.append(normals[keep])
        have += int(keep.sum())
    return np.concatenate(xyz_kept)[:n], np.concatenate(normal_kept)[:n]


def _shell_weights(shell: Shell) -> np.ndarray:
    """Areas of floor, the four walls (in _wall_planes order) and the down-weighted ceiling."""
    r, h = shell.rect, shell.height
    floor_area = r.width * r.depth
    return np.array([floor_area] + [length * h for _, length in _wall_planes(r)] + [floor_area * CEILING_WEIGHT])


def shell_point_count(shell: Shell) -> int:
    """How many points the room's file gets, from its surface area (without sampling any)."""
    return int(np.clip(round(_shell_weights(shell).sum() * SHELL_DENSITY), MIN_SHELL_POINTS, MAX_SHELL_POINTS))


def render_shell(shell: Shell, rng: np.random.Generator) -> Points:
    """Sample the room's floor, walls (minus door and window openings) and ceiling as one point cloud."""
    r, h = shell.rect, shell.height
    walls = _wall_planes(r)
    counts = split_count(shell_point_count(shell), _shell_weights(shell))

    xyz_parts, normal_parts, color_parts = [], [], []

    n = int(counts[0])
    xy = np.column_stack([r.x0 + rng.random(n) * r.width, r.y0 + rng.random(n) * r.depth])
    xyz_parts.append(np.column_stack([xy, np.zeros(n)]))
    normal_parts.append(np.broadcast_to(np.array([0.0, 0.0, 1.0]), (n, 3)))
    color_parts.append(_floor_colors(xy, shell.floor_finish, rng))

    for (wall, _), count in zip(walls, counts[1:5], strict=True):  # the four walls' shares follow the floor's
        xyz, normals = _sample_wall_with_openings(wall, r, int(count), h, shell.doors, shell.windows, rng)
        base = np.broadcast_to(np.array(shell.wall_color, dtype=float), (len(xyz), 3)).copy()
        base[xyz[:, 2] < SKIRTING_HEIGHT] = palette.SKIRTING_WHITE
        xyz_parts.append(xyz)
        normal_parts.append(normals)
        color_parts.append(base)

    n = int(counts[5])
    xyz_parts.append(np.column_stack([r.x0 + rng.random(n) * r.width, r.y0 + rng.random(n) * r.depth, np.full(n, h)]))
    normal_parts.append(np.broadcast_to(np.array([0.0, 0.0, -1.0]), (n, 3)))
    color_parts.append(np.broadcast_to(np.array(palette.CEILING_WHITE, dtype=float), (n, 3)))

    xyz = np.concatenate(xyz_parts) + np.array([0.0, 0.0, shell.elevation])
    rgb = shade(np.concatenate(normal_parts), np.concatenate(color_parts), rng)
    return Points(xyz=scan_noise(xyz, rng), rgb=rgb)
