"""Surface primitives, area-uniform point sampling, shading and scanner noise for the demo scene.

Furniture is described as a list of parts (boxes, cylinders/frusta, ellipsoids) in a local frame
whose origin is the centre of the footprint on the floor and whose front faces -y. Points are
sampled on the parts' surfaces, moved into the room, shaded against one fixed light and jittered
like a scan.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

import numpy as np

from scene_agent.demo.palette import RGB
from scene_agent.geometry.points import Points

# One light for the whole home, from above and slightly in front, so that every surface keeps
# its hue and only its brightness depends on which way it faces.
LIGHT_DIR = np.array([0.35, -0.45, 0.82]) / np.linalg.norm([0.35, -0.45, 0.82])
AMBIENT = 0.55
DIFFUSE = 0.45
COLOR_JITTER = 3.5  # per channel, in 0-255 units
POSITION_NOISE = 0.0015  # meters; a good indoor scanner


def rng_for(code: str) -> np.random.Generator:
    """A generator seeded stably from a scene code (crc32, never Python's salted hash)."""
    return np.random.default_rng(zlib.crc32(code.encode("utf-8")))


_FACES = ("+x", "-x", "+y", "-y", "+z", "-z")  # the order Box.sample numbers its faces


@dataclass(frozen=True)
class Box:
    """A box given by its centre and size; yaw (degrees) turns it about its own vertical axis."""

    center: tuple[float, float, float]
    size: tuple[float, float, float]
    color: RGB
    yaw: float = 0.0
    bottom: bool = True  # False when it stands on something and its underside cannot be seen
    hidden: tuple[str, ...] = ()  # faces something else covers ("+z", "+y" …): never scanned, so never sampled

    def _areas(self) -> np.ndarray:
        sx, sy, sz = self.size
        areas = np.array([sy * sz, sy * sz, sx * sz, sx * sz, sx * sy, sx * sy if self.bottom else 0.0])
        for face in self.hidden:
            areas[_FACES.index(face)] = 0.0
        return areas

    def area(self) -> float:
        """Visible surface area in m²."""
        return float(self._areas().sum())

    def corners(self) -> np.ndarray:
        """The eight corners, for footprint checks."""
        half = np.array(self.size) / 2
        signs = np.array([[i, j, k] for i in (-1, 1) for j in (-1, 1) for k in (-1, 1)], dtype=float)
        corners: np.ndarray = _turn(signs * half, self.yaw) + np.array(self.center)
        return corners

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """n points uniform over the faces (area-weighted), with outward normals."""
        areas = self._areas()
        face = rng.choice(6, size=n, p=areas / areas.sum())
        axis, sign = face // 2, np.where(face % 2 == 0, 1.0, -1.0)
        # Faces are ordered +x, -x, +y, -y, +z, -z.
        half = np.array(self.size) / 2
        local = (rng.random((n, 3)) - 0.5) * 2 * half
        rows = np.arange(n)
        local[rows, axis] = sign * half[axis]
        normals = np.zeros((n, 3))
        normals[rows, axis] = sign
        return _turn(local, self.yaw) + np.array(self.center), _turn(normals, self.yaw)


@dataclass(frozen=True)
class Cylinder:
    """An upright cylinder or frustum standing on `base` (centre of its bottom disc)."""

    base: tuple[float, float, float]
    radius: float
    height: float
    color: RGB
    top_radius: float | None = None
    top: bool = True
    bottom: bool = True

    def _areas(self) -> np.ndarray:
        r1, r2, h = self.radius, self._r2(), self.height
        side = math.pi * (r1 + r2) * math.hypot(h, r1 - r2)
        return np.array([side, math.pi * r2 * r2 if self.top else 0.0, math.pi * r1 * r1 if self.bottom else 0.0])

    def _r2(self) -> float:
        return self.radius if self.top_radius is None else self.top_radius

    def area(self) -> float:
        """Visible surface area in m²."""
        return float(self._areas().sum())

    def corners(self) -> np.ndarray:
        """Corners of the bounding box, for footprint checks."""
        r, (x, y, z) = max(self.radius, self._r2()), self.base
        return np.array([[x + i * r, y + j * r, z + k * self.height] for i in (-1, 1) for j in (-1, 1) for k in (0, 1)])

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """n points uniform over side and caps, with outward normals."""
        r1, r2, h = self.radius, self._r2(), self.height
        areas = self._areas()
        which = rng.choice(3, size=n, p=areas / areas.sum())
        phi = rng.random(n) * 2 * math.pi
        u = rng.random(n)
        # Side: the radius grows linearly with height, so invert the CDF of r(t) to stay uniform.
        d = r2 - r1
        t = u if abs(d) < 1e-9 else (np.sqrt(r1 * r1 + 2 * d * u * (r1 + r2) / 2) - r1) / d
        rad = np.where(which == 0, r1 + d * t, np.where(which == 1, r2, r1) * np.sqrt(u))
        z = np.where(which == 0, t * h, np.where(which == 1, h, 0.0))
        xyz = np.column_stack([rad * np.cos(phi), rad * np.sin(phi), z])
        side_n = np.column_stack([h * np.cos(phi), h * np.sin(phi), np.full(n, -d)])
        side_n /= np.linalg.norm(side_n, axis=1, keepdims=True)
        cap_n = np.zeros((n, 3))
        cap_n[:, 2] = np.where(which == 1, 1.0, -1.0)
        normals = np.where((which == 0)[:, None], side_n, cap_n)
        return xyz + np.array(self.base), normals


@dataclass(frozen=True)
class Ellipsoid:
    """An ellipsoid (pillows, cushions, foliage, lamp bulbs)."""

    center: tuple[float, float, float]
    radii: tuple[float, float, float]
    color: RGB

    def area(self) -> float:
        """Surface area in m² (Knud Thomsen's approximation, within about 1%)."""
        a, b, c = self.radii
        p = 1.6075
        area: float = 4 * math.pi * (((a * b) ** p + (a * c) ** p + (b * c) ** p) / 3) ** (1 / p)  # real: all terms >= 0
        return area

    def corners(self) -> np.ndarray:
        """Corners of the bounding box, for footprint checks."""
        r, c = np.array(self.radii), np.array(self.center)
        return np.array([c + r * np.array([i, j, k]) for i in (-1, 1) for j in (-1, 1) for k in (-1, 1)])

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """n points uniform over the surface (rejection on the stretch factor), outward normals."""
        radii = np.array(self.radii)
        kept: list[np.ndarray] = []
        have = 0
        while have < n:
            u = rng.normal(size=(2 * n + 16, 3))
            u /= np.linalg.norm(u, axis=1, keepdims=True)
            # Stretching the unit sphere scales area by |(bc·ux, ac·uy, ab·uz)|; accept in proportion.
            stretch = np.linalg.norm(u * (radii.prod() / radii), axis=1)
            keep = u[rng.random(len(u)) * stretch.max(initial=1e-12) <= stretch]
            kept.append(keep)
            have += len(keep)
        u = np.concatenate(kept)[:n]
        normals = u / radii
        normals /= np.linalg.norm(normals, axis=1, keepdims=True)
        return u * radii + np.array(self.center), normals


Part = Box | Cylinder | Ellipsoid


def _turn(v: np.ndarray, yaw_deg: float) -> np.ndarray:
    """Rotate row vectors about +z (counter-clockwise seen from above)."""
    if yaw_deg % 360 == 0:
        return v
    c, s = math.cos(math.radians(yaw_deg)), math.sin(math.radians(yaw_deg))
    out = v.copy()
    out[:, 0] = c * v[:, 0] - s * v[:, 1]
    out[:, 1] = s * v[:, 0] + c * v[:, 1]
    return out


def split_count(n: int, weights: np.ndarray) -> np.ndarray:
    """Split n into integer shares proportional to weights (largest remainder, deterministic)."""
    exact = n * weights / weights.sum()
    counts: np.ndarray = np.floor(exact).astype(int)
    order = np.argsort(-(exact - counts), kind="stable")
    counts[order[: n - counts.sum()]] += 1
    return counts


def shade(normals: np.ndarray, base: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Lambert shading against LIGHT_DIR plus ambient and per-point jitter; uint8 rgb."""
    lit = AMBIENT + DIFFUSE * np.clip(normals @ LIGHT_DIR, 0.0, None)
    rgb = base * lit[:, None] + rng.normal(0.0, COLOR_JITTER, size=base.shape)
    shaded: np.ndarray = np.clip(np.rint(rgb), 0, 255).astype(np.uint8)
    return shaded


def scan_noise(xyz: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Gaussian position noise of POSITION_NOISE meters on every axis."""
    noisy: np.ndarray = xyz + rng.normal(0.0, POSITION_NOISE, size=xyz.shape)
    return noisy


def parts_area(parts: tuple[Part, ...]) -> float:
    """Total visible area of some parts in m²."""
    return sum(p.area() for p in parts)


def render_parts(parts: tuple[Part, ...], n: int, at: tuple[float, float, float], yaw: float, rng: np.random.Generator) -> Points:
    """Sample n points over the parts (area-weighted), place them at `at` turned by yaw, shade, add noise."""
    counts = split_count(n, np.array([p.area() for p in parts]))
    xyz_parts, normal_parts, color_parts = [], [], []
    for part, count in zip(parts, counts, strict=True):
        if count == 0:
            continue
        xyz, normals = part.sample(int(count), rng)
        xyz_parts.append(xyz)
        normal_parts.append(normals)
        color_parts.append(np.broadcast_to(np.array(part.color, dtype=float), (int(count), 3)))
    xyz = _turn(np.concatenate(xyz_parts), yaw) + np.array(at)
    normals = _turn(np.concatenate(normal_parts), yaw)
    rgb = shade(normals, np.concatenate(color_parts), rng)
    return Points(xyz=scan_noise(xyz, rng), rgb=rgb)


def footprint(parts: tuple[Part, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Local (min, max) corners of the parts' bounding box."""
    corners = np.concatenate([p.corners() for p in parts])
    return corners.min(0), corners.max(0)
