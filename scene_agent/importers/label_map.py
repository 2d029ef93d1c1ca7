"""Label maps: the names of the integer labels a point cloud carries, from a JSON file or a TSV such as ScanNet's.

JSON: `{"3": "chair", …}` or `[{"id": 3, "name": "chair"}, …]` (other keys of an entry are ignored). TSV: a header
row, then one row per label; the id and name columns are the first pair of ID_NAME_COLUMNS the header has, unless
given (`--label-columns nyu40id,nyu40class`); a file whose first cell is a number has no header: id, then name.
docs/cli.md ("Labelled point clouds") says the same for people.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError

from scene_agent.errors import ScanImportError
from scene_agent.importers.common import require_file
from scene_agent.model import Model

# (id column, name column), the first the header has wins. ScanNet's scannetv2-labels.combined.tsv has all but
# `name`: its `id` numbers the fine categories (ScanNet200 clouds), `nyu40id` the 40 NYU classes (its
# *_vh_clean_2.labels.ply), which need --label-columns nyu40id,nyu40class.
ID_NAME_COLUMNS = (("id", "category"), ("id", "raw_category"), ("id", "name"), ("id", "label"), ("id", "class"),
                   ("nyu40id", "nyu40class"), ("mpcat40index", "mpcat40"), ("eigen13id", "eigen13class"))


class LabelEntry(Model):
    """One entry of a JSON label map given as a list."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    id: int
    name: str = Field(min_length=1)


_AS_DICT: TypeAdapter[dict[int, str]] = TypeAdapter(dict[int, str])
_AS_LIST: TypeAdapter[list[LabelEntry]] = TypeAdapter(list[LabelEntry])


def parse_label_columns(text: str) -> tuple[str, str]:
    """`ID,NAME` as (id column, name column); ScanImportError when it is not two names."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise ScanImportError(f"--label-columns takes two column names, ID,NAME (e.g. nyu40id,nyu40class), not {text!r}")
    return parts[0], parts[1]


def read_label_map(path: Path, columns: tuple[str, str] | None = None) -> dict[int, str]:
    """Label id → name from a .json file or a TSV (any other suffix); errors name the file and the entry."""
    require_file(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScanImportError(f"{path}: cannot read ({exc})") from None
    names = _json_map(path, text) if path.suffix.lower() == ".json" else _tsv_map(path, text, columns)
    if not names:
        raise ScanImportError(f"{path}: the label map names no labels")
    return names


def _json_map(path: Path, text: str) -> dict[int, str]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScanImportError(f"{path}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    try:
        if isinstance(data, dict):
            names = {key: name.strip() for key, name in _AS_DICT.validate_python(data).items()}
        elif isinstance(data, list):
            names = {}
            for number, entry in enumerate(_AS_LIST.validate_python(data)):
                _add(names, entry.id, entry.name.strip(), path, f"entry {number}")
        else:
            raise ScanImportError(f"{path}: a label map is an object {{\"3\": \"chair\"}} or a list [{{\"id\": 3, \"name\": "
                                  f"\"chair\"}}], not {type(data).__name__}")
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ScanImportError(f"{path}: {where}: {first['msg']} (label ids are integers, names non-empty text)") from None
    if blank := [key for key, name in names.items() if not name]:
        raise ScanImportError(f"{path}: label {blank[0]} has an empty name")
    return names


def _tsv_map(path: Path, text: str, columns: tuple[str, str] | None) -> dict[int, str]:
    rows = [row for row in csv.reader(text.splitlines(), delimiter="\t") if any(cell.strip() for cell in row)]
    if not rows:
        return {}
    header = [cell.strip().lower() for cell in rows[0]]
    if columns is None and _integer(header[0]) is not None:
        id_at, name_at, first = 0, 1, 0  # no header: id, name
    else:
        id_at, name_at = _columns(path, header, columns)
        first = 1
    names: dict[int, str] = {}
    for line, row in enumerate(rows[first:], start=first + 1):
        cells = [cell.strip() for cell in row]
        if len(cells) <= max(id_at, name_at):
            raise ScanImportError(f"{path}: line {line} has {len(cells)} column(s); the label map needs "
                                  f"{max(id_at, name_at) + 1} (tab-separated)")
        if not cells[id_at]:
            continue  # a category without an id in this column (some of ScanNet's have no mpcat40 or eigen13 id)
        label_id = _integer(cells[id_at])
        if label_id is None:
            raise ScanImportError(f"{path}: line {line}: label id {cells[id_at]!r} is not an integer")
        if not cells[name_at]:
            raise ScanImportError(f"{path}: line {line}: label {label_id} has an empty name")
        _add(names, label_id, cells[name_at], path, f"line {line}")
    return names


def _columns(path: Path, header: list[str], columns: tuple[str, str] | None) -> tuple[int, int]:
    """Where the id and name columns are: as asked, else the first known pair, else the only two."""
    if columns is not None:
        missing = [name for name in columns if name.lower() not in header]
        if missing:
            raise ScanImportError(f"{path}: no column {missing[0]!r}; the header has {', '.join(header)}")
        return header.index(columns[0].lower()), header.index(columns[1].lower())
    for id_column, name_column in ID_NAME_COLUMNS:
        if id_column in header and name_column in header:
            return header.index(id_column), header.index(name_column)
    if len(header) == 2:
        return 0, 1
    raise ScanImportError(f"{path}: cannot tell the id and name columns among {', '.join(header)} "
                          "(give them with --label-columns ID,NAME)")


def _add(names: dict[int, str], label_id: int, name: str, path: Path, where: str) -> None:
    # NYU40 ids repeat on every fine category they group, with the same class name: one id, one name.
    if names.get(label_id, name) != name:
        raise ScanImportError(f"{path}: {where}: label {label_id} is named {name!r}, but earlier {names[label_id]!r}")
    names[label_id] = name


def _integer(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None
