"""Rows of the referring-expression datasets, read into one shape: ReferIt3D's Nr3D and Sr3D CSVs, ScanRefer's JSON.

Only the columns a row needs are read; a missing required column, a row without a scan or a target id that is not an
integer is an error naming the file, the row and the problem. Which part a row belongs to ("dev" or "held-out")
follows from its scan id alone, so every dataset splits the same scans the same way.
"""

from __future__ import annotations

import ast
import csv
import json
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from scene_agent.errors import SceneAgentError

Dataset = Literal["nr3d", "sr3d", "scanrefer"]
DATASETS: tuple[Dataset, ...] = ("nr3d", "sr3d", "scanrefer")
PARTS = ("dev", "held-out")
# ReferIt3D's published test for a view-dependent utterance: one of these among its tokens.
VIEW_WORDS = frozenset({"front", "behind", "back", "right", "left", "facing", "leftmost", "rightmost", "looking", "across"})
# Sr3D's fine reference types, each with its coarse type (the published `coarse_reference_type` values).
SR3D_TYPES = {"closest": "horizontal", "farthest": "horizontal", "between": "between", "above": "vertical",
              "below": "vertical", "supported-by": "support", "supporting": "support", "left": "allocentric",
              "right": "allocentric", "front": "allocentric", "back": "allocentric"}
NR3D_TAGS = {"uses_spatial_lang": "spatial", "uses_color_lang": "colour", "uses_shape_lang": "shape"}


@dataclass(frozen=True)
class GroundingRow:
    """One description of one object: where it comes from, its scan, its target's dataset id, and how it is tagged."""

    dataset: Dataset
    where: str                 # file and row, for messages
    scan_id: str
    target_id: int
    text: str
    fair: bool = True          # Nr3D: a listener found the target from these words (correct_guess)
    tags: frozenset[str] = frozenset()  # spatial, colour, shape, view-dependent / -independent, easy / hard
    fine_type: str | None = None        # Sr3D: closest, farthest, between, above, below, supported-by, ...
    coarse_type: str | None = None      # Sr3D: horizontal, vertical, between, support, allocentric

    @property
    def part(self) -> str:
        """dev or held-out."""
        return part_of(self.scan_id)


def part_of(scan_id: str) -> str:
    """The part a scan's rows belong to: about one scan in five is held out, fixed by the scan id's CRC-32."""
    return "held-out" if zlib.crc32(scan_id.encode("utf-8")) % 5 == 0 else "dev"


def view_dependent(tokens: list[str]) -> bool:
    """Whether the words depend on where the speaker stands (ReferIt3D's definition)."""
    return not VIEW_WORDS.isdisjoint(t.lower() for t in tokens)


def words_of(text: str) -> list[str]:
    """Lower-case word tokens of an utterance."""
    return re.findall(r"[a-z]+", text.lower())


def _csv_rows(path: Path, required: tuple[str, ...]) -> Iterator[tuple[str, dict[str, str]]]:
    """(where, the row's values by column) for every data row; the required columns must be in the header."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            reader = csv.reader(handle)
            header = next(reader, None)
            if header is None:
                raise SceneAgentError(f"{path}: the file is empty (expected a CSV header with {', '.join(required)})")
            columns = {name.strip(): i for i, name in enumerate(header)}
            missing = [c for c in required if c not in columns]
            if missing:
                raise SceneAgentError(f"{path}: missing column{'s' * (len(missing) > 1)} {', '.join(missing)} "
                                      f"(the header has {', '.join(columns) or 'nothing'})")
            for number, values in enumerate(reader, start=1):
                if not any(v.strip() for v in values):
                    continue
                yield (f"{path}: row {number} (line {reader.line_num})",
                       {name: values[i].strip() if i < len(values) else "" for name, i in columns.items()})
    except OSError as exc:
        raise SceneAgentError(f"{path}: cannot read ({exc.strerror})") from None
    except (csv.Error, UnicodeDecodeError) as exc:
        raise SceneAgentError(f"{path}: not a readable CSV file ({exc})") from None


def _integer(value: Any, name: str, where: str) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        raise SceneAgentError(f"{where}: {name} {value!r} is not an integer") from None
    if number < 0:
        raise SceneAgentError(f"{where}: {name} {number} is negative")
    return number


def _flag(value: str, name: str, where: str) -> bool:
    lowered = value.strip().lower()
    if lowered in ("true", "1", "yes"):
        return True
    if lowered in ("false", "0", "no"):
        return False
    raise SceneAgentError(f"{where}: {name} {value!r} is not True or False")


def _text(value: Any, name: str, where: str) -> str:
    text = " ".join(str(value).split()) if isinstance(value, str) else ""
    if not text:
        raise SceneAgentError(f"{where}: {name} is empty")
    return text


def _tokens(row: dict[str, str], text: str) -> list[str]:
    """The row's published tokens when it has them (a Python list literal), else the words of its text."""
    raw = row.get("tokens", "")
    if raw.startswith("["):
        try:
            tokens = ast.literal_eval(raw)
        except (SyntaxError, ValueError):
            tokens = None
        if isinstance(tokens, list) and all(isinstance(t, str) for t in tokens):
            return tokens
    return words_of(text)


