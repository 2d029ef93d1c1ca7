"""The octree builder: every point of a scene in exactly one node, coarse levels first.

Each node keeps, of the points that reach it, the one nearest the centre of each voxel of a GRID³ grid over its cube
(ties: the earlier point); the others go on to the child octant they lie in. A node that receives at most
`leaf_cap` points (or lies MAX_DEPTH deep) keeps them all and has no children.

Memory stays bounded: the root reads the scene's point files one at a time (source.py), and every other node reads
the spill file its parent wrote, `chunk` records at a time. A node of more than `chunk` points is read twice: once
to find each voxel's point (two GRID³ arrays), once to write its tile and its children's spill files. So at most
one point file or one chunk, one node's kept points and those arrays are in memory, whatever the scene's size.
Every step runs in file, then point order, so the same scene gives the same bytes.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import BinaryIO

import numpy as np
import numpy.typing as npt

from scene_agent.scene.manifest import SceneManifest
from scene_agent.tiles.layout import MAX_DEPTH, RECORD, Cube, pack_tile
from scene_agent.tiles.source import scene_records

Records = npt.NDArray[np.void]
Chunks = Callable[[], Iterator[Records]]
_OCTANT_WEIGHTS = np.array([4, 2, 1], dtype=np.int64)


@dataclass(frozen=True)
class TileParams:
    """How the octree is cut: voxels per node side, the most points a leaf takes, records read at once."""

    grid: int = 128
    leaf_cap: int = 50_000
    chunk: int = 2_000_000

    def as_dict(self) -> dict[str, int]:
        """What the tiles' digest and index record (the chunk size changes no byte of the output)."""
        return {"grid": self.grid, "leaf_cap": self.leaf_cap}


@dataclass(frozen=True)
class Node:
    """One built node: its name, its points and which children it has (bit d set: child d exists)."""

    name: str
    points: int
    children: int


@dataclass
class BuildResult:
    """What a build wrote: the root cube, the points' true bounds, the nodes, how many points were left out."""

    cube: Cube
    bounds: tuple[tuple[float, float, float], tuple[float, float, float]]
    points: int
    skipped: int
    nodes: list[Node] = field(default_factory=list)
    bytes: int = 0


def _bounds(scene_root: Path, manifest: SceneManifest) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], int, int]:
    """(min, max, finite points, points left out) of the whole scene, one point file at a time."""
    lo, hi = np.full(3, np.inf), np.full(3, -np.inf)
    total = skipped = 0
    for records, dropped in scene_records(scene_root, manifest):
        skipped += dropped
        total += len(records)
        if len(records):
            lo = np.minimum(lo, records["xyz"].min(axis=0))
            hi = np.maximum(hi, records["xyz"].max(axis=0))
    if total == 0:
        lo, hi = np.zeros(3), np.zeros(3)
    return lo.astype(np.float64), hi.astype(np.float64), total, skipped


def _voxels(cube: Cube, xyz: npt.NDArray[np.float32], grid: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Each point's voxel (linear index in the node's grid) and its squared distance to the voxel's centre (in voxels)."""
    rel = cube.relative(xyz) * grid
    cell = np.clip(np.floor(rel), 0, grid - 1).astype(np.int64)
    dist = ((rel - (cell + 0.5)) ** 2).sum(axis=1)
    return (cell[:, 0] * grid + cell[:, 1]) * grid + cell[:, 2], dist


