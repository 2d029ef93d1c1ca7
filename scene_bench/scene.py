"""`bench scene`: manifest load and index build, for the demo scene and a generated 2,000-object scene."""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scene_agent.resolution.matching import match
from scene_agent.resolution.query import parse_query
from scene_agent.scene.index import SceneIndex
from scene_agent.scene.manifest import load_manifest
from scene_bench.tool_rows import peak_traced_mb

LABELS = ("chair", "table", "sofa", "bed", "lamp", "bookshelf", "desk", "cabinet", "plant", "tv")
ROOM_TYPES = ("bedroom", "kitchen", "living_room", "bathroom", "study", "hallway", "dining_room")


@dataclass(frozen=True)
class BenchRow:
    """One measured step on one scene."""

    scene: str
    objects: int
    step: str
    median_ms: float
    p95_ms: float
    peak_mb: float


def synthetic_manifest(n_objects: int = 2000, objects_per_room: int = 20, rooms_per_floor: int = 25) -> dict[str, Any]:
    """A large, valid manifest (no point files needed: queries never read them)."""
    floors = []
    n_rooms = -(-n_objects // objects_per_room)
    for f in range(-(-n_rooms // rooms_per_floor)):
        rooms = []
        for r in range(1, rooms_per_floor + 1):
            if f * rooms_per_floor + r > n_rooms:
                break
            x0, z0 = r * 6.0, f * 3.0
            objects = [
                {"code": f"{f}-{r}-{o}", "label": LABELS[(r + o) % len(LABELS)], "points_file": f"points/{f}-{r}-{o}.ply",
                 "point_count": 10000, "bounds": {"min": [x0 + 0.1, 0.1, z0], "max": [x0 + 0.9, 0.9, z0 + 1.0]}}
                for o in range(1, objects_per_room + 1)
            ]
            rooms.append({"code": f"{f}-{r}", "type": ROOM_TYPES[r % len(ROOM_TYPES)], "name": f"Room {f}-{r}",
                          "points_file": f"points/{f}-{r}.ply", "point_count": 50000,
                          "bounds": {"min": [x0, 0.0, z0], "max": [x0 + 5.0, 5.0, z0 + 2.8]}, "objects": objects})
        floors.append({"code": str(f), "name": f"Floor {f}", "rooms": rooms})
    return {"schema_version": 1, "scene_id": f"synthetic-{n_objects}", "name": f"Synthetic {n_objects}-object scene",
            "units": "meters", "up_axis": "z", "floors": floors}


def _measure(fn: Callable[[], Any], repeats: int) -> tuple[float, float, float]:
    fn()  # warm caches and imports so the first run does not skew the median
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    peak, _ = peak_traced_mb(fn)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return statistics.median(times), p95, peak


def bench_manifest(label: str, path: Path, repeats: int) -> list[BenchRow]:
    """Rows for one manifest: plain json.load (baseline), validated load, index build, one query."""
    manifest = load_manifest(path)
    index = SceneIndex(manifest)
    n = len(manifest.objects())
    steps: list[tuple[str, Callable[[], Any]]] = [
        ("json.load (baseline)", lambda: json.loads(path.read_text(encoding="utf-8"))),
        ("load_manifest (validated)", lambda: load_manifest(path)),
        ("index build", lambda: SceneIndex(manifest)),
        ("load + index", lambda: SceneIndex(load_manifest(path))),
        ("find 'chairs in the kitchen on floor 1'",
         lambda: match(index, parse_query("chairs in the kitchen on floor 1", index))),
    ]
    return [BenchRow(label, n, step, *(round(v, 3) for v in _measure(fn, repeats))) for step, fn in steps]


def bench_scene(demo_manifest: Path, n_objects: int = 2000, repeats: int = 20) -> list[BenchRow]:
    """Benchmark the demo scene and a generated scene of n_objects objects in one run."""
    rows = bench_manifest("demo", demo_manifest, repeats)
    with tempfile.TemporaryDirectory(prefix="scene-agent-bench-") as tmp:
        path = Path(tmp) / "scene.json"
        path.write_text(json.dumps(synthetic_manifest(n_objects)), encoding="utf-8")
        rows += bench_manifest(f"synthetic-{n_objects}", path, repeats)
    return rows
