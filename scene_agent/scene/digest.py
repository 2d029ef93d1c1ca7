"""Content digests of point files, and the local memo that spares hashing an unchanged file twice.

The caches that travel with a scene (attributes.json, tiles/index.json) record what each point file holds — its size
and the xxh3-128 digest of its bytes — never its file times, so a scene that is copied, moved, unpacked or checked
out keeps its caches (docs/scene-attributes.md, "Content digests").

Hashing runs at gigabytes a second, yet a scene of gigabytes should not be read whole at every start. So each digest
is remembered by the version of the file it was computed from: device, inode, size, modification and change time
(fileio.FileVersion). Rewriting a file changes its change time, which nothing can set back, so a remembered digest is
used only while its file is untouched. The memo is kept in memory for the process and, for the next process, in a
small file per scene directory under the user's cache directory, never in the scene: it names inodes, which a copy
does not keep. A copy misses it, is hashed once, and matches what its caches recorded.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

import xxhash
from pydantic import ConfigDict, Field, ValidationError

from scene_agent.fileio import FileVersion, ensure_private_dir, read_regular_file, sweep_temp_files, version_of, write_atomic
from scene_agent.model import Model

DIGEST_PATTERN: Final = r"^[0-9a-f]{32}$"  # xxh3-128, as hex
CHUNK = 8 * 1024 * 1024
# A digest is remembered only for a file last changed this long before hashing began. A file changed again within
# the same tick of the file system's clock (coarse on some, 2 s on FAT) could otherwise keep its version; one changed
# after hashing began gets a later change time than any remembered one.
SETTLED_NS = 2_000_000_000
MEMO_VERSION: Final = 1
MAX_MEMO_BYTES = 16 * 1024 * 1024
MEMO_MAX_AGE_S = 30 * 86400  # a memo file not rewritten for this long is removed (its scene may be long gone)

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class FileDigest:
    """What a point file holds, as the caches record it: its size in bytes and the xxh3-128 digest of its bytes."""

    size: int
    digest: str


def hash_file(path: Path) -> tuple[FileDigest, FileVersion | None] | None:
    """The digest of a file's bytes, and the version it had throughout the read (None when it changed meanwhile);
    None when there is no readable regular file."""
    try:
        # O_NONBLOCK: a FIFO planted at the path must not hang the open; a regular file ignores the flag.
        with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb", buffering=0) as fh:
            before = os.fstat(fh.fileno())
            if not stat.S_ISREG(before.st_mode):
                return None
            h = xxhash.xxh3_128()
            buf = bytearray(max(1, min(CHUNK, before.st_size)))  # most point files are far smaller than a chunk
            view = memoryview(buf)
            size = 0
            while n := fh.readinto(buf):
                h.update(view[:n])
                size += n
            after = os.fstat(fh.fileno())
    except OSError:
        return None
    same = version_of(before) == version_of(after) and size == after.st_size
    return FileDigest(size=size, digest=h.hexdigest()), version_of(after) if same else None


class _MemoFile(Model):
    """The memo file of one scene directory: per point file (relative path), its version and digest."""

    model_config = ConfigDict(extra="forbid")

    version: Literal[1]
    root: str
    files: dict[str, tuple[int, int, int, int, int, str]] = Field(description="dev, ino, size, mtime_ns, ctime_ns, digest")


class DigestMemo:
    """The digests of one scene directory's point files, each remembered by the version of the file it came from."""

    def __init__(self, root: Path, memo_file: Path | None, clock: Callable[[], int] = time.time_ns):
        self.root = root
        self.memo_file = memo_file
        self._clock = clock
        self._lock = threading.Lock()
        self._known: dict[str, tuple[FileVersion, FileDigest]] | None = None  # read from memo_file on first use
        self._dirty = False
        self.hashed = 0  # files this memo had to hash: what its misses cost (the tests read it)

    def digest(self, points_file: str) -> FileDigest | None:
        """Size and digest of the point file at `points_file` (relative to the root) now; None when it cannot be read."""
        try:
            version = version_of(os.stat(self.root / points_file))
        except OSError:
            return None
        with self._lock:
            known = self._load()
            hit = known.get(points_file)
        if hit is not None and hit[0] == version:
            return hit[1]
        started = self._clock()
        hashed = hash_file(self.root / points_file)
        if hashed is None:
            return None
        found, read_version = hashed
        with self._lock:
            self.hashed += 1
            if read_version is not None and read_version[4] < started - SETTLED_NS:
                self._load()[points_file] = (read_version, found)
                self._dirty = True
        return found

    def save(self) -> None:
        """Keep what was learnt for the next process (nothing when nothing was; a memo that cannot be written is let go)."""
        with self._lock:
            if not self._dirty or self.memo_file is None or self._known is None:
                return
            self._dirty = False
            files = {name: (*version, found.digest) for name, (version, found) in sorted(self._known.items())}
        memo = _MemoFile(version=MEMO_VERSION, root=str(self.root), files=files)
        try:
            ensure_private_dir(self.memo_file.parent)
            write_atomic(self.memo_file, memo.model_dump_json().encode("utf-8"))
        except OSError as exc:
            logger.debug("%s: digest memo not written (%s)", self.memo_file, exc)
            return
        _sweep(self.memo_file.parent, self._clock() / 1e9 - MEMO_MAX_AGE_S)

    def _load(self) -> dict[str, tuple[FileVersion, FileDigest]]:
        """The memo (under the lock): read from the memo file once, empty when it is missing or not valid."""
        if self._known is None:
            self._known = {}
            memo = _read_memo(self.memo_file) if self.memo_file is not None else None
            if memo is not None and memo.root == str(self.root):
                self._known = {name: ((dev, ino, size, mtime, ctime), FileDigest(size=size, digest=digest))
                               for name, (dev, ino, size, mtime, ctime, digest) in memo.files.items()}
        return self._known


def _read_memo(path: Path) -> _MemoFile | None:
    try:
        data = read_regular_file(path, MAX_MEMO_BYTES)
        return None if data is None else _MemoFile.model_validate(json.loads(data))
    except (OSError, ValueError, ValidationError) as exc:  # a memo only spares work: one that cannot be used is ignored
        logger.debug("%s: digest memo ignored (%s)", path, exc)
        return None


def _sweep(directory: Path, cutoff_s: float) -> None:
    """Remove memo files not rewritten since `cutoff_s` (seconds since the epoch), and temp files a crash left."""
    sweep_temp_files(directory, older_than_s=86400)
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        try:
            if entry.name.endswith(".json") and entry.is_file(follow_symlinks=False) and entry.stat().st_mtime < cutoff_s:
                os.unlink(entry.path)
        except OSError:
            continue


_memos: dict[Path, DigestMemo] = {}
_memos_lock = threading.Lock()


def memo_for(scene_root: Path) -> DigestMemo:
    """The process' digest memo of a scene directory, its memo file under the user's cache directory (config.py)."""
    from scene_agent.config import load_cache_dir

    root = Path(os.path.realpath(scene_root))
    with _memos_lock:
        memo = _memos.get(root)
        if memo is None:
            cache = load_cache_dir()
            name = hashlib.sha256(os.fsencode(root)).hexdigest()[:32] + ".json"
            memo = _memos[root] = DigestMemo(root, cache / "point-digests" / name if cache is not None else None)
        return memo
