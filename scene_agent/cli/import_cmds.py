"""`import scannet|hovsg`: bring real scans into the scene format."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from scene_agent.cli.common import JsonOption, build_tiles_now, handled, scene_summary, tiles_line
from scene_agent.cli.output import console, print_json

import_app = typer.Typer(help="Bring real scans into the scene format (manifest + point files), with its level-of-detail tiles.",
                         no_args_is_help=True)

OutOption = Annotated[Path, typer.Option("--out", help="Directory to create for the imported scene (must not exist or be empty).")]


def _report(path: Path, json_output: bool) -> None:
    """The imported scene's figures, once its tiles are built too (a small scan's in well under a second, a large
    one's here rather than on the viewer's first request: docs/cli.md)."""
    summary = scene_summary(path) | {"tiles": build_tiles_now(path, json_output)}
    if json_output:
        print_json(summary)
    else:
        console.print(f"Imported {summary['rooms']} room(s) and {summary['objects']} object(s), {summary['points']:,} points → {path}\n"
                      f"Tiles {tiles_line(summary['tiles'])}\n"
                      f"Use it with: scene-agent scene info --scene {path}")


@import_app.command("scannet")
@handled
def scannet(
    scan_dirs: Annotated[list[Path], typer.Argument(help="One ScanNet scan directory per room (e.g. scans/scene0000_00).")],
    out: OutOption,
    json_output: JsonOption = False,
) -> None:
    """ScanNet scans → rooms of floor 0 laid side by side, objects from the aggregation groups."""
    from scene_agent.importers import import_scannet

    _report(import_scannet(scan_dirs, out), json_output)


@import_app.command("hovsg")
@handled
def hovsg(
    graph_dir: Annotated[Path, typer.Argument(help="A HOV-SG graph folder with floors/, rooms/ and objects/.")],
    out: OutOption,
    json_output: JsonOption = False,
) -> None:
    """A HOV-SG hierarchical scene graph → floors, rooms and objects."""
    from scene_agent.importers import import_hovsg

    _report(import_hovsg(graph_dir, out), json_output)
