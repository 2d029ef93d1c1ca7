"""scene_agent/selection/deliverer.py: submits and cancels recorded by a child process, as `scene-agent serve` does —
a real child (`python -m scene_agent.selection.deliverer`), real files, a real waiter."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from in_threads import in_threads

from scene_agent.config import Settings
from scene_agent.errors import (
    InvalidSelectionError,
    NobodyWaitingError,
    SelectionNotDeliveredError,
    SessionAnsweredError,
    SessionNotFoundError,
)
from scene_agent.selection.file_channel import FileChannel


@pytest.fixture
def channel(settings: Settings) -> Iterator[FileChannel]:
    channel = FileChannel(settings)
    channel.deliver_in_child()
    yield channel
    channel.close()


def test_a_pick_recorded_by_the_child_reaches_the_waiter(channel, waiter, store, make_session):
    session = make_session()
    pending = waiter.watch(session, store)
    answer = channel.submit(session.session_id, ["0-1-2"])
    assert (answer.session_id, answer.status, [p.itemCode for p in answer.selections]) == (
        session.session_id, "confirmed", ["0-1-2"])
    result = pending.wait()
    assert (result.status, result.codes) == ("confirmed", ["0-1-2"])
    assert [r for r in store.journal.records() if session.session_id.encode() in r]  # journaled by the child


def test_errors_come_back_as_the_same_classes(channel, make_session):
    session = make_session()
    with pytest.raises(SessionNotFoundError, match="no selection session"):
        channel.submit("0" * 32, ["0-1-1"])
    with pytest.raises(InvalidSelectionError):
        channel.submit(session.session_id, ["9-9-9"])
    nobody = make_session(waiting=False)
    with pytest.raises(NobodyWaitingError, match="nobody is waiting"):
        channel.submit(nobody.session_id, ["0-1-1"])
    assert channel.cancel(session.session_id, words="none of them").status == "cancelled"
    with pytest.raises(SessionAnsweredError):
        channel.submit(session.session_id, ["0-1-1"])


def test_many_threads_share_the_child_and_each_gets_its_own_answer(channel, make_session):
    sessions = [make_session() for _ in range(24)]
    codes = ["0-1-1", "0-1-2", "0-1-3"]
    answers: dict[str, list[str]] = {}

    def pick(k: int) -> None:
        for i, session in enumerate(sessions[k::6]):
            answer = channel.submit(session.session_id, [codes[(k + i) % 3]])
            answers[session.session_id] = [answer.session_id, answer.selections[0].itemCode, codes[(k + i) % 3]]

    assert in_threads(pick, 6) == []
    assert len(answers) == 24 and all(sid == got and code == want for sid, (got, code, want) in answers.items())


def test_a_child_that_dies_mid_delivery_is_a_503_and_the_next_request_starts_another(settings, make_session, store):
    channel = FileChannel(dataclasses.replace(settings, crash_at="after_outcome"))
    channel.deliver_in_child()
    try:
        session = make_session()
        with pytest.raises(SelectionNotDeliveredError, match="send it again"):
            channel.submit(session.session_id, ["0-1-1"])
        assert store.outcome(session.session_id).selections[0].itemCode == "0-1-1"  # it had got that far
        with pytest.raises(SessionAnsweredError):  # a new child, which refuses a second answer
            channel.submit(session.session_id, ["0-1-2"])
    finally:
        channel.close()


def test_closing_the_channel_ends_the_child(settings, make_session):
    channel = FileChannel(settings)
    channel.deliver_in_child()
    child = channel._deliverer._child  # type: ignore[union-attr]
    assert child is not None and child.poll() is None
    channel.close()
    assert child.returncode == 0  # it ended by itself once its stdin closed
    channel.close()  # idempotent
    session = make_session()
    assert channel.submit(session.session_id, ["0-1-1"]).status == "confirmed"  # in this process again
