"""`bench …`: benchmarks that print a table, or one JSON line with --json."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated

import typer
from rich.table import Table

from scene_agent.cli.common import JsonOption, SceneOption, handled
from scene_agent.cli.output import console, print_json
from scene_agent.manifest import resolve_manifest_path
from scene_agent.scene import ensure_demo_scene

bench_app = typer.Typer(help="Benchmarks: each prints a table, or one JSON line with --json.", no_args_is_help=True)


@bench_app.command("scene")
@handled
def scene(
    scene: SceneOption = None,
    objects: Annotated[int, typer.Option("--objects", min=1, help="Size of the generated comparison scene.")] = 2000,
    repeats: Annotated[int, typer.Option("--repeats", min=1, help="Timed runs per step.")] = 20,
    json_output: JsonOption = False,
) -> None:
    """Manifest load + index build time and memory: the demo (or --scene) and a generated large scene."""
    from scene_agent.bench.scene import bench_scene  # noqa: PLC0415

    manifest = resolve_manifest_path(scene) if scene else ensure_demo_scene()
    rows = bench_scene(manifest, n_objects=objects, repeats=repeats)
    if json_output:
        print_json({"results": [asdict(r) for r in rows]})
        return
    table = Table(title="bench scene (median of %d runs; peak memory by tracemalloc)" % repeats, title_justify="left")
    for col in ("scene", "objects", "step", "median ms", "p95 ms", "peak MiB"):
        table.add_column(col, justify="left" if col in ("scene", "step") else "right")
    for r in rows:
        table.add_row(r.scene, str(r.objects), r.step, f"{r.median_ms:.2f}", f"{r.p95_ms:.2f}", f"{r.peak_mb:.2f}")
    console.print(table)
