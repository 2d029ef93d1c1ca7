"""Labelled PLY clouds → a scene: x, y, z, colour and per-point instance and/or label ids (and maybe a room id), as
Mask3D- and OpenMask3D-style pipelines, CloudCompare and ScanNet's *_vh_clean_2.labels.ply write them.

Field names: cloud_fields.py; what labels and instances become: labelled_cloud.py; docs/cli.md says it for people.
Label id 0 that the label map does not name is "unlabelled" (cloud_fields.py: label_ids).
Instance ids below 0 are "no instance", and so is 0 unless `zero_is_instance` (datasets that number from 0).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import numpy as np

from scene_agent.errors import PointFileError, ScanImportError
from scene_agent.importers.cloud_fields import (
    INSTANCE_FIELDS,
    LABEL_FIELDS,
    ROOM_FIELDS,
    colours_8bit,
    fields_text,
    find_colour,
    find_field,
    gray,
    integer_ids,
    label_ids,
    require_fields,
)
from scene_agent.importers.cloud_report import ImportReport, Progress
from scene_agent.importers.common import Y_UP_TO_Z_UP, open_writer, require_file
from scene_agent.importers.label_map import read_label_map
from scene_agent.importers.labelled_cloud import LabelledCloud, write_cloud_scene
from scene_agent.scene.ply import read_ply_vertices


def label_names(path: Path, label_field: str | None, labels: Path | None, columns: tuple[str, str] | None,
                looked_for: str) -> dict[int, str]:
    """The label map a cloud needs: required with a label field, refused without one (it would name nothing)."""
    if label_field is not None and labels is None:
        raise ScanImportError(f"{path}: field '{label_field}' holds label ids; name them with --labels LABELS.json|.tsv")
    if label_field is None and labels is not None:
        raise ScanImportError(f"{path}: --labels was given, but the cloud has no label field ({looked_for})")
    return read_label_map(labels, columns) if labels is not None else {}


def read_labelled_ply(path: Path, labels: Path | None = None, columns: tuple[str, str] | None = None,
                      zero_is_instance: bool = False, progress: Progress | None = None) -> LabelledCloud:
    """Read and check a labelled PLY cloud; ScanImportError names the file and the field."""
    require_file(path)
    (progress or Progress()).step(f"Reading {path} …")
    try:
        vertex = read_ply_vertices(path, required=())
    except PointFileError as exc:
        raise ScanImportError(exc.message) from None
    available = list(vertex.dtype.names or ())
    require_fields(available, ("x", "y", "z"), path)
    instance_field, label_field = find_field(available, INSTANCE_FIELDS), find_field(available, LABEL_FIELDS)
    room_field = find_field(available, ROOM_FIELDS)
    if instance_field is None and label_field is None:
        raise ScanImportError(f"{path}: no instance or label field (looked for {', '.join(INSTANCE_FIELDS)}; and "
                              f"{', '.join(LABEL_FIELDS)}); {fields_text(available)}")
    names = label_names(path, label_field, labels, columns, f"looked for {', '.join(LABEL_FIELDS)}; {fields_text(available)}")
    xyz = np.column_stack([vertex[find_field(available, (axis,)) or axis] for axis in "xyz"]).astype(np.float64)
    fields = {"position": ", ".join(find_field(available, (axis,)) or axis for axis in "xyz")}
    colour_names = find_colour(available)
    if colour_names is None:
        rgb, colour = gray(len(xyz)), "none in the file (every point gray)"
    else:
        rgb, sixteen = colours_8bit(np.column_stack([vertex[name] for name in colour_names]))
        colour, fields["colour"] = ("16-bit, scaled to 8-bit" if sixteen else "8-bit"), ", ".join(colour_names)
    instances = label_values = rooms = None
    if instance_field is not None:
        instances = integer_ids(vertex[instance_field], instance_field, path, zero_is_none=not zero_is_instance)
        fields["instance"] = instance_field
    if label_field is not None:
        label_values = label_ids(vertex[label_field], label_field, path, names)
        fields["label"] = label_field
    if room_field is not None:
        rooms = integer_ids(vertex[room_field], room_field, path)
        fields["room"] = room_field
    del vertex
    return LabelledCloud(source=path, kind="labelled PLY", xyz=xyz, rgb=rgb, labels=label_values, names=names,
                         instances=instances, rooms=rooms, fields=fields, colour=colour)


def import_labelled_ply(cloud: str | os.PathLike[str], out_dir: str | os.PathLike[str], labels: str | os.PathLike[str] | None = None,
                        label_columns: tuple[str, str] | None = None, zero_is_instance: bool = False,
                        say: Callable[[str], None] | None = None, up: Literal["z", "y"] = "z") -> tuple[Path, ImportReport]:
    """Import a labelled PLY cloud as rooms and objects of floor 0; the new manifest's path and the import's report.
    `say` gets progress lines; `up`: the cloud's up axis (a y-up cloud is turned z-up)."""
    progress = Progress(say)
    with open_writer(out_dir) as writer:
        read = read_labelled_ply(Path(cloud), Path(labels) if labels is not None else None, label_columns, zero_is_instance,
                                 progress)
        if up == "y":
            read.xyz = read.xyz @ Y_UP_TO_Z_UP.T
            read.turned = "y-up turned z-up: (x, y, z) → (x, -z, y)"
        return write_cloud_scene(read, writer, recentre=False, progress=progress)
