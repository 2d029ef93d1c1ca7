"""Per-item attributes of a scene — colours, size, place — measured once and cached in attributes.json.

Phrases such as "the red chair", "the biggest wardrobe" or "the plant next to the sofa" need every
room's and object's colours, size and place; measuring them means reading every point file, so it
is done once per scene. `SceneWriter` measures each item as it writes its points; `load_attributes`
measures whatever the cache lacks (a scene built before the cache existed, a point file rewritten
since) and rewrites the file. An entry is trusted only while its point file holds what it was
measured from: the same size and content digest (scene/digest.py), whatever the file's times, so a
copied or unpacked scene keeps its cache. The colours and sizes are those the `color` and `volume`
tools report for the same code.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Final, Literal

import numpy as np
from pydantic import ConfigDict, Field, ValidationError, model_validator

from scene_agent.color.clusters import Cluster, dominant_colors
from scene_agent.color.science import hex_of
from scene_agent.errors import PointFileError
from scene_agent.fileio import NotRegularFileError, read_regular_file, write_atomic
from scene_agent.geometry.points import Points
from scene_agent.model import Model
from scene_agent.scene.digest import DIGEST_PATTERN, DigestMemo, memo_for
from scene_agent.scene.manifest import Bounds, Room, SceneManifest, SceneObject
from scene_agent.scene.pointcloud import load_points

ATTRIBUTES_NAME = "attributes.json"
# 2: entries name their point file's content digest (1 named its modification time, which a copy does not keep).
ATTRIBUTES_VERSION: Final = 2  # Final: its type is then Literal[2], as SceneAttributes.version is
MAX_ATTRIBUTES_BYTES = 64 * 1024 * 1024
MIN_POINTS = 4  # fewer finite points than this span no volume and no footprint: the item is left unmeasured
PROGRESS_EVERY_S = 2.0

logger = logging.getLogger(__name__)

BasicTerm = Literal["black", "white", "gray", "red", "orange", "yellow", "green", "blue", "purple", "pink", "brown"]
ItemKind = Literal["room", "object"]


class _Frozen(Model):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ColorPart(_Frozen):
    """One dominant colour of an item, as the colour tool reports it (largest first)."""

    basic: BasicTerm = Field(description="One of the eleven basic colour terms.")
    name: str = Field(description="Nearest CSS3 colour name, e.g. 'firebrick'.")
    hex: str = Field(pattern=r"^#[0-9a-f]{6}$")
    lab: tuple[float, float, float] = Field(description="CIELAB L*, a*, b* of the colour in full light (0.1).")
    share: float = Field(ge=0.0, le=1.0, description="Fraction of the kept points (1e-4).")
    part: Literal["walls", "floor", "walls and floor"] | None = Field(default=None, description="Rooms: where the colour is.")


class PointSource(_Frozen):
    """The point file an entry was measured from: its path relative to the manifest, its size and content digest."""

    file: str
    size: int = Field(description="Bytes; -1 for a file that could not be read.")
    digest: str = Field(pattern=rf"{DIGEST_PATTERN}|^$", description="xxh3-128 of the file's bytes (hex); empty when unread.")


class ItemAttributes(_Frozen):
    """What phrases about one room or object need: colours, size and place. Lengths in metres, rounded to 1 mm."""

    code: str
    kind: ItemKind
    points: int = Field(ge=0, description="Points in the item's file.")
    colors: list[ColorPart]
    volume_m3: float | None = Field(description="As the volume tool: objects' noise-corrected hull, rooms' floor area × height.")
    extent_m: tuple[float, float, float] | None = Field(description="Oriented box [length, width, height], as the volume tool.")
    upright: bool = Field(description="The oriented box is upright (True when there is no box).")
    floor_area_m2: float | None = None
    height_m: float | None = None
    z_min: float = Field(description="0.5th percentile of the points' z.")
    z_max: float = Field(description="99.5th percentile of the points' z.")
    center: tuple[float, float, float] = Field(description="x, y: centre of the footprint's box; z: midway between z_min and z_max.")
    footprint: list[tuple[float, float]] = Field(description="Convex hull of x, y seen from above, counter-clockwise, ≤ 32 vertices.")
    source: PointSource


class SceneAttributes(_Frozen):
    """The cache file: every room's and object's attributes, by code, in manifest order."""

    version: Literal[2] = ATTRIBUTES_VERSION
    scene_id: str
    items: dict[str, ItemAttributes]

    @model_validator(mode="after")
    def _keys_are_codes(self) -> SceneAttributes:
        for code, item in self.items.items():
            if item.code != code:
                raise ValueError(f"items.{code} holds the attributes of {item.code}")
        return self


def manifest_items(manifest: SceneManifest) -> Iterator[tuple[str, ItemKind, Room | SceneObject]]:
    """(code, kind, entry) of every room followed by its objects, in manifest order."""
    for room in manifest.rooms():
        yield room.code, "room", room
        for obj in room.objects:
            yield obj.code, "object", obj


def point_source(scene_root: Path, points_file: str, memo: DigestMemo | None = None) -> PointSource | None:
    """What a point file holds now (size, content digest; hashed only when the memo does not know it); None when it
    cannot be read."""
    found = (memo or memo_for(scene_root)).digest(points_file)
    return None if found is None else PointSource(file=points_file, size=found.size, digest=found.digest)


def _color_part(c: Cluster) -> ColorPart:
    return ColorPart(basic=c.name.basic, name=c.name.name, hex=hex_of(c.rgb),
                     lab=tuple(round(float(v), 1) + 0.0 for v in c.lab), share=round(c.share, 4), part=c.part)


def _round(v: float | None, digits: int) -> float | None:
    return None if v is None else round(float(v), digits) + 0.0  # + 0.0: never a "-0.0" in the file


def _unmeasured(code: str, kind: ItemKind, count: int, source: PointSource, bounds: Bounds | None) -> ItemAttributes:
    """An item with (almost) no points: no colours, size or footprint; its place from the manifest's bounds."""
    lo, hi = (bounds.min, bounds.max) if bounds is not None else ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    centre = (_round((lo[0] + hi[0]) / 2, 3), _round((lo[1] + hi[1]) / 2, 3), _round((lo[2] + hi[2]) / 2, 3))
    return ItemAttributes(code=code, kind=kind, points=count, colors=[], volume_m3=None, extent_m=None, upright=True,
                          z_min=_round(lo[2], 3), z_max=_round(hi[2], 3), center=centre, footprint=[], source=source)


