"""scene_agent/fileio.py: files written whole (staged, then placed), read with their version, directories flushed
together (group commit) — on real files in tmp_path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from in_threads import in_threads

from scene_agent import fileio
from scene_agent.fileio import (
    StagedFile,
    file_version,
    move_directory_aside,
    read_regular_file_version,
    sync_directory,
    write_atomic,
)


def names(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


@pytest.fixture(params=["unnamed", "temp file"])
def staging(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways of staging a file: unnamed (O_TMPFILE, where the file system has it) and a named temp file."""
    if request.param == "temp file":
        monkeypatch.setattr(fileio, "_UNNAMED_FILES", False)
    elif not fileio._UNNAMED_FILES:
        pytest.skip("no unnamed files here")
    return str(request.param)


def test_a_staged_file_is_seen_only_whole_under_its_name(tmp_path: Path, staging: str) -> None:
    path = tmp_path / "note.json"
    staged = StagedFile(path, b'{"a": 1}')
    assert not path.exists()
    assert names(tmp_path) == ([] if staging == "unnamed" else [os.path.basename(staged.temp or "")])
    staged.flush()
    staged.place()
    assert path.read_bytes() == b'{"a": 1}' and names(tmp_path) == ["note.json"]
    staged.discard()  # after place: nothing to do
    assert names(tmp_path) == ["note.json"]
    with pytest.raises(ValueError, match="placed or discarded"):
        staged.flush()


def test_place_replaces_a_file_already_there(tmp_path: Path, staging: str) -> None:
    path = tmp_path / "view.json"
    path.write_bytes(b"old")
    StagedFile(path, b"new", mode=0o644).place()
    assert path.read_bytes() == b"new" and names(tmp_path) == ["view.json"] and (os.stat(path).st_mode & 0o777) == 0o644


def test_a_discarded_file_leaves_nothing(tmp_path: Path, staging: str) -> None:
    staged = StagedFile(tmp_path / "note.json", b"x" * 10_000)
    staged.discard()
    staged.discard()
    assert names(tmp_path) == []


def test_an_exclusive_place_never_replaces(tmp_path: Path, staging: str) -> None:
    path = tmp_path / "outcome.json"
    path.write_bytes(b"first")
    with pytest.raises(FileExistsError):
        StagedFile(path, b"second").place(exclusive=True)
    assert path.read_bytes() == b"first" and names(tmp_path) == ["outcome.json"]


def test_place_replaces_a_planted_symlink_rather_than_writing_through_it(tmp_path: Path, staging: str) -> None:
    target = tmp_path / "elsewhere"
    target.write_bytes(b"keep")
    path = tmp_path / "note.json"
    path.symlink_to(target)
    StagedFile(path, b"mine").place()
    assert not path.is_symlink() and path.read_bytes() == b"mine" and target.read_bytes() == b"keep"


def test_a_directory_standing_at_a_files_name_is_moved_out_of_the_way_with_what_it_holds(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "viewer_selection_abc.json"
    path.mkdir()
    (path / "inside").write_bytes(b"kept")
    assert move_directory_aside(path)
    [aside] = [p for p in tmp_path.iterdir() if p.name.endswith(".in-the-way")]
    assert aside.name.startswith(".viewer_selection_abc.json.") and (aside / "inside").read_bytes() == b"kept"
    assert f"a directory stood where the file {path} goes; it was moved to {aside}" in caplog.text
    path.write_bytes(b"mine")
    assert not move_directory_aside(path) and not move_directory_aside(tmp_path / "none")  # files, and nothing: left
    assert path.read_bytes() == b"mine"


def test_write_atomic_durable_with_a_mode(tmp_path: Path) -> None:
    path = tmp_path / "attributes.json"
    write_atomic(path, b"{}", mode=0o644, durable=True)
    assert path.read_bytes() == b"{}" and (os.stat(path).st_mode & 0o777) == 0o644 and names(tmp_path) == ["attributes.json"]


def test_the_version_changes_when_a_file_is_replaced_whole(tmp_path: Path) -> None:
    path = tmp_path / "session.json"
    assert file_version(path) is None
    write_atomic(path, b"one")
    read = read_regular_file_version(path, 100)
    assert read is not None and read[0] == b"one" and read[1] == file_version(path)
    write_atomic(path, b"one")  # the same bytes, but a new file
    assert file_version(path) != read[1]
    path.unlink()
    path.mkdir()
    assert file_version(path) is None  # not a regular file


def test_reads_stop_at_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "big"
    path.write_bytes(b"x" * 10_000)
    read = read_regular_file_version(path, 100)
    assert read is not None and len(read[0]) == 101  # one byte past the limit tells the caller it is too large
    read = read_regular_file_version(path, 20_000)
    assert read is not None and len(read[0]) == 10_000


def test_threads_flushing_one_directory_all_return_once_flushed(tmp_path: Path) -> None:
    def deliver(k: int) -> None:
        for i in range(20):
            StagedFile(tmp_path / f"{k}-{i}.json", b"{}").place()
            sync_directory(tmp_path)

    errors = in_threads(deliver, 8)
    assert errors == [] and len(names(tmp_path)) == 160


def test_a_failed_flush_is_reported_and_a_later_one_is_not_spoiled_by_it(tmp_path: Path) -> None:
    directory = tmp_path / "gone"
    with pytest.raises(FileNotFoundError):
        sync_directory(directory)
    directory.mkdir()
    sync_directory(directory)  # asked after the failure: a fresh fsync, which succeeds