def _difficulty(stimulus: str) -> frozenset[str]:
    """easy / hard from a ReferIt3D stimulus id (scan-class-N-target-distractors…): easy when N ≤ 2."""
    parts = stimulus.split("-", 4)
    if len(parts) >= 3 and parts[2].isdigit():
        return frozenset({"easy" if int(parts[2]) <= 2 else "hard"})
    return frozenset()


def read_referit3d(path: Path, dataset: Literal["nr3d", "sr3d"]) -> list[GroundingRow]:
    """Rows of a ReferIt3D CSV (Nr3D or Sr3D as published): scan_id, target_id, utterance, and the tags it has."""
    rows = []
    for where, row in _csv_rows(path, ("scan_id", "target_id", "utterance")):
        scan = _text(row["scan_id"], "scan_id", where)
        target = _integer(row["target_id"], "target_id", where)
        text = _text(row["utterance"], "utterance", where)
        tags = set(_difficulty(row.get("stimulus_id", "")))
        fine, coarse = None, None
        fair = True
        if dataset == "nr3d":
            if row.get("correct_guess", ""):
                fair = _flag(row["correct_guess"], "correct_guess", where)
            tags |= {tag for column, tag in NR3D_TAGS.items() if row.get(column) and _flag(row[column], column, where)}
            tags.add("view-dependent" if view_dependent(_tokens(row, text)) else "view-independent")
        else:
            fine, coarse = sr3d_type(row.get("reference_type", ""), row.get("coarse_reference_type", ""), text)
        rows.append(GroundingRow(dataset, where, scan, target, text, fair, frozenset(tags), fine, coarse))
    return rows


def read_scanrefer(path: Path) -> list[GroundingRow]:
    """Rows of a ScanRefer JSON file: a list of {scene_id, object_id, description, …}."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SceneAgentError(f"{path}: cannot read ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise SceneAgentError(f"{path}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except UnicodeDecodeError as exc:
        raise SceneAgentError(f"{path}: not UTF-8 text ({exc.reason})") from None
    if not isinstance(data, list):
        raise SceneAgentError(f"{path}: expected a JSON list of {{scene_id, object_id, description}} entries")
    rows = []
    for number, entry in enumerate(data):
        where = f"{path}: entry {number}"
        if not isinstance(entry, dict):
            raise SceneAgentError(f"{where}: expected an object with scene_id, object_id and description")
        missing = [k for k in ("scene_id", "object_id", "description") if k not in entry]
        if missing:
            raise SceneAgentError(f"{where}: missing {', '.join(missing)}")
        rows.append(GroundingRow("scanrefer", where, _text(entry["scene_id"], "scene_id", where),
                                 _integer(entry["object_id"], "object_id", where),
                                 _text(entry["description"], "description", where)))
    return rows


def read_dataset(dataset: Dataset, path: Path) -> list[GroundingRow]:
    """The rows of one dataset file."""
    return read_scanrefer(path) if dataset == "scanrefer" else read_referit3d(path, dataset)


_ALLOCENTRIC = [(re.compile(r"\b(?:left|leftmost)\b"), "left"), (re.compile(r"\b(?:right|rightmost)\b"), "right"),
                (re.compile(r"\bin front of\b"), "front"), (re.compile(r"\b(?:behind|back of)\b"), "back")]
_OTHER = [(re.compile(r"\b(?:between|in the middle of|in the center of)\b"), "between"),
          (re.compile(r"\bsupporting\b|\b(?:with|has|have) (?:a|an|the) .*\bon (?:top|its top|their top)\b"),
           "supporting"),
          (re.compile(r"\b(?:above|over)\b"), "above"),
          (re.compile(r"\b(?:below|under|beneath|underneath)\b"), "below"),
          (re.compile(r"\b(?:on top of|on|lying on|atop|upon)\b"), "supported-by"),
          (re.compile(r"\b(?:farthest|furthest|far from|far away from|farther)\b"), "farthest"),
          (re.compile(r"\b(?:closest|closer|nearest|near|close to|next to|beside)\b"), "closest")]


def sr3d_type(fine: str, coarse: str, text: str) -> tuple[str | None, str | None]:
    """(fine, coarse) reference type of an Sr3D row: from its columns when present, else read from its words."""
    fine, coarse = fine.strip().lower(), coarse.strip().lower()
    if fine in SR3D_TYPES:
        return fine, SR3D_TYPES[fine]
    if coarse in SR3D_TYPES.values():
        return None, coarse
    lowered = " ".join(words_of(text))
    for pattern, kind in (*_ALLOCENTRIC, *_OTHER):
        if pattern.search(lowered):
            return kind, SR3D_TYPES[kind]
    return None, None
