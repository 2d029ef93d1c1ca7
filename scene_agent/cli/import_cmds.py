"""`import scannet|hovsg|labelled-ply|las`: bring real scans into the scene format."""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from scene_agent.cli.common import JsonOption, build_tiles_now, handled, scene_summary, tiles_line
from scene_agent.cli.output import console, print_json

if TYPE_CHECKING:
    from scene_agent.importers.cloud_report import ImportReport

import_app = typer.Typer(help="Bring real scans into the scene format (manifest + point files), with its level-of-detail tiles.",
                         no_args_is_help=True)

OutOption = Annotated[Path, typer.Option("--out", help="Directory to create for the imported scene (must not exist or be empty).")]


LabelsOption = Annotated[Path | None, typer.Option(
    "--labels", help="Names of the label ids: JSON ({\"3\": \"chair\"} or [{\"id\": 3, \"name\": \"chair\"}]) or a TSV with a "
                     "header (ScanNet's scannetv2-labels.combined.tsv) or two columns, id and name.")]
LabelColumnsOption = Annotated[str | None, typer.Option(
    "--label-columns", help="The TSV's id and name columns, ID,NAME (e.g. nyu40id,nyu40class for ScanNet's *.labels.ply). "
                            "Default: the first of id+category, id+raw_category, id+name, …, nyu40id+nyu40class it has.")]
ZeroOption = Annotated[bool, typer.Option(
    "--zero-is-instance", help="Instance id 0 is an object (datasets that number from 0); by default 0, like a negative id, "
                               "means no instance.")]


class UpAxis(StrEnum):
    """A labelled PLY's up axis."""

    z = "z"
    y = "y"


def _report(path: Path, json_output: bool, report: ImportReport | None = None) -> None:
    """The imported scene's figures, once its tiles are built too (a small scan's in well under a second, a large
    one's here rather than on the viewer's first request: docs/cli.md); a labelled cloud's import report with them."""
    summary = scene_summary(path) | {"tiles": build_tiles_now(path, json_output)}
    if report is not None:
        summary["import"] = report.as_json()
    if json_output:
        print_json(summary)
    else:
        notes = "".join(f"{note}\n" for note in report.notes()) if report is not None else ""
        console.print(f"{notes}Imported {summary['rooms']} room(s) and {summary['objects']} object(s), "
                      f"{summary['points']:,} points → {path}\n"
                      f"Tiles {tiles_line(summary['tiles'])}\n"
                      f"Use it with: scene-agent scene info --scene {path}", markup=False)


def _progress(json_output: bool) -> Callable[[str], None] | None:
    """Where a long import says how far it got: stderr, or nowhere under --json (as the tiles' build does)."""
    return None if json_output else (lambda line: print(line, file=sys.stderr, flush=True))


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


@import_app.command("labelled-ply")
@handled
def labelled_ply(
    cloud: Annotated[Path, typer.Argument(help="A PLY with x, y, z, colour and per-point instance and/or label ids (and maybe "
                                               "a room id).")],
    out: OutOption,
    labels: LabelsOption = None,
    label_columns: LabelColumnsOption = None,
    zero_is_instance: ZeroOption = False,
    up: Annotated[UpAxis, typer.Option("--up", help="The cloud's up axis: z (ScanNet, Mask3D, most scanners) or y (Habitat, "
                                                    "HM3D and other graphics-style clouds, which are then turned z-up).")
                  ] = UpAxis.z,
    json_output: JsonOption = False,
) -> None:
    """A labelled PLY cloud (Mask3D / OpenMask3D-style) → rooms and objects: one object per instance, or per part of a
    label's points that touch; walls, floor, ceiling and unassigned points are the room's."""
    from scene_agent.importers.label_map import parse_label_columns
    from scene_agent.importers.labelled_ply import import_labelled_ply

    columns = parse_label_columns(label_columns) if label_columns else None
    path, report = import_labelled_ply(cloud, out, labels, columns, zero_is_instance, say=_progress(json_output),
                                       up="y" if up is UpAxis.y else "z")
    _report(path, json_output, report)


@import_app.command("las")
@handled
def las(
    cloud: Annotated[Path, typer.Argument(help="A LAS or LAZ file: classification, colour, maybe an instance id dimension.")],
    out: OutOption,
    labels: Annotated[Path | None, typer.Option(
        "--labels", help="Names of the classification codes, as for labelled-ply (default: the ASPRS classes).")] = None,
    label_columns: LabelColumnsOption = None,
    zero_is_instance: ZeroOption = False,
    json_output: JsonOption = False,
) -> None:
    """A LAS or LAZ point cloud → rooms and objects, moved to the origin: classes name the points, an instance
    dimension (instance, treeID, object_id, …) makes the objects."""
    from scene_agent.importers.label_map import parse_label_columns
    from scene_agent.importers.las import import_las

    columns = parse_label_columns(label_columns) if label_columns else None
    path, report = import_las(cloud, out, labels, columns, zero_is_instance, say=_progress(json_output))
    _report(path, json_output, report)
