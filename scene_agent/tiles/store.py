"""The tiles directory beside a manifest: built once, trusted while its source digest matches, replaced whole.

A build writes into a hidden sibling directory and renames it to `tiles/` only when every tile and the index are
written, so a crash never leaves a half-built index. A leftover staging directory is removed by a later build once
it is a day old: a younger one may be another process' build still being written.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scene_agent.errors import SceneAgentError
from scene_agent.scene.manifest import SceneManifest
from scene_agent.tiles.build import BuildResult, TileParams, build_octree
from scene_agent.tiles.layout import MEDIA_TYPE, TILE_VERSION
from scene_agent.tiles.source import item_table, source_digest

TILES_DIR = "tiles"
INDEX_NAME = "index.json"
INDEX_FORMAT = "scene-agent-tiles"
MAX_INDEX_BYTES = 64 * 1024 * 1024
_STAGING_PREFIX = f".{TILES_DIR}.staging-"
_build_lock = threading.Lock()  # one build at a time in a process (the API server's threads)


# Which index file a state was read from: (device, inode, size, mtime in ns). A build writes a new file in a new
# directory, so the stamp of `tiles/index.json` changes whenever the directory is replaced, by any process.
FileStamp = tuple[int, int, int, int]


def _stamp(st: os.stat_result) -> FileStamp:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def index_stamp(directory: Path) -> FileStamp | None:
    """The stamp of the index in `directory` now (one stat), or None when there is none."""
    try:
        return _stamp(os.stat(directory / INDEX_NAME))
    except OSError:
        return None


@dataclass(frozen=True)
class StoredIndex:
    """An index as read from its file: parsed, its exact bytes, and the stamp of that very file."""

    index: dict[str, Any]
    text: bytes
    stamp: FileStamp


@dataclass(frozen=True)
class TilesState:
    """The tiles of a scene: their index (parsed, as stored, the file's stamp), and what the last call did (built
    or found current, how long, how big)."""

    directory: Path
    index: dict[str, Any]
    built: bool
    seconds: float
    index_text: bytes
    index_stamp: FileStamp

    @property
    def source_digest(self) -> str:
        """The digest of the scene the tiles were built from."""
        return str(self.index["source_digest"])

    @property
    def tile_count(self) -> int:
        """Nodes, one tile file each."""
        return len(self.index["nodes"])

    @property
    def tile_bytes(self) -> int:
        """Bytes of all tile files together (the index's own record)."""
        return int(self.index["tile_bytes"])

    @property
    def depth(self) -> int:
        """Levels below the root."""
        return int(self.index["depth"])


def read_index(directory: Path) -> StoredIndex | None:
    """The index in `directory`, or None when it is missing, unreadable or not one of ours."""
    try:
        with (directory / INDEX_NAME).open("rb") as fh:
            stamp = _stamp(os.fstat(fh.fileno()))  # of the file read, even if the directory is replaced meanwhile
            data = fh.read(MAX_INDEX_BYTES + 1)
        raw = json.loads(data.decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    if not isinstance(raw, dict) or raw.get("format") != INDEX_FORMAT or raw.get("version") != TILE_VERSION:
        return None
    return StoredIndex(raw, data, stamp)


def _write_index(directory: Path, index: dict[str, Any]) -> StoredIndex:
    text = (json.dumps(index, indent=1) + "\n").encode("utf-8")
    with (directory / INDEX_NAME).open("wb") as fh:
        fh.write(text)
        fh.flush()
        stamp = _stamp(os.fstat(fh.fileno()))  # renaming the directory later changes nothing of the file's stamp
    return StoredIndex(index, text, stamp)


def _index(manifest: SceneManifest, digest: str, params: TileParams, result: BuildResult) -> dict[str, Any]:
    depth = max(len(n.name) - 1 for n in result.nodes)
    return {
        "format": INDEX_FORMAT, "version": TILE_VERSION, "scene_id": manifest.scene_id, "source_digest": digest,
        "media_type": MEDIA_TYPE, **params.as_dict(), "points": result.points, "skipped_points": result.skipped,
        "bounds": {"min": list(result.bounds[0]), "max": list(result.bounds[1])},
        "cube": {"min": list(result.cube.min), "side": result.cube.side},
        "depth": depth, "spacing": [result.cube.side / 2 ** level / params.grid for level in range(depth + 1)],
        "tile_bytes": result.bytes,
        "items": [code for code, _ in item_table(manifest)],
        "nodes": [{"name": n.name, "points": n.points, "children": n.children} for n in result.nodes],
    }


def _sweep_staging(scene_root: Path) -> None:
    """Staging and replaced directories a crashed build left behind, once a day old (a younger one may be another
    process' build still being written)."""
    cutoff = time.time() - 86400
    for entry in scene_root.glob(f".{TILES_DIR}.*"):
        if entry.is_dir() and not entry.is_symlink() and entry.stat().st_mtime < cutoff:
            shutil.rmtree(entry, ignore_errors=True)


def _place(staging: Path, target: Path) -> None:
    old = None
    if target.exists() or target.is_symlink():
        old = target.with_name(f".{TILES_DIR}.old-{os.getpid()}-{threading.get_ident()}")
        os.replace(target, old)
    os.replace(staging, target)
    if old is not None:
        if old.is_dir() and not old.is_symlink():
            shutil.rmtree(old, ignore_errors=True)
        else:
            old.unlink()


def ensure_tiles(scene_root: Path, manifest: SceneManifest, params: TileParams | None = None, *,
                 manifest_sha: str | None = None, progress: Callable[[str], None] | None = None,
                 damaged: FileStamp | None = None) -> TilesState:
    """The scene's tiles: the cached ones when their digest matches the scene now, else built and put in place.

    `damaged`: the stamp of an index whose tiles were found broken (a tile missing or cut short): those are built
    again even though their digest matches, unless another build has replaced them meanwhile.
    """
    params = params or TileParams()
    scene_root = Path(scene_root)
    target = scene_root / TILES_DIR
    digest = source_digest(scene_root, manifest, params.as_dict(), manifest_sha)
    def usable(stored: StoredIndex | None) -> bool:
        return stored is not None and stored.index.get("source_digest") == digest and stored.stamp != damaged

    stored = read_index(target)
    if stored is not None and usable(stored):
        return _state(target, stored, built=False, seconds=0.0)
    with _build_lock:
        stored = read_index(target)  # another thread may have built them meanwhile
        if stored is not None and usable(stored):
            return _state(target, stored, built=False, seconds=0.0)
        say = progress or (lambda line: sys.stderr.write(line + "\n"))
        say(f"Building the level-of-detail tiles of scene '{manifest.scene_id}' ({manifest.point_total():,} points) once …")
        started = time.perf_counter()
        _sweep_staging(scene_root)
        try:
            staging = Path(tempfile.mkdtemp(prefix=_STAGING_PREFIX, dir=scene_root))
        except OSError as exc:
            raise SceneAgentError(f"{scene_root}: cannot write the tiles there ({exc.strerror or exc})") from None
        try:
            result = build_octree(scene_root, manifest, staging, params)
            stored = _write_index(staging, _index(manifest, digest, params, result))
            os.chmod(staging, 0o755)  # mkdtemp makes 0700; tiles are shareable like the scene's other files
            _place(staging, target)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        seconds = time.perf_counter() - started
        index = stored.index
        say(f"Built {len(index['nodes'])} tiles ({index['tile_bytes']:,} bytes, depth {index['depth']}) in {seconds:.1f} s.")
        return _state(target, stored, built=True, seconds=seconds)


def _state(directory: Path, stored: StoredIndex, *, built: bool, seconds: float) -> TilesState:
    return TilesState(directory, stored.index, built=built, seconds=seconds, index_text=stored.text, index_stamp=stored.stamp)
