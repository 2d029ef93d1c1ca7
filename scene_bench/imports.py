"""`bench import`: every importer on the same synthetic room of N points (5 M by default), each in a process of its
own: points per second and peak resident memory, beside the ScanNet importer (the baseline) in the same run.

The room (labelled_room.py) is written once in each importer's format: a ScanNet scan, a HOV-SG graph, a labelled
PLY (with instance ids, and with labels only: its objects then come from cutting each label into the parts that
touch), LAS and LAZ. Peak memory is the child's `ru_maxrss` from wait4: tracemalloc sees neither plyfile's memory
maps nor lazrs' buffers. The `imports` figure is a child that only imports (the floor under every row). This process
stays small (it writes the inputs in a child too): a child's ru_maxrss is at least its parent's peak.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from scene_agent.errors import SceneAgentError

DEFAULT_POINTS = 5_000_000
BASELINE = "scannet"


@dataclass(frozen=True)
class ImportRow:
    """One importer on the room: time, rate, peak memory, and what it wrote."""

    importer: str
    points: int
    input_mb: float
    seconds: float
    points_per_s: float
    vs_baseline: float  # points per second / the baseline's
    peak_rss_mb: float
    rooms: int
    objects: int


@dataclass(frozen=True)
class ImportBenchReport:
    """The rows, the baseline's name and the memory of a process that only imports."""

    points: int
    baseline: str
    imports_rss_mb: float
    rows: list[ImportRow]

    def as_json(self) -> dict[str, Any]:
        """The `--json` document."""
        return {"points": self.points, "baseline": self.baseline, "imports_rss_mb": self.imports_rss_mb,
                "rows": [asdict(r) for r in self.rows]}


def _failed(message: str) -> SceneAgentError:
    """The benches' error (imported only now: scene_bench.api brings the API server, which would raise this process's
    peak, and so every child's measured one)."""
    from scene_bench.api import BenchError

    return BenchError(message)


def _size_mb(path: Path) -> float:
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files) / 2**20


def _inputs(points: int, root: Path) -> dict[str, list[Path]]:
    """Every importer's input, written by a child process: a child's ru_maxrss starts at its parent's peak (Linux
    carries the peak of the image a process replaces across exec), so this process must never hold the room."""
    argv = [sys.executable, "-m", "scene_bench.labelled_room", str(root), str(points)]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise _failed(f"writing the inputs failed (exit {done.returncode}): {done.stderr[-2000:]}")
    return {kind: [Path(p) for p in paths] for kind, paths in json.loads(done.stdout).items()}


def _child(kind: str, out: Path, inputs: list[Path]) -> tuple[dict[str, float], float]:
    """Run one import in a child process; (its figures, its peak RSS in MiB)."""
    argv = [sys.executable, "-m", "scene_bench.import_child", kind, str(out), *map(str, inputs)]
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        proc = subprocess.Popen(argv, stdout=stdout, stderr=stderr)
        # wait4 reaps the child and gives its own resource usage (RUSAGE_CHILDREN would be the largest child so far).
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        stdout.seek(0)
        stderr.seek(0)
        if proc.returncode != 0:
            raise _failed(f"import {kind} failed (exit {proc.returncode}): {stderr.read().decode(errors='replace')[-2000:]}")
        figures: dict[str, float] = json.loads(stdout.read())
    return figures, usage.ru_maxrss / 1024  # Linux counts ru_maxrss in KiB


def bench_import(points: int = DEFAULT_POINTS, say: Callable[[str], None] | None = None) -> ImportBenchReport:
    """Write the room in every format, then import each in a child process, the baseline first."""
    tell = say or (lambda line: None)
    with tempfile.TemporaryDirectory(prefix="scene-bench-import-") as tmp:
        root = Path(tmp)
        tell(f"Writing a room of {points:,} points in every importer's format …")
        inputs = _inputs(points, root)
        _, imports_rss = _child("imports", root / "out-imports", [])
        rows: list[ImportRow] = []
        for kind, paths in inputs.items():
            tell(f"Importing with {kind} …")
            figures, rss = _child(kind, root / f"out-{kind}", paths)
            rate = figures["points"] / max(figures["seconds"], 1e-9)
            baseline = rows[0].points_per_s if rows else rate
            rows.append(ImportRow(importer=kind, points=int(figures["points"]), input_mb=round(_size_mb(paths[0]), 1),
                                  seconds=round(figures["seconds"], 3), points_per_s=round(rate), vs_baseline=round(rate / baseline, 2),
                                  peak_rss_mb=round(rss, 1), rooms=int(figures["rooms"]), objects=int(figures["objects"])))
    return ImportBenchReport(points=points, baseline=BASELINE, imports_rss_mb=round(imports_rss, 1), rows=rows)
