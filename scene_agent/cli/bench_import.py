"""`scene-agent bench import`: its options and its table (the run itself is scene_bench/imports.py)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from scene_agent.cli.common import JsonOption, handled
from scene_agent.cli.output import console, print_json


@handled
def import_bench(
    points: Annotated[int, typer.Option("--points", min=1000, help="Points of the synthetic room every importer reads.")] = 5_000_000,
    json_output: JsonOption = False,
) -> None:
    """Every importer (scannet, hovsg, labelled-ply with instances and with labels only, las, laz) on the same
    synthetic room, each in a process of its own: points per second and peak resident memory, beside scannet."""
    from scene_bench.imports import bench_import

    report = bench_import(points=points, say=lambda line: print(line, file=sys.stderr, flush=True))
    if json_output:
        print_json(report.as_json())
        return
    caption = (f"Each import runs in a child process, its libraries imported before the clock starts; tiles are not built "
               f"(they cost the same for every importer). Peak RSS is the child's whole process: one that only imports "
               f"takes {report.imports_rss_mb:,.0f} MiB. × {report.baseline}: points per second against the {report.baseline} "
               "importer on the same points. labelled-ply-labels: the same PLY without instance ids (objects cut from "
               "each label's points).")
    table = Table(title=f"bench import ({report.points:,} points of one synthetic room)", title_justify="left",
                  caption=escape(caption), caption_justify="left")
    for col in ("importer", "input MiB", "seconds", "points/s", f"× {report.baseline}", "peak RSS MiB", "rooms", "objects"):
        table.add_column(col, justify="left" if col == "importer" else "right", no_wrap=True)
    for r in report.rows:
        table.add_row(r.importer, f"{r.input_mb:,.1f}", f"{r.seconds:.2f}", f"{r.points_per_s:,.0f}", f"{r.vs_baseline:.2f}",
                      f"{r.peak_rss_mb:,.0f}", str(r.rooms), str(r.objects))
    console.print(table)
