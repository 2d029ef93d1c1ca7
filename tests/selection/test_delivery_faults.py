"""Delivering a pick when the selection file cannot be written or removed, and when answers race.

A real API server on a loopback port, a real waiter (both backends) and real files in tmp_path. A pick is
acknowledged only once the waiting side will see it; a failed delivery records nothing and can be retried.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from handoff_helpers import Ticks, Worker
from http_client import Reply, call

from api_server.app import create_app
from api_server.serve import BackgroundServer
from scene_agent.config import Settings
from scene_agent.selection.selection_file import selection_path
from scene_agent.selection.session import SessionOutcome, now_utc


@pytest.fixture
def server(settings: Settings, small_scene_path: Path) -> Iterator[BackgroundServer]:
    with BackgroundServer(create_app({"SCENE_PATH": str(small_scene_path), "SETTINGS": settings})) as running:
        yield running


def submit(server: BackgroundServer, session_id: str, code: str) -> Reply:
    return call("POST", f"{server.url}/api/submit-selection", {"session_id": session_id, "selections": [{"itemCode": code}]})


def waiting(waiter, session, store) -> tuple[Worker, Ticks]:
    """A wait in a thread that reports progress often, so a test can see it go on."""
    pending = waiter.watch(session, store)
    ticks = Ticks()
    worker = Worker(lambda: pending.wait(on_progress=ticks, progress_every=0.01))
    ticks.wait_for(1)
    return worker, ticks


def nothing_recorded(store, session_id: str) -> bool:
    """No outcome, no selection file (a directory in its place is the test's), nothing journaled."""
    path = selection_path(store.settings.selection_dir, session_id)
    return (store.outcome(session_id) is None and not path.is_file()
            and not any(session_id.encode() in r for r in store.journal.records()))


def test_a_directory_at_the_file_name_is_moved_aside_and_the_pick_delivered(server, waiter, store, make_session):
    session = make_session()
    worker, _ = waiting(waiter, session, store)
    obstacle = selection_path(store.settings.selection_dir, session.session_id)
    (obstacle / "inside").mkdir(parents=True)  # planted, or left by a tool: it blocked the session until removed
    assert submit(server, session.session_id, "0-1-2").status == 200
    result = worker.result()
    assert (result.status, result.codes) == ("confirmed", ["0-1-2"])
    [aside] = store.settings.selection_dir.glob(f".{obstacle.name}.*.in-the-way")
    assert (aside / "inside").is_dir()  # kept, with what it held


def test_a_selection_dir_that_cannot_be_written_is_a_503_and_the_retry_delivers(server, waiter, store, make_session,
                                                                                 settings):
    session = make_session()
    worker, _ = waiting(waiter, session, store)
    directory = settings.selection_dir
    directory.rename(directory.with_name("moved"))
    directory.write_text("not a directory\n")  # every write into it fails, even as root
    try:
        reply = submit(server, session.session_id, "0-1-1")
        assert (reply.status, reply.json()["error"]) == (503, "selection_not_delivered")
        assert nothing_recorded(store, session.session_id) and worker.alive()
        again = submit(server, session.session_id, "0-1-1")
        assert (again.status, again.json()["error"]) == (503, "selection_not_delivered")  # not 409: nothing was recorded
    finally:
        directory.unlink()
        directory.with_name("moved").rename(directory)
    assert submit(server, session.session_id, "0-1-1").status == 200
    assert worker.result().codes == ["0-1-1"]


def test_the_waiter_reports_a_file_it_cannot_remove_and_still_answers(waiter, store, make_session, caplog):
    session = make_session()
    squatter = selection_path(store.settings.selection_dir, session.session_id)
    (squatter / "inside").mkdir(parents=True)
    worker, ticks = waiting(waiter, session, store)
    ticks.wait_for(ticks.count() + 2)
    assert worker.alive()  # a directory is not an answer
    # The outcome recorded as a delivery completed after a crash would record it (the file could not be written).
    store.close(SessionOutcome(session_id=session.session_id, status="confirmed", by="viewer",
                               selections=[session.picked("0-1-3")], at=now_utc()))
    squatter.touch()  # an event for the observer; polling looks anyway
    result = worker.result()
    assert (result.status, result.codes) == ("confirmed", ["0-1-3"])
    assert any("could not remove" in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)


def test_racing_answers_deliver_exactly_one(server, waiter, store, make_session):
    session = make_session()
    worker, _ = waiting(waiter, session, store)
    with ThreadPoolExecutor(max_workers=8) as pool:
        replies = list(pool.map(lambda code: submit(server, session.session_id, code), ["0-1-1", "0-1-2", "0-1-3"] * 4))
    won = [code for code, reply in zip(["0-1-1", "0-1-2", "0-1-3"] * 4, replies, strict=True) if reply.status == 200]
    assert len(won) == 1
    assert sorted(reply.status for reply in replies) == [200] + [409] * 11
    result = worker.result()
    assert result.codes == won
    assert store.outcome(session.session_id).selections[0].itemCode == won[0]


def test_a_journal_that_cannot_be_written_is_a_503_and_the_retry_delivers(server, waiter, store, make_session, settings):
    session = make_session()
    worker, ticks = waiting(waiter, session, store)
    journal = settings.state_dir / "outcomes"
    journal.write_text("not a directory\n")  # the outcome and the selection file can be written, the journal not
    try:
        reply = submit(server, session.session_id, "0-1-2")
        assert (reply.status, reply.json()["error"]) == (503, "selection_not_delivered")
        assert nothing_recorded(store, session.session_id)  # what was written before the journal failed is gone again
        ticks.wait_for(ticks.count() + 2)
        assert worker.alive()
    finally:
        journal.unlink()
    assert submit(server, session.session_id, "0-1-2").status == 200
    assert worker.result().codes == ["0-1-2"]
