"""Answering from the viewer: every check before any write; the first answer is the only one."""

from __future__ import annotations

import json

import pytest
from file_answers import cancel_selection, file_channel, submit_selection
from handoff_helpers import ROOMS
from in_threads import in_threads

from scene_agent.errors import InvalidSelectionError, SessionAnsweredError, SessionExpiredError, SessionNotFoundError, UsageError
from scene_agent.selection.selection_file import selection_path
from scene_agent.selection.session import SessionOutcome, now_utc


def nothing_written(store, session) -> bool:
    """No outcome recorded and no selection file for this session."""
    return (store.outcome(session.session_id) is None
            and not selection_path(store.settings.selection_dir, session.session_id).exists())


def test_submit_records_the_outcome_then_writes_the_file(store, make_session):
    session = make_session(multiple=True)
    answer = submit_selection(store, session.session_id, ["0-1-3", "0-1-1"])
    assert [item.itemCode for item in answer.selections] == ["0-1-3", "0-1-1"]
    outcome = store.outcome(session.session_id)
    assert (outcome.status, outcome.by, outcome.selections) == ("confirmed", "viewer", answer.selections)
    assert file_channel(store).status(session)[0] == "confirmed"
    content = json.loads(selection_path(store.settings.selection_dir, session.session_id).read_text())
    assert content["status"] == "confirmed"
    assert [s["itemCode"] for s in content["selections"]] == ["0-1-3", "0-1-1"]


def test_submit_a_room(store, make_session):
    session = make_session(ROOMS)
    answer = submit_selection(store, session.session_id, ["1-1"])
    assert answer.selections[0].model_dump() == {"itemCode": "1-1", "type": "room", "label": "bedroom"}


@pytest.mark.parametrize(("multiple", "codes"), [
    (False, []),
    (False, ["0-1-1", "0-1-2"]),
    (False, ["5-5-5"]),
    (True, ["0-1-1", "0-1-1"]),
    (True, ["0-1-1", "0-9"]),
])
def test_bad_picks_write_nothing(store, make_session, multiple, codes):
    session = make_session(multiple=multiple)
    with pytest.raises(InvalidSelectionError):
        submit_selection(store, session.session_id, codes)
    assert nothing_written(store, session)
    # The session is still open: a good answer is taken afterwards.
    submit_selection(store, session.session_id, ["0-1-4"])


def test_a_second_submit_is_already_answered(store, make_session):
    session = make_session()
    first = submit_selection(store, session.session_id, ["0-1-1"])
    with pytest.raises(SessionAnsweredError):
        submit_selection(store, session.session_id, ["0-1-2"])
    with pytest.raises(SessionAnsweredError):
        cancel_selection(store, session.session_id)
    assert store.outcome(session.session_id).selections == first.selections
    path = selection_path(store.settings.selection_dir, session.session_id)
    assert json.loads(path.read_text())["selections"][0]["itemCode"] == "0-1-1"


def test_submit_after_expiry_writes_nothing(store, make_session):
    session = make_session(age=5, timeout=1)
    with pytest.raises(SessionExpiredError):
        submit_selection(store, session.session_id, ["0-1-1"])
    with pytest.raises(SessionExpiredError):
        cancel_selection(store, session.session_id)
    assert nothing_written(store, session)


def test_submit_after_the_agent_gave_up(store, make_session):
    timed_out, stopped = make_session(), make_session()
    store.close(SessionOutcome(session_id=timed_out.session_id, status="expired", by="waiter", at=now_utc()))
    store.close(SessionOutcome(session_id=stopped.session_id, status="cancelled", by="caller", at=now_utc()))
    with pytest.raises(SessionExpiredError):
        submit_selection(store, timed_out.session_id, ["0-1-1"])
    with pytest.raises(SessionAnsweredError, match="by the agent"):
        submit_selection(store, stopped.session_id, ["0-1-1"])
    for session in (timed_out, stopped):
        assert not selection_path(store.settings.selection_dir, session.session_id).exists()


def test_unknown_and_malformed_sessions(store, make_session):
    make_session()
    with pytest.raises(SessionNotFoundError):
        submit_selection(store, "e" * 32, ["0-1-1"])
    with pytest.raises(UsageError):
        submit_selection(store, "../" * 10 + "ab", ["0-1-1"])
    with pytest.raises(UsageError):
        cancel_selection(store, "E" * 32)
    assert not store.settings.selection_dir.exists() or list(store.settings.selection_dir.iterdir()) == []


def test_cancel_writes_status_cancelled(store, make_session):
    session = make_session()
    answer = cancel_selection(store, session.session_id)
    assert (answer.status, answer.selections) == ("cancelled", [])
    outcome = store.outcome(session.session_id)
    assert (outcome.status, outcome.by) == ("cancelled", "viewer")
    assert file_channel(store).status(session)[0] == "cancelled"
    content = json.loads(selection_path(store.settings.selection_dir, session.session_id).read_text())
    assert (content["status"], content["selections"]) == ("cancelled", [])
    with pytest.raises(SessionAnsweredError, match="cancelled in the viewer"):
        submit_selection(store, session.session_id, ["0-1-1"])


def test_a_delivery_leaves_its_outcome_and_the_file_and_nothing_else(store, make_session):
    session = make_session()
    sid = session.session_id
    before = {p.name for p in store.directory.iterdir()}
    outcome_file = store.directory / f"{sid}.outcome.json"
    made_with_the_session = outcome_file.stat()
    assert made_with_the_session.st_size == 0 and store.outcome(sid) is None  # empty: no outcome yet
    submit_selection(store, sid, ["0-1-2"])
    # The outcome went into that file; no temp file is left behind; the lock file stays; it is journaled as well.
    assert outcome_file.stat().st_ino == made_with_the_session.st_ino and outcome_file.stat().st_size > 0
    assert {p.name for p in store.directory.iterdir()} - before == {f"{sid}.lock"}
    assert [p.name for p in store.settings.selection_dir.iterdir()] == [f"viewer_selection_{sid}.json"]
    assert store.outcome(sid).selections[0].itemCode == "0-1-2"
    assert [json.loads(r)["session_id"] for r in store.journal.records()] == [sid]


def test_deliveries_in_many_threads_each_record_one_outcome(store, make_session):
    sessions = [make_session() for _ in range(24)]

    def answer(k: int) -> None:
        for session in sessions[k::6]:
            submit_selection(store, session.session_id, ["0-1-1"])

    errors = in_threads(answer, 6)
    assert errors == []
    assert all(file_channel(store).status(session)[0] == "confirmed" for session in sessions)
    assert sorted(p.name for p in store.directory.iterdir() if p.name.endswith(".tmp")) == []


def test_a_session_without_its_empty_outcome_file_is_answered_all_the_same(store, make_session):
    session = make_session()
    sid = session.session_id
    (store.directory / f"{sid}.outcome.json").unlink()  # a session stored by an older version has none
    assert store.outcome(sid) is None
    submit_selection(store, sid, ["0-1-3"])
    assert store.outcome(sid).selections[0].itemCode == "0-1-3"
    with pytest.raises(SessionAnsweredError):
        submit_selection(store, sid, ["0-1-1"])
