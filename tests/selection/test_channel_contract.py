"""SelectionChannel's rules over every backend: files, Redis (a redis-server of the test's own) and MemoryBackend,
which exists only in the tests (memory_backend.py) to show that the backend interface is all a channel needs.

Each test states one rule of the hand-off (channel.py) and checks it the same way on each backend: real files and
a real watchdog observer, a real Redis, real threads.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from handoff_helpers import OBJECTS, Worker, opened, view_of

from scene_agent.errors import (
    InvalidSelectionError,
    NobodyWaitingError,
    SessionAnsweredError,
    SessionExpiredError,
    SessionNotFoundError,
    UnprocessableError,
    UsageError,
)
from scene_agent.selection.session import SelectionSession
from scene_agent.selection.views import ViewManifest

CHANNELS = ("file", "redis", "memory")




def test_an_opened_session_is_pending_with_its_view_and_nobody_waiting_yet(channel):
    session = opened(channel)
    assert channel.get(session.session_id) == session
    assert channel.status(session) == ("pending", None)
    assert channel.someone_waits(session.session_id) is False
    assert channel.read_view(session.view or "") is not None
    with pytest.raises(SessionAnsweredError, match="already exists"):
        channel.open(session, view_of(session))


def test_unknown_and_malformed_ids(channel):
    with pytest.raises(SessionNotFoundError, match="no selection session"):
        channel.get("0" * 32)
    with pytest.raises(SessionNotFoundError):
        channel.submit("0" * 32, ["0-1-1"])
    with pytest.raises(UsageError):
        channel.get("../sessions/" + "0" * 20)
    with pytest.raises(UsageError):
        channel.outcome("E" * 32)


def test_a_pick_reaches_the_waiter_once(channel):
    session = opened(channel)
    pending = channel.watch(session)
    assert channel.someone_waits(session.session_id)
    answer = channel.submit(session.session_id, ["0-1-2"])
    assert (answer.status, [p.itemCode for p in answer.selections]) == ("confirmed", ["0-1-2"])
    result = Worker(pending.wait).result()
    assert (result.status, result.codes) == ("confirmed", ["0-1-2"])
    assert channel.status(session)[0] == "confirmed"
    with pytest.raises(SessionAnsweredError, match="confirmed in the viewer"):
        channel.submit(session.session_id, ["0-1-1"])
    with pytest.raises(SessionAnsweredError, match="confirmed in the viewer"):
        channel.cancel(session.session_id)


def test_picks_that_do_not_fit_are_refused_and_nothing_is_written(channel):
    session = opened(channel)
    pending = channel.watch(session)
    for codes in (["9-9-9"], [], ["0-1-1", "0-1-2"]):
        with pytest.raises(InvalidSelectionError):
            channel.submit(session.session_id, codes)
    assert channel.outcome(session.session_id) is None
    channel.cancel(session.session_id, by="words", words="none of them")
    result = Worker(pending.wait).result()
    assert (result.status, result.cancelled_by) == ("cancelled", "words")


def test_nobody_waiting_takes_no_answer_and_no_more_time(channel):
    session = opened(channel)
    with pytest.raises(NobodyWaitingError, match="nobody is waiting"):
        channel.submit(session.session_id, ["0-1-1"])
    with pytest.raises(NobodyWaitingError, match="nothing was recorded"):
        channel.extend(session.session_id, 30)
    assert channel.outcome(session.session_id) is None
    pending = channel.watch(session)
    pending.release()  # the agent stopped without an answer: the session stays open, and takes none
    assert channel.status(session) == ("pending", None)
    with pytest.raises(NobodyWaitingError):
        channel.cancel(session.session_id)


def test_an_expired_session_is_410_and_keeps_no_answer(channel):
    session = opened(channel, timeout=30, age=31)
    pending = channel.watch(session)
    with pytest.raises(SessionExpiredError, match="expired at"):
        channel.submit(session.session_id, ["0-1-1"])
    result = Worker(pending.wait).result()  # the deadline has passed: the wait closes it
    assert result.status == "timeout"
    assert channel.status(session)[0] == "expired"


def test_more_time_moves_the_deadline_the_waiter_reads(channel):
    session = opened(channel)
    pending = channel.watch(session)
    longer = channel.extend(session.session_id, 60)
    assert longer.expires_at == session.expires_at + timedelta(seconds=60)
    assert channel.get(session.session_id).expires_at == longer.expires_at
    with pytest.raises(UnprocessableError):
        channel.extend(session.session_id, -5)
    assert pending.seconds_left <= 30  # the wait learns of it when it looks (pending.py)
    channel.submit(session.session_id, ["0-1-3"])
    assert Worker(pending.wait).result().codes == ["0-1-3"]


def test_the_agents_cancel_ends_the_session(channel):
    session = opened(channel)
    pending = channel.watch(session)
    pending.cancel()
    result = Worker(pending.wait).result()
    assert (result.status, result.cancelled_by) == ("cancelled", "caller")
    with pytest.raises(SessionAnsweredError, match="by the agent"):
        channel.submit(session.session_id, ["0-1-1"])


def test_racing_answers_have_exactly_one_winner(channel):
    session = opened(channel)
    pending = channel.watch(session)
    workers = [Worker(lambda code=code: channel.submit(session.session_id, [code])) for code in
               ("0-1-1", "0-1-2", "0-1-3", "0-1-4") * 2]
    outcomes = []
    for worker in workers:
        worker.thread.join(10)
        outcomes.append(worker.error or worker.value)
    winners = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(winners) == 1
    assert all(isinstance(o, SessionAnsweredError) for o in outcomes if o not in winners)
    assert Worker(pending.wait).result().codes == [winners[0].selections[0].itemCode]


def test_a_view_only_manifest_is_stored_and_names_are_checked(channel):
    view = ViewManifest(view="view-" + "a" * 16, scene_id="test", scene_name="test", scene_url="/api/scenes/test",
                        mode="objects", selection=False, session_id=None, prompt=None, focus=list(OBJECTS), items=[],
                        created_at=SelectionSession.create(list(OBJECTS), OBJECTS, "x", scene_id="test").created_at)
    channel.write_view(view)
    assert ViewManifest.model_validate_json(channel.read_view(view.view) or b"") == view
    assert channel.read_view("../../etc/passwd") is None
    assert channel.read_view("view-" + "b" * 16) is None


def test_settle_returns_once_every_wait_is_taken_up(channel):
    sessions = [opened(channel) for _ in range(20)]
    pendings = [channel.watch(session) for session in sessions]
    try:
        assert channel.settle(10.0) is True
        assert all(channel.someone_waits(session.session_id) for session in sessions)
    finally:
        for pending in pendings:
            pending.cancel()
            pending.wait()
