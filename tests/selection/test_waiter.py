"""Waiting for one selection with real watchdog observers (and polling): answer, cancel, timeout, bad files."""

from __future__ import annotations

import itertools
import json

import pytest
from file_answers import cancel_selection, file_channel, submit_selection
from handoff_helpers import Ticks, Worker, start_wait

from scene_agent.errors import SessionAnsweredError, SessionExpiredError
from scene_agent.fileio import write_atomic
from scene_agent.selection.result import SelectionResult
from scene_agent.selection.selection_file import SelectionFile, selection_path, write_selection_file
from scene_agent.selection.session import SessionOutcome, now_utc


def file_of(store, session):
    return selection_path(store.settings.selection_dir, session.session_id)


@pytest.mark.parametrize(("multiple", "codes"), [(False, ["0-1-2"]), (True, ["0-1-3", "0-1-1", "0-1-4"])])
def test_confirmed(waiter, store, make_session, multiple, codes):
    session = make_session(multiple=multiple)
    pending, worker = start_wait(waiter, session, store)
    assert (pending.poll_interval is None) == (waiter.backend == "watchdog")
    submit_selection(store, session.session_id, codes)
    result: SelectionResult = worker.result()
    assert (result.status, result.codes, result.cancelled_by) == ("confirmed", codes, None)
    assert result.selections[0].label == session.labels[codes[0]]
    assert 0 <= result.waited_s < session.timeout
    assert not file_of(store, session).exists()  # consumed
    assert file_channel(store).status(session)[0] == "confirmed"
    assert waiter.waiting == 0


@pytest.mark.parametrize("when", ["before watch", "between watch and wait"])
def test_an_answer_already_there_is_taken(waiter, store, make_session, when):
    session = make_session()
    if when == "before watch":
        submit_selection(store, session.session_id, ["0-1-1"])
    pending = waiter.watch(session, store)
    if when == "between watch and wait":
        submit_selection(store, session.session_id, ["0-1-1"])
    result = Worker(pending.wait).result()
    assert (result.status, result.codes) == ("confirmed", ["0-1-1"])
    assert not file_of(store, session).exists()


def test_cancelled_in_the_viewer(waiter, store, make_session):
    session = make_session()
    _, worker = start_wait(waiter, session, store)
    cancel_selection(store, session.session_id)
    result = worker.result()
    assert (result.status, result.cancelled_by, result.selections) == ("cancelled", "viewer", [])
    assert not file_of(store, session).exists()


def test_cancel_from_another_thread(waiter, store, make_session):
    session = make_session()
    pending, worker = start_wait(waiter, session, store)
    Worker(pending.cancel).result()
    result = worker.result()
    assert (result.status, result.cancelled_by) == ("cancelled", "caller")
    outcome = store.outcome(session.session_id)
    assert (outcome.status, outcome.by) == ("cancelled", "caller")
    with pytest.raises(SessionAnsweredError, match="by the agent"):
        submit_selection(store, session.session_id, ["0-1-1"])
    assert not file_of(store, session).exists()


def test_cancel_before_wait(waiter, store, make_session):
    session = make_session()
    pending = waiter.watch(session, store)
    pending.cancel()
    result = Worker(pending.wait).result()
    assert (result.status, result.cancelled_by) == ("cancelled", "caller")
    assert waiter.waiting == 0


def test_timeout(waiter, store, make_session):
    session = make_session(timeout=0.5)
    result = Worker(lambda: waiter.watch(session, store).wait()).result()
    assert (result.status, result.cancelled_by, result.selections) == ("timeout", None, [])
    assert "0.5 s" in result.reason
    outcome = store.outcome(session.session_id)
    assert (outcome.status, outcome.by) == ("expired", "waiter")
    assert file_channel(store).status(session)[0] == "expired"
    with pytest.raises(SessionExpiredError):
        submit_selection(store, session.session_id, ["0-1-1"])
    assert not file_of(store, session).exists()


