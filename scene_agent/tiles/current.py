"""The tiles of a served scene, kept in memory: read once, checked cheaply on every request, rebuilt when stale.

`ensure_tiles` (store.py) answers from disk: it stats every point file for the source digest and parses the index,
about 10 ms on the demo block (1,365 point files), which on every tile request was nearly all of its cost.
`CurrentTiles` keeps the build it serves in memory (the parsed index, its exact bytes, each node's point count) and

- stats `tiles/index.json` on every request: a build by any process replaces the directory and so the file's
  stamp (store.py, `FileStamp`), and the tiles are then looked at again at once;
- recomputes the source digest, one stat per point file, at most once per `recheck_s`: a changed point file is
  noticed within that time, and the tiles are rebuilt before anything more is served;
- checks the stamp again after reading a tile (`read_tile`), so a tile read while the directory was being replaced
  is never served under the index or ETag of another build.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from scene_agent.errors import PointFileError
from scene_agent.scene.manifest import SceneManifest
from scene_agent.tiles.build import TileParams
from scene_agent.tiles.layout import tile_size
from scene_agent.tiles.source import manifest_digest, source_digest
from scene_agent.tiles.store import TILES_DIR, TilesState, ensure_tiles, index_stamp

RECHECK_S = 1.0  # how stale the served tiles may be after a point file changed, at most


@dataclass(frozen=True)
class ServedTiles:
    """One build of the tiles as served: its state (index, index bytes, index file's stamp) and each node's points."""

    state: TilesState
    node_points: dict[str, int] = field(repr=False)

    @classmethod
    def of(cls, state: TilesState) -> ServedTiles:
        """The build `state` describes, with its nodes looked up once."""
        return cls(state, {node["name"]: int(node["points"]) for node in state.index["nodes"]})

    @property
    def digest(self) -> str:
        """The source digest the build was made from (the ETags name it)."""
        return self.state.source_digest


class CurrentTiles:
    """The tiles of one loaded scene as a server serves them: `served()` for the build now, `read_tile` for a tile."""

    def __init__(self, scene_root: Path, manifest: SceneManifest, params: TileParams | None = None, *,
                 recheck_s: float = RECHECK_S, clock: Callable[[], float] = time.monotonic):
        self.scene_root = Path(scene_root)
        self.manifest = manifest
        self.params = params or TileParams()
        self.recheck_s = recheck_s
        self._clock = clock
        self._directory = self.scene_root / TILES_DIR
        # One check or build at a time; it guards _served_and_checked and _manifest_sha. The pair is replaced whole,
        # so the fast path in served() may read it without the lock.
        self._check_lock = threading.Lock()
        self._served_and_checked: tuple[ServedTiles | None, float] = (None, 0.0)
        self._manifest_sha: str | None = None  # the loaded manifest never changes: its digest is computed once

    def served(self) -> ServedTiles:
        """The build to serve now: the one in memory while its index file is in place and the scene unchanged (the
        latter looked at once per `recheck_s`), else the tiles on disk, or a new build (this call waits for it)."""
        served, checked_at = self._served_and_checked
        if (served is not None and self._clock() - checked_at < self.recheck_s
                and index_stamp(self._directory) == served.state.index_stamp):
            return served
        with self._check_lock:
            served, checked_at = self._served_and_checked  # another thread may have checked while this one waited
            now = self._clock()
            if (served is not None and index_stamp(self._directory) == served.state.index_stamp
                    and (now - checked_at < self.recheck_s or self._digest_now() == served.digest)):
                self._served_and_checked = (served, now)
                return served
            state = ensure_tiles(self.scene_root, self.manifest, self.params, manifest_sha=self._manifest_digest())
            if served is None or state.index_stamp != served.state.index_stamp:
                served = ServedTiles.of(state)
            self._served_and_checked = (served, now)
            return served

    def read_tile(self, served: ServedTiles, name: str) -> bytes | None:
        """The bytes of tile `name` (a node `served` lists) of that build; None when the tiles were replaced while
        it was read, or were found damaged (missing or cut short) and built again: ask `served()` again.
        PointFileError when the build's own file cannot be read for another reason."""
        try:
            data = (served.state.directory / f"{name}.bin").read_bytes()
        except FileNotFoundError:
            data = b""
        except OSError as exc:
            if self.still_in_place(served):
                raise PointFileError(f"tile {name} of the tiles in {served.state.directory}: {exc.strerror or exc}") from None
            return None
        if not self.still_in_place(served):
            return None
        if len(data) != tile_size(served.node_points[name]):
            self._rebuild(served)  # never served: a tile that does not match its index
            return None
        return data

    def _rebuild(self, damaged: ServedTiles) -> None:
        """Build the tiles again: `damaged` lists a tile its directory does not hold whole."""
        with self._check_lock:
            served, _ = self._served_and_checked
            if served is not None and served.state.index_stamp != damaged.state.index_stamp:
                return  # rebuilt by another request meanwhile
            state = ensure_tiles(self.scene_root, self.manifest, self.params, manifest_sha=self._manifest_digest(),
                                 damaged=damaged.state.index_stamp)
            self._served_and_checked = (ServedTiles.of(state), self._clock())

    def still_in_place(self, served: ServedTiles) -> bool:
        """Whether `tiles/` is still the directory of that build (one stat)."""
        return index_stamp(self._directory) == served.state.index_stamp

    def _manifest_digest(self) -> str:
        if self._manifest_sha is None:  # under _check_lock
            self._manifest_sha = manifest_digest(self.manifest)
        return self._manifest_sha

    def _digest_now(self) -> str:
        return source_digest(self.scene_root, self.manifest, self.params.as_dict(), self._manifest_digest())
