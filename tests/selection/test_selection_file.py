"""The selection file: written whole with mode 0600, read only when complete, checked against its session."""

from __future__ import annotations

import json
import os
import stat

import pytest

from scene_agent.selection.selection_file import (
    MAX_FILE_BYTES,
    Mismatch,
    SelectionFile,
    Unreadable,
    read_selection_file,
    selection_path,
    write_selection_file,
)
from scene_agent.selection.session import now_utc


def answer_for(session, codes, status="confirmed") -> SelectionFile:
    return SelectionFile(session_id=session.session_id, status=status,
                         selections=[session.picked(c) for c in codes], submitted_at=now_utc())


def raw_answer(session, codes, **changes) -> dict:
    return {**json.loads(answer_for(session, codes).model_dump_json()), **changes}


def test_written_atomically_private_and_per_spec(settings, make_session):
    session = make_session(multiple=True)
    answer = answer_for(session, ["0-1-2", "0-1-4"])
    path = write_selection_file(settings.selection_dir, answer)
    assert path == settings.selection_dir / f"viewer_selection_{session.session_id}.json"
    assert stat.S_IMODE(os.lstat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.lstat(settings.selection_dir).st_mode) == 0o700
    assert [p.name for p in settings.selection_dir.iterdir()] == [path.name]  # no temp file left behind
    content = json.loads(path.read_text())
    assert set(content) == {"session_id", "status", "selections", "submitted_at"}
    assert content["session_id"] == session.session_id
    assert content["status"] == "confirmed"
    assert content["selections"] == [{"itemCode": "0-1-2", "type": "object", "label": "chair"},
                                     {"itemCode": "0-1-4", "type": "object", "label": "dining table"}]
    assert read_selection_file(path, session) == answer


def test_a_rewrite_replaces_the_file(settings, make_session):
    session = make_session()
    write_selection_file(settings.selection_dir, answer_for(session, ["0-1-1"]))
    path = write_selection_file(settings.selection_dir, answer_for(session, [], status="cancelled"))
    assert read_selection_file(path, session).status == "cancelled"


def test_a_planted_symlink_is_replaced_not_followed(settings, make_session, tmp_path):
    session = make_session()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    settings.selection_dir.mkdir(mode=0o700)
    target = selection_path(settings.selection_dir, session.session_id)
    target.symlink_to(victim)
    write_selection_file(settings.selection_dir, answer_for(session, ["0-1-1"]))
    assert victim.read_text() == "precious"
    assert not target.is_symlink()
    assert stat.S_IMODE(os.lstat(target).st_mode) == 0o600
    assert read_selection_file(target, session).selections[0].itemCode == "0-1-1"


def test_no_file_yet_is_none(settings, make_session):
    session = make_session()
    assert read_selection_file(selection_path(settings.selection_dir, session.session_id), session) is None


def test_a_symlinked_selection_file_is_not_followed(settings, make_session, tmp_path):
    session = make_session()
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(answer_for(session, ["0-1-1"]).model_dump_json())
    settings.selection_dir.mkdir(mode=0o700)
    path = selection_path(settings.selection_dir, session.session_id)
    path.symlink_to(elsewhere)
    with pytest.raises(Unreadable, match="symbolic link"):
        read_selection_file(path, session)


def test_a_directory_in_its_place_is_unreadable(settings, make_session):
    session = make_session()
    path = selection_path(settings.selection_dir, session.session_id)
    path.mkdir(parents=True)
    with pytest.raises(Unreadable):
        read_selection_file(path, session)


@pytest.mark.parametrize("cut", [0, 1, 10, 0.5, -1])
def test_partial_json_is_unreadable(settings, make_session, cut):
    session = make_session()
    text = answer_for(session, ["0-1-1"]).model_dump_json()
    settings.selection_dir.mkdir(mode=0o700)
    path = selection_path(settings.selection_dir, session.session_id)
    path.write_text(text[: int(len(text) * cut) if isinstance(cut, float) else cut])
    with pytest.raises(Unreadable, match="not complete JSON"):
        read_selection_file(path, session)


def test_non_utf8_bytes_are_unreadable(settings, make_session):
    session = make_session()
    settings.selection_dir.mkdir(mode=0o700)
    path = selection_path(settings.selection_dir, session.session_id)
    path.write_bytes(b"\xff\xfe{")
    with pytest.raises(Unreadable):
        read_selection_file(path, session)


@pytest.mark.parametrize(("codes", "changes", "multiple", "message"), [
    (["0-1-1"], {"session_id": "d" * 32}, False, "answers session"),
    (["0-1-1"], {"session_id": "not-an-id"}, False, "session_id"),
    (["0-1-1"], {"status": "maybe"}, False, "status"),
    (["0-1-1"], {"extra": 1}, False, "extra"),
    (["0-1-1"], {"selections": [{"itemCode": "9-9-9", "type": "object", "label": "x"}]}, False, "not among"),
    (["0-1-1", "0-1-2"], {}, False, "takes one pick"),
    ([], {}, True, "at least one"),
    (["0-1-1"], {"selections": [{"itemCode": "0-1-1"}]}, False, "selections.0"),
])
def test_complete_but_wrong_files_are_mismatches(settings, make_session, codes, changes, multiple, message):
    session = make_session(multiple=multiple)
    settings.selection_dir.mkdir(mode=0o700)
    path = selection_path(settings.selection_dir, session.session_id)
    raw = raw_answer(session, codes, **changes)
    path.write_text(json.dumps(raw))
    with pytest.raises(Mismatch, match=message):
        read_selection_file(path, session)


def test_json_that_is_not_an_object_is_a_mismatch(settings, make_session):
    session = make_session()
    settings.selection_dir.mkdir(mode=0o700)
    path = selection_path(settings.selection_dir, session.session_id)
    path.write_text("[1, 2, 3]")
    with pytest.raises(Mismatch, match="top level"):
        read_selection_file(path, session)


def test_an_oversized_file_is_a_mismatch(settings, make_session):
    session = make_session()
    settings.selection_dir.mkdir(mode=0o700)
    path = selection_path(settings.selection_dir, session.session_id)
    path.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    with pytest.raises(Mismatch, match="larger than"):
        read_selection_file(path, session)


def test_a_cancel_file_needs_no_picks(settings, make_session):
    session = make_session()
    path = write_selection_file(settings.selection_dir, answer_for(session, [], status="cancelled"))
    assert read_selection_file(path, session).selections == []
