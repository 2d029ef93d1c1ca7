"""scene_agent/selection/files/journal.py: acknowledged outcomes in an append-only journal, flushed for many at once, and
written back at server start when a crash of the machine lost their files — on real files in tmp_path."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from file_answers import file_channel, submit_selection
from in_threads import in_threads

from api_server.app import create_app
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files import journal as journal_module
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.files.journal import SEPARATOR, OutcomeJournal, frame, unframe
from scene_agent.selection.limits import MAX_TIMEOUT_S
from scene_agent.selection.session import RETAIN_AFTER_EXPIRY


def test_records_come_back_whole_and_in_order(tmp_path: Path) -> None:
    journal = OutcomeJournal(tmp_path / "outcomes")
    for k in range(5):
        journal.append(b'{"k": %d}' % k)
    assert list(journal.records()) == [b'{"k": %d}' % k for k in range(5)]
    assert oct(os.stat(tmp_path / "outcomes").st_mode & 0o777) == "0o700"
    (segment,) = journal.segments()
    assert oct(segment.stat().st_mode & 0o777) == "0o600"


def test_a_torn_record_is_skipped_and_the_next_still_read(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    journal = OutcomeJournal(tmp_path / "outcomes")
    journal.append(b'{"k": 1}')
    (segment,) = journal.segments()
    with open(segment, "ab") as f:
        f.write(frame(b'{"k": 2}')[:9])  # a crash (or a full disk) cut this one short
    journal.append(b'{"k": 3}')
    with open(segment, "ab") as f:
        f.write(frame(b'{"k": 4}').replace(b"4", b"5"))  # whole, but not what was written: its checksum fails
    assert list(journal.records()) == [b'{"k": 1}', b'{"k": 3}']
    assert "skipped 2 torn record(s)" in caplog.text


def test_frame_and_unframe() -> None:
    line = frame(b'{"a": "\\u001e"}')
    assert line.startswith(SEPARATOR) and line.endswith(b"\n") and line.count(SEPARATOR) == 1
    assert unframe(line[1:]) == b'{"a": "\\u001e"}'
    assert unframe(line[1:-1]) is None and unframe(b"") is None and unframe(b"zzzzzzzz {}\n") is None


def test_appends_from_many_threads_all_land_and_share_flushes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    flushes = []
    release = threading.Event()
    real = journal_module.flush_to_disk

    def slow_flush(fd: int, *, data_only: bool = False) -> None:
        flushes.append(1)
        release.wait(10)  # the first flush waits until every append has been written: the rest share the next one
        real(fd, data_only=data_only)

    monkeypatch.setattr(journal_module, "flush_to_disk", slow_flush)
    journal = OutcomeJournal(tmp_path / "outcomes")
    appended = []

    def append(k: int) -> None:
        journal.append(b'{"k": %d}' % k)
        appended.append(k)

    threads = [threading.Thread(target=append, args=(k,)) for k in range(16)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 10
    while _lines(journal) < 16 and time.monotonic() < deadline:
        threading.Event().wait(0.01)
    assert appended == []  # nobody is told "on the disk" before a flush that covers it has returned
    release.set()
    for t in threads:
        t.join(10)
    assert sorted(appended) == list(range(16))
    assert sorted(journal.records()) == sorted(b'{"k": %d}' % k for k in range(16))
    assert len(flushes) == 2  # the one that was running, then one for everyone who asked meanwhile


def _lines(journal: OutcomeJournal) -> int:
    return sum(p.read_bytes().count(SEPARATOR) for p in journal.segments())


def test_a_failed_flush_fails_every_append_it_covered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(fd: int, *, data_only: bool = False) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(journal_module, "flush_to_disk", broken)
    journal = OutcomeJournal(tmp_path / "outcomes")
    errors = in_threads(lambda k: journal.append(b"{}"), 8)
    assert len(errors) == 8 and all(isinstance(e, OSError) and e.errno == 5 for e in errors)


def test_segments_roll_over_by_size_and_old_ones_are_swept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journal_module, "SEGMENT_BYTES", 100)
    journal = OutcomeJournal(tmp_path / "outcomes")
    for k in range(6):
        journal.append(b'{"k": %d, "pad": "%s"}' % (k, b"x" * 40))
    segments = journal.segments()
    assert len(segments) == 3
    first = unframe(segments[0].read_bytes().split(SEPARATOR)[1])
    assert first is not None and first.startswith(b'{"k": 0')
    old = time.time() - 7200
    for p in segments[:2]:
        os.utime(p, (old, old))
    assert journal.sweep(written_before=time.time() - 3600) == [p.name for p in segments[:2]]
    assert journal.segments() == segments[2:]
    os.utime(segments[2], (old, old))
    assert journal.sweep(written_before=time.time() - 3600) == []  # the one this process appends to stays


def test_a_store_sweep_drops_segments_only_once_their_sessions_are_swept(store, make_session) -> None:
    session = make_session()
    submit_selection(store, session.session_id, ["0-1-1"])
    (segment,) = store.journal.segments()
    store.journal.close()  # a segment of an earlier process, say
    keep = time.time() - RETAIN_AFTER_EXPIRY.total_seconds() - MAX_TIMEOUT_S + 120
    os.utime(segment, (keep, keep))
    store.sweep()
    assert segment.exists()  # a session answered then may still be kept
    gone = keep - 240
    os.utime(segment, (gone, gone))
    store.sweep()
    assert not segment.exists()


def test_an_outcome_a_machine_crash_lost_is_written_back_at_server_start(settings, store, make_session,
                                                                           small_scene_path: Path) -> None:
    lost, torn, intact = make_session(), make_session(), make_session()
    for session, code in ((lost, "0-1-1"), (torn, "0-1-2"), (intact, "0-1-3")):
        submit_selection(store, session.session_id, [code])
    outcome = store.directory / f"{lost.session_id}.outcome.json"
    outcome.unlink()  # its name never reached the disk
    broken = store.directory / f"{torn.session_id}.outcome.json"
    broken.write_bytes(b"")  # its name did, its data did not
    before = (store.directory / f"{intact.session_id}.outcome.json").stat().st_ino
    create_app({"SCENE_PATH": str(small_scene_path), "SETTINGS": settings})
    assert store.outcome(lost.session_id).selections[0].itemCode == "0-1-1"
    assert store.outcome(torn.session_id).selections[0].itemCode == "0-1-2"
    assert (store.directory / f"{intact.session_id}.outcome.json").stat().st_ino == before  # left as it was
    assert file_channel(store).status(lost)[0] == "confirmed"


def test_a_journaled_outcome_of_a_swept_session_is_not_brought_back(settings, store, make_session) -> None:
    session = make_session()
    submit_selection(store, session.session_id, ["0-1-1"])
    for path in store.directory.glob(f"{session.session_id}*"):
        path.unlink()
    assert SelectionChannel(FileBackend(settings)).recover() == []
    assert not (store.directory / f"{session.session_id}.outcome.json").exists()