def _firsts(voxel: npt.NDArray[np.int64], dist: npt.NDArray[np.float64],
            seq: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(voxels, positions in the arrays) of each voxel's point nearest its centre, the earliest among equals."""
    order = np.lexsort((seq, dist, voxel))
    sorted_voxels = voxel[order]
    first = np.ones(len(order), dtype=bool)
    first[1:] = sorted_voxels[1:] != sorted_voxels[:-1]
    return sorted_voxels[first], order[first]


def _octants(cube: Cube, xyz: npt.NDArray[np.float32]) -> npt.NDArray[np.int64]:
    """Each point's child digit, 4·x + 2·y + z."""
    half = np.clip(np.floor(cube.relative(xyz) * 2), 0, 1).astype(np.int64)
    return half @ _OCTANT_WEIGHTS


def _spill_chunks(path: Path, chunk: int) -> Iterator[Records]:
    with path.open("rb") as fh:
        while len(records := np.fromfile(fh, dtype=RECORD, count=chunk)):
            yield records


class _Builder:
    def __init__(self, out_dir: Path, params: TileParams, result: BuildResult):
        self.out_dir = out_dir
        self.spill_dir = out_dir / ".spill"
        self.spill_dir.mkdir()
        self.params = params
        self.result = result

    def _write_tile(self, name: str, cube: Cube, records: Records) -> None:
        data = pack_tile(cube, records)
        (self.out_dir / f"{name}.bin").write_bytes(data)
        self.result.bytes += len(data)

    def _keep_streaming(self, cube: Cube, chunks: Chunks) -> npt.NDArray[np.int64]:
        """For a node too big to hold: the sequence number of the point each voxel keeps (-1: none)."""
        grid = self.params.grid
        best_dist = np.full(grid ** 3, np.inf)
        best_seq = np.full(grid ** 3, -1, dtype=np.int64)
        start = 0
        for records in chunks():
            voxel, dist = _voxels(cube, records["xyz"], grid)
            seq = np.arange(start, start + len(records), dtype=np.int64)
            start += len(records)
            voxels, at = _firsts(voxel, dist, seq)
            better = dist[at] < best_dist[voxels]  # strictly: an earlier chunk's point wins a tie
            best_dist[voxels[better]] = dist[at][better]
            best_seq[voxels[better]] = seq[at][better]
        return best_seq

    def node(self, name: str, cube: Cube, count: int, chunks: Chunks) -> list[tuple[str, Cube, int]]:
        """Build one node; returns its children (name, cube, points) whose spill files it wrote."""
        params = self.params
        if count <= params.leaf_cap or len(name) - 1 >= MAX_DEPTH:
            parts = list(chunks())
            self._write_tile(name, cube, np.concatenate(parts) if parts else np.empty(0, dtype=RECORD))
            self.result.nodes.append(Node(name=name, points=count, children=0))
            return []
        best_seq: npt.NDArray[np.int64] | None = None
        if count > params.chunk:
            best_seq = self._keep_streaming(cube, chunks)
        else:  # small enough to hold: one chunk, one read
            whole = np.concatenate(list(chunks()))
            chunks = lambda: iter([whole])  # noqa: E731
        kept: list[Records] = []
        files: dict[int, BinaryIO] = {}
        counts = [0] * 8
        start = 0
        try:
            for records in chunks():
                voxel, dist = _voxels(cube, records["xyz"], params.grid)
                seq = np.arange(start, start + len(records), dtype=np.int64)
                start += len(records)
                if best_seq is None:  # the whole node is this one chunk
                    keep = np.zeros(len(records), dtype=bool)
                    keep[_firsts(voxel, dist, seq)[1]] = True
                else:
                    keep = best_seq[voxel] == seq
                kept.append(records[keep])
                rest = records[~keep]
                digits = _octants(cube, rest["xyz"])
                for digit in range(8):
                    part = rest[digits == digit]
                    if len(part):
                        if digit not in files:
                            files[digit] = (self.spill_dir / f"{name}{digit}.rec").open("wb")
                        part.tofile(files[digit])
                        counts[digit] += len(part)
        finally:
            for fh in files.values():
                fh.close()
        self._write_tile(name, cube, np.concatenate(kept))
        mask = sum(1 << d for d in range(8) if counts[d])
        self.result.nodes.append(Node(name=name, points=sum(len(k) for k in kept), children=mask))
        return [(f"{name}{d}", cube.child(d), counts[d]) for d in range(8) if counts[d]]

    def run(self, root_chunks: Chunks) -> None:
        todo = self.node("r", self.result.cube, self.result.points, root_chunks)
        while todo:  # depth first, so the spill files waiting at any time hold at most a few levels' points
            name, cube, count = todo.pop()
            path = self.spill_dir / f"{name}.rec"
            children = self.node(name, cube, count, partial(_spill_chunks, path, self.params.chunk))
            path.unlink()
            todo.extend(reversed(children))
        shutil.rmtree(self.spill_dir)
        self.result.nodes.sort(key=lambda n: (len(n.name), n.name))


def build_octree(scene_root: Path, manifest: SceneManifest, out_dir: Path, params: TileParams) -> BuildResult:
    """Write one tile file per node into `out_dir` (an empty directory); the caller writes the index."""
    lo, hi, total, skipped = _bounds(scene_root, manifest)
    side = float((hi - lo).max())
    cube = Cube(min=(float(lo[0]), float(lo[1]), float(lo[2])), side=side if side > 0 else 1.0)
    result = BuildResult(cube=cube, bounds=((float(lo[0]), float(lo[1]), float(lo[2])), (float(hi[0]), float(hi[1]), float(hi[2]))),
                         points=total, skipped=skipped)
    _Builder(out_dir, params, result).run(lambda: (records for records, _ in scene_records(scene_root, manifest)))
    return result