def measure_item(code: str, kind: ItemKind, points: Points, source: PointSource, bounds: Bounds | None = None) -> ItemAttributes:
    """Measure one room (its shell) or object from its points; `bounds` (the manifest's) place an item with too few points."""
    # Imported here: only measuring needs the geometry (none of it imports scipy at module level; docs/architecture.md).
    from scene_agent.geometry.footprint import footprint
    from scene_agent.geometry.measure import measure_volume

    place = footprint(points.xyz)
    if place is None or np.isfinite(points.xyz).all(axis=1).sum() < MIN_POINTS:
        return _unmeasured(code, kind, len(points), source, bounds)
    room = kind == "room"
    colors = [_color_part(c) for c in dominant_colors(points, structure=room).clusters]
    m = measure_volume(points.xyz, room=room)
    extent = tuple(round(s, 4) + 0.0 for s in m.box.sides()) if m.box is not None else None  # as volume_result rounds
    return ItemAttributes(
        code=code, kind=kind, points=len(points), colors=colors, volume_m3=_round(m.volume_m3, 6), extent_m=extent,
        upright=m.box.upright if m.box is not None else True,
        floor_area_m2=_round(m.floor_area_m2, 3) if room else None, height_m=_round(m.height_m, 4) if room else None,
        z_min=place.z_min, z_max=place.z_max, center=place.center, footprint=list(place.polygon), source=source)


def attributes_json(attributes: SceneAttributes, leave_out: Iterable[str] = ()) -> str:
    """Deterministic JSON text of the cache: fixed key order, one item per line, in manifest order."""
    left_out = set(leave_out)
    rows = [f"    {json.dumps(code)}: {json.dumps(item.model_dump(mode='json'), ensure_ascii=False)}"
            for code, item in attributes.items.items() if code not in left_out]
    body = ",\n".join(rows)
    return (f'{{\n  "version": {attributes.version},\n  "scene_id": {json.dumps(attributes.scene_id, ensure_ascii=False)},\n'
            f'  "items": {{' + (f"\n{body}\n  }}" if rows else "}") + "\n}\n")


def save_attributes(path: Path, attributes: SceneAttributes, leave_out: Iterable[str] = ()) -> None:
    """Write the cache atomically (readable by all, like the scene's other files); OSError when it cannot be written."""
    write_atomic(path, attributes_json(attributes, leave_out).encode("utf-8"), mode=0o644)


