"""LAS and LAZ point clouds → a scene, read with laspy (LAZ through its lazrs backend) a million points at a time.

- Labels: the classification, named by the ASPRS classes (cloud_labels.py: ASPRS_CLASSES) unless `labels` names the
  file's own codes (indoor scans often number their classes themselves).
- Objects: an instance id from a dimension named as cloud_fields.INSTANCE_FIELDS says (instance, treeID, object_id,
  …); without one, each thing class is cut into the parts that touch (labelled_cloud.py).
- Coordinates: laspy applies the file's scale and offset; the cloud is then moved so that its lowest corner is the
  origin (LAS holds map coordinates, UTM and the like, which float32 point files cannot keep to the millimetre);
  z stays up, as in every scene (docs/scene-format.md); a file whose coordinate system is in feet is converted to
  metres (las_units.py).
- Colours: LAS stores 16-bit values, scaled to 8-bit here, unless no value exceeds 255 (files that put 8-bit values
  in the 16-bit fields); a file without colour gives gray points, and the report says so.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from scene_agent.errors import ScanImportError
from scene_agent.importers.cloud_fields import (
    INSTANCE_FIELDS,
    ROOM_FIELDS,
    colours_8bit,
    find_field,
    gray,
    integer_ids,
    label_ids,
)
from scene_agent.importers.cloud_labels import ASPRS_CLASSES
from scene_agent.importers.cloud_report import ImportReport, Progress
from scene_agent.importers.common import open_writer, require_file
from scene_agent.importers.label_map import read_label_map
from scene_agent.importers.labelled_cloud import LabelledCloud, write_cloud_scene
from scene_agent.importers.las_units import las_units

if TYPE_CHECKING:
    from laspy import LasReader

CHUNK_POINTS = 1_000_000


def read_las(path: Path, labels: Path | None = None, columns: tuple[str, str] | None = None, zero_is_instance: bool = False,
             progress: Progress | None = None) -> LabelledCloud:
    """Read and check a LAS or LAZ file in chunks; ScanImportError names the file (and the field)."""
    import laspy
    from laspy.errors import LaspyException

    require_file(path)
    progress = progress or Progress()
    names = read_label_map(labels, columns) if labels is not None else dict(ASPRS_CLASSES)
    try:
        with laspy.open(path) as reader:
            return _read(reader, path, names, zero_is_instance, progress)
    # lazrs reports a cut-short LAZ file as a RuntimeError; laspy a cut-short LAS as a ValueError.
    except (LaspyException, OSError, ValueError, RuntimeError, EOFError) as exc:
        raise ScanImportError(f"{path}: corrupt or unreadable LAS/LAZ file ({exc})") from None


def _read(reader: LasReader, path: Path, names: dict[int, str], zero_is_instance: bool, progress: Progress) -> LabelledCloud:
    header = reader.header
    total = int(header.point_count)
    available = list(header.point_format.dimension_names)
    instance_field, room_field = find_field(available, INSTANCE_FIELDS), find_field(available, ROOM_FIELDS)
    has_colour = {"red", "green", "blue"} <= set(available)
    progress.step(f"Reading {path} ({total:,} points; LAS {header.version}, point format {header.point_format.id}) …")
    xyz = np.empty((total, 3), dtype=np.float64)
    classes = np.empty(total, dtype=np.int64)
    rgb16 = np.empty((total, 3), dtype=np.uint16) if has_colour else None
    instances = np.empty(total, dtype=np.int64) if instance_field else None
    rooms = np.empty(total, dtype=np.int64) if room_field else None
    done = 0
    for chunk in reader.chunk_iterator(CHUNK_POINTS):
        rows = slice(done, done + len(chunk))
        if rows.stop > total:
            raise ScanImportError(f"{path}: holds more points than its header's {total:,}")
        xyz[rows, 0], xyz[rows, 1], xyz[rows, 2] = chunk.x, chunk.y, chunk.z
        classes[rows] = label_ids(np.asarray(chunk.classification), "classification", path, names)
        if rgb16 is not None:
            rgb16[rows, 0], rgb16[rows, 1], rgb16[rows, 2] = chunk.red, chunk.green, chunk.blue
        if instances is not None and instance_field is not None:
            instances[rows] = integer_ids(np.asarray(chunk[instance_field]), instance_field, path, zero_is_none=not zero_is_instance)
        if rooms is not None and room_field is not None:
            rooms[rows] = integer_ids(np.asarray(chunk[room_field]), room_field, path)
        done = rows.stop
        progress.tick(done, total, "points read")
    if done < total:
        raise ScanImportError(f"{path}: cut short: {done:,} points of the {total:,} its header promises")
    fields = {"position": "x, y, z (scaled and offset)", "label": "classification"}
    units = las_units([*header.vlrs, *(header.evlrs or [])], path)
    if not units.metres:  # a survey in feet: scenes are in metres
        xyz[:, :2] *= units.horizontal
        xyz[:, 2] *= units.vertical
        fields["position"] = f"x, y, z (scaled and offset; in {units.said}, converted to metres)"
    if rgb16 is None:
        rgb, colour = gray(total), "none in the file (every point gray)"
    else:
        rgb, sixteen = colours_8bit(rgb16)
        colour, fields["colour"] = ("16-bit, scaled to 8-bit" if sixteen else "8-bit values in 16-bit fields"), "red, green, blue"
        del rgb16
    if instance_field is not None:
        fields["instance"] = instance_field
    if room_field is not None:
        fields["room"] = room_field
    return LabelledCloud(source=path, kind="LAS", xyz=xyz, rgb=rgb, labels=classes, names=names, instances=instances,
                         rooms=rooms, fields=fields, colour=colour)


def import_las(cloud: str | os.PathLike[str], out_dir: str | os.PathLike[str], labels: str | os.PathLike[str] | None = None,
               label_columns: tuple[str, str] | None = None, zero_is_instance: bool = False,
               say: Callable[[str], None] | None = None) -> tuple[Path, ImportReport]:
    """Import a LAS or LAZ file as rooms and objects of floor 0, moved to the origin; the new manifest's path and the
    import's report. `say` gets progress lines."""
    progress = Progress(say)
    with open_writer(out_dir) as writer:
        read = read_las(Path(cloud), Path(labels) if labels is not None else None, label_columns, zero_is_instance, progress)
        return write_cloud_scene(read, writer, recentre=True, progress=progress)
