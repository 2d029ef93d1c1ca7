"""The scene manifest: one JSON file describing floors, rooms and objects."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Final, Literal

from pydantic import ConfigDict, Field, ValidationError, field_validator, model_validator

from scene_agent.errors import ManifestError
from scene_agent.model import Model
from scene_agent.scene.codes import CODE_RE, parent_of
from scene_agent.scene.room_types import RoomTypeGuess

SCHEMA_VERSION: Final = 1  # Final: its type is then Literal[1], as SceneManifest.schema_version is
MANIFEST_NAME = "scene.json"


class _Model(Model):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Bounds(_Model):
    """Axis-aligned bounds in meters."""

    min: tuple[float, float, float]
    max: tuple[float, float, float]

    @model_validator(mode="after")
    def _ordered(self) -> Bounds:
        if any(lo > hi for lo, hi in zip(self.min, self.max, strict=True)):
            raise ValueError(f"min {list(self.min)} exceeds max {list(self.max)} on some axis")
        return self

    @property
    def size(self) -> tuple[float, float, float]:
        """Extent along x, y, z."""
        (x0, y0, z0), (x1, y1, z1) = self.min, self.max
        return (x1 - x0, y1 - y0, z1 - z0)

    @property
    def center(self) -> tuple[float, float, float]:
        """Midpoint of the box."""
        (x0, y0, z0), (x1, y1, z1) = self.min, self.max
        return ((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2)


def _check_points_file(value: str) -> str:
    # Plain string checks: this runs for every room and object, and Path objects cost more than the rest of validation.
    if not value or value.startswith("/") or "\\" in value or ".." in value.split("/") or "\0" in value:
        raise ValueError(f"must be a relative path inside the scene directory (got {value!r})")
    if not value.lower().endswith(".ply"):
        raise ValueError(f"must name a .ply file (got {value!r})")
    return value


class _PointsOwner(_Model):
    points_file: str = Field(description="Binary PLY (xyz + rgb), relative to the manifest.")
    point_count: int = Field(ge=0)
    bounds: Bounds

    @field_validator("points_file")
    @classmethod
    def _relative_ply(cls, v: str) -> str:
        return _check_points_file(v)


class SceneObject(_PointsOwner):
    """One object: a code F-R-O and a label such as 'chair'."""

    code: str
    label: str = Field(min_length=1)

    @field_validator("code")
    @classmethod
    def _object_code(cls, v: str) -> str:
        if not CODE_RE.fullmatch(v) or v.count("-") != 2:
            raise ValueError(f"object codes look like F-R-O, e.g. 0-7-12 (got {v!r})")
        return v


class Room(_PointsOwner):
    """One room: a code F-R, a type such as 'bedroom', an optional display name, its objects."""

    code: str
    type: str = Field(min_length=1)
    name: str | None = None
    # When the scan named no type that tells (HOV-SG's "room_6", ScanNet's "Apartment"): `type` was inferred from the
    # room's objects (scene/room_types.py), and this says how sure and from which.
    inferred: RoomTypeGuess | None = None
    objects: list[SceneObject] = Field(default_factory=list)

    @field_validator("code")
    @classmethod
    def _room_code(cls, v: str) -> str:
        if not CODE_RE.fullmatch(v) or v.count("-") != 1:
            raise ValueError(f"room codes look like F-R, e.g. 0-7 (got {v!r})")
        return v

    @model_validator(mode="after")
    def _objects_inside(self) -> Room:
        for obj in self.objects:
            if parent_of(obj.code) != self.code:
                raise ValueError(f"object {obj.code} is listed in room {self.code} but its code does not start with {self.code}-")
        return self

    @property
    def display_name(self) -> str:
        """The name people see: the given name, else the type in words."""
        return self.name or self.type.replace("_", " ")


class Floor(_Model):
    """One floor: a code F, an optional name, its rooms."""

    code: str
    name: str | None = None
    elevation: float = 0.0
    rooms: list[Room] = Field(default_factory=list)

    @field_validator("code")
    @classmethod
    def _floor_code(cls, v: str) -> str:
        if not CODE_RE.fullmatch(v) or "-" in v:
            raise ValueError(f"floor codes are non-negative integers, e.g. 0 (got {v!r})")
        return v

    @model_validator(mode="after")
    def _rooms_inside(self) -> Floor:
        for room in self.rooms:
            if parent_of(room.code) != self.code:
                raise ValueError(f"room {room.code} is listed on floor {self.code} but its code does not start with {self.code}-")
        return self


class SceneManifest(_Model):
    """The whole scene: schema version, id, name, units, up axis, floors."""

    schema_version: Literal[1] = SCHEMA_VERSION
    scene_id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.-]+$")
    name: str = Field(min_length=1)
    units: Literal["meters"] = "meters"
    up_axis: Literal["x", "y", "z"] = "z"
    floors: list[Floor] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_codes(self) -> SceneManifest:
        seen: set[str] = set()
        for floor in self.floors:
            for code in [floor.code] + [r.code for r in floor.rooms] + [o.code for r in floor.rooms for o in r.objects]:
                if code in seen:
                    raise ValueError(f"code {code} appears more than once")
                seen.add(code)
        return self

    def rooms(self) -> list[Room]:
        """Every room on every floor, in manifest order."""
        return [room for floor in self.floors for room in floor.rooms]

    def objects(self) -> list[SceneObject]:
        """Every object in every room, in manifest order."""
        return [obj for room in self.rooms() for obj in room.objects]

    def point_total(self) -> int:
        """Points in all room and object files together."""
        return sum(r.point_count for r in self.rooms()) + sum(o.point_count for o in self.objects())


def _format_loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _format_validation_error(path: Path, err: ValidationError) -> str:
    problems = []
    for item in err.errors(include_url=False):
        msg = item["msg"].removeprefix("Value error, ")
        problems.append(f"{_format_loc(item['loc'])}: {msg}")
    more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
    return f"{path}: {problems[0]}{more}"


def resolve_manifest_path(path: str | os.PathLike[str]) -> Path:
    """Accept a manifest file or the directory holding scene.json."""
    p = Path(path)
    return p / MANIFEST_NAME if p.is_dir() else p


def load_manifest(path: str | os.PathLike[str]) -> SceneManifest:
    """Read and validate a manifest; ManifestError names the file, the JSON path and the problem."""
    p = resolve_manifest_path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ManifestError(f"{p}: no such scene manifest") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(f"{p}: cannot read manifest ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ManifestError(f"{p}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    if isinstance(data, dict) and "schema_version" in data and data["schema_version"] != SCHEMA_VERSION:
        raise ManifestError(
            f"{p}: schema_version: this version of scene-agent reads version {SCHEMA_VERSION}, not {data['schema_version']!r}")
    try:
        return SceneManifest.model_validate(data)
    except ValidationError as exc:
        raise ManifestError(_format_validation_error(p, exc)) from None


def manifest_json(manifest: SceneManifest) -> str:
    """Canonical, deterministic JSON text of a manifest."""
    return json.dumps(manifest.model_dump(mode="json", exclude_none=True), indent=2, ensure_ascii=False) + "\n"