def test_progress_reports_decreasing_seconds_left(waiter, store, make_session):
    session = make_session(timeout=30)
    pending = waiter.watch(session, store)
    ticks = Ticks()
    worker = Worker(lambda: pending.wait(on_progress=ticks, progress_every=0.01))
    ticks.wait_for(4)
    pending.cancel()
    assert worker.result().status == "cancelled"
    values = list(ticks.values)
    assert all(0 < v <= session.timeout for v in values)
    assert all(later < earlier for earlier, later in itertools.pairwise(values))


GOOD = {"status": "confirmed", "selections": [{"itemCode": "0-1-1", "type": "object", "label": "chair"}],
        "submitted_at": "2030-01-01T00:00:00Z"}


@pytest.mark.parametrize("content", [
    pytest.param(lambda sid: json.dumps({"session_id": sid, **GOOD})[:40], id="half written"),
    pytest.param(lambda sid: json.dumps({"session_id": sid, **GOOD}), id="well-formed"),
    pytest.param(lambda sid: json.dumps({"session_id": sid, **GOOD, "selections": [
        {"itemCode": "4-4-4", "type": "object", "label": "x"}]}), id="not among the candidates"),
    pytest.param(lambda sid: json.dumps({"session_id": "f" * 32, **GOOD}), id="another session"),
    pytest.param(lambda sid: json.dumps({"session_id": sid, **GOOD, "status": "done"}), id="bad status"),
])
def test_a_file_nobody_recorded_is_not_an_answer(waiter, store, make_session, content, caplog):
    """Planted in a shared /tmp or left half written: ignored (and said so once); the real answer still arrives."""
    session = make_session()
    pending = waiter.watch(session, store)
    ticks = Ticks()
    worker = Worker(lambda: pending.wait(on_progress=ticks, progress_every=0.01))
    ticks.wait_for(1)
    write_atomic(file_of(store, session), content(session.session_id).encode())
    ticks.wait_for(ticks.count() + 3)  # at least two whole looks since the file appeared
    assert worker.alive() and store.outcome(session.session_id) is None
    assert sum("no answer was recorded" in r.getMessage() for r in caplog.records) == 1
    submit_selection(store, session.session_id, ["0-1-3"])  # the server's answer replaces the planted file
    result = worker.result()
    assert (result.status, result.codes) == ("confirmed", ["0-1-3"])
    assert not file_of(store, session).exists()


def record_viewer_answer(store, session, status: str, codes: list[str], write_file: bool) -> None:
    """What submit_selection / cancel_selection do, minus their open check: the outcome, then maybe the file."""
    now = now_utc()
    picked = [session.picked(code) for code in codes]
    store.close(SessionOutcome(session_id=session.session_id, status=status, by="viewer", selections=picked, at=now))
    if write_file:
        write_selection_file(store.settings.selection_dir, SelectionFile(
            session_id=session.session_id, status=status, selections=picked, submitted_at=now))


@pytest.mark.parametrize(("status", "codes"), [("confirmed", ["0-1-4"]), ("cancelled", [])])
@pytest.mark.parametrize("write_file", [False, True])
def test_the_viewers_answer_wins_at_the_deadline(waiter, store, make_session, status, codes, write_file):
    session = make_session(timeout=30, age=31)  # its time is already up when the wait starts
    record_viewer_answer(store, session, status, codes, write_file)
    result = Worker(lambda: waiter.watch(session, store).wait()).result()
    assert (result.status, result.codes) == (status, codes)
    assert result.cancelled_by == (None if status == "confirmed" else "viewer")
    assert store.outcome(session.session_id).by == "viewer"
    assert not file_of(store, session).exists()


def test_the_viewers_answer_wins_over_a_cancel(waiter, store, make_session):
    session = make_session()
    pending = waiter.watch(session, store)
    record_viewer_answer(store, session, "confirmed", ["0-1-2"], write_file=False)
    pending.cancel()
    result = Worker(pending.wait).result()
    assert (result.status, result.codes) == ("confirmed", ["0-1-2"])