def _read_cache(path: Path, scene_id: str) -> dict[str, ItemAttributes]:
    """The entries of an existing cache file; {} (with one warning) when it is missing, unreadable or not this scene's."""
    def stale(why: str) -> dict[str, ItemAttributes]:
        logger.warning("%s: %s; measuring the scene's rooms and objects again", path, why)
        return {}

    try:
        data = read_regular_file(path, MAX_ATTRIBUTES_BYTES)
    except NotRegularFileError as exc:
        return stale(f"{exc.strerror}, not read")
    except OSError as exc:
        return stale(f"cannot be read ({exc.strerror or exc})")
    if data is None:
        return {}
    if len(data) > MAX_ATTRIBUTES_BYTES:
        return stale(f"larger than {MAX_ATTRIBUTES_BYTES // (1024 * 1024)} MiB")
    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return stale(f"not valid JSON ({exc})")
    found = raw.get("version") if isinstance(raw, dict) else None
    if found in range(1, ATTRIBUTES_VERSION):  # written by an earlier scene-agent: expected once after an upgrade
        logger.info("%s: version %s; measuring the scene's rooms and objects again for version %s", path, found, ATTRIBUTES_VERSION)
        return {}
    if not isinstance(raw, dict) or found != ATTRIBUTES_VERSION:
        return stale(f"version {found!r}; this scene-agent reads version {ATTRIBUTES_VERSION}")
    try:
        cache = SceneAttributes.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        return stale(f"{'.'.join(map(str, first['loc'])) or '(top level)'}: {first['msg']}")
    if cache.scene_id != scene_id:
        return stale(f"holds the attributes of scene {cache.scene_id!r}, not {scene_id!r}")
    return cache.items


_EMPTY = Points(xyz=np.zeros((0, 3)), rgb=np.zeros((0, 3), dtype=np.uint8))
_Todo = tuple[str, ItemKind, Room | SceneObject, PointSource | None]


def _measure_all(scene_root: Path, todo: list[_Todo], progress: Callable[[str], None]) -> tuple[dict[str, ItemAttributes], set[str]]:
    """Measure the items whose cache entries are missing or stale; (attributes, codes whose points could not be read)."""
    measured: dict[str, ItemAttributes] = {}
    failed: set[str] = set()
    start = last = time.monotonic()
    for done, (code, kind, entry, source) in enumerate(todo, start=1):
        try:
            if source is None:
                raise PointFileError(f"{scene_root / entry.points_file}: point file is missing or cannot be read")
            points = load_points(scene_root / entry.points_file)
        except PointFileError as exc:
            # Not cached: the next load tries again (and warns again) until the file is fixed.
            logger.warning("%s; %s %s is left without colours, size or footprint", exc, kind, code)
            failed.add(code)
            measured[code] = _unmeasured(code, kind, 0, source or PointSource(file=entry.points_file, size=-1, digest=""),
                                         entry.bounds)
            continue
        measured[code] = measure_item(code, kind, points, source, entry.bounds)
        now = time.monotonic()
        if now - last >= PROGRESS_EVERY_S and done < len(todo):
            progress(f"  … {done} of {len(todo)} measured ({now - start:.0f} s)")
            last = now
    progress(f"Measured {len(todo)} rooms and objects in {time.monotonic() - start:.1f} s.")
    return measured, failed


def _announce(todo: int, total: int, scene_id: str) -> str:
    if todo == total:
        what = "1 room or object" if total == 1 else f"{total} rooms and objects"
        return f"Measuring {what} of scene '{scene_id}' once (colours, sizes, places) …"
    return f"Measuring {todo} of {total} rooms and objects of scene '{scene_id}' (new or changed point files; colours, sizes, places) …"


def load_attributes(scene_root: Path, manifest: SceneManifest, progress: Callable[[str], None] | None = None) -> SceneAttributes:
    """The scene's attributes: cached entries whose point files are unchanged, the rest measured now and cached.

    `progress` gets a line before measuring starts, now and then while it runs, and one when it
    is done; nothing when the cache is complete. A directory that cannot be written costs one
    warning: the attributes are then kept by the caller only.
    """
    scene_root = Path(scene_root)
    path = scene_root / ATTRIBUTES_NAME
    cached = _read_cache(path, manifest.scene_id)
    wanted = list(manifest_items(manifest))
    items: dict[str, ItemAttributes] = {}
    todo: list[_Todo] = []
    memo = memo_for(scene_root)
    for code, kind, entry in wanted:
        # Digested before it is measured: a file rewritten meanwhile then fails the check next time, never passes it.
        source = point_source(scene_root, entry.points_file, memo)
        hit = cached.get(code)
        if hit is not None and source is not None and hit.kind == kind and hit.source == source:
            items[code] = hit
        else:
            todo.append((code, kind, entry, source))
    memo.save()
    failed: set[str] = set()
    if todo:
        say = progress or (lambda line: None)
        say(_announce(len(todo), len(wanted), manifest.scene_id))
        measured, failed = _measure_all(scene_root, todo, say)
        items.update(measured)
    result = SceneAttributes(scene_id=manifest.scene_id, items={code: items[code] for code, _, _ in wanted})
    if todo or list(cached) != list(result.items):
        try:
            save_attributes(path, result, leave_out=failed)
        except OSError as exc:
            logger.warning("%s: cannot be written (%s); the attributes are kept in memory only", path, exc.strerror or exc)
    return result
