"""The per-point fields a labelled cloud may carry, by the names pipelines give them, and their values made plain.

Names are compared without case and without CloudCompare's `scalar_` prefix; where a file has several names of one
list, the first in the list wins. docs/cli.md ("Labelled point clouds") lists them for people.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from scene_agent.errors import ScanImportError

INSTANCE_FIELDS = ("instance", "instance_id", "instanceid", "inst", "object_id", "objectid", "obj_id", "treeid", "tree_id")
LABEL_FIELDS = ("label", "label_id", "semantic", "semantic_id", "semantic_label", "sem", "class", "class_id", "category_id")
ROOM_FIELDS = ("room", "room_id", "roomid", "region", "region_id", "regionid")
COLOUR_FIELDS = (("red", "green", "blue"), ("r", "g", "b"), ("diffuse_red", "diffuse_green", "diffuse_blue"))
GRAY = 128  # points without colour, as scene/ply.py reads a PLY without colour
NONE = -1  # "no instance", "no label", "no room" once the values are read


def _plain(name: str) -> str:
    return name.lower().removeprefix("scalar_")


def find_field(available: Sequence[str], candidates: Sequence[str]) -> str | None:
    """The file's own name of the first candidate it has, or None."""
    by_plain: dict[str, str] = {}
    for name in available:
        by_plain.setdefault(_plain(name), name)
    return next((by_plain[c] for c in candidates if c in by_plain), None)


def find_colour(available: Sequence[str]) -> tuple[str, str, str] | None:
    """The file's own names of its red, green and blue fields, or None."""
    for names in COLOUR_FIELDS:
        found = [find_field(available, (name,)) for name in names]
        if all(found):
            return found[0] or "", found[1] or "", found[2] or ""
    return None


def fields_text(available: Sequence[str]) -> str:
    """`the file has x, y, z, …` for error messages."""
    return f"the file has {', '.join(available)}" if available else "the file has no fields"


def require_fields(available: Sequence[str], wanted: Sequence[str], path: Path) -> None:
    """ScanImportError naming the first missing field and listing those the file has."""
    missing = [name for name in wanted if find_field(available, (name,)) is None]
    if missing:
        raise ScanImportError(f"{path}: no field '{missing[0]}' ({fields_text(available)})")


def integer_ids(values: np.ndarray, field: str, path: Path, zero_is_none: bool = False) -> np.ndarray:
    """A field's values as int64 ids, NONE for "none": negative values, NaN, and 0 when `zero_is_none`.

    CloudCompare stores every scalar field as float, so whole floats are accepted; 2.5 is refused by name.
    """
    values = np.asarray(values)
    if values.dtype.kind == "f":
        finite = np.isfinite(values)
        whole = np.all(np.floor(values[finite]) == values[finite])
        if not whole:
            bad = values[finite][np.floor(values[finite]) != values[finite]][0]
            raise ScanImportError(f"{path}: field '{field}' holds {bad:g}; ids are whole numbers")
        ids = np.where(finite, values, NONE).astype(np.int64)
    elif values.dtype.kind in "iu":
        ids = values.astype(np.int64)
    else:
        raise ScanImportError(f"{path}: field '{field}' is of type {values.dtype}; ids are integers")
    ids[ids < 0] = NONE
    if zero_is_none:
        ids[ids == 0] = NONE
    return ids


def label_ids(values: np.ndarray, field: str, path: Path, names: dict[int, str]) -> np.ndarray:
    """Per-point label ids, NONE for negative ones, and for 0 when the label map does not name it (ScanNet's NYU40
    ids and most datasets keep 0 for "unlabelled")."""
    return integer_ids(values, field, path, zero_is_none=0 not in names)


def colours_8bit(channels: np.ndarray) -> tuple[np.ndarray, bool]:
    """N×3 colour values as uint8, and whether they were 16-bit: float 0–1 scaled by 255, integers above 255 taken as
    16-bit (÷ 257, so 65535 → 255), integers that stay within 0–255 kept (8-bit values in a 16-bit field)."""
    if channels.dtype.kind == "f":
        top = float(np.nanmax(channels, initial=0.0))
        scaled = channels * (255.0 if top <= 1.0 else 1.0)
        return np.clip(np.rint(np.nan_to_num(scaled)), 0, 255).astype(np.uint8), False
    if int(channels.max(initial=0)) > 255:
        return ((channels.astype(np.uint32) * 255 + 32767) // 65535).astype(np.uint8), True
    return np.clip(channels, 0, 255).astype(np.uint8), False


def gray(count: int) -> np.ndarray:
    """count neutral gray colours, for points that have none."""
    return np.full((count, 3), GRAY, dtype=np.uint8)
