"""Write a scene directory (manifest, point files, attributes cache) all at once or not at all."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from types import TracebackType

import numpy as np

from scene_agent.errors import SceneAgentError
from scene_agent.geometry.points import Points
from scene_agent.scene.attributes import (
    ATTRIBUTES_NAME,
    ItemAttributes,
    PointSource,
    SceneAttributes,
    manifest_items,
    measure_item,
    save_attributes,
)
from scene_agent.scene.codes import is_code, kind_of
from scene_agent.scene.digest import hash_file
from scene_agent.scene.manifest import MANIFEST_NAME, Bounds, SceneManifest, manifest_json
from scene_agent.scene.ply import write_points

POINTS_DIR = "points"


class SceneWriter:
    """Stage a scene in a hidden sibling directory, then move it into place in one rename.

    Used as a context manager: an exception inside the block removes everything staged, so a
    failed import or build never leaves a partial output directory behind.
    """

    def __init__(self, out_dir: str | os.PathLike[str], overwrite: bool = False):
        self.out_dir = Path(out_dir).absolute()
        self.overwrite = overwrite
        self._check_target()
        self.out_dir.parent.mkdir(parents=True, exist_ok=True)
        self.staging = Path(tempfile.mkdtemp(prefix=f".{self.out_dir.name}.staging-", dir=self.out_dir.parent))
        (self.staging / POINTS_DIR).mkdir()
        self._finished = False
        self._measured: dict[str, ItemAttributes] = {}

    def _check_target(self) -> None:
        out = self.out_dir
        if out.is_symlink() or (out.exists() and not out.is_dir()):
            raise SceneAgentError(f"{out}: exists and is not a directory")
        if out.is_dir() and any(out.iterdir()):
            if not self.overwrite:
                raise SceneAgentError(f"{out}: directory is not empty (choose another --out, or remove it first)")
            if not (out / MANIFEST_NAME).is_file():
                raise SceneAgentError(f"{out}: will not replace a non-empty directory that holds no {MANIFEST_NAME}")

    def add_points(self, code: str, points: Points) -> tuple[str, int, Bounds]:
        """Write one point file and measure its item's attributes; returns (relative path, point count, bounds) for the manifest."""
        rel = f"{POINTS_DIR}/{code}.ply"
        write_points(self.staging / rel, points)
        lo, hi = points.bounds()
        bounds = Bounds(min=tuple(lo), max=tuple(hi))
        kind = kind_of(code) if is_code(code) else None
        if kind in ("room", "object"):
            # The digest of the file as written (read back while it is still in the page cache): what a load checks.
            hashed = hash_file(self.staging / rel)
            if hashed is None:
                raise SceneAgentError(f"{self.staging / rel}: the point file just written cannot be read back")
            # Measured as the file holds them (float32), so the numbers are those the tools get from the file.
            stored = Points(xyz=np.asarray(points.xyz, dtype=np.float32).astype(np.float64), rgb=points.rgb)
            source = PointSource(file=rel, size=hashed[0].size, digest=hashed[0].digest)
            self._measured[code] = measure_item(code, kind, stored, source, bounds)
        return rel, len(points), bounds

    def finish(self, manifest: SceneManifest) -> Path:
        """Write the attributes cache and the manifest, then move the staged scene to its final place."""
        # Only items the manifest lists, measured from the file it names; anything else is measured on first use.
        items = {code: self._measured[code] for code, kind, entry in manifest_items(manifest)
                 if code in self._measured and self._measured[code].kind == kind
                 and self._measured[code].source.file == entry.points_file}
        save_attributes(self.staging / ATTRIBUTES_NAME, SceneAttributes(scene_id=manifest.scene_id, items=items))
        (self.staging / MANIFEST_NAME).write_text(manifest_json(manifest), encoding="utf-8")
        os.chmod(self.staging, 0o755)
        old = None
        if self.out_dir.exists():
            old = self.out_dir.with_name(f".{self.out_dir.name}.old-{os.getpid()}")
            os.replace(self.out_dir, old)
        os.replace(self.staging, self.out_dir)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        self._finished = True
        return self.out_dir / MANIFEST_NAME

    def abort(self) -> None:
        """Remove everything staged."""
        shutil.rmtree(self.staging, ignore_errors=True)

    def __enter__(self) -> SceneWriter:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if not self._finished:
            self.abort()
