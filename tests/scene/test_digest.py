"""Point files' content digests, and the memo that spares hashing a file the memo has seen unchanged."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import xxhash
from scene_copies import copy_without_times, point_files

from scene_agent.scene.digest import SETTLED_NS, DigestMemo, FileDigest, hash_file, memo_for

HOUR_NS = 3600 * 1_000_000_000


@pytest.fixture
def scene_dir(small_scene_path: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(small_scene_path.parent, tmp_path / "scene"))


def _later(scene_dir: Path) -> int:
    """A clock an hour past the newest change of the scene's files: every file has settled by it."""
    return max(p.stat().st_ctime_ns for p in point_files(scene_dir)) + HOUR_NS


def _names(scene_dir: Path) -> list[str]:
    return [str(p.relative_to(scene_dir)) for p in point_files(scene_dir)]


def test_the_digest_is_xxh3_128_of_the_bytes(scene_dir: Path) -> None:
    path = point_files(scene_dir)[0]
    found, version = hash_file(path)
    assert found == FileDigest(size=path.stat().st_size, digest=xxhash.xxh3_128_hexdigest(path.read_bytes()))
    assert version is not None and version[1] == path.stat().st_ino
    assert hash_file(scene_dir / "points" / "none.ply") is None
    assert hash_file(scene_dir / "points") is None, "a directory is no point file"
    os.mkfifo(scene_dir / "points" / "fifo.ply")
    assert hash_file(scene_dir / "points" / "fifo.ply") is None, "nor a FIFO (and opening it does not wait for a writer)"


def test_a_settled_file_is_hashed_once_and_remembered_for_the_next_process(scene_dir: Path, tmp_path: Path) -> None:
    memo_file = tmp_path / "cache" / "memo.json"
    later = _later(scene_dir)
    first = DigestMemo(scene_dir, memo_file, clock=lambda: later)
    digests = [first.digest(name) for name in _names(scene_dir)]
    assert first.hashed == len(digests) and None not in digests
    assert [first.digest(name) for name in _names(scene_dir)] == digests and first.hashed == len(digests)
    first.save()
    assert memo_file.stat().st_mode & 0o777 == 0o600 and str(scene_dir) in memo_file.read_text()
    assert memo_file.parent.stat().st_mode & 0o777 == 0o700, "it names the user's files: the user's own"
    next_process = DigestMemo(scene_dir, memo_file, clock=lambda: later)
    assert [next_process.digest(name) for name in _names(scene_dir)] == digests and next_process.hashed == 0


def test_a_fresh_file_is_not_remembered(scene_dir: Path, tmp_path: Path) -> None:
    """Changed less than SETTLED_NS before hashing began: it could change again within the same clock tick unseen."""
    name = _names(scene_dir)[0]
    changed = (scene_dir / name).stat().st_ctime_ns
    memo = DigestMemo(scene_dir, tmp_path / "memo.json", clock=lambda: changed + SETTLED_NS // 2)
    assert memo.digest(name) == memo.digest(name) and memo.hashed == 2
    memo.save()
    assert not (tmp_path / "memo.json").exists(), "nothing learnt, nothing written"


def test_a_copy_misses_the_memo_and_is_hashed_to_the_same_digests(scene_dir: Path, tmp_path: Path) -> None:
    memo_file = tmp_path / "memo.json"
    original = DigestMemo(scene_dir, memo_file, clock=lambda: _later(scene_dir))
    digests = [original.digest(name) for name in _names(scene_dir)]
    original.save()
    copy = copy_without_times(scene_dir, tmp_path / "copy")
    # Even handed the original's memo under the copy's name: other inodes, other times, so every file is hashed.
    memo_file.write_text(memo_file.read_text().replace(str(scene_dir), str(copy)))
    copied = DigestMemo(copy, memo_file, clock=lambda: _later(copy))
    assert [copied.digest(name) for name in _names(copy)] == digests and copied.hashed == len(digests)


@pytest.mark.parametrize("content", [b"{ not json", b'{"version": 99, "root": "/", "files": {}}', b"\xff\xfe", b""])
def test_an_unusable_memo_file_is_ignored_and_replaced(scene_dir: Path, tmp_path: Path, content: bytes) -> None:
    memo_file = tmp_path / "memo.json"
    memo_file.write_bytes(content)
    memo = DigestMemo(scene_dir, memo_file, clock=lambda: _later(scene_dir))
    assert memo.digest(_names(scene_dir)[0]) is not None and memo.hashed == 1
    memo.save()
    assert DigestMemo(scene_dir, memo_file).digest(_names(scene_dir)[0]) == memo.digest(_names(scene_dir)[0])


def test_a_memo_file_that_cannot_be_written_is_let_go(scene_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "cache").write_text("a file where the cache directory should be")
    memo = DigestMemo(scene_dir, tmp_path / "cache" / "memo.json", clock=lambda: _later(scene_dir))
    assert memo.digest(_names(scene_dir)[0]) is not None
    memo.save()  # no error: the memo only spares work


def test_the_process_memo_of_a_scene_lives_in_the_users_cache_directory(scene_dir: Path, cache_home: Path) -> None:
    memo = memo_for(scene_dir)
    assert memo is memo_for(scene_dir / "points" / "..") and memo.root == scene_dir.resolve()
    assert memo.memo_file is not None and memo.memo_file.parent == cache_home / "scene-agent" / "point-digests"
    assert memo.digest("points/missing.ply") is None
