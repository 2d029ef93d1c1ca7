"""What the tiles are built from: the scene's point files, read one at a time, each point tagged with its item id.

The item table lists every room followed by its objects, in manifest order (as scene/attributes.py walks them); a
point's item id is the index of its room's or object's code in that table. The source digest covers the manifest
(its canonical text), every point file's size and content digest (scene/digest.py: never file times, so a copied or
unpacked scene keeps its tiles), and the builder's parameters: tiles are trusted only while it is unchanged.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt

from scene_agent.errors import PointFileError
from scene_agent.scene.attributes import manifest_items
from scene_agent.scene.digest import memo_for
from scene_agent.scene.manifest import SceneManifest, manifest_json
from scene_agent.scene.ply import check_ply_complete, points_from_vertices, read_ply_vertices
from scene_agent.tiles.layout import RECORD, TILE_VERSION


def item_table(manifest: SceneManifest) -> list[tuple[str, str]]:
    """(code, points file) of every room and object, in the order of their item ids."""
    return [(code, entry.points_file) for code, _, entry in manifest_items(manifest)]


def manifest_digest(manifest: SceneManifest) -> str:
    """sha256 of the manifest's canonical text (computed once per loaded manifest by the callers that repeat it)."""
    return hashlib.sha256(manifest_json(manifest).encode("utf-8")).hexdigest()


def source_digest(scene_root: Path, manifest: SceneManifest, params: dict[str, int], manifest_sha: str | None = None) -> str:
    """The fingerprint the tiles were built from: manifest, point files' sizes and content digests, parameters, format.

    One stat per point file while the process' digest memo knows it; a file it does not know (a copy, a change) is
    hashed once."""
    h = hashlib.sha256()
    h.update(json.dumps({"tile_version": TILE_VERSION, "params": params, "points": "xxh3-128",
                         "manifest": manifest_sha or manifest_digest(manifest)}, sort_keys=True).encode())
    memo = memo_for(scene_root)
    for _, points_file in item_table(manifest):
        found = memo.digest(points_file)
        h.update((f"\n{points_file}\0missing" if found is None else f"\n{points_file}\0{found.size}\0{found.digest}").encode())
    memo.save()
    return h.hexdigest()


def read_records(path: Path, item: int) -> tuple[npt.NDArray[np.void], int]:
    """The finite points of one point file as RECORD rows with item id `item`, and how many were left out (not finite)."""
    if not path.is_file():
        raise PointFileError(f"{path}: point file is missing")
    check_ply_complete(path)
    points = points_from_vertices(read_ply_vertices(path))
    finite = np.isfinite(points.xyz).all(axis=1)
    out = np.empty(int(finite.sum()), dtype=RECORD)
    out["xyz"] = points.xyz[finite].astype(np.float32)
    out["rgb"] = points.rgb[finite]
    out["item"] = item
    return out, len(points) - len(out)


def scene_records(scene_root: Path, manifest: SceneManifest) -> Iterator[tuple[npt.NDArray[np.void], int]]:
    """(records, non-finite points dropped) per point file, in item-id order; one file in memory at a time."""
    for item, (_, points_file) in enumerate(item_table(manifest)):
        yield read_records(scene_root / points_file, item)

