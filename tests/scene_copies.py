"""What users do to a scene directory: copy it without its file times, archive and unpack it, rewrite a point file in place."""

from __future__ import annotations

import os
import shutil
import tarfile
from pathlib import Path

import numpy as np
from eventually import eventually

from scene_agent.geometry.points import Points
from scene_agent.scene.ply import write_points
from scene_agent.scene.pointcloud import load_points

LONG_AGO_NS = 1_000_000_000 * 1_000_000_000  # 2001-09-09: file times no fresh copy can have


def point_files(root: Path) -> list[Path]:
    """The scene's point files, by name."""
    return sorted((root / "points").glob("*.ply"))


def copy_without_times(src: Path, dst: Path) -> Path:
    """`cp -r` without -p (or rsync without -t, a checkout): the same bytes in new files with new times.

    The originals are dated long ago first, so that no copied file can carry its original's time by chance."""
    for path in src.rglob("*"):
        if path.is_file():
            os.utime(path, ns=(LONG_AGO_NS, LONG_AGO_NS))
    shutil.copytree(src, dst, copy_function=shutil.copyfile)
    assert all(p.stat().st_mtime_ns != LONG_AGO_NS for p in point_files(dst))
    return dst


def tar_round_trip(src: Path, archive: Path, dst: Path) -> Path:
    """Archive the scene and unpack it elsewhere; the archive records no file times (as reproducible archives do not)."""
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(src, arcname=dst.name, filter=lambda info: info.replace(mtime=0, deep=False))
    with tarfile.open(archive) as tar:
        tar.extractall(dst.parent, filter="data")
    assert all(p.stat().st_mtime_ns == 0 for p in point_files(dst)) and point_files(dst)
    return dst


def _file_clock_past(path: Path) -> None:
    """Wait until the file system's clock has moved past `path`'s change time, so that a change now gives it another
    change time (on a file system whose timestamps are coarse, two changes within one tick share one)."""
    probe = path.with_name(f".{path.name}.clock")
    probe.touch()
    changed = path.stat().st_ctime_ns

    def moved() -> bool:
        os.utime(probe)
        return probe.stat().st_ctime_ns > changed

    eventually(moved, "the file system's clock ticks", timeout=10)
    probe.unlink()


def recolour_in_place(path: Path) -> Points:
    """Rewrite a point file in place (same inode) with other colours: the same size, and its times set back as they
    were. Returns the points it now holds."""
    old = load_points(path)
    new = Points(xyz=old.xyz, rgb=(255 - old.rgb).astype(np.uint8))
    staged = path.with_name(f".{path.name}.new")
    write_points(staged, new)
    data = staged.read_bytes()
    staged.unlink()
    before = path.stat()
    assert len(data) == before.st_size and data != path.read_bytes()
    _file_clock_past(path)
    with path.open("r+b") as fh:
        fh.write(data)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (before.st_ino, before.st_size, before.st_mtime_ns)
    return new
